"""The parser on tiny inline records: one test per real-world quirk."""

from __future__ import annotations

import hashlib

import pytest

from adrguard.core.model import Decision, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

ROOT = "docs/adr"


def rec(
    text: str | bytes,
    name: str = "0001-x.md",
    options: Options | None = None,
    root: str = ROOT,
) -> Decision:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse(SourceFile(path=f"{root}/{name}", root=root, data=data), options or Options())


def rels(d: Decision) -> list[tuple[str, str]]:
    return [(r.kind.value, r.target_raw) for r in d.relationships]


NYGARD = """# 12. Use PostgreSQL

Date: 2020-03-04

## Status

Accepted

## Context

We need a database.

## Decision

Use PostgreSQL.

## Consequences

Backups.
"""


def test_nygard_adr_tools_record() -> None:
    d = rec(NYGARD, "0012-use-postgresql.md")
    assert (d.id, d.number, d.title, d.title_number) == ("ADR-0012", 12, "Use PostgreSQL", 12)
    assert d.title_raw == "12. Use PostgreSQL"
    assert (d.status, d.status_raw, d.status_line) == (Status.ACCEPTED, "Accepted", 7)
    assert (d.date, d.date_line) == ("2020-03-04", 3)
    assert d.format == "nygard"
    assert [s.title for s in d.sections] == [
        "12. Use PostgreSQL",
        "Status",
        "Context",
        "Decision",
        "Consequences",
    ]
    assert d.problems == ()


def test_status_section_at_the_end_and_value_on_later_lines() -> None:
    text = (
        "# Architecture Decision Record: Modules\n"
        "\n"
        "## Context\n"
        "\n"
        "x\n"
        "\n"
        "## Decision\n"
        "\n"
        "y\n"
        "\n"
        "## Status\n"
        "\n"
        "\n"
        "PROPOSED\n"
    )
    d = rec(text, "adr-004-module-loading.md")
    assert (d.title, d.number, d.status, d.status_line) == ("Modules", 4, Status.PROPOSED, 14)


@pytest.mark.parametrize("bullet", ["*", "-"])
def test_madr2_bullets(bullet: str) -> None:
    text = (
        f"# Use X\n"
        f"\n"
        f"{bullet} Status: accepted\n"
        f"{bullet} Deciders: Ann\n"
        f"{bullet} Date: 2021-01-02\n"
        f"\n"
        f"## Context and Problem Statement\n"
        f"\n"
        f"x\n"
    )
    d = rec(text)
    assert (d.status, d.date, d.format) == (Status.ACCEPTED, "2021-01-02", "madr2")
    assert d.status_line == 3


def test_french_madr_bullet_with_space_before_colon() -> None:
    d = rec("# Choix\n\n* statut : proposé\n* date : 2025-05-27\n")
    assert (d.status, d.status_raw, d.date) == (Status.PROPOSED, "proposé", "2025-05-27")


def test_madr3_and_madr4_front_matter() -> None:
    madr4 = (
        "---\n"
        "status: accepted\n"
        "date: 2024-01-01\n"
        "decision-makers: [Ann]\n"
        "---\n"
        "# Use Y\n"
        "\n"
        "## Context and Problem Statement\n"
        "\n"
        "x\n"
        "\n"
        "## Decision Outcome\n"
        "\n"
        "y\n"
    )
    d = rec(madr4)
    assert (d.status, d.status_line, d.date, d.format) == (
        Status.ACCEPTED,
        2,
        "2024-01-01",
        "madr4",
    )
    assert d.statuses[0].source == "front-matter"
    assert d.front_matter["decision-makers"] == ["Ann"]
    assert d.front_matter_lines == {"status": 2, "date": 3, "decision-makers": 4}
    assert d.body_line_offset == 5
    assert d.title_line == 6 and d.sections[0].line == 6
    madr3 = madr4.replace("decision-makers", "deciders")
    assert rec(madr3).format == "madr3"


def test_log4brains_dated_name() -> None:
    text = (
        "# Use Lunr\n"
        "\n"
        "- Status: accepted\n"
        "- Date: 2020-11-03\n"
        "\n"
        "## Context and Problem Statement\n"
        "\n"
        "x\n"
    )
    d = rec(text, "20201103-use-lunr-for-search.md")
    assert (d.format, d.number, d.id) == ("log4brains", None, "20201103-use-lunr-for-search")


