"""Inline suppression comments and rule matching by code, prefix or name.

Two directives, each in its own HTML comment (invisible when the markdown is rendered)::

    <!-- adrguard-disable ADR104 -->                 the whole file
    <!-- adrguard-disable-next-line ADR201, broken-anchor -->   the next non-blank line

Codes, code prefixes (``ADR2``) and rule names may be mixed, separated by commas and/or spaces.
A directive with no code at all applies to every rule. Text after `` -- `` is a free-form reason
and is ignored (``<!-- adrguard-disable ADR104 -- generated file -->``).

Matching is flake8-style "most specific wins": an exact code or name is more specific than any
prefix, and a longer prefix is more specific than a shorter one (see :func:`specificity`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision

FILE = "file"
NEXT_LINE = "next-line"

# Exact matches (a code or a name) outrank every prefix; prefixes rank by their length.
EXACT = 1000

_DIRECTIVE = "adrguard-disable"
_NEXT = "-next-line"
_WORD = lazy(r"[\w-]")
_CODE = lazy(r"^ADR\d{1,3}$", re.IGNORECASE)
_SPLIT = lazy(r"[\s,]+")
_REASON = lazy(r"\s--(?:\s|$)")


class Suppression(msgspec.Struct, frozen=True):
    """One directive: which rules (as written) it silences, where it is and which line it covers."""

    kind: str  # FILE | NEXT_LINE
    selectors: tuple[str, ...]  # codes, prefixes or names as written; () = every rule
    line: int  # line of the comment in the file
    target_line: int | None = None  # NEXT_LINE: the line it covers (None: nothing follows)

def normalise_selector(selector: str) -> str:
    """Codes and prefixes upper-case (``adr104`` → ``ADR104``), names lower-case."""
    s = selector.strip()
    return s.upper() if s[:3].upper() == "ADR" and (s[3:].isdigit() or not s[3:]) else s.lower()


def is_code_like(selector: str) -> bool:
    """``ADR``, ``ADR1``, ``ADR10``, ``ADR104``: a code or a code prefix."""
    s = normalise_selector(selector)
    return s == "ADR" or bool(_CODE.match(s))


def specificity(selector: str, code: str, name: str) -> int | None:
    """How specifically ``selector`` names the rule ``code``/``name``; None when it does not.

    Exact code or exact name → :data:`EXACT`; a code prefix → its length (``ADR`` = 3,
    ``ADR3`` = 4, ``ADR30`` = 5).
    """
    s = normalise_selector(selector)
    if not s:
        return None
    if s in (code, name):
        return EXACT
    if code.startswith(s) and is_code_like(s):
        return len(s)
    return None


def best_match(selectors: Iterable[str], code: str, name: str) -> int | None:
    """The highest :func:`specificity` of any selector for the rule, or None."""
    best: int | None = None
    for selector in selectors:
        spec = specificity(selector, code, name)
        if spec is not None and (best is None or spec > best):
            best = spec
    return best


def is_known(selector: str, rules: Iterable[tuple[str, str]]) -> bool:
    """Whether ``selector`` matches at least one rule of ``rules`` ((code, name) pairs)."""
    s = normalise_selector(selector)
    if not s:
        return False
    prefix = is_code_like(s)
    return any(s in (code, name) or (prefix and code.startswith(s)) for code, name in rules)


def split_selectors(text: str) -> tuple[str, ...]:
    """``"ADR104, ADR201 broken-link"`` → ``("ADR104", "ADR201", "broken-link")``; a selector
    written twice counts once."""
    return tuple(dict.fromkeys(s for s in _SPLIT.split(text.strip()) if s))


def parse_directive(comment: str) -> tuple[str, tuple[str, ...]] | None:
    """``(kind, selectors)`` for a suppression comment's text, None for any other comment.

    String operations only (no backtracking pattern over text of any length): the text may
    be wrapped in ``<!--``/``-->``; after the directive word comes the selector list, then an
    optional `` -- reason``."""
    text = comment.strip()
    if text.startswith("<!--"):
        text = text[4:].lstrip()
    if not text.startswith(_DIRECTIVE):
        return None
    rest = text[len(_DIRECTIVE) :]
    kind = FILE
    if rest.startswith(_NEXT) and not _WORD.match(rest, len(_NEXT)):
        kind, rest = NEXT_LINE, rest[len(_NEXT) :]
    if _WORD.match(rest):
        return None  # adrguard-disabled, adrguard-disable-foo: another word
    rest = rest.rstrip()
    if rest.endswith("-->"):
        rest = rest[:-3]
    rest = _REASON.split(" " + rest, maxsplit=1)[0]
    return kind, split_selectors(rest)


def suppressions(decision: Decision) -> tuple[Suppression, ...]:
    """Every suppression directive in the record's HTML comments, in file order."""
    if not decision.comments:
        return ()
    out: list[Suppression] = []
    following: _NextNonBlank | None = None
    for comment in decision.comments:
        parsed = parse_directive(comment.text)
        if parsed is None:
            continue
        kind, selectors = parsed
        target = None
        if kind == NEXT_LINE:
            if following is None:
                following = _NextNonBlank(decision.text, decision.body_line_offset)
            target = following(comment.line + comment.text.count("\n"))
        out.append(Suppression(kind, selectors, comment.line, target))
    return tuple(out)


