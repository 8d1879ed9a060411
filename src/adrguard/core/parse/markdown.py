"""One pyromark pass over a markdown body: headings, text blocks, links, HTML comments.

Everything structural comes from pyromark events (pulldown-cmark, CommonMark plus tables and
strikethrough); regular expressions only look inside the text of one event or one block. Ranges
are UTF-8 byte offsets into the body; they are turned into 1-based file lines by adding the
number of lines the front matter took.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

import pyromark

from adrguard.core.lazyre import lazy
from adrguard.core.model import Comment, Link
from adrguard.core.parse.document import Block, Body, Document, Heading, Span, numbered, slug_of

_OPTIONS = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_TASKLISTS
)
_HTML_REF = lazy(r"""\b(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.I)
# An element that states a value as an attribute (``<adr-status status='accepted'>``, a site
# generator's component): it renders as that value, so it is read as text saying it.
_HTML_STATE = lazy(
    r"""<[a-z][\w-]*\b[^<>]*?\s(?:data-)?(?:status|state)\s*=\s*(?:"([^"<>]*)"|'([^'<>]*)')""",
    re.I,
)
_BLOCK_STARTS = frozenset(
    {"Paragraph", "Item", "TableCell", "CodeBlock", "HtmlBlock", "List", "BlockQuote"}
)
_REFERENCE_TYPES = frozenset(
    {"Reference", "Collapsed", "Shortcut", "ReferenceUnknown", "CollapsedUnknown",
     "ShortcutUnknown"}
)
_LINK_KINDS = {
    "Inline": "inline",
    "Reference": "reference",
    "Collapsed": "reference",
    "Shortcut": "reference",
    "ReferenceUnknown": "reference",
    "CollapsedUnknown": "reference",
    "ShortcutUnknown": "reference",
    "Autolink": "autolink",
    "Email": "autolink",
    "WikiLink": "inline",
}


