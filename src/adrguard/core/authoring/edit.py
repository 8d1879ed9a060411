"""Edit an existing record: its status statement, and one relation line added in the log's
place for relations. Everything outside the edited line (or the inserted lines) stays byte for
byte as it was, line endings included. Pure.

The record is found by the parser's own reading of it: the status statement's line and source
(front matter, a Status section, a ``Status:`` line or bullet, a heading), and the blocks of
the markdown pass (:func:`adrguard.core.parse.markdown.walk`, byte ranges turned into lines)
for where a section or a list ends. What cannot be edited safely (a status value spread over
several YAML lines, a record that states no status) is an :class:`EditError` that says so.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from adrguard.core.authoring import dating, tables
from adrguard.core.authoring.style import Place, Style
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, StatusStatement
from adrguard.core.parse import status as st
from adrguard.core.parse.document import Document
from adrguard.core.parse.front_matter import split
from adrguard.core.parse.keyed import front_matter_key
from adrguard.core.parse.markdown import walk

_BLOCK_PREFIX = lazy(r"^([ \t]*(?:>[ \t]?)*[ \t]*(?:[*+-][ \t]+|\d{1,9}[.)][ \t]+)?"
                           r"(?:\[[ xX]\][ \t]+)?(?:\*\*|__|\*|_)?)")
_EMPHASIS_END = lazy(r"(?:\*\*|__|\*|_)?[ \t]*$")
_FM_KEY = lazy(r"^([ \t]*[\"']?)([^\"':#]+?)([\"']?[ \t]*:[ \t]*)(.*?)([ \t]+#.*)?$")
_BULLET = lazy(r"^([ \t]*(?:[*+-]|\d{1,9}[.)])[ \t]+)")
_COLON = lazy(r"[:：]")


class EditError(Exception):
    """The record cannot be edited safely; the message says why and what to do by hand."""


@dataclass
class Text:
    """A record's text as lines that keep their own line endings."""

    lines: list[str]
    newline: str

    @classmethod
    def of(cls, data: str) -> Text:
        lines = data.splitlines(keepends=True)
        if any(line.endswith("\r") and not line.endswith("\r\n") for line in lines):
            raise EditError("the file ends its lines with a bare carriage return (CR)")
        crlf = sum(line.endswith("\r\n") for line in lines)
        return cls(lines, "\r\n" if crlf > len(lines) // 2 else "\n")

    def get(self, line: int) -> str:
        """File line ``line`` (1-based) without its line ending."""
        return self.lines[line - 1].rstrip("\r\n")

    def set(self, line: int, text: str) -> None:
        old = self.lines[line - 1]
        ending = old[len(old.rstrip("\r\n")) :]
        self.lines[line - 1] = text + ending

    def insert(self, after: int, new: list[str]) -> None:
        """Insert lines after file line ``after`` (0: at the top)."""
        if after > 0 and not self.lines[after - 1].endswith("\n"):
            self.lines[after - 1] += self.newline  # the last line had no line ending
        self.lines[after:after] = [t + self.newline for t in new]

    def blank(self, line: int) -> bool:
        return line > len(self.lines) or not self.get(line).strip()

    def __str__(self) -> str:
        return "".join(self.lines)


def primary(d: Decision) -> StatusStatement:
    if not d.statuses:
        raise EditError(f"{d.path} states no status to change: add one by hand first")
    return d.statuses[0]


# --- the status ---------------------------------------------------------------------------


def set_status(data: str, d: Decision, value: str, day: dt.date,
               synonyms: Mapping[str, str]) -> str:
    """``data`` (the record ``d``) with its status statement replaced by ``value`` (the words
    to write, ``Superseded by [5. X](0005-x.md)``); in a dated status history a new entry dated
    ``day`` (written like the history's dates) is added after the latest one instead. A record
    that states the same status a second time elsewhere (front matter and a Status section)
    gets both changed."""
    primary(d)
    statements = [d.statuses[0]] + [s for s in d.statuses[1:2] if _restates(d, s)]
    for stmt in sorted(statements, key=lambda s: -s.line):  # bottom up: lines stay put
        data = _set_one(data, d, stmt, value, day, synonyms)
    return data


def _restates(d: Decision, stmt: StatusStatement) -> bool:
    """A second statement that says what the first one says, from another place."""
    first = d.statuses[0]
    return stmt.source != first.source and stmt.status is first.status


def _set_one(data: str, d: Decision, stmt: StatusStatement, value: str, day: dt.date,
             synonyms: Mapping[str, str]) -> str:
    text = Text.of(data)
    if stmt.source == "front-matter":
        _set_front_matter(text, stmt.line, value, d)
    elif stmt.source == "section":
        _set_statement(text, stmt, value, day, synonyms)
    else:
        _set_labelled(text, stmt.line, value)
    return str(text)


def _set_front_matter(text: Text, line: int, value: str, d: Decision) -> None:
    m = _FM_KEY.match(text.get(line))
    if m is None:
        raise EditError(f"{d.path}:{line}: the status key is not a `key: value` line")
    nxt = line + 1
    if nxt <= len(text.lines) and text.get(nxt)[:1] in (" ", "\t") and text.get(nxt).strip():
        raise EditError(f"{d.path}:{line}: the status value spans several YAML lines")
    old = m.group(4)
    scalar = yaml_value(value, old[:1] if old[:1] in "\"'" else "")
    text.set(line, f"{m.group(1)}{m.group(2)}{m.group(3)}{scalar}{m.group(5) or ''}")


def yaml_value(value: object, quote: str = "") -> str:
    """``value`` as a YAML scalar: quoted like the value it replaces, else plain when the
    front-matter reader reads it back as the same value, else double-quoted."""
    import json

    if isinstance(value, bool) or value is None or isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    if quote == "'":
        return "'" + text.replace("'", "''") + "'"
    if quote != '"' and "\n" not in text and text == text.strip():
        mapping = split(f"---\nk: {text}\n---\n")[0]
        if mapping == {"k": text}:
            return text
    return json.dumps(text, ensure_ascii=False)


def split_markup(line: str) -> tuple[str, str, str]:
    """(markup before the text, the text, markup after it) of one line of a block."""
    head = _BLOCK_PREFIX.match(line)
    start = head.end() if head else 0
    tail = _EMPHASIS_END.search(line, start)
    end = tail.start() if tail else len(line)
    return line[:start], line[start:end], line[end:]


def _set_statement(text: Text, stmt: StatusStatement, value: str, day: dt.date,
                   synonyms: Mapping[str, str]) -> None:
    line = text.get(stmt.line)
    before, body, after = split_markup(line)
    lead = dated_lead(body, synonyms)
    if lead is None:
        text.set(stmt.line, f"{before}{value}{after}")
        return
    written, gap = lead
    entry = f"{before}{dating.write_like(written, day)}{gap}{value}{after}"
    last, apart = _history_end(text, stmt.line)
    # entries written as paragraphs of their own get one more; lines of one paragraph, a line
    text.insert(last, ["", entry] if apart else [entry])


def _history_end(text: Text, line: int) -> tuple[int, bool]:
    """The last line of the dated history that file line ``line`` is an entry of (later
    entries without a status word count: ``2024-04-07: Edited``), and whether its entries are
    paragraphs of their own (a blank line between them; a lone entry that is no list item)."""
    close = _entry(text, line - 1) or _entry(text, line + 1)
    apart = not close and not _BULLET.match(text.get(line)) and (
        _entry(text, line - 2) or _entry(text, line + 2) or text.blank(line - 1))
    step = 2 if apart else 1
    last = line
    while _entry(text, last + step) and (not apart or text.blank(last + 1)):
        last += step
    return last, apart


def _entry(text: Text, line: int) -> bool:
    """Whether file line ``line`` is a dated entry (``- 2024-04-07: Edited``)."""
    if not 1 <= line <= len(text.lines):
        return False
    body = split_markup(text.get(line))[1]
    return body[:1].isdigit() and st.date_key(body) is not None


def dated_lead(body: str, synonyms: Mapping[str, str]) -> tuple[str, str] | None:
    """(the date, the text between it and the status word) of a dated history entry such as
    ``2020-02-01 Accepted`` or ``2020-02-01: Accepted``; None for an undated statement."""
    if not body[:1].isdigit() or st.date_key(body) is None:
        return None
    for m in re.finditer(r"(?<![\w])[^\W\d_]", body):
        folded = st.fold(body[m.start() :])
        if st.match(folded, synonyms) is not None:
            head = body[: m.start()]
            written = head.rstrip(" \t:-–—|")
            return written, head[len(written) :]
    return None


def _set_labelled(text: Text, line_no: int, value: str) -> None:
    """``* Status: accepted`` / ``**Status:** accepted`` / ``## Status: accepted``, or a
    metadata table's row ``| Status | accepted |`` (its value cell)."""
    line = text.get(line_no)
    row = tables.set_value(line, value) if tables.is_row(line) else None
    if row is not None:
        text.set(line_no, row)
        return
    colon = _COLON.search(line)
    if colon is None:
        raise EditError(f"line {line_no}: no `Status:` label found")
    rest = line[colon.end() :]
    # emphasis right after the colon closes the label's (``**Status:** x``, ``- **S:** x``)
    lead = re.match(r"(?:\*\*|__|\*|_)?[ \t]*", rest)
    assert lead is not None
    start = colon.end() + lead.end()
    inner_before, _body, inner_after = split_markup(line[start:])
    text.set(line_no, f"{line[:start]}{inner_before}{value}{inner_after}")


# --- relations ----------------------------------------------------------------------------


def add_relation(data: str, d: Decision, style: Style, kind: str, line: str,
                 front_value: str) -> str:
    """``data`` (the record ``d``) with one relation added where the log writes them: ``line``
    (``Supersedes [2. X](0002-x.md)``) in the body, or the key for ``kind`` set to
    ``front_value`` in the front matter."""
    text = Text.of(data)
    empty = unfilled_line(text, d, kind)
    if empty is not None:  # ``* Superseded by: n/a``: the log's line for it, kept empty so far
        label = text.get(empty)
        colon = _COLON.search(label)
        assert colon is not None
        lead = re.match(r"(?:\*\*|__)?[ \t]*", label[colon.end() :])
        start = colon.end() + (lead.end() if lead else 0)
        text.set(empty, label[:start] + "[" + line.partition(" [")[2])
        return str(text)
    place = resolve_place(style.place, d, style)
    doc = walk(d.text, d.body_line_offset)
    if place.where == "front-matter":
        _add_key(text, d, place.key(kind), front_value)
    elif place.where == "status":
        block = _statement_block(doc, primary(d).line)
        _paragraph_after(text, block)
        text.insert(block + 1, [line])
    elif place.where == "header":
        stmt_line = primary(d).line
        status_line = text.get(stmt_line)
        if tables.is_row(status_line):  # a metadata table: a row of its own
            verb, _, target = line.partition(" [")
            after = stmt_line  # below the status row, or below the delimiter when it heads
            if stmt_line < len(text.lines) and tables.is_delimiter(text.get(stmt_line + 1)):
                after += 1
            text.insert(after, [tables.row_like(status_line, verb, "[" + target)])
            return str(text)
        bullet = _BULLET.match(status_line)
        text.insert(stmt_line, [(bullet.group(1) if bullet else place.bullet) + line])
    else:
        _add_to_section(text, doc, place, line)
    return str(text)


_LABELLED = lazy(r"^\s*(?:[*+-]\s+)?(?:\*\*|__)?([^:*_|]{2,40}?)(?:\*\*|__)?\s*:"
                       r"\s*(?:\*\*|__)?\s*(.*?)\s*$")
_NO_VALUE = lazy(r"^[\W_]*(?:n/?a|none|nothing|nil|null|tbd|no|keine?|aucune?)?[\W_]*$",
                       re.I)


def unfilled_line(text: Text, d: Decision, kind: str) -> int | None:
    """The file line of a ``Label: value`` line of the body (above its first section) whose
    label names relation ``kind`` and whose value says there is none yet (``n/a``, ``None``,
    ``-``, nothing)."""
    first_section = min((s.line for s in d.sections if s.level > 1), default=len(text.lines) + 1)
    for n in range(d.body_line_offset + 1, min(first_section, len(text.lines) + 1)):
        m = _LABELLED.match(text.get(n))
        if m is None or "](" in m.group(2):
            continue
        named = front_matter_key(m.group(1))
        if named is not None and named.value == kind and _NO_VALUE.match(m.group(2)):
            return n
    return None


def resolve_place(place: Place, d: Decision, style: Style) -> Place:
    """The log's place for relations, as it applies to this record (a record whose status is
    not in a Status section cannot take a relation there)."""
    source = primary(d).source if d.statuses else ""
    if place.where == "status" and source != "section":
        return Place("header", bullet="") if source in ("line", "heading") else _fallback(style)
    if place.where == "header" and source not in ("line", "heading"):
        return _fallback(style)
    if place.where == "front-matter" and not d.front_matter:
        return _fallback(style)
    return place


def _fallback(style: Style) -> Place:
    if style.format in ("madr2", "log4brains"):
        return Place("section", "## Links", "* ")
    return Place("section", "## More Information" if style.format.startswith("madr") else
                 "## Links", "")


def _statement_block(doc: Document, line: int) -> int:
    """The last file line of the block holding ``line``."""
    for b in doc.blocks:
        if b.line <= line <= b.end_line:
            return b.end_line
    return line


def _paragraph_after(text: Text, line: int) -> None:
    """Make room for a new paragraph after file line ``line``: one blank line before it, and
    one after it when text follows."""
    if not text.blank(line + 1):
        text.insert(line, [""])
    text.insert(line, [""])


def _add_to_section(text: Text, doc: Document, place: Place, line: str) -> None:
    wanted = place.heading.lstrip("#").strip().casefold()
    found = next((i for i, h in enumerate(doc.headings) if h.text.strip().casefold() == wanted),
                 None)
    if found is None:
        tail = len(text.lines)
        while tail > 0 and text.blank(tail):
            tail -= 1
        text.lines = text.lines[:tail]
        text.insert(tail, ["", place.heading, "", place.bullet + line])
        return
    blocks = [b for b in doc.blocks if b.section == found and b.kind != "heading"]
    if not blocks:
        heading_line = doc.headings[found].line
        _paragraph_after(text, heading_line)
        text.insert(heading_line + 1, [place.bullet + line])
        return
    last = blocks[-1]
    if last.kind == "item" and place.bullet:
        bullet = _BULLET.match(text.get(last.line))
        text.insert(last.end_line, [(bullet.group(1) if bullet else place.bullet) + line])
        return
    _paragraph_after(text, last.end_line)
    text.insert(last.end_line + 1, [place.bullet + line])


def _add_key(text: Text, d: Decision, key: str, value: str) -> None:
    same = next((k for k in d.front_matter if k.casefold() == key.casefold()), None)
    if same is not None and d.front_matter[same] in (None, "", [], {}):
        _fill_key(text, d, same, value)  # a key the log keeps empty until it applies
        return
    if same is not None:
        _extend_key(text, d, same, value)  # a second amendment or successor: a list value
        return
    close = next((i for i in range(2, len(text.lines) + 1)
                  if text.get(i).strip() in ("---", "...")), None)
    if close is None:
        raise EditError(f"{d.path}: the front matter has no closing line")
    text.insert(close - 1, [f"{key}: {yaml_value(value)}"])


def _fill_key(text: Text, d: Decision, key: str, value: str) -> None:
    """Give an empty front-matter key (``supersededBy: ''``) its value, quoted like the
    empty one was."""
    line = d.front_matter_lines.get(key)
    m = _FM_KEY.match(text.get(line)) if line else None
    if line is None or m is None:
        raise EditError(f"{d.path}: the front-matter key {key!r} is not a `key: value` line")
    nxt = line + 1
    if nxt <= len(text.lines) and re.match(r"[ \t]+\S|-[ \t]", text.get(nxt)):
        raise EditError(f"{d.path}:{line}: the key {key!r} spans several YAML lines")
    old = m.group(4)
    scalar = yaml_value(value, old[:1] if old[:1] in "\"'" else "")
    text.set(line, f"{m.group(1)}{m.group(2)}{m.group(3)}{scalar}{m.group(5) or ''}")


def _flow_item(value: str) -> str:
    """One item of a flow list (``[a, b]``): plain when YAML reads it back as itself and it
    holds nothing a flow list gives a meaning to, else double-quoted."""
    import json

    plain = yaml_value(value)
    if plain == value and not any(c in value for c in ",[]{}#"):
        return value
    return json.dumps(value, ensure_ascii=False)


def _extend_key(text: Text, d: Decision, key: str, value: str) -> None:
    """Add ``value`` to a front-matter key that holds a value already: a scalar becomes a flow
    list of both (``amended-by: [0002-x.md, 0003-y.md]``), a flow list gets one more item, a
    block list one more ``- item`` line. A value the key already holds is left as it is."""
    held = d.front_matter[key]
    items = [str(v) for v in held] if isinstance(held, list) else [str(held)]
    if value in items:
        return
    line = d.front_matter_lines.get(key)
    m = _FM_KEY.match(text.get(line)) if line else None
    if line is None or m is None or isinstance(held, dict):
        raise EditError(f"{d.path}: the front-matter key {key!r} is not a `key: value` line: "
                        "add the value by hand")
    old = m.group(4).strip()
    if isinstance(held, list) and not old:  # a block list: one more item line
        last, bullet = line, None
        while last < len(text.lines):
            item = re.match(r"^([ \t]*-[ \t]+)\S", text.get(last + 1))
            if item is None:
                break
            last, bullet = last + 1, item.group(1)
        if bullet is None:
            raise EditError(f"{d.path}:{line}: the list of {key!r} is not one `- item` a line")
        text.insert(last, [bullet + yaml_value(value)])
        return
    if isinstance(held, list):
        if not (old.startswith("[") and old.endswith("]")):
            raise EditError(f"{d.path}:{line}: the list of {key!r} is not a one-line `[...]`")
        inner = old[1:-1].rstrip()
        joined = f"{inner}, {_flow_item(value)}" if inner.strip() else _flow_item(value)
        scalar = f"[{joined}]"
    else:
        nxt = line + 1
        if nxt <= len(text.lines) and re.match(r"[ \t]+\S", text.get(nxt)):
            raise EditError(f"{d.path}:{line}: the key {key!r} spans several YAML lines")
        scalar = f"[{old}, {_flow_item(value)}]" if old[:1] in "\"'" and _flow_safe(old) else \
            f"[{_flow_item(items[0])}, {_flow_item(value)}]"
    text.set(line, f"{m.group(1)}{m.group(2)}{m.group(3)}{scalar}{m.group(5) or ''}")


def _flow_safe(quoted: str) -> bool:
    """A quoted scalar that can stand in a flow list as written (one quoted string)."""
    got = split(f"---\nk: [{quoted}]\n---\n")[0]
    return isinstance(got.get("k"), list) and len(got["k"]) == 1
