"""Relationships declared by a record: front-matter keys, status strings and body lines.

A body line only declares a relationship with relation wording at the start of a clause
(``Superseded by [..](..)``, ``Amends ..``, ``Extends ..``, ``Refined by ..``, ``Rejected (see
..)``) or with the record (or its authors) as the subject (``This ADR in part supersedes [..]``,
``We supersede [..] with the current ADR``), or when the record replaces what another one
described (``… which replaces the plugin pattern described in [ADR-56](..)``). A mere
mention is a link, never a relationship, and dependency wording ("builds on", "based on")
records nothing. Partial supersession is an amendment, never a supersession.
"""

from __future__ import annotations

import re
import string
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import Location, Relationship, RelKind
from adrguard.core.parse import formats, ids, keyed, successors
from adrguard.core.parse.document import Block, Span
from adrguard.core.parse.successors import may_hold

_P = r"(?:partially|partly|in\s+part)"
# Each start rule, with the letters it can begin with (lower case ASCII).
_START_SOURCES: tuple[tuple[str, RelKind, str], ...] = (
    (_P + r"\s+supersed(?:es|ed)\b(?!\s+by)", RelKind.AMENDS, "pi"),
    (r"supersedes\s+(?:some|certain|several)?\s*(?:aspects?|parts?)\s+of\b", RelKind.AMENDS, "s"),
    (r"supersed(?:es|ing)\b", RelKind.SUPERSEDES, "s"),
    (_P + r"\s+super[sc]eded\s+by\b", RelKind.AMENDED_BY, "pi"),
    (r"super[sc]eded\s+by\b", RelKind.SUPERSEDED_BY, "s"),
    (r"replaces\b", RelKind.SUPERSEDES, "r"),
    (r"replaced\s+by\b", RelKind.SUPERSEDED_BY, "r"),
    (r"amends\b", RelKind.AMENDS, "a"),
    (r"(?:this\s+(?:adr\s+|decision\s+|record\s+|document\s+)?is\s+)?an?\s+addendum\s+to\b",
     RelKind.AMENDS, "ta"),
    (r"refines\b", RelKind.AMENDS, "r"),
    (r"(?:amended|refined|extended)\s+by\b", RelKind.AMENDED_BY, "are"),
    (r"extends\b", RelKind.AMENDS, "e"),
    (r"depends\s+on\b", RelKind.DEPENDS_ON, "d"),
    (r"rejected\b[^\[]*?(?:\bin\s+favou?r\s+of|\(\s*see|\bsee)\b", RelKind.IN_FAVOUR_OF, "r"),
)
_START_RULES: tuple[tuple[re.Pattern[str], RelKind], ...] = tuple(
    (lazy(p, re.I), k) for p, k, _first in _START_SOURCES
)
# The start rules a clause can start with, by its first character lowered when that is ASCII
# (a rule matches an ASCII character only as written or in the other case; a character that is
# not ASCII may still match a letter of a rule, ``ſ`` matches ``s``, so it tries them all).
# A dictionary look-up instead of the alternation of all fourteen, whose compiling cost more
# than a hook run's matching; the rules a run never tries are never compiled.
_STARTS_BY_FIRST: dict[str, tuple[tuple[re.Pattern[str], RelKind], ...]] = {
    c: tuple(_START_RULES[i] for i, (_p, _k, first) in enumerate(_START_SOURCES) if c in first)
    for c in "".join(first for _p, _k, first in _START_SOURCES)
}


# The keywords (of :data:`_ASCII_WORDS`, lower case) each start rule's every match holds, in
# the order of _START_SOURCES: in text whose lowered form is ASCII a rule matches (under re.I)
# only where that lowered text holds one of them.
_START_NEEDS: tuple[frozenset[str], ...] = tuple(
    frozenset(words)
    for words in (
        ("supers",),
        ("supers",),
        ("supers",),
        ("supers", "superc"),
        ("supers", "superc"),
        ("replac",),
        ("replac",),
        ("amend",),
        ("addend",),
        ("refine",),
        ("amend", "refine", "exten"),
        ("exten",),
        ("depend",),
        ("reject",),
    )
)
# _STARTS_BY_FIRST with each rule's keywords
_NEEDED_BY_FIRST: dict[
    str, tuple[tuple[tuple[re.Pattern[str], RelKind], frozenset[str]], ...]
] = {
    c: tuple(
        (_START_RULES[i], _START_NEEDS[i])
        for i, (_p, _k, first) in enumerate(_START_SOURCES)
        if c in first
    )
    for c in _STARTS_BY_FIRST
}


