"""Metadata tables: a log that states each record's status in a table (``| Status | Accepted
|``) gets new records with the same table, and its records are edited cell by cell. Part of
:mod:`.learn`, :mod:`.render` and :mod:`.edit`. Pure.

The table of a new record is the one of the log's latest record that states its status in a
table: its header and delimiter rows as written, the status row and the date rows (rows
labelled with a date word) filled in, and the other rows most of the log's tables share with
their labels kept and their values left empty for the author. Relation rows (``| Supersedes |
…``) are the record's own and are left out. A row is split at its unescaped pipes; only the
value cell (the one after the label) changes, so the row's padding and other cells stay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from adrguard.core.authoring.habits import heading_line, section_of
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision
from adrguard.core.parse import formats
from adrguard.core.parse.keyed import front_matter_key

_PIPE = lazy(r"(?<!\\)\|")
_DELIMITER = lazy(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a new record's table: ``before`` + the value + ``after`` for the status and
    date rows (``role``), the value as wide as ``width`` (the column stays aligned); the line
    as it is (``before``) for the others."""

    before: str
    role: str = ""  # "" | status | date
    after: str = ""
    width: int = 0


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    section: str = ""  # the heading line of the section holding it ("" = below the title)

    def lines(self, status: str, date: str) -> list[str]:
        values = {"status": escape(status), "date": escape(date)}
        return [r.before + values[r.role].ljust(r.width) + r.after if r.role else r.before
                for r in self.rows]


def escape(value: str) -> str:
    """A cell's value: its pipes escaped (``a | b`` would split the cell)."""
    return _PIPE.sub(r"\\|", value)


def is_delimiter(line: str) -> bool:
    """``|---|:---:|``: the row under a table's header."""
    return bool(_DELIMITER.match(line)) and "-" in line


def is_row(line: str) -> bool:
    return "|" in line and len(_PIPE.split(line)) >= 3 and not _DELIMITER.match(line)


def _label(line: str) -> str:
    parts = _PIPE.split(line)
    first = parts[1] if not parts[0].strip() else parts[0]
    return formats.cell_label(first.strip())


def _value_cell(line: str) -> tuple[int, int] | None:
    """Where the value cell's text starts and ends in ``line`` (padding excluded)."""
    pipes = [m.start() for m in _PIPE.finditer(line)]
    lead = bool(line[: pipes[0]].strip()) if pipes else True
    # | label | value |: the value lies between the second and third pipe; label | value: after
    # the first
    start_pipe = pipes[0] if lead else (pipes[1] if len(pipes) > 1 else None)
    if start_pipe is None:
        return None
    end = next((p for p in pipes if p > start_pipe), len(line))
    start = start_pipe + 1
    text = line[start:end]
    left = len(text) - len(text.lstrip())
    right = len(text.rstrip())
    if right <= left:  # an empty cell: the value goes after one space
        return (start + min(left, 1), start + min(left, 1))
    return (start + left, start + right)


_WRAP = lazy(r"^(\*\*|__|\*|_|`)(?=\S)(.*?\S)\1$")


def set_value(line: str, value: str) -> str | None:
    """``line`` (a row ``| Status | Accepted |``) with its value cell holding ``value``, in
    the emphasis or code the old value was wrapped in (``**ACCEPTED**``) and as wide as it
    was when shorter (the column stays aligned); None when the line is not such a row."""
    cell = _value_cell(line) if is_row(line) else None
    if cell is None:
        return None
    old = line[cell[0] : cell[1]]
    wrap = _WRAP.match(old)
    text = f"{wrap.group(1)}{escape(value)}{wrap.group(1)}" if wrap and value else escape(value)
    rest = line[cell[1] :]
    pad = len(rest) - len(rest.lstrip(" "))
    if len(text) < len(old) and pad:
        text = text.ljust(len(old))
    elif len(text) > len(old) and pad > 1:  # the padding gives way, down to one space
        rest = rest[min(len(text) - len(old), pad - 1) :]
    return line[: cell[0]] + text + rest


def row_like(line: str, label: str, value: str) -> str:
    """A new row shaped like ``line`` (its pipes, its number of cells) holding ``label`` and
    ``value``: ``| Supersedes | [3. X](0003-x.md) |``."""
    parts = _PIPE.split(line)
    leading = not parts[0].strip()
    trailing = not parts[-1].strip()
    cells = parts[int(leading) : len(parts) - int(trailing)]
    new = [f" {label} ", f" {escape(value)} "] + [" "] * max(len(cells) - 2, 0)
    text = "|".join(new).strip() if not leading else "|".join(new)
    return (parts[0] + "|" if leading else "") + text + ("|" if trailing else "")


def block(lines: Sequence[str], index: int) -> tuple[int, int] | None:
    """The first and last index of the table holding ``lines[index]``: the rows around it,
    delimiter rows included; None when that line is no table row."""
    if not (0 <= index < len(lines)) or not is_row(lines[index]):
        return None

    def part(i: int) -> bool:
        return is_row(lines[i]) or bool(_DELIMITER.match(lines[i]))

    first = index
    while first > 0 and part(first - 1):
        first -= 1
    last = index
    while last + 1 < len(lines) and part(last + 1):
        last += 1
    return first, last


def _table_of(d: Decision) -> tuple[list[str], int, int] | None:
    """The lines of the table ``d`` states its status in, with the status row's index in
    them and the file line of the first."""
    if not d.statuses or d.statuses[0].source != "line":
        return None
    lines = d.text.split("\n")
    at = d.statuses[0].line - 1 - d.body_line_offset
    found = block(lines, at)
    if found is None:
        return None
    first, last = found
    return lines[first : last + 1], at - first, first + 1 + d.body_line_offset


def learn(records: Sequence[Decision]) -> Table | None:
    """The table of a new record (see the module docstring), from ``records`` oldest first;
    None when the log's latest record with a status states it outside a table."""
    tables = [(d, t) for d in records if (t := _table_of(d)) is not None]
    stated = [d for d in records if d.statuses]
    if not tables or not stated or stated[-1] is not tables[-1][0]:
        return None
    shared: Counter[str] = Counter()
    for _, (lines, _, _) in tables:
        shared.update({_label(ln) for ln in lines if is_row(ln)})
    d, (lines, status_at, first_line) = tables[-1]
    rows: list[Row] = []
    for i, line in enumerate(lines):
        label = _label(line) if is_row(line) else ""
        if not is_row(line):
            rows.append(Row(line))  # the delimiter
        elif i == status_at or formats.is_date_label(label):
            cell = _value_cell(line)
            if cell is None:
                return None
            role = "status" if i == status_at else "date"
            old = line[cell[0] : cell[1]]
            wrap = _WRAP.match(old)
            mark = wrap.group(1) if wrap else ""
            width = len(old) - 2 * len(mark) if line[cell[1] : cell[1] + 1] == " " else 0
            rows.append(Row(line[: cell[0]] + mark, role, mark + line[cell[1] :], width))
        elif i == 0:
            rows.append(Row(line))  # the header row names the columns
        elif front_matter_key(label) is None and 2 * shared[label] >= len(tables):
            blank = set_value(line, "")
            rows.append(Row(blank if blank is not None else line))
    index = section_of(d, first_line)
    section = heading_line(d, index) if index is not None and d.sections[index].level > 1 else ""
    return Table(tuple(rows), section)
