"""Status normalisation: a status as written -> a :class:`Status`.

The value is folded first (markdown links reduced to their text, emoji, bold, code and quote
decoration removed, a ``Status:`` label dropped, case folded), then its leading words are
matched against the synonym vocabulary (:mod:`adrguard.core.vocabulary`); the longest matching
entry wins, so "Partly superseded" (accepted) beats "superseded", and trailing notes such as
"(PR #12)" or "by @alice" are ignored. A value that starts with a date (``2017-11-22 Proposed``)
is read after the date. Template text left as the status (``{proposed | accepted}``, ``Accepted
or Rejected``, a legend listing the vocabulary) is never a status: it normalises to UNKNOWN and
:func:`is_template_text` says why.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from adrguard.core.lazyre import lazy
from adrguard.core.model import Status
from adrguard.core.options import Vocabulary
from adrguard.core.parse import successors
from adrguard.core.vocabulary import STATUS_GUESSES, STATUS_HEADINGS

_MD_LINK = lazy(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_REF = lazy(r"!?\[([^\]]*)\]\[[^\]]*\]")
_DECORATION = lazy(r"[*_`~>\"“”‘’«»„「」『』]+")
_LABEL = lazy(
    "^(?:" + "|".join(re.escape(h) for h in STATUS_HEADINGS) + r")\s*[:：\-–]\s*", re.I
)
_WORD_END = lazy(r"\w")
# Characters every match of a pattern holds: _DECORATION's class, the marks after _LABEL's
# heading, and what _HEADING_SPLIT parts words with besides spaces.
_DECORATION_CHARS = frozenset("*_`~>\"“”‘’«»„「」『』")
_LABEL_MARKS = frozenset(":：-–")
_SPLIT_MARKS = frozenset("()[]/|:：-–—,、·")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_ISO_SOURCE = r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)日?"
_DMY_SOURCE = r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)"
_ISO_DATE = lazy(_ISO_SOURCE)  # (the sources are plain strings: _LEADING_DATE joins them)
_DMY_DATE = lazy(_DMY_SOURCE)
_NAMED_DATE = lazy(
    r"\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+)?"
    + _MONTH
    + r"(?:\s+(\d{1,2})(?:st|nd|rd|th)?,?)?\s+(\d{4})\b",
    re.I,
)
_LEADING_DATE = lazy(
    r"^(?:(?:on|date|dated)\s+)?(?:"
    + _ISO_SOURCE
    + "|"
    + _DMY_SOURCE
    + r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
    + _MONTH
    + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?\s+\d{4})[\s:：,;|)\]\-–—]*",
    re.I,
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
# Template alternatives (``a | b``, ``a or b``) and vocabulary legends (``a / b / c``).
_ALTERNATIVES = lazy(r"\s*(?:\||\s(?:or|oder|ou|o|of|или)\s|或|または|또는)\s*")
_LEGEND = lazy(r"\s*[/,、，;]\s*")
_MAY_LIST = lazy(r"[|/,、，;或]|\s(?:or|oder|ou|o|of|или)\s|または|또는")  # cheap first test
_ANY_LABEL = lazy(r"^[^\W\d][^:：]{0,24}[:：]\s*")
_HEADING_SPLIT = lazy(r"[\s()\[\]/|:：\-–—,、·]+")
_HEADING_NUMBER = lazy(r"^(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+", re.I)
_HELP_LIMIT = 500
# Words a status heading may hold besides a status word ("Decision status", "Statut de la
# décision").
_HEADING_FILLERS = frozenset(
    {
        "decision", "adr", "record", "document", "current", "the", "of", "this", "de", "la", "le",
        "du", "del", "da", "do", "der", "die", "des", "della", "van", "het", "entscheidung",
        "décision", "decisión", "decisão", "decisione", "besluit", "решения",
        "决策", "決定", "결정", "의", "の",
    }
)

# The first two characters of the entries of two characters or more -> those entries and the
# entries of one character that start the same way, longest first; the first character -> the
# entries of one character. A text is looked up by its first two characters, else its first.
_Vocab = dict[str, tuple[tuple[str, Status], ...]]


def _strip_symbols(text: str) -> str:
    """Drop leading and trailing characters that are not letters or digits (emoji, ':' ...)."""
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start])[0] not in "LN":
        start += 1
    while end > start and unicodedata.category(text[end - 1])[0] not in "LN":
        end -= 1
    return text[start:end]


def _unspaced(ch: str) -> bool:
    """Scripts written without spaces between words (CJK, kana, hangul syllables)."""
    code = ord(ch)
    return (
        0x3040 <= code <= 0x30FF
        or 0x3400 <= code <= 0x9FFF
        or 0xAC00 <= code <= 0xD7AF
        or 0xF900 <= code <= 0xFAFF
    )


def fold_for(raw: str, synonyms: Mapping[str, str]) -> str:
    """:func:`fold`, remembered for the run on its vocabulary when ``synonyms`` is a
    :class:`~adrguard.core.options.Vocabulary` (what ``Options`` holds): a log states the same
    few statuses again and again, and folding is a fifth of parsing without the memo."""
    if not isinstance(synonyms, Vocabulary):
        return fold(raw)
    memo: dict[str, str] = synonyms.derived("folded", dict)
    found = memo.get(raw)
    if found is None:
        found = memo[raw] = fold(raw)
    return found


def fold(raw: str) -> str:
    """The comparable form of a status value: no markup, no emoji, single spaces, case folded."""
    # Each pattern runs only on text holding a character every match of it holds (most status
    # values hold none), and runs of spaces are joined by splitting (\s is str.isspace).
    text = _MD_LINK.sub(r"\1", raw) if "[" in raw else raw
    if "[" in text:
        text = _MD_REF.sub(r"\1", text)
    if not _DECORATION_CHARS.isdisjoint(text):
        text = _DECORATION.sub(" ", text)
    text = _strip_symbols(" ".join(text.split()))
    if not _LABEL_MARKS.isdisjoint(text):
        text = _LABEL.sub("", text)
    return _strip_symbols(text).casefold()


def _vocabulary(synonyms: Mapping[str, str]) -> _Vocab:
    """The synonyms grouped by first character, longest first; kept on the vocabulary when it
    is a :class:`~adrguard.core.options.Vocabulary` (what ``Options`` holds: per run), built
    once for the built-in guesses."""
    if isinstance(synonyms, Vocabulary):
        return synonyms.derived("status groups", lambda: _build_vocabulary(synonyms))
    if synonyms is STATUS_GUESSES:
        return _GUESS_TABLE
    return _build_vocabulary(synonyms)


# value -> member: ``Status(value)`` without the enum's call machinery, once per synonym
_STATUS_OF: dict[str, Status] = {s.value: s for s in Status}


def _build_vocabulary(synonyms: Mapping[str, str]) -> _Vocab:
    grouped: dict[str, list[tuple[str, Status]]] = {}
    status_of = _STATUS_OF.get
    for word, value in synonyms.items():
        status = status_of(str(value).strip().casefold())
        if status is None:
            continue
        # runs of whitespace as one space, none at the ends (what ``\s+`` and ``strip`` do:
        # both split at the characters ``str.isspace`` names)
        key = " ".join(str(word).split()).casefold()
        if key:
            grouped.setdefault(key[0], []).append((key, status))
        if " " in key:  # written as one token: ``in-progress``, ``on_hold``
            for joined in (key.replace(" ", "-"), key.replace(" ", "_")):
                grouped[key[0]].append((joined, status))
    table: _Vocab = {}
    for first, entries in grouped.items():
        longer: dict[str, list[tuple[str, Status]]] = {}
        ones: list[tuple[str, Status]] = []
        for e in sorted(entries, key=lambda e: -len(e[0])):  # longest first
            if len(e[0]) > 1:
                longer.setdefault(e[0][:2], []).append(e)
            else:
                ones.append(e)
        for two, group in longer.items():
            # the entries a text starting with ``two`` can start with, in the same order: the
            # one-character ones come last in it, as the shortest
            table[two] = (*group, *ones)
        if ones:
            table[first] = tuple(ones)
    return table


_GUESS_TABLE = _build_vocabulary(STATUS_GUESSES)  # the built-in guesses: a constant table


def match(folded: str, synonyms: Mapping[str, str]) -> Status | None:
    """The status whose synonym is a leading word sequence of ``folded``; None when none is.
    A word in a script written without spaces (提议中, 승인됨) may run on into the next one."""
    found = matched_word(folded, synonyms)
    return found[1] if found else None


def matched_word(folded: str, synonyms: Mapping[str, str]) -> tuple[str, Status] | None:
    """(the vocabulary entry, its status) that :func:`match` finds at the start of ``folded``
    (``in-progress`` is the entry ``in progress``)."""
    if not folded:
        return None
    table = _vocabulary(synonyms)
    entries = table.get(folded[:2])
    if entries is None:  # no entry of two characters or more starts as it does
        entries = table.get(folded[0], ())
    for word, status in entries:
        if folded.startswith(word):
            rest = folded[len(word) : len(word) + 1]
            if not rest or not _WORD_END.match(rest) or _unspaced(word[-1]):
                return word.replace("-", " ").replace("_", " "), status
    return None


def _undated(folded: str) -> str:
    """``folded`` without a leading date and the separators after it."""
    head = folded[:3]
    if head.isascii():  # a match starts with a digit, ``on``, ``dat(e)`` or a month's name
        head = head.lower()
        if not (head[:1].isdigit() or head[:2] == "on" or head == "dat" or head in _MONTHS):
            return folded  # no date: the pattern stays uncompiled
    m = _LEADING_DATE.match(folded)
    return folded[m.end() :] if m and m.end() < len(folded) else folded


def _parts_match(parts: Iterable[str], synonyms: Mapping[str, str]) -> tuple[int, int]:
    """(parts naming a status, non-empty parts)."""
    hits = total = 0
    for part in parts:
        part = _strip_symbols(part)
        if part:
            total += 1
            hits += match(part, synonyms) is not None
    return hits, total


def is_braced(raw: str) -> bool:
    """Whether a value is wrapped in a template's braces or brackets (``[a, b]``, ``{a|b}``)."""
    text = raw.strip()
    return text[:1] in "{[<" and (text[-1:] in "}]>…" or text[:1] == "{")


