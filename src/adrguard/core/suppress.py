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
from dataclasses import dataclass

from adrguard.core.model import Decision

FILE = "file"
NEXT_LINE = "next-line"

# Exact matches (a code or a name) outrank every prefix; prefixes rank by their length.
EXACT = 1000

_DIRECTIVE = re.compile(
    r"^\s*(?:<!--)?\s*adrguard-disable(?P<next>-next-line)?(?![\w-])(?P<rest>.*?)\s*(?:-->)?\s*$",
    re.DOTALL,
)
_CODE = re.compile(r"^ADR\d{1,3}$", re.IGNORECASE)
_SPLIT = re.compile(r"[\s,]+")
_REASON = re.compile(r"\s--(?:\s|$)")


@dataclass(frozen=True, slots=True)
class Suppression:
    """One directive: which rules (as written) it silences, where it is and which line it covers."""

    kind: str  # FILE | NEXT_LINE
    selectors: tuple[str, ...]  # codes, prefixes or names as written; () = every rule
    line: int  # line of the comment in the file
    target_line: int | None = None  # NEXT_LINE: the line it covers (None: nothing follows)

    def covers_line(self, line: int) -> bool:
        return self.kind == FILE or (self.target_line is not None and line == self.target_line)


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
    if is_code_like(s) and code.startswith(s):
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
    return any(specificity(selector, code, name) is not None for code, name in rules)


def split_selectors(text: str) -> tuple[str, ...]:
    """``"ADR104, ADR201 broken-link"`` → ``("ADR104", "ADR201", "broken-link")``."""
    return tuple(s for s in _SPLIT.split(text.strip()) if s)


def parse_directive(comment: str) -> tuple[str, tuple[str, ...]] | None:
    """``(kind, selectors)`` for a suppression comment's text, None for any other comment."""
    m = _DIRECTIVE.match(comment)
    if m is None:
        return None
    rest = _REASON.split(" " + m.group("rest"), maxsplit=1)[0]
    kind = NEXT_LINE if m.group("next") else FILE
    return kind, split_selectors(rest)


def suppressions(decision: Decision) -> tuple[Suppression, ...]:
    """Every suppression directive in the record's HTML comments, in file order."""
    if not decision.comments:
        return ()
    lines = decision.text.splitlines()
    out: list[Suppression] = []
    for comment in decision.comments:
        parsed = parse_directive(comment.text)
        if parsed is None:
            continue
        kind, selectors = parsed
        target = None
        if kind == NEXT_LINE:
            end = comment.line + comment.text.count("\n")
            target = _next_non_blank(lines, end, decision.body_line_offset)
        out.append(Suppression(kind, selectors, comment.line, target))
    return tuple(out)


def _next_non_blank(lines: list[str], after: int, offset: int) -> int | None:
    """File line number of the first non-blank line after file line ``after``.

    ``lines`` are the body lines; body line ``i`` (0-based) is file line ``i + 1 + offset``.
    """
    for index in range(max(after - offset, 0), len(lines)):
        if lines[index].strip():
            return index + 1 + offset
    return None