def _start(
    text: str, begin: int, present: set[str] | None = None
) -> tuple[re.Match[str], RelKind] | None:
    """The first start rule that matches ``text`` at ``begin`` (its match and kind), if any.
    ``present``: the keywords the text holds lowered, when that is ASCII (else None): a rule
    none of whose keywords it holds is not tried."""
    first = text[begin : begin + 1]
    if present is None or not first.isascii():
        rules = _STARTS_BY_FIRST.get(first.lower(), ()) if first.isascii() else _START_RULES
        for pattern, kind in rules:
            m = pattern.match(text, begin)
            if m:
                return m, kind
        return None
    for (pattern, kind), needs in _NEEDED_BY_FIRST.get(first.lower(), ()):
        if needs.isdisjoint(present):
            continue
        m = pattern.match(text, begin)
        if m:
            return m, kind
    return None


_SUBJECT = lazy(
    r"(?:\b(?:this|the\s+present)\s+(?:adr|decision(?:\s+record)?|record|document)\b"
    r"(?:\s+(?:is|was|has\s+been|hereby))?|^\W*we(?:\s+hereby)?)\s+(?P<partial>" + _P + r"\s+)?"
    r"(?P<verb>supersedes?\s+(?:some|certain|several)?\s*(?:aspects?|parts?)\s+of"
    r"|supersedes?|super[sc]eded\s+by|replaces?|replaced\s+by|amends?|amended\s+by|adds\s+to"
    r"|extends?)\b",
    re.I,
)
# ``This replaces the test collections mechanism described in [ADR-53](..)``: the record
# replaces what another record described (a relative clause or a demonstrative subject).
_REPLACES_DESCRIBED = lazy(
    r"\breplaces\s+(?:the|its|a|an)\s+(?:[^\W\d_][\w/'’-]*\s+){0,8}?"
    r"(?:described|defined|specified|documented|proposed|introduced)\s+in\b",
    re.I,
)
_PASSIVE = lazy(
    r"\b(?:has|have)\s+been\s+(?P<partial>" + _P + r"\s+)?superseded\s+by\b", re.I
)
# Where a clause starts: after ``;``, a spaced dash or ``, (and) supersedes``, and the spaces
# after it. (A match's end is where the clause starts; spaces before the mark would not move
# it, so the pattern does not look for them: they would make it try every space.)
_CLAUSE = lazy(r"(?:;|\s[-–—]\s|,\s+(?=(?:and\s+)?(?:supersed|amend|replac)))\s*")
# Whether _CLAUSE matches anywhere: a mark first (a character class the engine skips to), then
# what must stand around it. Text with commas and dashes but no clause mark is searched once.
_CLAUSE_PROBE = lazy(
    r"[;,\-–—](?:(?<=;)|(?<=\s[-–—])\s|(?<=,)\s+(?:and\s+)?(?:supersed|amend|replac))"
)
# What may precede relation wording at the start of a clause: bullets and emphasis, a label, a
# changelog date (``- 2023-05-03: Mark as rejected in favour of ADR-101``), "mark(ed) as".
_LEAD = lazy(
    r"[\W_]*(?:\d{4}-\d{1,2}-\d{1,2}\s*[:：\-–—]?\s*[\W_]*)?"
    r"(?:(?:status|statut|note|nb)\s*[:：]\s*[\W_]*)?(?:mark(?:ed)?\s+as\s+)?",
    re.I,
)
# The first characters a non-empty _LEAD match can start with, when ASCII letters: ``status``,
# ``statut``, ``note``, ``nb``, ``mark(ed) as`` (under re.I). Its other parts start with a
# digit or a character that is not a letter.
_LEAD_LETTERS = frozenset("snmSNM")