_MAY_LIST_CHARS = frozenset("|/,、，;或ま또")  # a character of each _MAY_LIST alternative but one


def _may_list(folded: str) -> bool:
    """What any match of ``_MAY_LIST`` in the first ``_HELP_LIMIT`` characters needs: one of
    its separators or the first character of ``または`` or ``또는``, or a space and an ``o`` or
    ``и`` (the spaced words). A one-word status (most of them) has none."""
    head = folded[:_HELP_LIMIT]
    if not _MAY_LIST_CHARS.isdisjoint(head):
        return True
    return ("o" in head or "и" in head) and any(c.isspace() for c in head)


def is_template_text(folded: str, synonyms: Mapping[str, str], braced: bool = False) -> bool:
    """Template text left as the value: alternatives (``{proposed | accepted}``, ``Accepted or
    Rejected``), a legend listing three or more vocabulary words (``a / b / c``), or two or
    more listed inside a template's braces (``braced``: see :func:`is_braced`)."""
    if not folded or not _may_list(folded) or not _MAY_LIST.search(folded, 0, _HELP_LIMIT):
        return False
    text = folded[:_HELP_LIMIT]
    label = _ANY_LABEL.match(text)
    if label and match(text, synonyms) is None:
        text = text[label.end() :]
    hits, total = _parts_match(_ALTERNATIVES.split(text), synonyms)
    if hits >= 2 and hits >= total - 1:
        return True
    hits, total = _parts_match(_LEGEND.split(text), synonyms)
    return (hits >= 3 or (braced and hits >= 2)) and hits >= total - 1


