"""Lines of a record's text that may mention a decision id, masked for ADR204.

Code, comments, URLs and link targets are blanked; lines inside fenced or indented code are
skipped. The lines worth masking are those where the id pattern matches: the pattern is
compiled line-local (:func:`adrguard.core.saferegex.compile_user`), so one pass over the whole
text finds exactly those lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from adrguard.core.lazyre import lazy
from adrguard.core.options import DECISION_ID_PATTERN
from adrguard.core.parse.masking import blank_comments, mask_line
from adrguard.core.saferegex import Regex

# a line that opens or closes a fence, matched where the line starts inside a text
_FENCE_AT = lazy(r" {0,3}(`{3,}|~{3,})")


_DEFAULT_ID = DECISION_ID_PATTERN
# Text every match of a pattern holds, for the patterns where that is known: a text without it
# has no match, and the pattern need not run (the default ``decision-id-pattern`` matches only
# where ``ADR`` is written, in capitals: RE2 is case-sensitive unless the pattern says not).
_HELD_BY_EVERY_MATCH = {_DEFAULT_ID: "ADR"}
# The default pattern as the standard library's engine reads it with the same matches, line by
# line: RE2's \b and \d are ASCII (``re.ASCII``), nothing in it matches a line break, and its
# bounded repeats cannot backtrack for long. RE2's binding runs Python code for every match (it
# encodes the text and maps byte offsets back); ``re`` finds the same matches in C.
_TWIN = lazy(r"\bADR[- ]?([0-9]{1,5})\b", re.ASCII | re.MULTILINE)
# The same without its leading \b, which keeps ``re`` from jumping to each ``ADR`` (a pattern
# that starts with a literal is scanned for it in C): the \b is tested on each match found.
# Leaving out a match without it leaves out no other: no match starts inside one ("ADR" cannot
# follow "ADR" before the digits end it).
_AFTER_BOUNDARY = lazy(r"ADR[- ]?([0-9]{1,5})\b", re.ASCII)
_WORD = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


class _DefaultIds:
    """The default pattern's program, for :class:`~adrguard.core.saferegex.Regex`."""

    groups = 1

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        for m in _AFTER_BOUNDARY.finditer(text):
            start = m.start()
            if start == 0 or text[start - 1] not in _WORD:
                yield m

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)

    def match(self, text: str) -> re.Match[str] | None:
        return _TWIN.match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return _TWIN.fullmatch(text)


def for_lines(pattern: Regex) -> Regex:
    """``pattern`` (compiled line-local), or the same pattern run by the standard library's
    engine when that is known to find exactly its matches (the default
    ``decision-id-pattern``): what the mention rules match text with."""
    if pattern.pattern == _DEFAULT_ID and pattern.line_local:
        return Regex(pattern.pattern, _DefaultIds(), True)
    return pattern


def needed(pattern: Regex) -> str | None:
    """Text every match of ``pattern`` holds (None when not known): where it is missing,
    ``pattern`` matches nothing."""
    return _HELD_BY_EVERY_MATCH.get(pattern.pattern)


def _matching_starts(body: str, pattern: Regex) -> dict[int, int]:
    """1-based numbers of the lines where ``pattern`` matches, each with where it starts in
    ``body``: one pass over the body (the pattern is compiled line-local, so no match spans a
    line break)."""
    found: dict[int, int] = {}
    line, pos = 1, 0
    start_of_line = 0
    for m in pattern.finditer(body):
        start = m.start()
        breaks = body.count("\n", pos, start)
        if breaks:
            line += breaks
            start_of_line = body.rfind("\n", pos, start) + 1
        pos = start
        found[line] = start_of_line
    return found


def masked_lines(text: str, pattern: Regex) -> Iterator[tuple[int, str]]:
    """Lines that may mention an id, with code, comments, URLs and link targets blanked;
    lines inside fenced or indented code blocks are skipped."""
    for number, _start, line in masked_lines_at(blank_comments(text), pattern):
        yield number, line


def masked_lines_at(body: str, pattern: Regex) -> Iterator[tuple[int, int, str]]:
    """:func:`masked_lines` of a text whose comments are already blanked (``body``: its line
    breaks, so where each line starts, are the text's), each line with where it starts. Only
    the lines ``pattern`` matches are cut out of ``body``; the fenced ones among them are found
    from the lines that can open or close a fence (:func:`fenced_lines`)."""
    found = _matching_starts(body, pattern)
    if not found:
        return
    fenced = fenced_lines(body) if "```" in body or "~~~" in body else []
    f = 0
    for number in sorted(found):
        while f < len(fenced) and fenced[f][1] < number:
            f += 1
        if f < len(fenced) and fenced[f][0] <= number:
            continue  # a fence's line, or a line inside a fenced block
        start = found[number]
        end = body.find("\n", start)
        line = body[start:] if end == -1 else body[start:end]
        if line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+")):
            continue
        yield number, start, mask_line(line)


def fenced_lines(body: str) -> list[tuple[int, int]]:
    """The fenced blocks of ``body`` as (first, last) line numbers, 1-based and inclusive,
    their fence lines included; a block left open runs to the end (its last line is
    ``sys.maxsize``). Only the lines that can open or close a fence are read: those where
    ``` or ~~~ follows at most three spaces (:data:`_FENCE_AT`), found where ``` and ~~~
    occur."""
    starts: set[int] = set()
    for token in ("```", "~~~"):
        at = body.find(token)
        while at != -1:
            line_start = body.rfind("\n", 0, at) + 1
            if at - line_start <= 3 and body.count(" ", line_start, at) == at - line_start:
                starts.add(line_start)
            # a later one on this line follows a backtick or tilde: it cannot open a fence
            line_end = body.find("\n", at)
            if line_end == -1:
                break
            at = body.find(token, line_end + 1)
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    number, pos = 1, 0
    for line_start in sorted(starts):
        number += body.count("\n", pos, line_start)
        pos = line_start
        m = _FENCE_AT.match(body, line_start)
        if m is None:  # (a fence's run follows the spaces: the pattern matches; kept safe)
            continue
        run = m.group(1)
        if fence is None:
            fence, opened = run, number
        elif run[0] == fence[0] and len(run) >= len(fence):
            blocks.append((opened, number))
            fence = None
    if fence is not None:
        blocks.append((opened, sys.maxsize))
    return blocks