def test_status_line_in_a_paragraph() -> None:
    d = rec("# T\n\nStatus: Deprecated\n\nBody.\n")
    assert (d.status, d.status_line, d.statuses[0].source) == (Status.DEPRECATED, 3, "line")


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("✅ Accepted", Status.ACCEPTED),
        ("**Accepted**", Status.ACCEPTED),
        ("> Accepted", Status.ACCEPTED),
        ("`accepted`", Status.ACCEPTED),
        ("⌛️ Superseded by [36. Multi](036-multi.md)", Status.SUPERSEDED),
        ("🤔 Proposed", Status.PROPOSED),
        ("❌ Rejected", Status.REJECTED),
        ("Accepted (PR #12)", Status.ACCEPTED),
        ("Approved by @alice, @bob", Status.ACCEPTED),
        ("Partially superseded", Status.ACCEPTED),
        ("Partly superseded", Status.ACCEPTED),
        ("Deprecated (no superseding ADR)", Status.DEPRECATED),
        ("In Review", Status.PROPOSED),
        ("Ongoing.", Status.PROPOSED),
        ("Superceded", Status.SUPERSEDED),
        ("Frobnicated", Status.UNKNOWN),
        ("{proposed | rejected | accepted}", Status.UNKNOWN),
    ],
)
def test_status_decoration_and_vocabulary(written: str, status: Status) -> None:
    assert rec(f"# T\n\n## Status\n\n{written}\n").status is status


def test_front_matter_title_wins_and_front_matter_only_title() -> None:
    d = rec("---\ntitle: 0001-Choix du modèle\n---\n\n# Autre titre\n")
    assert (d.title, d.title_raw, d.title_line, d.title_number) == (
        "Choix du modèle",
        "0001-Choix du modèle",
        2,
        1,
    )
    only = rec("---\ntitle: Use `uv` for builds\n---\nNo heading here.\n")
    assert only.title == "Use uv for builds" and only.sections == ()


def test_bom_and_crlf() -> None:
    lf = "# 1. T\n\n## Status\n\nAccepted\n"
    crlf = b"\xef\xbb\xbf" + lf.replace("\n", "\r\n").encode()
    d = rec(crlf)
    assert (d.title, d.status, d.status_line, d.problems) == ("T", Status.ACCEPTED, 5, ())
    assert d.sha256 == hashlib.sha256(b"\xef\xbb\xbf" + lf.encode()).hexdigest()
    assert rec(lf).sha256 == hashlib.sha256(lf.encode()).hexdigest()


def test_yaml_comments_blank_lines_and_leading_zeros() -> None:
    text = (
        "---\n"
        "# These are optional elements\n"
        "status: proposed\n"
        "\n"
        "nav_order: 0002\n"
        "id: 0012\n"
        "date: 2022-05-27\n"
        "---\n"
        "# T\n"
    )
    d = rec(text)
    assert d.problems == ()
    assert d.front_matter["nav_order"] == "0002"
    assert d.front_matter["date"] == "2022-05-27"
    assert (d.id, d.status, d.date) == ("0012", Status.PROPOSED, "2022-05-27")
    assert d.front_matter_lines["nav_order"] == 5


def test_front_matter_leaves_pyyaml_as_it_was_and_other_numbers_stay_numbers() -> None:
    """The loader that keeps ``0002`` and dates as strings is made for each document: PyYAML's
    own safe loaders still read both as a number and a date afterwards (ADR 36)."""
    import datetime

    import yaml

    d = rec("---\nstatus: accepted\norder: 0010\nsize: 12\nmask: 0x1F\nwhen: 2022-05-27\n"
            "---\n# T\n")
    assert (d.front_matter["order"], d.front_matter["size"], d.front_matter["mask"]) == (
        "0010", 12, 31)
    assert d.front_matter["when"] == "2022-05-27"
    for loader in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        assert yaml.load("a: 0010\nb: 2022-05-27\n", Loader=loader) == {
            "a": 8, "b": datetime.date(2022, 5, 27)}


@pytest.mark.parametrize(
    "front",
    [
        "a: [unclosed\n",
        "- just\n- a list\n",
        "just a scalar\n",
        "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
        "a: " + "[" * 200 + "]" * 200 + "\n",
        "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 120)) + "  " * 120 + "v: 1\n",
    ],
)
def test_broken_or_hostile_front_matter_is_adr002_and_the_record_stays(front: str) -> None:
    d = rec(f"---\n{front}---\n# 3. Still here\n\n## Status\n\nAccepted\n")
    assert [p.code for p in d.problems] == ["ADR002"]
    assert (d.title, d.status, d.front_matter) == ("Still here", Status.ACCEPTED, {})


def test_broken_yaml_problem_names_the_line() -> None:
    d = rec("---\ntitle: ok\nstatus: [a\nx: 1\n---\n# T\n")
    assert d.problems[0].code == "ADR002" and d.problems[0].line >= 3


