"""Labelled lists of decisions: a front-matter key (``adrs: [4, 7]``, ``decisions:`` with one
item a line) and a table row or field whose label names ADRs (``| **ADRs** | 0004, 0007 |``,
``ADRs: 0004 (Evidence), 0007``, a rendered table's ``ADRs<TAB>0004``). Pure.

Under such a label a bare number is a decision number (``0004``, ``4``, ``#4``, ``0004
(Evidence)``, ``0004: Evidence``); anything else an item starts with (a word, a date) is not.
Lines are found with string searches; each item is matched by a short pattern over at most a
few hundred characters, never over the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from adrguard.core.lazyre import lazy

FRONT_MATTER_KEYS = frozenset(
    {"adrs", "adr", "decisions", "related-adrs", "related_adrs", "related-decisions",
     "related_decisions", "relatedadrs"}
)
LABELS = frozenset({"adr", "adrs", "adr(s)", "related adrs", "related adr", "adr references"})
MAX_FRONT_MATTER = 256 * 1024
MAX_VALUE = 1_000
MAX_ITEM = 200

_ITEM = lazy(
    r"(?:(?P<prefix>[a-z]{2,10})[- #]?)?#?(?P<number>\d{1,6})(?P<rest>[^\n]{0,200})", re.I
)
_TAIL_OK = lazy(r"^\s*(?:$|[(\[:\-–—)\]'\"`*,.;]|\]\()")
_DATE_TAIL = lazy(r"^[-/.]\d{1,2}(?:[-/.]\d{1,4})?")
_SPLIT = lazy(r"[,;|]|\band\b", re.I)
_LEAD = " \t|*_>#/;%!-"  # table pipes, emphasis, quotes and comment markers before a label

Item = tuple[int, str, str, int]  # (offset, text as written, prefix casefolded, number)


def parse_item(item: str, prefixes: tuple[str, ...]) -> tuple[str, str, int] | None:
    """``(text, prefix, number)`` for a list item that names a decision, else None."""
    body = item.strip().lstrip("[(`'\"*_ ")
    m = _ITEM.match(body)
    if m is None:
        return None
    prefix = (m.group("prefix") or "").casefold()
    rest = m.group("rest")
    if prefix and prefix not in prefixes and prefix != "adr":
        return None
    if rest[:1].isalnum() or rest[:1] == "_":
        return None  # 4th, 2weeks, ADR4j
    if not prefix and (_DATE_TAIL.match(rest) or not _TAIL_OK.match(rest)):
        return None  # a date, or a number followed by a word ("2 weeks")
    text = body[: m.end("number")]
    return text, prefix, int(m.group("number"))


def items(value: bytes, offset: int, prefixes: tuple[str, ...]) -> Iterator[Item]:
    """The decisions a label's value lists, with the offset of each."""
    text = value[:MAX_VALUE].decode("utf-8", "replace")
    if len(text) != len(value[:MAX_VALUE]):  # offsets of non-ASCII text: recount by bytes
        return _items_bytes(value[:MAX_VALUE], offset, prefixes)
    return _items_text(text, offset, prefixes)


def _items_text(text: str, offset: int, prefixes: tuple[str, ...]) -> Iterator[Item]:
    pos = 0
    for part in [*_SPLIT.split(text)]:
        at = text.find(part, pos)
        pos = at + len(part)
        got = parse_item(part[:MAX_ITEM], prefixes)
        if got is not None:
            lead = len(part) - len(part.lstrip().lstrip("[(`'\"*_ "))
            yield offset + at + lead, *got


def _items_bytes(value: bytes, offset: int, prefixes: tuple[str, ...]) -> Iterator[Item]:
    pos = 0
    for part in re.split(rb"[,;|]|\band\b", value, flags=re.I):
        at = value.find(part, pos)
        pos = at + len(part)
        decoded = part.decode("utf-8", "replace")
        got = parse_item(decoded[:MAX_ITEM], prefixes)
        if got is not None:
            stripped = part.lstrip().lstrip(b"[(`'\"*_ ")
            yield offset + at + (len(part) - len(stripped)), *got


def front_matter(data: bytes, prefixes: tuple[str, ...]) -> list[Item]:
    """Items of the front-matter keys that list decisions (``adrs``, ``decisions``, ...):
    inline (``adrs: [4, 7]``, ``adrs: 0004, 0007``) or one ``- item`` a line below the key."""
    if not data.startswith(b"---"):
        return []
    first = data.find(b"\n")
    if first < 0 or data[:first].strip() != b"---":
        return []
    out: list[Item] = []
    pos = first + 1
    key: str | None = None
    limit = min(len(data), MAX_FRONT_MATTER)
    while pos < limit:
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl
        line = data[pos:end]
        if line.rstrip() in (b"---", b"..."):
            break
        if line[:1] not in (b" ", b"\t", b"-") and b":" in line:
            name, _, value = line.partition(b":")
            key = name.strip().decode("utf-8", "replace").casefold()
            if key in FRONT_MATTER_KEYS and value.strip():
                inner = value.strip().strip(b"[]")
                out.extend(items(inner, pos + len(name) + 1 + value.find(inner), prefixes))
        elif key in FRONT_MATTER_KEYS and line.lstrip()[:2] == b"- ":
            item = line.lstrip()[2:]
            out.extend(items(item, end - len(item), prefixes))
        elif line.strip() and line[:1] not in (b" ", b"\t"):
            key = None
        if nl < 0:
            break
        pos = nl + 1
    return out


def labelled(data: bytes, prefixes: tuple[str, ...]) -> list[Item]:
    """Items of table rows and fields labelled ADRs: ``| **ADRs** | 0004, 0007 |``,
    ``ADRs: 4, 7``, ``Related ADRs: ...``, ``ADRs<TAB>0004 (Evidence)``."""
    out: list[Item] = []
    low = data.lower()
    pos = low.find(b"adr")
    while pos >= 0:
        line_start = data.rfind(b"\n", max(0, pos - 40), pos) + 1
        lead = data[line_start:pos].decode("utf-8", "replace")
        word_end = pos
        while word_end < len(data) and word_end - pos < 8 and data[word_end] not in b"|:\t*_\n":
            word_end += 1
        label = (lead.strip(_LEAD).casefold() + " " if lead.strip(_LEAD) else "") + \
            data[pos:word_end].decode("utf-8", "replace").strip().casefold()
        nl = data.find(b"\n", pos)
        eol = len(data) if nl < 0 else nl
        if label in LABELS and (line_start == 0 or data[line_start - 1] == 10):
            sep = word_end
            while sep < eol and data[sep] in b"*_ ":
                sep += 1
            if sep < eol and data[sep] in b"|:\t":
                value_start = sep + 1
                while value_start < eol and data[value_start] in b"*_ \t":
                    value_start += 1
                value = data[value_start : min(eol, value_start + MAX_VALUE)].rstrip(b" |")
                out.extend(items(value, value_start, prefixes))
        pos = low.find(b"adr", max(eol, pos + 3))
    return out