def mentions(folded: str, synonyms: Mapping[str, str]) -> set[Status]:
    """The statuses named by the words of ``folded`` (its first 500 characters)."""
    text = folded[:_HELP_LIMIT]
    found: set[Status] = set()
    for start in _word_starts(text):
        hit = match(text[start:], synonyms)
        if hit is not None:
            found.add(hit)
    return found


def is_help_text(folded: str, synonyms: Mapping[str, str]) -> bool:
    """A template's explanation of the vocabulary ("A decision may be proposed if ..., accepted
    once ..."): prose that does not start with a status and names three or more of them."""
    return match(_undated(folded), synonyms) is None and len(mentions(folded, synonyms)) >= 3


# A second part that relates the record to another one (``proposed | partially superseded by
# [8](0008-x.md)``): a compound status, not a template's alternatives.
_RELATED_PART = lazy(
    r"^\s*(?:(?:partially|partly|in\s+part)\s+)?(?:super[sc]eded|amended|replaced|extended"
    r"|refined)\s+by\s+\S",
    re.I,
)
# A sentence that says what became of the decision: ``The two points above have been
# implemented``, ``This has now been approved``.
_PROSE = lazy(
    r"^[^.;:!?]{0,160}?\b(?:has|have)\s+(?:now\s+|already\s+|since\s+)?been\s+"
    r"(?!partially\b|partly\b)([^\W\d_]+)\b"
)