def _lead_end(text: str, clause: int) -> int:
    """Where the wording after a clause's lead (:data:`_LEAD`) starts: the clause's start when
    it opens with an ASCII letter no lead starts with (most clauses), without the pattern."""
    first = text[clause : clause + 1]
    if first.isascii() and first.isalpha() and first not in _LEAD_LETTERS:
        return clause
    lead = _LEAD.match(text, clause)
    return lead.end() if lead else clause


_STOP = lazy(r"[.!?;](?:\s|$)|\s[-–—]\s")
_YAML_LINK = lazy(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?[^)]*\)")

_VERB_KIND = {
    "supersede": RelKind.SUPERSEDES,
    "replace": RelKind.SUPERSEDES,
    "amend": RelKind.AMENDS,
    "extend": RelKind.AMENDS,
    "extends": RelKind.AMENDS,
    "supersedes": RelKind.SUPERSEDES,
    "superseded by": RelKind.SUPERSEDED_BY,
    "superceded by": RelKind.SUPERSEDED_BY,
    "replaces": RelKind.SUPERSEDES,
    "replaced by": RelKind.SUPERSEDED_BY,
    "amends": RelKind.AMENDS,
    "amended by": RelKind.AMENDED_BY,
    "adds to": RelKind.AMENDS,
}
_PARTIAL = {RelKind.SUPERSEDES: RelKind.AMENDS, RelKind.SUPERSEDED_BY: RelKind.AMENDED_BY}

_SCHEME = lazy(r"^[a-z][a-z0-9+.\-]*:|^//", re.I)


class Found(msgspec.Struct, frozen=True):
    kind: RelKind
    target: str
    text: str
    column: int = 1


# A value that states there is nothing (``replaces: N/A``, ``superseded-by: None``, ``-``).
_NOTHING = frozenset({"n/a", "na", "n.a", "none", "null", "nil", "-", "--", "—", "tbd", "tba",
                      "no", "nothing", "no one", "not applicable", "[]", "''", '""'})
_LISTED = lazy(r"^\s*[\w#.-]+(?:\s*,\s*[\w#.-]+)+\s*$")  # ``655, 777``


def front_matter_targets(value: Any) -> list[tuple[str, str]]:
    """(target, text) pairs of a scalar or list front-matter value; links give their target.
    A placeholder for nothing (``N/A``, ``None``, ``-``, ``TBD``) states no target; a
    comma-separated string of ids (``655, 777``) is a list."""
    items = value if isinstance(value, list | tuple) else [value]
    out: list[tuple[str, str]] = []
    for item in items:
        if item is None or isinstance(item, dict | list | bool):
            continue
        text = str(item).strip()
        if text.casefold().rstrip(".") in _NOTHING:
            continue
        links = _YAML_LINK.findall(text)
        if links:
            out.extend((dest, label) for label, dest in links)
        elif _LISTED.match(text):
            out.extend((part.strip(), "") for part in text.split(",") if part.strip())
        elif text:
            out.append((text, ""))
    return out


def _targets(text: str, spans: list[Span], start: int) -> list[tuple[str, str, int]]:
    """Link targets (or bare ids) after ``start`` up to the end of the sentence."""
    found: list[tuple[str, str, int]] = []
    pos = start
    stop = len(text)
    for span in sorted(spans, key=lambda s: s.start):
        if span.start < start or span.link.is_image:
            continue
        m = _STOP.search(text, pos, span.start)
        if m:
            stop = m.start()
            break
        found.append((span.link.target, span.link.text, span.link.column))
        pos = span.end
    else:
        m = _STOP.search(text, pos)
        stop = m.start() if m else len(text)
    if found:
        return found
    return [(target, "", 1) for target in ids.in_text(text[start:stop])]


_CLAUSE_CHARS = (";", ",", "-", "–", "—")  # every _CLAUSE match holds one of these