def test_only_a_heading_exactly_status_counts() -> None:
    text = (
        "# T\n"
        "\n"
        "### Status change requirements\n"
        "\n"
        "Accepted\n"
        "\n"
        "| Status | Owner |\n"
        "|---|---|\n"
        "| Accepted | me |\n"
    )
    assert rec(text).status is None
    assert rec(text).statuses == ()


def test_status_section_wins_over_later_bold_status_lines() -> None:
    text = (
        "# 22. EKS\n"
        "\n"
        "## Status\n"
        "\n"
        "✅ Accepted\n"
        "\n"
        "## Tasks\n"
        "\n"
        "**Status**: Completed 2020-01-01\n"
        "\n"
        "**Status**: Completed 2020-02-01\n"
    )
    d = rec(text)
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "✅ Accepted")
    assert [s.source for s in d.statuses] == ["section"]


def test_conflicting_statements_are_all_recorded() -> None:
    d = rec("---\nstatus: accepted\n---\n# T\n\n## Status\n\nProposed\n")
    assert [(s.status, s.source) for s in d.statuses] == [
        (Status.ACCEPTED, "front-matter"),
        (Status.PROPOSED, "section"),
    ]


def test_dated_status_history_takes_the_latest_entry() -> None:
    text = (
        "# T\n"
        "\n"
        "## Status\n"
        "\n"
        "- 2020-01-01 Proposed\n"
        "- 2020-03-01 Deprecated\n"
        "- 2020-02-01 Accepted\n"
    )
    d = rec(text)
    assert (d.status, d.status_line) == (Status.DEPRECATED, 6)


def test_status_heading_with_value_and_localised_heading() -> None:
    assert rec("# T\n\n## Status: Accepted\n\nx\n").status is Status.ACCEPTED
    opts = Options(status_headings=("status", "stato"), status_synonyms={"accettato": "accepted"})
    assert rec("# T\n\n## Stato\n\nAccettato\n", options=opts).status is Status.ACCEPTED


def test_no_status_means_none() -> None:
    d = rec("# T\n\n## Context\n\nx\n")
    assert (d.status, d.status_raw, d.statuses) == (None, None, ())


def test_code_fences_hide_headings_and_status_lines() -> None:
    d = rec("# T\n\n```\n# not a heading\nStatus: accepted\n```\n\n# Status\n\nApproved\n")
    assert [s.title for s in d.sections if s.level == 1] == ["T", "Status"]
    assert d.status is Status.ACCEPTED and d.status_line == 10


def test_governed_paths_components_scope_and_archive_flag() -> None:
    text = (
        "---\n"
        "affected-paths: [src/**]\n"
        "affected-components: api\n"
        "scope: [lib/*.py, billing]\n"
        "---\n"
        "# T\n"
    )
    d = parse(
        SourceFile(f"{ROOT}/archive/0004-x.md", ROOT, text.encode(), archived=True), Options()
    )
    assert d.governed_paths == ("src/**", "lib/*.py")
    assert d.governed_components == ("api", "billing")
    assert d.archived is True


def test_text_and_body_offset() -> None:
    d = rec("---\na: 1\n---\n# T\n")
    assert (d.text, d.body_line_offset) == ("# T\n", 3)


def test_dates_written_without_a_label_colon() -> None:
    assert rec("# ADR 1: T\n\nJune 19, 2018\n\n## Context\n\nx\n").date == "June 19, 2018"
    assert rec("# T\n\nDate 09/04/2018\n\n## Status\n\nAccepted\n").date == "09/04/2018"
    assert rec("# T\n\n## Context\n\n2018-01-01\n").date is None


@pytest.mark.parametrize(
    ("line", "raw"),
    [
        ("**Status:** Accepted", "Accepted"),
        ("**Status**: Accepted", "Accepted"),
        ("Status: **Deprecated**", "**Deprecated**"),
        ("Status: superseded by [B](0002-b.md)", "superseded by [B](0002-b.md)"),
    ],
)
def test_status_raw_keeps_the_value_markup(line: str, raw: str) -> None:
    d = rec(f"# T\n\n{line}\n")
    assert d.status_raw == raw and d.status is not None


def test_status_history_table_takes_the_latest_row() -> None:
    text = (
        "# T\n\n## Status\n\n"
        "| Date | Status |\n|---|---|\n| 2021-01-01 | Proposed |\n| 2021-06-01 | Accepted |\n"
    )
    d = rec(text)
    assert (d.status, d.status_line, d.status_raw) == (Status.ACCEPTED, 8, "2021-06-01 | Accepted")


def test_status_checklist_takes_the_ticked_box() -> None:
    d = rec("# T\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Rejected\n")
    assert (d.status, d.status_line) == (Status.ACCEPTED, 6)
    assert rec("# T\n\n## Status\n\n- [ ] Proposed\n- [ ] Accepted\n").status is None
