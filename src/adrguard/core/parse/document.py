"""What one markdown pass yields (:func:`adrguard.core.parse.markdown.walk`): the body's text
blocks with their links, its headings and anchors, links and HTML comments. Lines and source
text are worked out from byte offsets on demand (:class:`Body`)."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from itertools import accumulate

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import Comment, Link

_SLUG_DROP = lazy(r"[^\w\- ]", re.UNICODE)


# Span, Block and Heading are ``gc=False``: none can be part of a reference cycle (they hold
# strings, numbers, links and the body's bytes, never what holds them), so the cycle collector
# need not track the dozens a record makes (ADR 48; tests/core/test_untracked_structs.py).
class Span(msgspec.Struct, gc=False):
    """A link inside a block's plain text: characters ``start:end`` of :attr:`Block.text`."""

    start: int
    end: int
    link: Link


class Block(msgspec.Struct, gc=False):
    """A leaf block of text (paragraph, tight list item, heading, table cell).

    Lines and source text are computed on demand: most blocks never need them.
    """

    src: Body  # the whole body: a repr shows it as one object (nothing reads a repr of it)
    kind: str  # paragraph | item | heading | cell
    text: str  # plain text; line breaks kept as "\n"
    start: int  # byte range in the body
    end: int
    section: int  # index into Document.headings, -1 before any heading
    spans: list[Span]
    checked: bool | None = None  # task-list item: [x] True, [ ] False; None otherwise

    @property
    def line(self) -> int:
        return self.src.line(self.start)

    @property
    def end_line(self) -> int:
        return self.src.line(max(self.start, self.end - 1))

    @property
    def raw(self) -> str:
        """Markdown source of the block."""
        return self.src.data[self.start : self.end].decode("utf-8", "replace").rstrip("\n")

    def lines(self) -> list[tuple[str, list[Span]]]:
        """The block split at line breaks, each line with the links that start in it."""
        out: list[tuple[str, list[Span]]] = []
        spans = sorted(self.spans, key=lambda s: s.start)
        k = 0
        pos = 0
        for piece in self.text.split("\n"):
            end = pos + len(piece)
            mine: list[Span] = []
            while k < len(spans) and spans[k].start <= end:
                s = spans[k]
                if s.start >= pos:
                    mine.append(Span(s.start - pos, s.end - pos, s.link))
                k += 1
            out.append((piece, mine))
            pos = end + 1
        return out


class Heading(msgspec.Struct, gc=False):
    level: int
    text: str
    line: int
    anchor: str
    block: int  # index of its Block
    src: Body  # the whole body, as a block's (its source is read only for a title)
    start: int  # byte range of its markdown source in the body
    end: int

    @property
    def raw(self) -> str:
        """Markdown source of the heading, stripped."""
        return self.src.data[self.start : self.end].decode("utf-8", "replace").strip()


class Document(msgspec.Struct):
    blocks: list[Block] = msgspec.field(default_factory=list)
    headings: list[Heading] = msgspec.field(default_factory=list)
    links: list[Link] = msgspec.field(default_factory=list)
    comments: list[Comment] = msgspec.field(default_factory=list)


def github_slug(text: str, seen: dict[str, int] | None = None) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes, deduplicated."""
    slug = slug_of(text)
    if seen is None:
        return slug
    return numbered(slug, seen)


def numbered(slug: str, seen: dict[str, int]) -> str:
    """``slug`` the n-th time ``seen`` counts it: ``slug``, then ``slug-1``, ``slug-2`` ..."""
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return slug if count == 0 else f"{slug}-{count}"


def slug_of(text: str) -> str:
    """:func:`github_slug` of a heading, before it is deduplicated: it depends on the text
    alone (a run's records repeat their headings, so the markdown pass keeps it per text)."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    slug = text.strip().lower()
    # _SLUG_DROP drops what is not a word character, ``-`` or a space: ASCII text made only of
    # letters, digits, ``_``, ``-`` and spaces (most headings) has nothing to drop.
    if not (slug.isascii() and _kept_as_is(slug)):
        slug = _SLUG_DROP.sub("", slug)
    return slug.replace(" ", "-")


def _kept_as_is(ascii_text: str) -> bool:
    """Whether ASCII text holds only letters, digits, ``_``, ``-`` and spaces (and is not
    empty): what ``[^\\w\\- ]`` matches nowhere in it."""
    return ascii_text.replace(" ", "").replace("-", "").replace("_", "").isalnum()


class Body:
    """The body's bytes; byte offset -> 1-based line number in the whole file."""

    __slots__ = ("data", "last", "offset", "starts")

    def __init__(self, data: bytes, offset: int) -> None:
        self.data = data
        self.last = (-1, 1)  # (byte, column) of the last column() answer
        if b"\r" not in data:
            # Lines with their breaks (bytes.splitlines breaks only at \n, \r and \r\n): each
            # line's length moves the start on, without a Python loop over the lines.
            lines = data.splitlines(keepends=True)
            if lines and not lines[-1].endswith(b"\n"):
                lines.pop()  # a last line without a break starts no line after it
            self.starts = list(accumulate(map(len, lines), initial=0))
        else:
            pieces = data.split(b"\n")
            pieces.pop()  # the piece after the last line break (or the only one) ends no line
            self.starts = list(accumulate([len(line) + 1 for line in pieces], initial=0))
        self.offset = offset

    def line(self, byte: int) -> int:
        return bisect_right(self.starts, byte) + self.offset

    def column(self, byte: int) -> int:
        start = self.starts[bisect_right(self.starts, byte) - 1]
        last_byte, last_col = self.last
        if start <= last_byte <= byte:  # same line, further right: decode only the gap
            col = last_col + len(self.data[last_byte:byte].decode("utf-8", "replace"))
        else:
            col = len(self.data[start:byte].decode("utf-8", "replace")) + 1
        self.last = (byte, col)
        return col