def _clauses(text: str) -> Iterable[int]:
    yield 0
    for c in _CLAUSE_CHARS:  # a loop: any() over a generator costs more
        if c in text:
            break
    else:
        return
    if _CLAUSE_PROBE.search(text) is None:
        return
    for m in _CLAUSE.finditer(text):
        yield m.end()


_KEYWORDS = "supers|superc|replac|amend|refine|depend|reject|addend|adds to|exten"
# Either set of keywords in one search of the lowered text (both are plain alternations) ...
_MAY_DECLARE_SOURCE = f"{_KEYWORDS}|{successors.KEYWORD_SOURCE}"
_MAY_DECLARE = lazy(_MAY_DECLARE_SOURCE)
# ... and, for ASCII text, its ASCII words as substring tests (several times faster than a
# regex alternation of literals; a word with other letters cannot occur in ASCII text).
_ASCII_WORDS = tuple(dict.fromkeys(w for w in _MAY_DECLARE_SOURCE.split("|") if w.isascii()))
# Roots that several keywords share (``super`` of ``supers``, ``superc``, ``superad`` and
# ``superat``): a text without the root holds none of them, so :func:`keyword_hits` searches for
# the root once instead of for each of them (most texts hold none). A rare letter is a root too
# (``z`` of ``ersetz`` and ``rimpiazz``, ``j`` of ``reject``): a search for one character is far
# cheaper than one for a word. Each keyword with its first root ("" for none), in the order of
# _ASCII_WORDS.
_ROOTS = ("super", "stitu", "plant", "overr", "mpla", "z", "j")
_ROOTED = tuple((next((r for r in _ROOTS if r in w), ""), w) for w in _ASCII_WORDS)
# The same, grouped: the keywords without a root, then each root with its keywords. One loop
# over a dozen entries instead of one over every keyword with a look-up of its root.
_UNROOTED = tuple(w for r, w in _ROOTED if not r)
_ROOT_GROUPS = tuple((r, tuple(w for q, w in _ROOTED if q == r)) for r in _ROOTS)


def _holds_keyword(lower: str) -> bool:
    """Cheap test: could a text, given lowered, hold relation wording at all?"""
    return successors.holds_any(lower, _ASCII_WORDS, _MAY_DECLARE)


def declares(text: str, known: Iterable[str]) -> bool:
    """Cheap test: could ``text`` hold relation wording at all? ``known`` are tried first:
    keywords (matches of :data:`_MAY_DECLARE`) other text taken from it holds, so likely this
    text too, first as written (lowering keeps a lower-case ASCII word as it is, so a word in
    the text is in it lowered; most often one is, and the text need not be lowered). Any of
    them in the text lowered is a match of the alternation, and of the ASCII words when it is
    ASCII (a keyword that is not ASCII is in no ASCII text); otherwise the text is searched in
    full."""
    known = tuple(known)
    for word in known:
        if word in text:
            return True
    lower = text.lower()
    for word in known:
        if word in lower:
            return True
    return _holds_keyword(lower)


def keyword_hits(texts: list[str]) -> tuple[list[list[tuple[int, str]]], bool]:
    """Per text, ``(offset, keyword)`` of the keywords in it lowered, by offset, from one
    search of them all: the lowered texts are joined by NUL (no keyword holds one, so none
    spans two texts); a text holds a keyword exactly when a match starts inside it. When the
    lowered texts are ASCII (the second answer is True), each keyword is looked for with
    substring searches, so a line of a text holds a keyword exactly when a hit of it starts in
    that line (a keyword holds no line break). Otherwise the hits are those of the keyword
    alternation.

    The texts are joined first and lowered once: lowering maps each character on its own but
    for a capital sigma, whose context a NUL ends as the end of a text does. Lowered text that
    is ASCII is as long as the text (no character lowers to several ASCII ones), so its texts
    start where they start in the joined text."""
    joined = "\0".join(texts).lower()
    out: list[list[tuple[int, str]]] = [[] for _ in texts]
    hits: list[tuple[int, str]] = []
    exact = joined.isascii()
    if exact:
        find = joined.find
        for word in _UNROOTED:
            at = find(word)
            while at != -1:
                hits.append((at, word))
                at = find(word, at + len(word))
        for root, words in _ROOT_GROUPS:
            if root not in joined:
                continue
            for word in words:
                at = find(word)
                while at != -1:
                    hits.append((at, word))
                    at = find(word, at + len(word))
        if not hits:
            return out, exact
        lengths = [len(t) for t in texts]
    else:
        lowered = [t.lower() for t in texts]
        joined = "\0".join(lowered)
        hits = [(m.start(), m.group()) for m in _MAY_DECLARE.finditer(joined)]
        if not hits:
            return out, exact
        lengths = [len(low) for low in lowered]
    hits.sort()
    starts: list[int] = []
    pos = 0
    for n in lengths:
        starts.append(pos)
        pos += n + 1
    for at, word in hits:
        i = bisect_right(starts, at) - 1
        out[i].append((at - starts[i], word))
    return out, exact


