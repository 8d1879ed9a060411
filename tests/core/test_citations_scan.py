"""The citation scanner on one file at a time: which text counts, in which file types. Pure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.citations.places import code_spans, excerpt
from adrguard.core.citations.scan import Scanner, Scheme

SCHEME = Scheme(prefixes=("adr",), roots=("docs/adr",), widths=(4,))


def found(path: str, text: str, scheme: Scheme = SCHEME) -> list[tuple[int, str]]:
    outcome = Scanner(scheme).scan(path, text.encode("utf-8"))
    if outcome.file is None:
        return []
    return [(c.line, c.text) for c in outcome.file.citations]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("infra/main.tf", "# See ADR-0004\nx = 1\n"),
        ("infra/main.tf", "// See ADR-0004\nx = 1\n"),
        ("src/a.go", "x := 1 // See ADR-0004\n"),
        ("src/a.go", "/*\n * See ADR-0004\n */\nx := 1\n"),
        ("src/a.py", '"""Module.\n\nSee ADR-0004.\n"""\n'),
        ("src/a.sql", "select 1; -- see ADR-0004\n"),
        ("src/a.lua", "--[[ see\nADR-0004 ]]\nx = 1\n"),
        ("Dockerfile", "# See ADR 4.\nFROM scratch\n"),
        ("web/a.html", "<!-- see ADR-0004 -->\n<p>x</p>\n"),
        ("docs/guide.rst", "The store follows ADR-0004.\n"),
        ("config.toml", "# See ADR-0004\nx = 1\n"),
        ("src/a.py", 'def f():\n    r"""Per ADR-0004."""\n'),
    ],
)
def test_comments_and_prose_cite(path: str, text: str) -> None:
    assert [t for _, t in found(path, text)] in (["ADR-0004"], ["ADR 4"])


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("src/a.py", 'LABEL = "ADR-0004"  # a string is data\n'),
        ("src/a.ts", "const url = `see ADR-0004`; // none here\n"),
        ("src/a.go", 'var s = "// ADR-0004"\n'),
        ("src/a.py", "HADR_4 = adr4 = loadr_2 = 1  # names: HADR_4, adr4, loadr-2\n"),
        ("src/a.py", "# ADR 1.2 and ADR-2023-05-09 and ADR 20260726 are no ids\n"),
        ("src/a.py", "# ADR102 is a rule code: glued, not in the log's width\n"),
        ("src/a.py", "# docs at https://example.com/adr/ADR-0004\n"),
        ("docs/a.md", "```sh\nrun --min-adr 2.0 ADR-0004\n```\n"),
        ("docs/a.md", "readr 2.1.2 and the adr 4 variable\n"),
        ("data/a.bin", "ADR-0004"),
        ("src/a.py", 'SAMPLE = """\n# ADR-0004 in a data string\n"""\n'),
        ("src/a.py", 'check(""" ADR-0004 """)\n'),
        ("config.toml", 'sample = """\n# ADR-0004 in a string\n"""\n'),
    ],
)
def test_what_is_no_citation(path: str, text: str) -> None:
    assert found(path, text) == []


def test_links_front_matter_and_tables() -> None:
    text = (
        "---\nadrs: [4, 7]\n---\n# RFC\n\n| **ADRs** | 0004 (Evidence), 0010 |\n\n"
        "See [why](../adr/0004-x.md) and [upstream](https://example.com/docs/adr/0005-y.md).\n"
    )
    assert found("docs/rfcs/0001-x.md", text) == [
        (2, "4"), (2, "7"), (6, "0004"), (6, "0010"), (8, "../adr/0004-x.md")]


def test_a_glued_id_in_the_logs_width_and_a_learned_prefix() -> None:
    scheme = Scheme(prefixes=("adr", "dr"), roots=("docs/decisions",), widths=(3,))
    assert found("src/a.py", "# per ADR004 and DR-012\n", scheme) == [
        (1, "ADR004"), (1, "DR-012")]


def test_a_suppression_in_an_html_comment_of_a_python_docstring_is_an_example() -> None:
    outcome = Scanner(SCHEME).scan(
        "src/a.py", b'"""Write:\n\n    <!-- adrguard-disable ADR104 -->\n"""\n# ADR-0004\n'
    )
    assert outcome.file is not None and outcome.file.waivers == ()
    code = Scanner(SCHEME).scan("src/a.py", b"# adrguard-disable-next-line ADR602\n# ADR-0004\n")
    assert code.file is not None and [w.target_line for w in code.file.waivers] == [2]


def test_inline_code_is_quoted() -> None:
    outcome = Scanner(SCHEME).scan("docs/a.md", b"Write `ADR-0004` or ADR-0005.\n")
    assert outcome.file is not None
    assert [(c.text, c.quoted) for c in outcome.file.citations] == [
        ("ADR-0004", True), ("ADR-0005", False)]
    assert code_spans(b"a ``x ` y`` b `unclosed\nc `z`") == [(2, 11), (26, 29)]


def test_excerpt_of_a_long_line_is_cut_around_the_citation() -> None:
    data = b"x" * 500 + b" ADR-0004 " + b"y" * 500
    text = excerpt(data, 501)
    assert text.startswith("\u2026") and text.endswith("\u2026") and "ADR-0004" in text
    assert len(text) < 260


# --- the ASCII fast path: re and RE2 find the same ids ------------------------------------

_ID_TEXT = st.text(
    alphabet=st.sampled_from([*"aAdDrRxX-_ #.0123456789/\n$`K", "\u212a", "\u017f"]),
    max_size=80,
)
_PREFIXES = st.lists(st.text(alphabet="adrxsk_-", min_size=1, max_size=4), max_size=4)


@settings(max_examples=400, deadline=None)
@given(text=_ID_TEXT, prefixes=_PREFIXES)
def test_the_ascii_search_finds_what_re2_finds(text: str, prefixes: list[str]) -> None:
    """An ASCII file is searched for ids by ``re``, any other by RE2: on every text both give
    the same matches (positions and groups), so which one ran never shows in a result."""
    scanner = Scanner(Scheme(prefixes=tuple(prefixes), widths=(4,)))
    data = text.encode("utf-8")
    by_re2 = [(m.start(), m.end(), m.groups()) for m in scanner._ids.finditer(data)]
    by_choice = [(m.start(), m.end(), m.groups()) for m in scanner._id_matches(data)]
    assert by_choice == by_re2
    if data.isascii() and scanner._ascii_ids is not None:
        assert [(m.start(), m.end(), m.groups()) for m in scanner._ascii_ids.finditer(data)] \
            == by_re2


def test_a_kelvin_sign_is_folded_as_re2_folds_it() -> None:
    """RE2 folds the Kelvin sign to ``k`` in a case-insensitive search; a text holding one is
    searched by RE2, so a learned prefix with a ``k`` finds it as before."""
    scheme = Scheme(prefixes=("kdr",), roots=("docs/adr",), widths=(4,))
    assert found("notes.md", "See \u212adr-0004 and KDR-0005.\n", scheme) == [
        (1, "\u212adr-0004"), (1, "KDR-0005")]


def test_many_prefixes_are_searched_by_re2() -> None:
    scheme = Scheme(prefixes=tuple(f"p{chr(97 + i)}" for i in range(20)), widths=(4,))
    scanner = Scanner(scheme)
    assert scanner._ascii_ids is None
    assert found("a.md", "See PA-0001 and PT-0002.\n", scheme) == [(1, "PA-0001"), (1, "PT-0002")]
