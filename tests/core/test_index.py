"""core/index: rendering, ordering, escaping, markers and staleness, on hand-built corpora."""

from __future__ import annotations

import pytest

from adrguard.core.errors import UserError
from adrguard.core.generated import index, region
from adrguard.core.model import Corpus, Decision, Location, Relationship, RelKind, Status
from adrguard.core.options import IndexOptions, Options


def rec(
    path: str,
    number: int | None,
    title: str | None,
    status: Status | None = Status.ACCEPTED,
    *,
    root: str = "docs/adr",
    archived: bool = False,
    date: str | None = None,
    rid: str | None = None,
    rels: tuple[Relationship, ...] = (),
) -> Decision:
    ident = rid or (f"ADR-{number:04d}" if number is not None else path.rsplit("/", 1)[-1][:-3])
    return Decision(
        id=ident,
        path=path,
        root=root,
        number=number,
        title=title,
        status=status,
        date=date,
        archived=archived,
        relationships=rels,
    )


def corpus(*decisions: Decision, roots: tuple[str, ...] = ("docs/adr",)) -> Corpus:
    return Corpus(
        decisions=tuple(sorted(decisions, key=lambda d: (d.id, d.path))),
        roots=roots,
        repo_files=frozenset(d.path for d in decisions),
    )


def table_rows(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("| ") and "---" not in line][1:]


def test_numeric_order_puts_five_digit_11_after_2() -> None:
    c = corpus(
        rec("docs/adr/00011-remote.md", 11, "Remote"),
        rec("docs/adr/0002-b.md", 2, "B"),
        rec("docs/adr/0001-a.md", 1, "A"),
        rec("docs/adr/0010-j.md", 10, "J"),
    )
    (state,) = index.evaluate(c, Options(), {})
    rows = table_rows(state.expected or "")
    assert [r.split(" | ")[0] for r in rows] == ["| 0001", "| 0002", "| 0010", "| 0011"]
    assert "[Remote](00011-remote.md)" in rows[3]


def test_unnumbered_records_follow_by_id() -> None:
    c = corpus(
        rec("docs/adr/20201016-slug-id.md", None, "Slug"),
        rec("docs/adr/20200924-markdown.md", None, "Markdown"),
        rec("docs/adr/0001-a.md", 1, "A"),
    )
    (state,) = index.evaluate(c, Options(), {})
    titles = [r.split(" | ")[1] for r in table_rows(state.expected or "")]
    assert titles == [
        "[A](0001-a.md)",
        "[Markdown](20200924-markdown.md)",
        "[Slug](20201016-slug-id.md)",
    ]


def test_title_is_escaped_and_linked_relative_to_a_nested_record() -> None:
    c = corpus(
        rec(
            "docs/decisions/infra/2023-01-02-x.md",
            None,
            "Use a | b [x] *now*",
            root="docs/decisions",
        ),
        roots=("docs/decisions",),
    )
    (state,) = index.evaluate(c, Options(), {})
    assert state.target.path == "docs/decisions/INDEX.md"
    assert r"[Use a \| b \[x\] \*now\*](infra/2023-01-02-x.md)" in (state.expected or "")


def test_superseded_by_column_links_the_successor() -> None:
    old = rec("docs/adr/0002-kafka.md", 2, "Kafka", Status.SUPERSEDED)
    new = rec(
        "docs/adr/0003-pulsar.md",
        3,
        "Pulsar",
        rels=(
            Relationship(
                RelKind.SUPERSEDES,
                "ADR-0003",
                "0002-kafka.md",
                Location("docs/adr/0003-pulsar.md", 5),
            ),
        ),
    )
    (state,) = index.evaluate(corpus(old, new), Options(), {})
    row = table_rows(state.expected or "")[0]
    assert row == "| 0002 | [Kafka](0002-kafka.md) | superseded |  | [0003](0003-pulsar.md) |"


def test_archive_gets_its_own_index_and_links_climb_out() -> None:
    c = corpus(
        rec("docs/adr/0001-a.md", 1, "A"),
        rec("docs/adr/archive/2019/0000-old.md", 0, "Old", Status.DEPRECATED, archived=True),
    )
    states = index.evaluate(c, Options(), {})
    assert [s.target.path for s in states] == ["docs/adr/INDEX.md", "docs/adr/archive/INDEX.md"]
    assert "[Old](2019/0000-old.md)" in (states[1].expected or "")
    assert "Old" not in (states[0].expected or "")
    assert states[1].expected is not None and states[1].expected.startswith("# Archived")


def test_columns_and_template_are_configurable() -> None:
    opts = Options(index=IndexOptions(columns=("title", "status"), template="Intro\n{index}\nOutro\n"))
    (state,) = index.evaluate(corpus(rec("docs/adr/0001-a.md", 1, "A")), opts, {})
    text = state.expected or ""
    assert text.startswith("Intro\n<!-- adrguard:index:start -->") and text.endswith("-->\nOutro\n")
    assert "| Title | Status |" in text and "Number" not in text


@pytest.mark.parametrize(
    "bad",
    [
        IndexOptions(columns=("title", "owner")),
        IndexOptions(columns=("status",)),
        IndexOptions(path="../INDEX.md"),
        IndexOptions(path="/tmp/INDEX.md"),
    ],
)
def test_bad_settings_are_user_errors(bad: IndexOptions) -> None:
    with pytest.raises(UserError):
        index.settings(Options(index=bad))