# A word each start rule needs (lower case): no clause of a line without one can start with
# relation wording.
_START_WORDS = ("supersed", "superced", "replace", "amend", "addendum", "refine", "extend",
                "depends", "rejected")
# A word each verb of _SUBJECT needs.
_SUBJECT_VERBS = ("supersede", "superceded", "replace", "amend", "adds", "extend")


class Gate(msgspec.Struct, frozen=True):
    """Words a pattern needs (one of them, lower case), also grouped by the keywords
    (:data:`_ASCII_WORDS`) they hold: a line whose keywords are known need only be searched for
    the words of those keywords, and for the words that hold none (``rest``)."""

    words: tuple[str, ...]
    by_keyword: dict[str, tuple[str, ...]]
    rest: tuple[str, ...]


def _gate(*words: str) -> Gate:
    by_keyword: dict[str, tuple[str, ...]] = {}
    for keyword in _ASCII_WORDS:
        held = tuple(w for w in words if keyword in w)
        if held:
            by_keyword[keyword] = held
    rest = tuple(w for w in words if not any(k in w for k in _ASCII_WORDS))
    return Gate(words, by_keyword, rest)


def _may_pass(text: str, lower: str, present: set[str] | None, gate: Gate) -> bool:
    """:func:`~adrguard.core.parse.successors.may_hold` of the gate's words, for a line whose
    keywords are ``present`` (None: not known). A word that holds a keyword can be in the line
    only when that keyword is."""
    if present is None or not text.isascii():
        return may_hold(text, lower, *gate.words)
    for w in gate.rest:
        if w in lower:
            return True
    by_keyword = gate.by_keyword
    for keyword in present:
        for w in by_keyword.get(keyword, ()):
            if w in lower:
                return True
    return False


_STARTS = _gate(*_START_WORDS)
_VERBS = _gate(*_SUBJECT_VERBS)
# The keywords whose start rules' every match begins with a word of the keyword
# (``_STARTS.by_keyword``: ``depends``, ``refine``, ``rejected``; ``refined by`` of the rule of
# ``amended``, ``refined`` and ``extended``, as ``amended`` and ``extended`` hold keywords of their
# own): in an ASCII line that holds no other keyword, relation wording starts only there.
_START_ONLY = frozenset({"depend", "refine", "reject"})
# The letters of a lead (:data:`_LEAD`) in ASCII text are those of its label and of ``mark(ed)
# as``, each word a whole run of letters (a label stands before ``\s*[:：]``, ``mark(ed)`` and
# ``as`` before spaces): its last run of letters is its label or ``as``.
_LEAD_ENDS = frozenset({"status", "statut", "note", "nb", "as"})
_LEAD_END_WORDS = tuple(sorted(_LEAD_ENDS))
_LETTERS = string.ascii_letters
_NOT_LETTERS = "".join(chr(i) for i in range(128) if chr(i) not in _LETTERS)
_REPLACES = _gate("replaces")
_SUCCESSOR_WORDS = frozenset(successors.ASCII_KEYWORDS)  # all of them are in _ASCII_WORDS


