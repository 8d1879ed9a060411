"""Status normalisation: a status as written -> a :class:`Status`.

The value is folded first (markdown links reduced to their text, emoji, bold, code and quote
decoration removed, case folded), then its leading words are matched against the synonym
vocabulary; the longest matching entry wins, so "Partly superseded" (accepted) beats
"superseded", and trailing notes such as "(PR #12)" or "by @alice" are ignored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Mapping
from functools import lru_cache

from adrguard.core.model import Status

_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_REF = re.compile(r"!?\[([^\]]*)\]\[[^\]]*\]")
_DECORATION = re.compile(r"[*_`~>\"“”‘’«»]+")
_SPACES = re.compile(r"\s+")
_LABEL = re.compile(r"^(?:status|statut|estado|stand|state|状态)\s*[:：\-–]\s*", re.I)
_WORD_END = re.compile(r"\w")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_NAMED_DATE = re.compile(
    r"\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
    r"(?:\s+(\d{1,2})(?:st|nd|rd|th)?,?)?\s+(\d{4})\b",
    re.I,
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}

_Vocab = dict[str, tuple[tuple[str, Status], ...]]  # first character -> longest first


def _strip_symbols(text: str) -> str:
    """Drop leading and trailing characters that are not letters or digits (emoji, ':' ...)."""
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start])[0] not in "LN":
        start += 1
    while end > start and unicodedata.category(text[end - 1])[0] not in "LN":
        end -= 1
    return text[start:end]


@lru_cache(maxsize=8192)
def fold(raw: str) -> str:
    """The comparable form of a status value: no markup, no emoji, single spaces, case folded."""
    text = _MD_LINK.sub(r"\1", raw)
    text = _MD_REF.sub(r"\1", text)
    text = _DECORATION.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    text = _strip_symbols(text)
    text = _LABEL.sub("", text)
    return _strip_symbols(text).casefold()


def _vocabulary(synonyms: Mapping[str, str]) -> _Vocab:
    """The synonyms grouped by first character, longest first; memoised by value when the
    mapping is hashable (``Options`` holds a :class:`~adrguard.core.options.Vocabulary`)."""
    if isinstance(synonyms, Hashable):
        return _vocabulary_of(synonyms)
    return _build_vocabulary(synonyms)


def _build_vocabulary(synonyms: Mapping[str, str]) -> _Vocab:
    grouped: dict[str, list[tuple[str, Status]]] = {}
    for word, value in synonyms.items():
        try:
            status = Status(str(value).strip().casefold())
        except ValueError:
            continue
        key = _SPACES.sub(" ", str(word)).strip().casefold()
        if key:
            grouped.setdefault(key[0], []).append((key, status))
    return {c: tuple(sorted(v, key=lambda e: -len(e[0]))) for c, v in grouped.items()}


_vocabulary_of = lru_cache(maxsize=16)(_build_vocabulary)


def match(folded: str, synonyms: Mapping[str, str]) -> Status | None:
    """The status whose synonym is a leading word sequence of ``folded``; None when none is."""
    if not folded:
        return None
    for word, status in _vocabulary(synonyms).get(folded[0], ()):
        if folded.startswith(word):
            rest = folded[len(word) : len(word) + 1]
            if not rest or not _WORD_END.match(rest):
                return status
    return None


def is_template_text(folded: str, synonyms: Mapping[str, str]) -> bool:
    """A template's help text left as the value: ``{proposed | accepted | ...}``."""
    if "|" not in folded:
        return False
    hits = sum(1 for part in folded.split("|") if match(_strip_symbols(part.strip()), synonyms))
    return hits >= 2


def normalise(raw: str, synonyms: Mapping[str, str]) -> Status:
    """Map a written status to the vocabulary; UNKNOWN when it is stated but not recognised."""
    folded = fold(raw)
    if not folded or is_template_text(folded, synonyms):
        return Status.UNKNOWN
    found = match(folded, synonyms)
    return found if found is not None else Status.UNKNOWN


def date_key(text: str) -> tuple[int, int, int] | None:
    """A sortable (year, month, day) for the first date written in ``text``."""
    m = _ISO_DATE.search(text)
    if m:
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    m = _NAMED_DATE.search(text)
    if m:
        day = int(m.group(1) or m.group(3) or 1)
        return int(m.group(4)), _MONTHS[m.group(2).lower()[:3]], day
    return None


def latest_entry(lines: list[str], synonyms: Mapping[str, str]) -> int | None:
    """In a dated status history (every line dated and naming a status), the latest line."""
    if len(lines) < 2:
        return None
    best: tuple[tuple[int, int, int], int] | None = None
    for i, line in enumerate(lines):
        key = date_key(line)
        if key is None:
            return None
        undated = fold(_ISO_DATE.sub(" ", _NAMED_DATE.sub(" ", line)))
        if not any(match(undated[j:], synonyms) for j in _word_starts(undated)):
            return None
        if best is None or key >= best[0]:
            best = (key, i)
    return best[1] if best else None


def _word_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, ch in enumerate(text) if ch == " "]


def status_word(line: str, synonyms: Mapping[str, str]) -> str:
    """The part of a dated history line that holds the status (dates and separators removed)."""
    undated = fold(_ISO_DATE.sub(" ", _NAMED_DATE.sub(" ", line)))
    for j in _word_starts(undated):
        if match(undated[j:], synonyms):
            return undated[j:]
    return undated
