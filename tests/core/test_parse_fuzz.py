"""Bad input: any bytes give a Decision (never an exception), unreadable files give ADR001."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

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


def rec_bad(data: bytes, name: str = "0001-x.md", options: Options = OPTIONS) -> Decision:
    return parse(SourceFile(f"docs/adr/{name}", "docs/adr", data), options)


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


SHAPES = {
    "status lines in one paragraph": "Status: accepted\n",
    "status sections": "## Status\n\nAccepted\n\n",
    "relation links on one line": "supersedes [a](b.md) ",
    "relation links on many lines": "supersedes [a](b.md)\n",
    "comments": "<!-- a -->",
    "dated history": "- 2020-01-02 Accepted\n",
}


def _cpu(data: bytes) -> float:
    import time

    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        check(data)
        best = min(best, time.process_time() - start)
    return best


def test_large_inputs_stay_linear() -> None:
    """Growing an input 8x must not grow the time ~64x (no quadratic corners)."""
    for name, unit in SHAPES.items():
        small = _cpu(("# T\n\n" + unit * 1000).encode())
        large = _cpu(("# T\n\n" + unit * 8000).encode())
        assert large < 20 * small + 0.05, (name, small, large)


def test_unreadable_inputs_are_adr001() -> None:
    assert rec_bad(b"# T\x00\n").problems[0].code == "ADR001"
    bad = rec_bad(b"# T\n\xff\xfe\n")
    assert (bad.problems[0].code, bad.problems[0].line) == ("ADR001", 2)
    big = rec_bad(b"# T\n" + b"x" * 100, options=Options(max_file_size=50))
    assert big.problems[0].code == "ADR001" and "limit" in big.problems[0].message
    err = parse(
        SourceFile("docs/adr/0002-y.md", "docs/adr", None, error="symlink points outside"),
        Options(),
    )
    assert (err.id, err.number, err.problems[0].message) == (
        "ADR-0002",
        2,
        "symlink points outside",
    )
    assert not err.is_readable
    assert (
        parse(SourceFile("docs/adr/0003-z.md", "docs/adr", None), Options()).problems[0].code
        == "ADR001"
    )


def test_empty_file_is_a_record_without_anything() -> None:
    d = rec_bad(b"", "0009-empty.md")
    assert (d.id, d.title, d.status, d.problems, d.sections) == ("ADR-0009", None, None, (), ())
