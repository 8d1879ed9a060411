"""Where a file's link destinations are written, to the byte: what an archive move rewrites.

The body's links come from pyromark events (inline links and images, the definitions that
reference links use, ``href``/``src`` in HTML); front matter values from PyYAML's node marks,
and the markdown links written inside a front matter value (``status: superseded by
[ADR-0042](0042-x.md)``) from pyromark again. Every :class:`Occurrence` is the destination
exactly as written (angle brackets, link text and title left out), with its byte range in the
file and the destination as the parser read it (``dest``); ``exact`` says the written bytes are
the destination itself (no backslash escapes or entities), so replacing them changes nothing
else.
Pure: bytes in, occurrences out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import pyromark
import yaml

from adrguard.core.lazyre import lazy

_BOM = b"\xef\xbb\xbf"
_FM_OPEN = lazy(rb"---[ \t]*\r?\n")  # match()ed at the offset after a BOM
_FM_CLOSE = lazy(rb"^(?:---|\.\.\.)[ \t]*\r?$", re.M)
_HTML_REF = lazy(r"""\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.I)
_OPTIONS = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_TASKLISTS
)
_SPACE = b" \t"
_MAX_NODES = 20_000  # front matter nodes walked (aliases are not expanded)


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One destination as written: bytes ``start:end`` of the file."""

    start: int
    end: int
    raw: str  # the bytes start:end, decoded
    kind: str  # inline | image | reference | html | front-matter
    line: int
    exact: bool  # raw is the destination the parser read (safe to replace as a whole)
    dest: str = ""  # the destination as the parser read it (escapes resolved); "": raw

    @property
    def destination(self) -> str:
        return self.dest or self.raw


def _line(data: bytes, at: int) -> int:
    return data.count(b"\n", 0, at) + 1


def _front_matter(data: bytes, base: int) -> tuple[int, int, int] | None:
    """(start, end, body start) of the YAML between the ``---`` lines, as byte offsets."""
    opening = _FM_OPEN.match(data, base)
    if opening is None:
        return None
    close = _FM_CLOSE.search(data, opening.end())
    if close is None:
        return None
    eol = data.find(b"\n", close.end())
    return opening.end(), close.start(), (len(data) if eol == -1 else eol + 1)


def occurrences(data: bytes) -> list[Occurrence]:
    """Every link destination of a markdown file, sorted by position. A file that is not UTF-8
    has none (the parser reads no link from it either)."""
    base = 3 if data.startswith(_BOM) else 0
    try:
        data[base:].decode("utf-8")
    except UnicodeDecodeError:
        return []
    found: list[Occurrence] = []
    body = base
    fm = _front_matter(data, base)
    if fm is not None:
        found.extend(_yaml_values(data, fm[0], fm[1]))
        body = fm[2]
    found.extend(_body(data, body))
    unique = {(o.start, o.end): o for o in found}
    return [unique[k] for k in sorted(unique)]


# --- front matter -------------------------------------------------------------------------


def _yaml_values(data: bytes, start: int, end: int) -> Iterator[Occurrence]:
    text = data[start:end].decode("utf-8")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return
    if not isinstance(root, yaml.MappingNode):
        return
    stack: list[yaml.Node] = [v for _k, v in root.value]
    seen = 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(v for _k, v in node.value)
        elif isinstance(node, yaml.ScalarNode) and node.style in (None, "'", '"'):
            a, b = node.start_mark.index, node.end_mark.index
            written = text[a:b]
            if node.style is not None:
                written = written[1:-1]
                a += 1
            if not written or "\n" in written:
                continue
            at = start + len(text[:a].encode("utf-8"))
            yield Occurrence(at, at + len(written.encode("utf-8")), written, "front-matter",
                             _line(data, at), written == node.value, node.value)
            if "](" in written and written == node.value:
                yield from _links_in_value(data, at, written)


def _links_in_value(data: bytes, at: int, value: str) -> Iterator[Occurrence]:
    """The inline links a front matter value writes in markdown, at their bytes in the file
    (the value is written exactly as YAML reads it, so its bytes are the file's)."""
    raw = value.encode("utf-8")
    for o in _body(raw, 0):
        if o.kind in ("inline", "image"):
            yield Occurrence(at + o.start, at + o.end, o.raw, "front-matter",
                             _line(data, at + o.start), o.exact, o.dest)


# --- body ---------------------------------------------------------------------------------


def _scan_destination(data: bytes, at: int, limit: int) -> tuple[int, int, bool] | None:
    """The destination starting at or after ``at`` (spaces and one line break skipped):
    (start, end, in angle brackets)."""
    p = at
    while p < limit and data[p] in _SPACE:
        p += 1
    if data[p : p + 2] == b"\r\n":
        p += 2
    elif data[p : p + 1] == b"\n":
        p += 1
    while p < limit and data[p] in _SPACE:
        p += 1
    if p >= limit:
        return None
    if data[p : p + 1] == b"<":
        close = data.find(b">", p + 1, limit)
        if close == -1 or b"\n" in data[p + 1 : close]:
            return None
        return p + 1, close, True
    start, depth = p, 0
    while p < limit:
        c = data[p]
        if c == 0x5C and p + 1 < limit and 0x21 <= data[p + 1] <= 0x7E:  # backslash escape
            p += 2
            continue
        if c <= 0x20:
            break
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            if depth == 0:
                break
            depth -= 1
        p += 1
    return (start, p, False) if p > start else None


def _occurrence(data: bytes, span: tuple[int, int, bool], dest: str, kind: str) -> Occurrence:
    start, end, _angle = span
    written = data[start:end].decode("utf-8", "replace")
    return Occurrence(start, end, written, kind, _line(data, start), written == dest, dest)


def _body(data: bytes, base: int) -> Iterator[Occurrence]:
    text = data[base:].decode("utf-8")
    events = cast(
        "Iterator[tuple[Any, dict[str, int]]]",
        pyromark.events_with_range(text, options=_OPTIONS, merge_text=True),
    )
    stack: list[list[Any]] = []  # [attrs, start, furthest end of what is inside, is image]
    for event, rng in events:
        start, end = rng["start"] + base, rng["end"] + base
        if isinstance(event, dict) and "Start" in event and isinstance(event["Start"], dict):
            (name, attrs), = event["Start"].items()
            if name in ("Link", "Image"):
                stack.append([attrs, start, start + 1, name == "Image"])
                continue
        if isinstance(event, dict) and "End" in event and event["End"] in ("Link", "Image"):
            if not stack:
                continue
            attrs, _s, inner, is_image = stack.pop()
            if stack:
                stack[-1][2] = max(stack[-1][2], end)
            kind = str(attrs.get("link_type"))
            if kind == "Inline":
                found = _inline(data, attrs, inner, end, "image" if is_image else "inline")
                if found is not None:
                    yield found
            continue
        if stack:
            stack[-1][2] = max(stack[-1][2], end)
        if isinstance(event, dict):
            html = event.get("Html") or event.get("InlineHtml")
            if isinstance(html, str):
                yield from _html(data, html, start, end)
    yield from _definitions(data, base, text)


def _inline(data: bytes, attrs: Any, inner: int, end: int, kind: str) -> Occurrence | None:
    close = data.find(b"](", inner - 1 if inner > 0 else 0, end)
    if close == -1:
        return None
    span = _scan_destination(data, close + 2, end)
    if span is None:
        return None
    return _occurrence(data, span, str(attrs.get("dest_url", "")), kind)


def _html(data: bytes, html: str, start: int, end: int) -> Iterator[Occurrence]:
    if data[start:end] != html.encode("utf-8"):
        return  # the event's text is not the bytes as written: leave it alone
    for m in _HTML_REF.finditer(html):
        group = next(g for g in (1, 2, 3) if m.group(g) is not None)
        at = start + len(html[: m.start(group)].encode("utf-8"))
        value = m.group(group)
        yield Occurrence(at, at + len(value.encode("utf-8")), value, "html", _line(data, at),
                         "&" not in value, value)


def _definitions(data: bytes, base: int, text: str) -> Iterator[Occurrence]:
    """The destinations of the link reference definitions (each once, used or not)."""
    defs = pyromark.reference_definitions(text, options=_OPTIONS)
    for _label, info in defs.items():
        s, e = info["span"]["start"] + base, info["span"]["end"] + base
        colon = data.find(b"]:", s, e)
        if colon == -1:
            continue
        span = _scan_destination(data, colon + 2, e)
        if span is not None:
            yield _occurrence(data, span, str(info["dest"]), "reference")