def citing_suppressions(corpus: Corpus) -> dict[str, tuple[Suppression, ...]]:
    """The suppression comments of the files that cite decisions (code and documents outside
    the ADR roots, in their own comment syntax), by path."""
    found = corpus.citations
    if found is None:
        return {}
    out: dict[str, tuple[Suppression, ...]] = {}
    for f in found.files:
        parsed = []
        for w in f.waivers:
            directive = parse_directive(w.text)
            if directive is not None:
                kind, selectors = directive
                parsed.append(Suppression(kind, selectors, w.line,
                                          w.target_line if kind == NEXT_LINE else None))
        if parsed:
            out[f.path] = tuple(parsed)
    return out


class _NextNonBlank:
    """File line number of the first non-blank line after a file line, for a record's body
    (body line ``i``, 0-based, is file line ``i + 1 + offset``). One backward pass over the
    lines answers every question: a flood of comments above a flood of blank lines is linear."""

    def __init__(self, text: str, offset: int) -> None:
        lines = text.splitlines()
        self.offset = offset
        self.next: list[int | None] = [None] * (len(lines) + 1)
        for index in range(len(lines) - 1, -1, -1):
            self.next[index] = index if lines[index].strip() else self.next[index + 1]

    def __call__(self, after: int) -> int | None:
        index = min(max(after - self.offset, 0), len(self.next) - 1)
        found = self.next[index]
        return None if found is None else found + 1 + self.offset


class Index:
    """A record's suppressions, looked up by line: which directives cover a finding, and the
    ``(comment line, selector)`` pairs that silenced something. Each distinct (line, rule) is
    worked out once, so many comments and many findings stay linear together."""

    def __init__(self, found: Iterable[Suppression]) -> None:
        self.all = tuple(found)
        self.file_wide = tuple(s for s in self.all if s.kind == FILE)
        self.by_line: dict[int, list[Suppression]] = {}
        for s in self.all:
            if s.kind == NEXT_LINE and s.target_line is not None:
                self.by_line.setdefault(s.target_line, []).append(s)
        self.used: set[tuple[int, str]] = set()
        self._answers: dict[tuple[int | None, str, str], bool] = {}

    def silences(self, line: int, code: str, name: str) -> bool:
        """Whether a directive covers a finding of rule ``code``/``name`` on ``line``; every
        selector that does is recorded in :attr:`used`."""
        wide = self._silenced(None, self.file_wide, code, name)
        near = self._silenced(line, self.by_line.get(line, ()), code, name)
        return wide or near

    def _silenced(self, line: int | None, found: Iterable[Suppression], code: str,
                  name: str) -> bool:
        key = (line, code, name)
        answer = self._answers.get(key)
        if answer is None:
            answer = False
            for s in found:
                for selector in s.selectors or ("*",):
                    if selector == "*" or specificity(selector, code, name):
                        self.used.add((s.line, selector))
                        answer = True
            self._answers[key] = answer
        return answer