def compound(raw: str) -> str:
    """The part of a compound status that states it: ``proposed | partially superseded by
    [..](..)`` is proposed (a partial supersession, an amendment, leaves the status as it was),
    ``accepted | superseded by [..](..)`` superseded; ``raw`` itself otherwise. Only two parts,
    outside a template's braces, the second naming another record: a template's alternatives
    are bare words."""
    if raw.count("|") != 1 or is_braced(raw):
        return raw
    first, second = raw.split("|")
    related = _RELATED_PART.match(_DECORATION.sub(" ", second))
    if not first.strip() or not related:
        return raw
    whole = related.group(0).split()[0].casefold() in ("superseded", "superceded", "replaced")
    return second if whole else first  # a partial supersession leaves the status as it was


# A value followed by the template's braced choices it was picked from (``In Review {Draft, In
# Review, Implemented}``): the value is the status.
_PICKED = lazy(r"^\s*([^{}\[\]|]{1,60}?)\s*\{([^{}]{1,300})\}\s*$")
_CHOICE_SEP = lazy(r"\s*[,|/]\s*")


def picked(raw: str) -> str:
    """The value of ``raw`` without the braced choices after it, when it is one of them
    (``In Review {Draft, In Review}`` -> ``In Review``); ``raw`` otherwise."""
    m = _PICKED.match(raw) if "{" in raw else None
    if m is None:
        return raw
    value = m.group(1).strip()
    choices = {c.casefold() for c in _CHOICE_SEP.split(m.group(2).strip())}
    return value if value.casefold() in choices else raw


def normalise(raw: str, synonyms: Mapping[str, str]) -> Status:
    """Map a written status to the vocabulary; UNKNOWN when it is stated but not recognised.
    A supersession clause with a target whose subject is the record decides (``廃止 (Superseded
    by X)``, ``已废弃，由 X 取代``, ``已被 X 取代``): see :mod:`.successors`. When the
    vocabulary does not read it, a guess (:func:`guess`) may. A value followed by the braced
    choices it was picked from is that value (:func:`picked`).

    Remembered for the run on its vocabulary when ``synonyms`` is a
    :class:`~adrguard.core.options.Vocabulary`, as :func:`fold_for` is: a log states the same
    few statuses again and again, and the answer depends on the text and the vocabulary
    alone."""
    if not isinstance(synonyms, Vocabulary):
        return _normalise(raw, synonyms)
    memo: dict[str, Status] = synonyms.derived("normalised", dict)
    found = memo.get(raw)
    if found is None:
        found = memo[raw] = _normalise(raw, synonyms)
    return found


def _normalise(raw: str, synonyms: Mapping[str, str]) -> Status:
    """:func:`normalise`, worked out."""
    raw = picked(raw)
    found = _reading(raw, synonyms)
    if found is Status.UNKNOWN:
        guessed = guess(raw, synonyms)
        if guessed is not None:
            return guessed[0]
    return found


def guess(raw: str, synonyms: Mapping[str, str]) -> tuple[Status, str, str] | None:
    """(status, why, the guessed word or "") for a status the vocabulary does not read but
    whose meaning is plain:
    the status part of a compound status (:func:`compound`), a sentence saying the decision
    ``has been`` implemented, approved, rejected ..., or a word that is not a status but says
    one (:data:`~adrguard.core.vocabulary.STATUS_GUESSES`: ``experimental``, ``Placeholder``,
    ``mergé``). None when the vocabulary reads it, or nothing does. A word mapped with the
    ``statuses`` config key is read by the vocabulary: it is never a guess."""
    if _reading(raw, synonyms) is not Status.UNKNOWN:
        return None
    part = compound(choose(raw))
    if part != choose(raw):
        found = _reading(part, synonyms)
        if found is not Status.UNKNOWN:
            return found, "a compound status: the status and a relation in one value", ""
    folded = fold_for(raw, synonyms)
    if not folded or is_template_text(folded, synonyms, is_braced(raw)):
        return None
    word = matched_word(folded, STATUS_GUESSES) or matched_word(_undated(folded), STATUS_GUESSES)
    if word is not None:
        return word[1], "not a status word", word[0]
    if " been " in folded:
        prose = _PROSE.match(folded)
        said = match(prose.group(1), synonyms) if prose else None
        if said is not None:
            return said, "a sentence, not a status word", ""
    return None