def test_surrounding_text_survives_and_crlf_is_not_stale() -> None:
    c = corpus(rec("docs/adr/0001-a.md", 1, "A"))
    (fresh,) = index.evaluate(c, Options(), {})
    block = (fresh.expected or "").split("\n", 2)[2]
    text = "# Mine\n\nIntro.\n\n" + block + "\nFooter.\n"
    (same,) = index.evaluate(
        c, Options(), {"docs/adr/INDEX.md": text.replace("\n", "\r\n").encode()}
    )
    assert same.kind == "fresh"
    c2 = corpus(rec("docs/adr/0001-a.md", 1, "A"), rec("docs/adr/0002-b.md", 2, "B"))
    (stale,) = index.evaluate(c2, Options(), {"docs/adr/INDEX.md": text.encode()})
    assert stale.kind == "stale" and "does not list 0002" in stale.message
    assert stale.expected is not None
    assert stale.expected.startswith("# Mine\n\nIntro.\n") and stale.expected.endswith(
        "\nFooter.\n"
    )
    assert "\r" not in stale.expected


@pytest.mark.parametrize(
    ("text", "fragment", "line"),
    [
        (f"x\n{region.MARK_START}\n", "no <!-- adrguard:index:end -->", 2),
        (f"{region.MARK_END}\n", "no <!-- adrguard:index:start -->", 1),
        (f"{region.MARK_END}\n{region.MARK_START}\n", "before the start marker", 1),
        (
            f"{region.MARK_START}\n{region.MARK_END}\n{region.MARK_START}\n{region.MARK_END}\n",
            "2 start",
            3,
        ),
    ],
)
def test_broken_markers_are_malformed(text: str, fragment: str, line: int) -> None:
    (state,) = index.evaluate(
        corpus(rec("docs/adr/0001-a.md", 1, "A")), Options(), {"docs/adr/INDEX.md": text.encode()}
    )
    assert state.kind == "malformed" and fragment in state.message and state.line == line
    assert state.required and state.expected is None


def test_markers_in_a_code_fence_do_not_count() -> None:
    text = f"# Index\n\n~~~~\n{region.MARK_START}\n```\n{region.MARK_END}\n~~~~\n"
    assert not region.find_markers(text).found
    (state,) = index.evaluate(
        corpus(rec("docs/adr/0001-a.md", 1, "A")), Options(), {"docs/adr/INDEX.md": text.encode()}
    )
    assert state.kind == "unmanaged" and not state.required


def test_auto_mode_finds_a_marked_readme_and_leaves_other_logs_alone() -> None:
    """Opting in is per log: a marked index in one root does not make the other root's log
    keep one (``index --write`` creates nothing there, ADR401 says nothing)."""
    a = rec("docs/adr/0001-a.md", 1, "A")
    b = rec("services/x/docs/adr/0001-b.md", 1, "B", root="services/x/docs/adr")
    c = corpus(a, b, roots=("docs/adr", "services/x/docs/adr"))
    readme = f"# ADRs\n\n{region.MARK_START}\n{region.MARK_END}\n".encode()
    states = index.evaluate(c, Options(), {"docs/adr/README.md": readme})
    assert [(s.target.path, s.kind, s.required) for s in states] == [
        ("docs/adr/README.md", "stale", True),
        ("services/x/docs/adr/INDEX.md", "missing", False),
    ]
    ruled = index.evaluate(c, Options(), {"docs/adr/README.md": readme}, required_only=True)
    assert [s.target.path for s in ruled] == ["docs/adr/README.md"]
    both = Options(index=IndexOptions(paths={"services/x/docs/adr": "INDEX.md"}))
    states = index.evaluate(c, both, {"docs/adr/README.md": readme})
    assert [s.required for s in states] == [True, True]  # configured for the other root


def test_disabled_index_has_no_targets_and_empty_root_says_so() -> None:
    assert (
        index.evaluate(
            corpus(rec("docs/adr/0001-a.md", 1, "A")), Options(index=IndexOptions(enabled=False)), {}
        )
        == []
    )
    (state,) = index.evaluate(corpus(), Options(index=IndexOptions(enabled=True)), {})
    assert state.required and "_No decision records yet._" in (state.expected or "")


def test_output_is_deterministic_lf_with_trailing_newline() -> None:
    c = corpus(rec("docs/adr/0001-a.md", 1, "A", date="2024-01-02"))
    first = index.evaluate(c, Options(), {})[0].expected
    assert first == index.evaluate(c, Options(), {})[0].expected
    assert first is not None and first.endswith("-->\n") and "\r" not in first


def test_relative_link_escapes_spaces_and_parentheses() -> None:
    assert region.relative_link("INDEX.md", "a (b).md") == "a%20%28b%29.md"
    assert region.relative_link("docs/adr/archive/INDEX.md", "docs/adr/x.md") == "../x.md"


def test_an_index_parsed_as_a_record_does_not_list_itself() -> None:
    c = corpus(rec("docs/adr/0001-a.md", 1, "A"), rec("docs/adr/INDEX.md", None, "Index"))
    (state,) = index.evaluate(c, Options(), {})
    assert [r.split(" | ")[1] for r in table_rows(state.expected or "")] == ["[A](0001-a.md)"]