def _wording_clauses(text: str, lower: str, present: set[str]) -> list[int] | None:
    """The clause starts (of :func:`_clauses`, in order) from which relation wording can start,
    in an ASCII line whose keywords are ``present``, all of :data:`_START_ONLY`; None when the
    line's every clause must be read (a word that may end a lead stands before a start word).

    A start rule that may match there begins with a start word of a keyword the line holds; it
    is tried where a clause's lead ends. A lead's last run of letters is one of
    :data:`_LEAD_ENDS`, and a clause starts at the start of a run of letters or after a
    character that is none. So when the run of letters before a start word (after what is no
    letter) is none of those, a clause whose lead ends at the word starts after that run: at the
    line's start when there is none, or at the end of a clause mark in between. The clause marks
    there are what :data:`_CLAUSE` finds from the end of the run (a mark holds no letter, so no
    mark found from the line's start spans it), and there are none when no character of one
    is."""
    words = _STARTS.by_keyword
    at_words: list[int] = []
    for keyword in present:
        for word in words[keyword]:
            at = lower.find(word)
            while at != -1:
                at_words.append(at)
                at = lower.find(word, at + len(word))
    if not at_words:
        return []
    at_words.sort()  # no two start words begin at one place
    out: list[int] = []
    for at in at_words:
        head = lower[:at].rstrip(_NOT_LETTERS)  # up to the last letter before the word
        after = len(head)
        if not after:
            out.append(0)
        elif (
            head.endswith(_LEAD_END_WORDS)  # perhaps a lead's last word (``as``, or ``has``)
            and head[len(head.rstrip(_LETTERS)) :] in _LEAD_ENDS
        ):
            return None
        between = text[after:at]  # ASCII: of _CLAUSE_CHARS, it can hold these
        if ";" not in between and "," not in between and "-" not in between:
            continue
        for m in _CLAUSE.finditer(text, after):
            if m.end() > at:
                break
            out.append(m.end())
    return out


# The ASCII characters ``\W`` matches, and what can follow ``we`` and its spaces in a match of
# _SUBJECT: ``hereby``, a partial word, a verb.
_NON_WORD = "".join(chr(i) for i in range(128) if not (chr(i).isalnum() or chr(i) == "_"))
_AFTER_WE = ("hereby", "partially", "partly", "in", "supersede", "superceded", "replace",
             "amend", "adds", "extend")


def _may_name_subject(text: str, lower: str) -> bool:
    """Whether :data:`_SUBJECT` may match ``text`` (``lower``: it lowered). In ASCII text its
    record subject needs ``this`` or ``present``, and its ``we`` subject needs ``we`` first
    (after what is no letter, digit or ``_``), a space and a word its wording can go on with
    (``We will replace X`` is no match)."""
    if not text.isascii() or "this" in lower or "present" in lower:
        return True
    rest = lower.lstrip(_NON_WORD)
    return (
        rest.startswith("we")
        and rest[2:3].isspace()
        and rest[2:].lstrip().startswith(_AFTER_WE)
    )


def scan_line(
    text: str, spans: list[Span], partly_superseded: bool = False, status: bool = False
) -> list[Found]:
    """Relationships declared on one line of plain text (with its link spans); ``status``: the
    line states the record's status (a partial supersession there is an amendment)."""
    lower = text.lower()
    if not _holds_keyword(lower):
        return []
    return _scan(text, lower, None, spans, partly_superseded, status)


