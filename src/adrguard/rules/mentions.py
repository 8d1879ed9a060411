"""Lines of a record's text that may mention a decision id, masked for ADR204.

Code, comments, URLs and link targets are blanked; lines inside fenced or indented code are
skipped. The lines worth masking are those where the id pattern matches. For the built-in
pattern, which can never match across a line break, one search over the whole text finds exactly
those lines; any other pattern is tried line by line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from adrguard.core.options import Options

DEFAULT_ID_PATTERN = Options.decision_id_pattern

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MASK = re.compile(
    r"<!--.*?-->|\]\([^)]*\)|<[a-z][a-z0-9+.\-]*:[^>]*>|\b[a-z][a-z0-9+.\-]*://\S+", re.I | re.S
)


def _blank(m: re.Match[str]) -> str:
    """The match with every character but a line break turned into a space."""
    text = m.group(0)
    if "\n" not in text:
        return " " * len(text)
    return "\n".join(" " * len(part) for part in text.split("\n"))


# Patterns known to match inside one line only, found exactly as a search of that line alone
# would find them, with the literal text every match starts with. Only the built-in id pattern
# is listed: ``\b`` sees a line break as it sees an end, and nothing else in it can match one.
# Any other pattern (a configured ``decision-id-pattern``) is tried line by line, which is
# always right and only slower.
LINE_LOCAL: dict[tuple[str, int], str] = {(DEFAULT_ID_PATTERN, 0): "ADR"}


def line_local(source: str, flags: int) -> tuple[bool, str]:
    """Whether every match of the pattern lies inside one line (see :data:`LINE_LOCAL`), and
    the literal text every match then starts with."""
    lead = LINE_LOCAL.get((source, flags & ~re.UNICODE))  # str patterns always carry re.U
    return (lead is not None), lead or ""


def _matching_lines(body: str, pattern: re.Pattern[str]) -> set[int] | None:
    """1-based numbers of the lines where ``pattern`` matches, or None when unknown."""
    local, lead = line_local(pattern.pattern, pattern.flags)
    if not local:
        return None
    found: set[int] = set()
    line, pos = 1, 0
    if lead:  # every match starts with ``lead``: try the pattern only where it occurs
        find, match = body.find, pattern.match
        at = find(lead)
        while at != -1:
            if match(body, at):
                line += body.count("\n", pos, at)
                pos = at
                found.add(line)
            at = find(lead, at + 1)
        return found
    for m in pattern.finditer(body):
        start = m.start()
        line += body.count("\n", pos, start)
        pos = start
        found.add(line)
    return found


def _masked(line: str) -> str:
    """The line with comments, link targets, URLs and code spans blanked (each pattern only
    runs when the text it needs is there)."""
    if "<" in line or "](" in line or "://" in line:
        line = _MASK.sub(_blank, line)
    if "`" in line:
        line = _CODE_SPAN.sub(_blank, line)
    return line


def mentions_any(text: str, pattern: re.Pattern[str]) -> bool:
    """``pattern.search(text) is not None``, trying the pattern only where its lead occurs."""
    lead = line_local(pattern.pattern, pattern.flags)[1]
    if not lead:
        return pattern.search(text) is not None
    find, match = text.find, pattern.match
    at = find(lead)
    while at != -1:
        if match(text, at):
            return True
        at = find(lead, at + 1)
    return False


def masked_lines(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """Lines that may mention an id, with code, comments, URLs and link targets blanked;
    lines inside fenced or indented code blocks are skipped."""
    body = _COMMENT.sub(_blank, text) if "<!--" in text else text
    lines = body.split("\n")
    matching = _matching_lines(body, pattern)
    if matching is not None and "`" not in body and "~" not in body:
        numbers: Iterator[int] = iter(sorted(matching))  # no fences: only these lines count
        for number in numbers:
            line = lines[number - 1]
            if not (
                line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+"))
            ):
                yield number, _masked(line)
        return
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
        if "`" in line or "~" in line:
            m = _FENCE.match(line)
            if fence is not None:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
        elif fence is not None:
            continue
        if matching is None:
            if not pattern.search(line):
                continue
        elif number not in matching:
            continue
        if line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+")):
            continue
        yield number, _masked(line)
