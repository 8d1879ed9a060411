"""Small helpers the style learners share: the vote over the records' habits, and reading a
record's lines and sections as written. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision

DIGITS = lazy(r"\d+")
HEADING = lazy(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
BULLET = lazy(r"^\s*(?:[*+-]|\d{1,9}[.)])\s+")


def vote(values: Iterable[object], default: Any = None) -> Any:
    """The most common value; among equals, the one seen last (the later record)."""
    counts: Counter[object] = Counter()
    last: dict[object, int] = {}
    for i, value in enumerate(values):
        if value is None:
            continue
        counts[value] += 1
        last[value] = i
    if not counts:
        return default
    return max(counts, key=lambda v: (counts[v], last[v]))


def body_line(d: Decision, line: int) -> str:
    """File line ``line`` of the record's body as written ("" in the front matter)."""
    index = line - 1 - d.body_line_offset
    lines = d.text.split("\n")
    return lines[index] if 0 <= index < len(lines) else ""


def section_of(d: Decision, line: int) -> int | None:
    """Index in ``d.sections`` of the section holding file line ``line``."""
    found = None
    for i, s in enumerate(d.sections):
        if s.line < line:
            found = i
    return found


def heading_line(d: Decision, index: int) -> str:
    section = d.sections[index]
    m = HEADING.match(body_line(d, section.line))
    return f"{m.group(1)} {m.group(2)}" if m else f"{'#' * section.level} {section.title}"


def number_template(prefix: str, number: int | None) -> str | None:
    """``ADR-001: `` -> ``ADR-{number:03d}: ``; None when a number in it is not the record's."""
    out, pos = [], 0
    for m in DIGITS.finditer(prefix):
        if number is None or int(m.group()) != number:
            return None
        digits = m.group()
        out.append(prefix[pos : m.start()].replace("{", "{{").replace("}", "}}"))
        out.append(f"{{number:0{len(digits)}d}}" if digits.startswith("0") and len(digits) > 1
                   else "{number}")
        pos = m.end()
    out.append(prefix[pos:].replace("{", "{{").replace("}", "}}"))
    return "".join(out)