def _reading(raw: str, synonyms: Mapping[str, str]) -> Status:
    """What the vocabulary reads in a status as written (no guesses)."""
    raw = choose(raw)
    folded = fold_for(raw, synonyms)
    if not folded or is_template_text(folded, synonyms, is_braced(raw)):
        return Status.UNKNOWN
    history = _history_on_one_line(folded, synonyms)
    if history is not None:
        return history
    if successors.has_keyword(folded) and successors.superseded(successors.of_markdown(raw)):
        return Status.SUPERSEDED
    found = match(folded, synonyms)
    if found is None:
        found = match(_undated(folded), synonyms)
    return found if found is not None else Status.UNKNOWN


_STRUCK = lazy(r"~~?[^~\n]{1,200}~~?")
_EMPHASISED = lazy(r"^\s*(\*\*|__|\*|_)(?=\S)([^*_\n]{1,80}?)(?<=\S)\1\s*$")
_CHOICES = lazy(r"\s*[|/,]\s*")
_UNTICKED = "⬜☐◻□▢🔲🔳⚪○"  # an emoji checklist's open boxes
_TICKED = "✅☑✔✓🟢"  # and its ticks
_BOX_OR_TICK = lazy(f"[{_UNTICKED}{_TICKED}]")
_BOXES, _TICKS = frozenset(_UNTICKED), frozenset(_TICKED)  # none of them is ASCII


def choose(raw: str) -> str:
    """The part of a status as written that states it: struck-through history dropped
    (``~~Proposed~~ Accepted``), the one emphasised choice of a list of choices (``Proposed |
    **Accepted** | Deprecated``), the ticked entry of an emoji checklist on one line (``⬜ Proposed
    ✅ Accepted ⬜ Deprecated``). Anything else is returned as it is."""
    if "~" in raw:
        unstruck = _STRUCK.sub(" ", raw)
        if unstruck != raw and fold(unstruck):
            raw = unstruck
    if ("*" in raw or "_" in raw) and _MAY_LIST.search(raw):
        parts = [p for p in _CHOICES.split(raw) if p.strip()]
        marked = [m.group(2) for m in map(_EMPHASISED.match, parts) if m]
        if len(parts) >= 2 and len(marked) == 1:
            return marked[0]
    if not raw.isascii() and not _TICKS.isdisjoint(raw) and not _BOXES.isdisjoint(raw):
        pieces = _BOX_OR_TICK.split(raw)
        marks = _BOX_OR_TICK.findall(raw)
        ticked = [pieces[i + 1] for i, m in enumerate(marks) if m in _TICKED]
        if len(ticked) == 1 and fold(ticked[0]):
            return ticked[0]
    return raw


def ticked(raw: str) -> bool | None:
    """An emoji checklist entry: True for a ticked one (``✅ Accepted``), False for an open box
    (``⬜️ Proposed``), None for any other text."""
    head = raw.lstrip(" \t-*+>")[:1]
    return True if head and head in _TICKED else False if head and head in _UNTICKED else None


_ENTRY_SEPARATOR = lazy(r"\s*(?:[;|→⇒]|->|,\s|\s[-–—]\s)\s*")


def _history_on_one_line(folded: str, synonyms: Mapping[str, str]) -> Status | None:
    """``2020-01-02 proposed; 2020-03-04 accepted`` on one line: the latest entry's status."""
    if sum(map(str.isdecimal, folded)) < 8:  # two dates, four digits each at least
        return None
    if _ISO_DATE.search(folded) is None and _NAMED_DATE.search(folded) is None:
        return None
    parts = [p for p in _ENTRY_SEPARATOR.split(folded) if p]
    dated = [p for p in parts if date_key(p) is not None]
    if len(dated) < 2:
        return None
    latest = latest_entry(dated, synonyms)
    if latest is None:
        return None
    return match(status_word(dated[latest], synonyms), synonyms)


def quote(raw: str, limit: int = 80) -> str:
    """A status for a message: one line, at most ``limit`` characters, quoted."""
    text = " ".join(raw.split())  # _SPACES.sub(" ", raw).strip(): \s is str.isspace
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return repr(text)