class _Builder:
    """The state of one pass. :func:`walk` handles the common events itself (text, paragraphs,
    list items) and calls the methods here for the rest."""

    __slots__ = (
        "block_end",
        "block_kind",
        "block_start",
        "checked",
        "close_at",
        "code",
        "data",
        "doc",
        "heading_level",
        "lines",
        "link_stack",
        "lists",
        "measured",
        "parts",
        "scanned_to",
        "section",
        "slug_of",
        "slugs",
        "spans",
    )

    def __init__(
        self, text: str, line_offset: int, slugs: dict[str, str] | None = None
    ) -> None:
        self.data = text.encode("utf-8", "surrogatepass")
        self.lines = Body(self.data, line_offset)
        self.doc = Document()
        self.slugs: dict[str, int] = {}
        # each heading text's slug before numbering (kept by the caller: a run's records share
        # their headings), else this pass's own
        self.slug_of: dict[str, str] = {} if slugs is None else slugs
        self.parts: list[str] = []  # the open block's text pieces: one list, cleared by flush
        self.spans: list[Span] = []
        # (spans, pieces, characters): how much of ``parts`` a link's start added up already,
        # for the block whose ``spans`` list that is (flush gives the next block a new list)
        self.measured: tuple[list[Span], int, int] = (self.spans, 0, 0)
        self.block_kind = ""
        self.block_start = -1
        self.block_end = -1
        self.section = -1
        self.lists = 0
        self.code = 0
        self.heading_level = 0
        self.link_stack: list[tuple[dict[str, Any], int, int, int, bool]] = []
        self.checked: bool | None = None
        self.close_at = -2  # next `-->` after the last lookup (-2: not looked up yet)
        self.scanned_to = 0  # bytes before this were searched for comments already

    # -- blocks -------------------------------------------------------------------------
    def open_block(self, kind: str, start: int) -> None:
        if self.block_start >= 0:
            self.flush()
        self.block_kind = kind
        self.block_start = start
        self.block_end = start

    def flush(self) -> None:
        if self.block_start < 0:
            return
        parts = self.parts
        text = "".join(parts)
        if (text and not text.isspace()) or self.block_kind == "heading":
            start = self.block_start
            end = self.block_end if self.block_end > start else start
            self.doc.blocks.append(
                Block(
                    self.lines,
                    self.block_kind,
                    text,
                    start,
                    end,
                    self.section,
                    self.spans,
                    self.checked,
                )
            )
        parts.clear()
        self.checked = None
        self.spans = []
        self.block_start = -1  # the next block sets its kind as it opens

    def add_text(self, text: str, rng: dict[str, int]) -> None:
        if self.block_start < 0:
            self.open_block("item" if self.lists else "paragraph", rng["start"])
        self.parts.append(text)
        end = rng["end"]
        if end > self.block_end:
            self.block_end = end

    # -- events -------------------------------------------------------------------------
    def start(self, name: str, attrs: Any, rng: dict[str, int]) -> None:
        """A start tag (:func:`walk` opens paragraphs and list items itself, the same way)."""
        if name == "Heading":
            self.open_block("heading", rng["start"])
            self.block_end = rng["end"]
            self.heading_level = int(attrs["level"][1:]) if attrs else 1
        elif name == "Link" or name == "Image":
            if self.block_start < 0:
                self.open_block("item" if self.lists else "paragraph", rng["start"])
            # where the link's text starts in the block's plain text: the pieces' lengths, added
            # up here (a link is rare; every piece of text is not), each piece once a block
            parts, spans = self.parts, self.spans
            owner, counted, plain = self.measured
            if owner is not spans:
                counted = plain = 0
            if counted < len(parts):
                plain += sum(map(len, parts[counted:]))
                self.measured = (spans, len(parts), plain)
            self.link_stack.append(
                (attrs or {}, plain, len(self.parts), rng["start"], name == "Image")
            )
        elif name in _BLOCK_STARTS:
            self.flush()
            if name == "Paragraph":
                self.open_block("item" if self.lists else "paragraph", rng["start"])
                self.block_end = rng["end"]
            elif name == "TableCell":
                self.open_block("cell", rng["start"])
                self.block_end = rng["end"]
            elif name == "CodeBlock":
                self.code += 1
            elif name == "List":
                self.lists += 1

    def end(self, name: str, rng: dict[str, int]) -> None:
        """An end tag (:func:`walk` closes paragraphs and list items itself, the same way)."""
        if name == "Heading":
            self.end_heading()
        elif name == "Link" or name == "Image":
            self.end_link(rng)
        elif name == "Paragraph" or name == "TableCell" or name == "Item":
            self.flush()
        elif name == "CodeBlock":
            self.code -= 1
        elif name == "List":
            self.flush()
            self.lists -= 1
        elif name == "BlockQuote":
            self.flush()

    def end_heading(self) -> None:
        text = "".join(self.parts).strip()
        start = self.block_start
        line = self.lines.line(start)
        slug = self.slug_of.get(text)
        if slug is None:
            slug = self.slug_of[text] = slug_of(text)
        anchor = numbered(slug, self.slugs)  # github_slug(text, self.slugs)
        self.doc.headings.append(
            Heading(
                self.heading_level,
                text,
                line,
                anchor,
                len(self.doc.blocks),
                self.lines,
                start,
                self.block_end,
            )
        )
        self.section = len(self.doc.headings) - 1
        if start < 0:  # flush's own test, kept (a heading opens its block: never so)
            self.parts[:] = (text,)
            self.measured = (self.spans, 0, 0)
            return
        # flush, inline, with the heading's text as the block's (one piece, stripped already)
        if (text and not text.isspace()) or self.block_kind == "heading":
            end = self.block_end if self.block_end > start else start
            self.doc.blocks.append(
                Block(
                    self.lines,
                    self.block_kind,
                    text,
                    start,
                    end,
                    self.section,
                    self.spans,
                    self.checked,
                )
            )
        self.parts.clear()
        self.checked = None
        self.spans = []
        self.block_start = -1

    def end_link(self, rng: dict[str, int]) -> None:
        if not self.link_stack:
            return
        attrs, plain_start, part_index, byte_start, is_image = self.link_stack.pop()
        link_type = str(attrs.get("link_type"))
        if link_type in _REFERENCE_TYPES and str(attrs.get("id", "")).startswith("^"):
            return  # ``[^1]``: a footnote (GFM), never a link reference definition
        text = "".join(self.parts[part_index:])
        kind = "image" if is_image else _LINK_KINDS.get(link_type, "inline")
        target = str(attrs.get("dest_url", ""))
        if link_type == "Email" and not target.casefold().startswith("mailto:"):
            target = "mailto:" + target  # ``<name@example.org>``: CommonMark's email autolink
        link = Link(
            target=target,
            text=text,
            line=self.lines.line(byte_start),
            column=self.lines.column(byte_start),
            kind=kind,
            is_image=is_image,
        )
        self.doc.links.append(link)
        self.spans.append(Span(plain_start, plain_start + len(text), link))
        self.block_end = max(self.block_end, rng["end"])

    def _close_after(self, pos: int) -> int:
        """Offset of the first ``-->`` at or after ``pos`` (-1: none). HTML events come in
        document order, so the answer is looked up again only once ``pos`` passes it: one
        forward pass however many events a block of ``<!--`` lines makes."""
        at = self.close_at
        if at == -2 or (at != -1 and at < pos):
            at = self.close_at = self.data.find(b"-->", pos)
        return at

    def html(self, text: str, rng: dict[str, int], inline: bool) -> None:
        start = rng["start"]
        if "<!--" in text and rng["end"] > self.scanned_to:
            last_open = start + text.encode("utf-8", "surrogatepass").rfind(b"<!--")
            end = self._close_after(last_open)
            stop = end + 3 if end != -1 else rng["end"]
            for at, body in html_comments(self.data, max(start, self.scanned_to), stop):
                text_of = body.decode("utf-8", "replace").strip()
                self.doc.comments.append(Comment(text_of, self.lines.line(at)))
            self.scanned_to = max(self.scanned_to, stop)
        for m in _HTML_REF.finditer(text):
            target = m.group(2) or m.group(3) or m.group(4) or ""
            pos = start + len(text[: m.start()].encode("utf-8", "surrogatepass"))
            self.doc.links.append(
                Link(
                    target=target,
                    text="",
                    line=self.lines.line(pos),
                    column=self.lines.column(pos),
                    kind="html",
                    is_image=m.group(1).lower() == "src",
                )
            )
        if "tat" in text and ("status" in text.lower() or "state" in text.lower()):
            self.html_state(text, rng, inline)
        if inline:
            self.block_end = max(self.block_end, rng["end"])

    def html_state(self, text: str, rng: dict[str, int], inline: bool) -> None:
        """An element with a ``status=``/``state=`` attribute says its value as text: inline,
        in its paragraph; as an HTML block, as a text block of its own (its source is the
        element)."""
        m = _HTML_STATE.search(text)
        value = (m.group(1) or m.group(2) or "").strip() if m else ""
        if not value:
            return
        if inline:
            self.add_text(value, rng)
            return
        self.open_block("item" if self.lists else "paragraph", rng["start"])
        self.add_text(value, rng)
        self.flush()