def _scan(
    text: str,
    lower: str,
    present: set[str] | None,
    spans: list[Span],
    partly_superseded: bool,
    status: bool,
) -> list[Found]:
    """:func:`scan_line` of a line that holds a keyword (``lower``: the line lowered;
    ``present``: the keywords of :data:`_ASCII_WORDS` it holds, when its lowered text is ASCII
    and they are known)."""
    if present is None:
        successor = successors.has_keyword(lower)
    else:  # every ASCII keyword of the successor phrases is one of _ASCII_WORDS
        successor = not _SUCCESSOR_WORDS.isdisjoint(present)
    # keyed.declared reads a key line only where a colon is (formats.label_line needs one) and
    # supersession phrases only with a successor keyword: most lines have neither
    out = (
        [
            Found(kind, target, label, col)
            for kind, (target, label, col) in keyed.declared(text, spans, status, successor)
        ]
        if successor or ":" in text or "：" in text
        else []
    )
    declared = len(out)
    clauses: Iterable[int] | None = None
    if present is not None and present <= _START_ONLY and text.isascii():
        clauses = _wording_clauses(text, lower, present)  # most lines with a keyword
    if clauses is None:
        clauses = _clauses(text) if _may_pass(text, lower, present, _STARTS) else ()
    for clause in clauses:
        begin = _lead_end(text, clause)
        started = _start(text, begin, present)
        if started:
            m, kind = started
            out.extend(
                Found(kind, t, label, col) for t, label, col in _targets(text, spans, m.end())
            )
    subject = (
        _SUBJECT.finditer(text)
        if _may_pass(text, lower, present, _VERBS) and _may_name_subject(text, lower)
        else ()
    )
    for m in subject:
        verb = re.sub(r"\s+", " ", m.group("verb").casefold())
        if verb.startswith("supersede") and " of" in verb:
            kind = RelKind.AMENDS
        else:
            kind = _VERB_KIND.get(verb, RelKind.SUPERSEDES)
            if m.group("partial"):
                kind = _PARTIAL.get(kind, kind)
        out.extend(Found(kind, t, label, col) for t, label, col in _targets(text, spans, m.end()))
    replaces = (
        _REPLACES_DESCRIBED.finditer(text) if _may_pass(text, lower, present, _REPLACES) else ()
    )
    for m in replaces:
        found = _targets(text, spans, m.end())
        out.extend(Found(RelKind.SUPERSEDES, t, label, col) for t, label, col in found)
    for m in _PASSIVE.finditer(text) if may_hold(text, lower, "been") else ():
        kind = RelKind.AMENDED_BY if m.group("partial") else RelKind.SUPERSEDED_BY
        out.extend(Found(kind, t, label, col) for t, label, col in _targets(text, spans, m.end()))
    if "superseded" in text:  # _object_first's own test: without it, it finds nothing
        out.extend(_object_first(text, spans))
    if declared and len(out) > declared:
        # a relation key line (``supersedes: parts of ADR-2``) is read once, by its key
        keyed_targets = {f.target for f in out[:declared]}
        out = out[:declared] + [f for f in out[declared:] if f.target not in keyed_targets]
    if partly_superseded:
        out = [
            Found(_PARTIAL.get(f.kind, f.kind), f.target, f.text, f.column)
            if f.kind is RelKind.SUPERSEDED_BY
            else f
            for f in out
        ]
    return out


# ``ADR 2 can be considered superseded now``, ``[ADR-3](0003-x.md) is superseded``: the record
# that says so supersedes it. Not ``… is superseded by X`` (a passive with its own successor),
# not ``should be marked as superseded once …`` (a plan).
_OBJECT_FIRST = lazy(
    r"(?P<id>\b(?i:adr|rfc)[-_ #]?\d{1,6}\b|\b[A-Z]{2,10}[-_ #]?\d{1,6}\b)\]?\s+"
    r"(?:is|are|was|were|has\s+been|have\s+been|can\s+be\s+considered|is\s+hereby)\s+"
    r"(?:now\s+)?(?P<partial>" + _P + r"\s+)?superseded\b(?!\s+by)",
)


def _object_first(text: str, spans: list[Span]) -> list[Found]:
    out: list[Found] = []
    if "superseded" not in text:
        return out
    for m in _OBJECT_FIRST.finditer(text):
        kind = RelKind.AMENDS if m.group("partial") else RelKind.SUPERSEDES
        start, end = m.span("id")
        link = next((s.link for s in spans if s.start <= start < s.end), None)
        if link is not None:
            out.append(Found(kind, link.target, link.text, link.column))
        else:
            out.append(Found(kind, text[start:end], ""))
    return out


