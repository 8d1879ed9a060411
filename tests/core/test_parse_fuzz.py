"""Property tests: any input gives a Decision, never an exception or an internal failure."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import parse

OPTIONS = Options()

FRAGMENTS = [
    "---\n",
    "...\n",
    "# ",
    "## Status\n",
    "### Status change\n",
    "Status: ",
    "* Status: ",
    "- statut : ",
    "**Status**: ",
    "Date: 2020-01-01\n",
    "accepted",
    "Superseded by ",
    "Partially supersedes ",
    "Rejected (see ",
    "This ADR in part supersedes ",
    "[ADR-0005](0005-x.md)",
    "[ref][r]",
    "[r]: ref.md\n",
    "![img](a.png)",
    "<https://x.org>",
    '<a href="h.md">',
    "<!-- adrguard-disable ADR104 -->",
    "<!--",
    "-->",
    "```\n",
    "`code`",
    "| Status | x |\n|---|---|\n",
    "> ",
    "✅ ",
    "⌛️ ",
    "{#adr_0003}",
    "title: ",
    "status: ",
    "nav_order: 0002\n",
    "a: &a [1, 2]\nb: [*a, *a]\n",
    "[[[[",
    "\r\n",
    "\n",
    "\r",
    "\n\n",
    " ",
    ":",
    "\ufeff",
    "\u0301",
    "\ud7ff",
    "1. ",
    "ADR 12: ",
]


def check(data: bytes, name: str = "0001-x.md") -> Decision:
    d = parse(SourceFile(path=f"docs/adr/{name}", root="docs/adr", data=data), OPTIONS)
    assert isinstance(d, Decision)
    assert not any(p.message.startswith("could not be parsed") for p in d.problems), d.problems
    assert d.path == f"docs/adr/{name}"
    for link in d.links:
        assert link.line >= 1 and link.column >= 1
    for section in d.sections:
        assert 1 <= section.line <= section.end_line
    for rel in d.relationships:
        assert rel.target_raw and rel.location.line >= 1
    if d.status is None:
        assert d.status_raw is None
    return d


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes(data: bytes) -> None:
    check(data)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=60))
def test_markdownish_text(parts: list[str]) -> None:
    text = "".join(parts)
    check(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=30),
    st.sampled_from(["0001-x.md", "adr-05.md", "20200101-y.md", "slug/README.md", "README.md"]),
)
def test_front_matter_and_names(parts: list[str], name: str) -> None:
    text = "---\n" + "".join(parts)
    d = check(text.encode("utf-8", "surrogatepass"), name)
    assert all(p.code in ("ADR001", "ADR002") for p in d.problems)
