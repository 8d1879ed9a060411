"""The words a log writes its statuses in: its language, its own word for each status, and
their case. Part of :mod:`.learn`. Pure.

A status the log wrote is written as the log writes it (``Proposed``, ``🤔 Proposed``,
``proposé``, ``Review``). A status it never wrote is written in the log's language
(:data:`adrguard.core.vocabulary.LANGUAGES`: ``rejeté`` in a French log, ``提议`` in a Chinese
one), in the case of the log's other status words. The language is the one most of the log's
status words are in: a log's words in another language must outnumber its English ones; a log
that writes no status word is told by its status label (``Statut``, ``상태``), else English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from adrguard.core.authoring.habits import vote
from adrguard.core.model import Decision, Status
from adrguard.core.vocabulary import LANGUAGES

ENGLISH = "en"


@dataclass(frozen=True)
class Wording:
    """What :func:`learn` finds: the language, the log's word per status, and the case of
    words the log never wrote (``title`` | ``lower`` | ``upper``)."""

    language: str = ENGLISH
    words: Mapping[str, str] = field(default_factory=dict)
    casing: str = "title"


def by_status(synonyms: Mapping[str, str]) -> dict[str, list[str]]:
    """The vocabulary's words of each status, longest first (sorted once per :func:`learn`)."""
    out: dict[str, list[str]] = {}
    for word, value in synonyms.items():
        out.setdefault(value, []).append(word)
    return {k: sorted(v, key=len, reverse=True) for k, v in out.items()}


def written_word(raw: str, status: Status, words: Mapping[str, list[str]]) -> str | None:
    """The status word as ``raw`` writes it (``Accepted``, ``✅ Accepted``, ``PROPOSED``), or
    None for a statement that does not open with its word (a dated entry, a sentence).
    ``words``: :func:`by_status` of the vocabulary."""
    text = raw.strip().strip("*_`").strip()
    start = next((i for i, c in enumerate(text) if c.isalpha()), None)
    if start is None or any(c.isalnum() or c in "[(<" for c in text[:start]):
        return None
    folded = text[start:].casefold()
    for word in words.get(status.value, ()):
        size = len(word)
        if folded.startswith(word) and not folded[size : size + 1].isalnum():
            written = text[start : start + size]
            if status is Status.SUPERSEDED:
                written = re.sub(r"\s+by$", "", written, flags=re.I)
            return text[:start] + written
    return None


def word_in(raw: str, status: Status,
            words: Mapping[str, list[str]]) -> tuple[int, int, str] | None:
    """Where ``raw`` holds a vocabulary word for ``status`` as a whole word (``2017-11-26 提议``,
    ``2023-01-04 accepted``): (start, end, the word casefolded), the first one, the longest
    where several start at the same place."""
    folded = raw.casefold()
    if len(folded) != len(raw):
        return None  # casefolding changed the length (``ß``): positions would not match
    best: tuple[int, int, str] | None = None
    for word in words.get(status.value, ()):
        for m in re.finditer(re.escape(word), folded):
            before = folded[m.start() - 1 : m.start()]
            after = folded[m.end() : m.end() + 1]
            if not _ideographic(word) and (before.isalnum() or after.isalnum()):
                continue
            if best is None or (m.start(), -len(word)) < (best[0], best[0] - best[1]):
                best = (m.start(), m.end(), word)
            break
    return best


def _ideographic(word: str) -> bool:
    """Scripts written without spaces between words (Chinese, Japanese, Korean)."""
    return any(ord(c) >= 0x2E80 for c in word)


def _plain(word: str) -> str:
    return "".join(c for c in word if c.isalpha() or c == " ").strip().casefold()


def language(found: Iterable[tuple[Status, str]], labels: Iterable[str] = ()) -> str:
    """The language of a log's status words (``found``: each record's status and the
    vocabulary word it wrote): another language's words must outnumber the English ones (and
    the words of no listed language written in Latin letters); ties go to the language listed
    first. Without words, the language of the status ``labels`` (``Statut``), else English."""
    counts: dict[str, int] = dict.fromkeys(LANGUAGES, 0)
    for status, word in found:
        own = [code for code, lang in LANGUAGES.items() if lang.words.get(status.value) == word]
        for code in own:
            counts[code] += 1
        if not own and word.isascii():
            counts[ENGLISH] += 1
    if any(counts.values()):
        best = max((c for c in LANGUAGES if c != ENGLISH), key=lambda c: counts[c])
        return best if counts[best] > counts[ENGLISH] else ENGLISH
    for label in labels:
        letters = _plain(label)
        for code, lang in LANGUAGES.items():
            if any(letters == w or letters.startswith(w + " ") for w in lang.labels):
                return code
    return ENGLISH


def learn(records: Sequence[Decision], synonyms: Mapping[str, list[str]],
          labels: Iterable[str] = (), default_casing: str = "title") -> Wording:
    """The log's status wording from its records' first status statements. ``synonyms``:
    :func:`by_status` of the vocabulary; ``labels``: how the records label their status."""
    spelled: dict[str, list[str]] = {}
    found: list[tuple[Status, str]] = []
    for d in records:
        for stmt in d.statuses[:1]:
            if stmt.status is Status.UNKNOWN:
                continue
            word = written_word(stmt.raw, stmt.status, synonyms)
            known = word_in(stmt.raw, stmt.status, synonyms)
            if word is None and known is not None:  # a dated entry, a word inside markup
                word = re.sub(r"\s+by$", "", stmt.raw[known[0] : known[1]], flags=re.I)
            if word is not None:
                spelled.setdefault(stmt.status.value, []).append(word)
            if known is not None:
                found.append((stmt.status, known[2]))
    code = language(found, labels)
    own = LANGUAGES[code].words
    out: dict[str, str] = {}
    for status, words in spelled.items():
        native = [w for w in words if _plain(w) in (own.get(status), status)]
        if native:
            out[status] = str(vote(native))
            continue
        best = vote(words)
        if best is not None and words.count(best) >= 2:
            out[status] = str(best)  # the log's own word, written twice or more: a habit
    return Wording(code, out, _casing(spelled.values(), default_casing))


def _casing(spelled: Iterable[list[str]], default: str) -> str:
    def kind(word: str) -> str | None:
        letters = "".join(c for c in word if c.isalpha())
        if not any(c.islower() or c.isupper() for c in letters):
            return None  # a script without case
        if len(letters) > 1 and letters.isupper():
            return "upper"
        return "lower" if letters[:1].islower() else "title"

    return str(vote((kind(w) for words in spelled for w in words), default))


def default_word(code: str, status: str) -> str:
    """The word of ``status`` in language ``code`` (English when it has none)."""
    lang = LANGUAGES.get(code) or LANGUAGES[ENGLISH]
    return lang.words.get(status) or LANGUAGES[ENGLISH].words.get(status, status)


def successor_form(code: str) -> str:
    """How language ``code`` writes "superseded by X" (``{word}``, ``{target}``), "" when a
    status word alone is written."""
    lang = LANGUAGES.get(code) or LANGUAGES[ENGLISH]
    return lang.by