def is_record_target(target: str) -> bool:
    """Whether a body-line target can name a record (not a web page, mail or bare anchor)."""
    t = target.strip()
    if not t or t.startswith("#") or t.lower().startswith("mailto:"):
        return False
    if _SCHEME.match(t):
        path = t.split("#", 1)[0].split("?", 1)[0].lower()
        return path.endswith((".md", ".markdown")) or "/adr" in path or "decision" in path
    return True


def scan_value(value: str) -> list[Found]:
    """Relationships inside a status string (``accepted; supersedes ADR-0045``)."""
    text, spans = successors.labelled(value, _YAML_LINK)
    return scan_line(text.replace("\n", " "), spans, status=True)


def named_targets(value: str) -> list[tuple[str, str]]:
    """(target, link text) of every record a status statement names: its links, else its ids
    (``superseded - in [ADR 9] we changed ...``)."""
    links = [(dest, label) for label, dest in _YAML_LINK.findall(value) if is_record_target(dest)]
    if links:
        return links
    return [(target, "") for target in ids.in_text(_YAML_LINK.sub(" ", value))]


class Where(msgspec.Struct, frozen=True):
    """Where a record's relationships come from: its path, id, key lines, status sections, and
    which labels introduce its status (``Status:``, ``상태 (Status):``)."""

    path: str
    rid: str
    fm_lines: Mapping[str, int]
    status_sections: set[int]
    status_label: Callable[[str], bool] = lambda label: label == "status"


def collect(
    where: Where,
    fm: Mapping[str, Any],
    fm_statuses: list[tuple[str, int]],
    blocks: list[Block],
    partly_superseded: bool,
    body: str | None = None,
) -> tuple[Relationship, ...]:
    """Every relationship a record declares, deduplicated by (kind, target), in file order.
    With ``body`` (the markdown the blocks come from), the blocks count only when
    :func:`declares` says the body may hold relation wording: a body without relation
    keywords declares nothing in its lines or tables."""
    out: list[Relationship] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: RelKind, target: str, line: int, text: str, origin: str, col: int = 1) -> None:
        key = (str(kind), target.strip())
        if key[1] and key not in seen:
            seen.add(key)
            loc = Location(where.path, line, col)
            out.append(Relationship(kind, where.rid, key[1], loc, text, origin))

    for key, value in fm.items():
        kind = keyed.front_matter_key(key)
        if kind is not None:
            for target, text in front_matter_targets(value):
                add(kind, target, where.fm_lines.get(key, 1), text, "front-matter")
    for raw, line in fm_statuses:
        for f in scan_value(raw):
            add(f.kind, f.target, line, f.text, "status")
    cells = [b for b in blocks if b.kind == "cell"]
    prose = [b for b in blocks if b.kind != "heading" and b.kind != "cell"]
    hits, exact = keyword_hits([b.text for b in prose])
    if body is not None:
        # Blocks without keywords or cells give nothing whatever the body says: the body is
        # searched only otherwise, first for the keywords its blocks hold (one usually is).
        held = {word for found in hits for _at, word in found}
        if (held or cells) and not declares(body, held):
            cells, prose, hits = [], [], []
    for b, found in zip(prose, hits, strict=True):
        if not found:
            continue
        found.sort()
        k = 0  # the next hit: the hits are taken line by line, in order
        pos = 0  # where the line starts in the lowered block
        in_status = b.section in where.status_sections
        origin = "status" if in_status else "body"
        first = b.line
        for i, (text, spans) in enumerate(b.lines()):
            lower = text.lower()
            end = pos + len(lower)
            present: set[str] = set()
            while k < len(found) and found[k][0] < end:
                present.add(found[k][1])
                k += 1
            pos = end + 1
            if not (present if exact else _holds_keyword(lower)):
                continue  # what scan_line answers for it: nothing
            label = formats.label_line(text) if not in_status else None
            status = in_status or (label is not None and where.status_label(label[0]))
            known = present if exact else None
            for f in _scan(text, lower, known, spans, partly_superseded, status):
                if is_record_target(f.target):
                    add(f.kind, f.target, first + i, f.text, origin, f.column)
    for kind, (target, text, col), line in keyed.table_rows(cells):
        if is_record_target(target):
            add(kind, target, line, text, "body", col)
    return tuple(out)
