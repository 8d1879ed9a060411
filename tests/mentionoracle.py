"""The old ways ADR204 found fenced lines and measured link texts, kept as the oracles of the
mention and link tests (tests/rules): every line walked for fences with one pattern, and every
line's link texts measured on the whole text split into lines by counting brackets (the count
every link text was measured with before the plain-text shortcut)."""

from __future__ import annotations

import re

from adrguard.core.model import Decision

OLD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a line that opens or closes a fence


def old_link_texts(d: Decision) -> dict[int, list[tuple[int, int]]]:
    """The link texts of every body line of the record, as they were measured (the text split)."""
    lines = d.text.split("\n")
    out: dict[int, list[tuple[int, int]]] = {}
    for link in d.links:
        number = link.line - d.body_line_offset
        if link.kind not in ("inline", "reference") or not 1 <= number <= len(lines):
            continue
        raw = lines[number - 1]
        start = link.column - 1 + (1 if link.is_image else 0)
        if raw[start : start + 1] != "[":
            continue
        depth, end = 0, -1
        for i in range(start, len(raw)):
            ch = raw[i]
            if ch == "\\":
                continue
            if ch == "[" and (i == 0 or raw[i - 1] != "\\"):
                depth += 1
            elif ch == "]" and raw[i - 1] != "\\":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end > start:
            out.setdefault(number, []).append((start + 1, end))
    return out
