"""The markdown pass's inline handling of text, paragraphs and list items (the events most
records are made of) builds what the builder's general methods build from the same events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pyromark
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.parse import markdown
from adrguard.core.parse.document import Body, Document


def general_walk(text: str, line_offset: int = 0) -> Document:
    """Every event through the builder's general methods: the path the fast one replaces."""
    b = markdown._Builder(text, line_offset)
    events = cast(
        "Iterator[tuple[Any, Any]]",
        pyromark.events_with_range(text, options=markdown._OPTIONS, merge_text=True),
    )
    for event, rng in events:
        if isinstance(event, str):
            if event in ("SoftBreak", "HardBreak") and b.block_start >= 0:
                b.parts.append("\n")
            continue
        ((kind, value),) = event.items()
        if kind == "Text":
            if b.code == 0:
                b.add_text(value, rng)
        elif kind == "Start":
            name, attrs = (value, None) if isinstance(value, str) else next(iter(value.items()))
            b.start(name, attrs, rng)
        elif kind == "End":
            b.end(value if isinstance(value, str) else next(iter(value)), rng)
        elif kind in ("Code", "InlineMath", "DisplayMath"):
            b.add_text(value, rng)
        elif kind in ("Html", "InlineHtml"):
            if b.code == 0:
                b.html(value, rng, kind == "InlineHtml")
        elif kind == "TaskListMarker":
            b.open_block("item", rng["start"])
            b.checked = bool(value)
    b.flush()
    return b.doc


def shape(doc: Document) -> tuple[Any, ...]:
    blocks = [
        (b.kind, b.text, b.start, b.end, b.section, b.spans, b.checked,
         b.line, b.end_line)
        for b in doc.blocks
    ]
    headings = [  # a heading holds the body, as a block does: compared by what it says
        (h.level, h.text, h.raw, h.line, h.anchor, h.block, h.start, h.end) for h in doc.headings
    ]
    return blocks, headings, doc.links, doc.comments


PIECES = [
    "# ", "## Status\n", "### ", "\n", "\n\n", "- ", "* [x] ", "- [ ] ", "1. ", "> ", "  ",
    "Accepted", "Status: Accepted", "[ADR-1](0001-x.md)", "![i](a.png)", "`code`", "```\n",
    "<!-- c -->", '<span status="accepted">', "<a href='x.md'>", "<div>\n",
    "| a | b |\n|---|---|\n| c | d |\n", "**b**", "_e_", "&amp;", "\\*", "---\n", "[r]",
    "[r]: x.md\n", "<https://x.org>", "<a@b.org>", "[^1]", "é", "word ", "    indented\n",
    "- loose\n\n  para\n",
    "&nbsp;", "&#32;",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24).map("".join), st.integers(0, 5))
def test_walk_builds_what_the_general_methods_build(text: str, offset: int) -> None:
    assert shape(markdown.walk(text, offset)) == shape(general_walk(text, offset))


def test_walk_on_a_written_record() -> None:
    text = (
        "# Use queues\n\nStatus: Accepted\nDate: 2024-01-02\n\n## Context\n\n"
        "- first item\n- [x] done, see [ADR-3](0003-x.md)\n\n  second paragraph of it\n\n"
        "> quoted\n\n| Status | Accepted |\n|---|---|\n\n```\n# not a heading\n```\n"
    )
    doc = markdown.walk(text, 2)
    assert shape(doc) == shape(general_walk(text, 2))
    kinds = [(b.kind, b.text) for b in doc.blocks]
    assert kinds[:3] == [
        ("heading", "Use queues"), ("paragraph", "Status: Accepted\nDate: 2024-01-02"),
        ("heading", "Context"),
    ]
    assert ("item", "first item") in kinds and ("item", "second paragraph of it") in kinds
    assert [b.checked for b in doc.blocks if b.text.startswith("done")] == [True]
    assert doc.blocks[1].line == 5  # line 3 of the body, after two lines of front matter
    assert [h.text for h in doc.headings] == ["Use queues", "Context"]
    assert [link.target for link in doc.links] == ["0003-x.md"]


def starts_by_search(data: bytes) -> list[int]:
    """Each line's first byte, found one line break at a time: what Body's starts replace."""
    starts = [0]
    pos = data.find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = data.find(b"\n", pos + 1)
    return starts


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"a", b"\xc3\xa9", b"\r", b"  "]), max_size=20).map(b"".join))
def test_body_line_starts_are_each_line_break_plus_one(data: bytes) -> None:
    assert Body(data, 0).starts == starts_by_search(data)


def test_body_lines_on_written_text() -> None:
    body = Body(b"# T\n\nStatus: x\n", 3)
    assert body.starts == [0, 4, 5, 15]
    assert [body.line(b) for b in (0, 3, 4, 5, 14)] == [4, 4, 5, 6, 6]
    assert Body(b"", 0).starts == [0] and Body(b"no break", 0).starts == [0]


LINKED = [
    "word ", "é ", "[ADR-1](0001-x.md)", "![i](a.png)", "[a ![b](c.png) d](e.md)", "`code`",
    "**b**", "<https://x.org>", "\n", "\n\n", "- ", "# ", "[^1]", "<span status='x'>",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINKED), max_size=30).map("".join))
def test_a_span_marks_its_links_text_in_its_block(text: str) -> None:
    """A link's span starts where the block's text before it ends: the pieces before the
    link are added up when the link starts, once each however many links a block holds."""
    for b in markdown.walk(text).blocks:
        if b.kind == "heading":
            continue  # a heading's text is stripped after its spans are placed
        for span in b.spans:
            assert b.text[span.start : span.end] == span.link.text


def test_spans_of_several_links_on_one_line() -> None:
    doc = markdown.walk("See [ADR-1](1.md) and [ADR-22](22.md), then [x](3.md).\n")
    (block,) = doc.blocks
    assert [(s.start, s.end) for s in block.spans] == [(4, 9), (14, 20), (27, 28)]
    assert [block.text[s.start : s.end] for s in block.spans] == ["ADR-1", "ADR-22", "x"]