def html_comments(data: bytes, start: int, stop: int) -> Iterator[tuple[int, bytes]]:
    """``(offset, body)`` of each ``<!-- body -->`` in ``data[start:stop]``, in one forward
    pass: a comment opened and never closed ends the scan (a regex would retry it from every
    later ``<!--``, which is quadratic in a flood of them)."""
    find = data.find
    at = find(b"<!--", start, stop)
    while at != -1:
        close = find(b"-->", at + 4, stop)
        if close == -1:
            return
        yield at, data[at + 4 : close]
        at = find(b"<!--", close + 3, stop)


def walk(text: str, line_offset: int = 0, slugs: dict[str, str] | None = None) -> Document:
    """Parse ``text`` (a markdown body that starts on file line ``line_offset + 1``).
    ``slugs``: heading text -> its slug before numbering (:func:`slug_of`), looked up and
    added to (a run's parses share one)."""
    b = _Builder(text, line_offset, slugs)
    parts = b.parts  # never replaced: flush clears it
    events = cast(
        "Iterator[tuple[Any, Any]]",
        pyromark.events_with_range(text, options=_OPTIONS, merge_text=True),
    )
    # Each event is a one-key dict (``{"Text": "..."}``, ``{"Start": tag}``) or a bare name
    # (``"SoftBreak"``); a tag is a bare name (``"Paragraph"``) or a one-key dict of its
    # attributes (``{"Heading": {...}}``). The events are ours: popitem() takes them apart.
    for event, rng in events:
        if type(event) is str:
            if (event == "SoftBreak" or event == "HardBreak") and b.block_start >= 0:
                parts.append("\n")
            continue
        kind, value = event.popitem()
        if kind == "Text":
            if b.code == 0:  # add_text, inline: a third of all events
                parts.append(value)
                end = rng["end"]
                if b.block_start < 0:  # open_block, inline: no block is open to flush
                    start = rng["start"]
                    b.block_kind = "item" if b.lists else "paragraph"
                    b.block_start = start
                    b.block_end = end if end > start else start
                elif end > b.block_end:
                    b.block_end = end
        elif kind == "Start":
            if type(value) is str:
                if value == "Paragraph":
                    if b.block_start >= 0:
                        b.flush()
                    b.block_kind = "item" if b.lists else "paragraph"
                    b.block_start = rng["start"]
                    b.block_end = rng["end"]
                elif value == "Item":
                    if b.block_start >= 0:
                        b.flush()
                else:
                    b.start(value, None, rng)
            else:
                name, attrs = value.popitem()
                if name == "Heading":  # start, inline
                    if b.block_start >= 0:
                        b.flush()
                    b.block_kind = "heading"
                    b.block_start = rng["start"]
                    b.block_end = rng["end"]
                    b.heading_level = int(attrs["level"][1:]) if attrs else 1
                else:
                    b.start(name, attrs, rng)
        elif kind == "End":
            # a tag with attributes is a dict, which equals neither name
            if value == "Paragraph" or value == "Item":
                if b.block_start >= 0:
                    b.flush()
            elif type(value) is str:
                b.end(value, rng)
            else:
                name = next(iter(value))
                if name == "Heading":
                    b.end_heading()
                else:
                    b.end(name, rng)
        elif kind == "Code" or kind == "InlineMath" or kind == "DisplayMath":
            b.add_text(value, rng)
        elif kind == "Html" or kind == "InlineHtml":
            if b.code == 0:
                b.html(value, rng, kind == "InlineHtml")
        elif kind == "TaskListMarker":
            b.open_block("item", rng["start"])
            b.checked = bool(value)
    b.flush()
    return b.doc