def is_status_heading(text: str, keys: frozenset[str]) -> bool:
    """A heading that names the status section, alone or bilingual: every word of it is a
    status heading word (``Status``, ``2. Statut``, ``상태 (Status)``, ``Status / 状态``)."""
    if len(text) > 64:
        return False
    folded = _strip_symbols(text.casefold())
    first = folded[:1]  # _unnumbered and _heading_words, inline (a call per heading costs)
    if not first.isascii() or first.isdigit() or first.lower() in "ivx":
        folded = _HEADING_NUMBER.sub("", folded)
    if folded in keys:
        return True
    if _SPLIT_MARKS.isdisjoint(folded):
        words = folded.split()
    else:
        words = [w for w in _HEADING_SPLIT.split(folded) if w]
    return any(w in keys for w in words) and all(w in keys or w in _HEADING_FILLERS for w in words)


def is_plain_status_heading(text: str, keys: frozenset[str]) -> bool:
    """A status heading that is only the status word (``## Status``, ``## 2. Statut``,
    ``## 상태 (Status)``), not one that qualifies it (``## Current state``, ``## Experimental
    status``): explicit metadata outranks a qualified one."""
    words = _heading_words(_unnumbered(_strip_symbols(text.casefold())))
    return bool(words) and all(w in keys for w in words)


def _unnumbered(folded: str) -> str:
    """``_HEADING_NUMBER.sub("", folded)``: the pattern only when the first character is where
    a number may start (a digit, ``i``, ``v``, ``x`` in either case, or a character that is not
    ASCII, which may be a digit or match a letter under re.I)."""
    first = folded[:1]
    if first.isascii() and not first.isdigit() and first.lower() not in "ivx":
        return folded
    return _HEADING_NUMBER.sub("", folded)


def _heading_words(folded: str) -> list[str]:
    """The non-empty parts of ``folded`` between _HEADING_SPLIT's marks: split at spaces when it
    holds no other mark (\\s is what str.isspace says)."""
    if _SPLIT_MARKS.isdisjoint(folded):
        return folded.split()
    return [w for w in _HEADING_SPLIT.split(folded) if w]


def may_hold_date(text: str) -> bool:
    r"""Whether ``text`` may hold a date :func:`date_key` reads: each date pattern holds four
    digits at least (``\d`` is what str.isdecimal says), so a value with fewer (``Accepted``)
    has none, and the patterns stay uncompiled."""
    return sum(map(str.isdecimal, text)) >= 4


def date_key(text: str) -> tuple[int, int, int] | None:
    """A sortable (year, month, day) for the first date written in ``text``."""
    if not may_hold_date(text):
        return None
    m = _ISO_DATE.search(text)
    if m:
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    m = _NAMED_DATE.search(text)
    if m:
        # the pattern matches under re.I, where "ſ" is an "s" (``ſep``): casefold, not lower
        month = _MONTHS.get(m.group(2).casefold())
        if month is not None:
            return int(m.group(4)), month, int(m.group(1) or m.group(3) or 1)
    m = _DMY_DATE.search(text)
    if m:
        a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        year += 2000 if year < 100 else 0
        return (year, a, b) if b > 12 else (year, b, a)
    return None


def _without_dates(text: str) -> str:
    return _DMY_DATE.sub(" ", _NAMED_DATE.sub(" ", _ISO_DATE.sub(" ", text)))


def latest_entry(lines: list[str], synonyms: Mapping[str, str]) -> int | None:
    """In a dated status history (every line dated, two or more naming a status), the latest
    line that names one; among lines of the same date the last one. A dated line that names no
    status (``2025-04-04: Edited``) records something else and is passed over."""
    if len(lines) < 2:
        return None
    best: tuple[tuple[int, int, int], int] | None = None
    naming = 0
    for i, line in enumerate(lines):
        key = date_key(line)
        if key is None:
            return None
        undated = fold(_without_dates(line))
        if not any(match(undated[j:], synonyms) for j in _word_starts(undated)):
            continue
        naming += 1
        if best is None or key >= best[0]:
            best = (key, i)
    return best[1] if best and naming >= 2 else None


def _word_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, ch in enumerate(text) if ch == " "]


def status_word(line: str, synonyms: Mapping[str, str]) -> str:
    """The part of a dated history line that holds the status (dates and separators removed)."""
    undated = fold(_without_dates(line))
    for j in _word_starts(undated):
        if match(undated[j:], synonyms):
            return undated[j:]
    return undated
