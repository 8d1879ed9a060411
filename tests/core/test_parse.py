"""The parser on tiny inline records: one test per real-world quirk."""

from __future__ import annotations

import hashlib

import pytest

from adrguard.core.model import Decision, RelKind, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import parse

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
    assert d.h1_count == 1


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


def test_amends_and_amended_by_lines() -> None:
    a = rec("# 10. A\n\n## Status\n\nAccepted\n\nAmended by [17. B](0017-b.md)\n")
    assert a.status is Status.ACCEPTED
    assert rels(a) == [("amended-by", "0017-b.md")]
    assert a.relationships[0].text == "17. B" and a.relationships[0].origin == "status"
    b = rec("# 17. B\n\n## Status\n\nAccepted\n\nAmends [10. A](0010-a.md)\n")
    assert rels(b) == [("amends", "0010-a.md")]


def test_superseded_by_link_in_status_section() -> None:
    d = rec("# 4. Old\n\n## Status\n\nSuperseded by [DNS](0015-dns.md)\n")
    assert d.status is Status.SUPERSEDED
    assert d.status_raw == "Superseded by [DNS](0015-dns.md)"
    assert rels(d) == [("superseded-by", "0015-dns.md")]
    assert d.relationships[0].location.line == 5


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


def test_compound_front_matter_status() -> None:
    d = rec('---\nstatus: "accepted; supersedes ADR-0045"\n---\n# T\n')
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "accepted; supersedes ADR-0045")
    assert rels(d) == [("supersedes", "ADR-0045")]
    assert d.relationships[0].origin == "status" and d.relationships[0].location.line == 2
    old = rec('---\nstatus: "superseded by ADR-0057"\n---\n# T\n')
    assert (old.status, rels(old)) == (Status.SUPERSEDED, [("superseded-by", "ADR-0057")])


def test_front_matter_title_wins_and_front_matter_only_title() -> None:
    d = rec("---\ntitle: 0001-Choix du modèle\n---\n\n# Autre titre\n")
    assert (d.title, d.title_raw, d.title_line, d.title_number) == (
        "Choix du modèle",
        "0001-Choix du modèle",
        2,
        1,
    )
    only = rec("---\ntitle: Use `uv` for builds\n---\nNo heading here.\n")
    assert only.title == "Use uv for builds" and only.h1_count == 0


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


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("supersedes", RelKind.SUPERSEDES),
        ("superseded-by", RelKind.SUPERSEDED_BY),
        ("superseded_by", RelKind.SUPERSEDED_BY),
        ("supersededBy", RelKind.SUPERSEDED_BY),
        ("replaces", RelKind.SUPERSEDES),
        ("replaced_by", RelKind.SUPERSEDED_BY),
        ("depends-on", RelKind.DEPENDS_ON),
        ("amends", RelKind.AMENDS),
        ("relates-to", RelKind.RELATES_TO),
    ],
)
def test_front_matter_relationships_scalar_and_list(key: str, kind: RelKind) -> None:
    scalar = rec(f"---\n{key}: ADR-0003\n---\n# T\n")
    assert [(r.kind, r.target_raw, r.origin) for r in scalar.relationships] == [
        (kind, "ADR-0003", "front-matter")
    ]
    listed = rec(f"---\n{key}:\n  - 0003-a.md\n  - '[4. B](0004-b.md)'\n---\n# T\n")
    assert [(r.kind, r.target_raw, r.text) for r in listed.relationships] == [
        (kind, "0003-a.md", ""),
        (kind, "0004-b.md", "4. B"),
    ]
    assert listed.relationships[0].location.line == 2


def test_refined_by_and_rejections() -> None:
    assert rels(rec("# T\n\n## Links\n\n- Refined by [ADR-2023-09-07](./2023-09-07-x.md)\n")) == [
        ("amended-by", "./2023-09-07-x.md")
    ]
    assert rels(rec("# T\n\n## Status\n\nRejected in favour of ADR 111\n")) == [
        ("in-favour-of", "ADR 111")
    ]
    d = rec("# T\n\n## Status\n\n❌ Rejected (see [019](019-shared.md))\n")
    assert (d.status, rels(d)) == (Status.REJECTED, [("in-favour-of", "019-shared.md")])


@pytest.mark.parametrize(
    "line",
    [
        "This ADR in part supersedes [0003](0003-a.md).",
        "Partially supersedes [ADR 3](0003-a.md)",
        "Note: this ADR supersedes some aspects of [ADR-3](0003-a.md).",
    ],
)
def test_partial_supersession_is_amends_never_supersedes(line: str) -> None:
    assert rels(rec(f"# T\n\n{line}\n")) == [("amends", "0003-a.md")]


def test_partly_superseded_record_says_amended_by() -> None:
    text = (
        "# 3. Net\n"
        "\n"
        "## Status\n"
        "\n"
        "Partly superseded\n"
        "\n"
        "## Decision\n"
        "\n"
        "**These ranges have been superseded by [ADR #0033](0033-ip.md).**\n"
    )
    d = rec(text)
    assert (d.status, rels(d)) == (Status.ACCEPTED, [("amended-by", "0033-ip.md")])


def test_subject_wording_in_the_body() -> None:
    d = rec("# T\n\nThis decision **supersedes [ADR-0045](0045-x.md)**.\n")
    assert rels(d) == [("supersedes", "0045-x.md")]
    banner = rec("# T\n\n> This decision is **superseded by [ADR-0057](0057-y.md)**.\n")
    assert rels(banner) == [("superseded-by", "0057-y.md")]


def test_mentions_and_dependency_wording_are_links_not_relationships() -> None:
    text = (
        "# T\n\nAs [ADR 18](adr-18.md) says, and see [3](0003-a.md).\n\n"
        "- Builds on [ADR-2023-05-09](./2023-05-09-x.md)\n- Based on [ADR-5](0005-x.md)\n\n"
        "Cloud providers are deprecated in favour of [out-of-tree](https://k8s.io/x).\n\n"
        "This library is superseded by log4j.\n"
    )
    d = rec(text)
    assert d.relationships == ()
    assert [link.target for link in d.links] == [
        "adr-18.md",
        "0003-a.md",
        "./2023-05-09-x.md",
        "0005-x.md",
        "https://k8s.io/x",
    ]


@pytest.mark.parametrize(
    ("heading", "title", "number"),
    [
        ("1. Record decisions", "Record decisions", 1),
        ("020. Environments", "Environments", 20),
        ("23 Logging", "Logging", 23),
        ("ADR 12: Browser support", "Browser support", 12),
        ("ADR-23 Tasks as plugins", "Tasks as plugins", 23),
        ("0001-Choix du modèle", "Choix du modèle", 1),
        ("n. Django Templates", "Django Templates", None),
        ("Architecture Decision Record: Use ADRs", "Use ADRs", None),
        ("Decision Record Private Properties", "Private Properties", None),
        ("3) Doxygen title {#adr_0003}", "Doxygen title", 3),
        ("Use `public final` instead of getters", "Use public final instead of getters", None),
        ("ADR for OCR engine selection", "ADR for OCR engine selection", None),
        ("Title of the Decision Record", None, None),
    ],
)
def test_title_prefixes(heading: str, title: str | None, number: int | None) -> None:
    d = rec(f"# {heading}\n\nText.\n")
    assert (d.title, d.title_number, d.title_raw) == (title, number, heading)


@pytest.mark.parametrize(
    ("name", "number", "rid"),
    [
        ("0012-x.md", 12, "ADR-0012"),
        ("adr-05.md", 5, "ADR-0005"),
        ("00011-remote-access.md", 11, "ADR-0011"),
        ("adr-001-use-adrs.md", 1, "ADR-0001"),
        ("000-Record.md", 0, "ADR-0000"),
        ("20200925-slug.md", None, "20200925-slug"),
        ("2023-05-09-slug.md", None, "2023-05-09-slug"),
        ("no-number.md", None, "no-number"),
        ("2022-02-03-integration-testing/README.md", None, "2022-02-03-integration-testing"),
        ("0007-folder-record/README.md", 7, "ADR-0007"),
    ],
)
def test_numbers_and_ids_from_the_file_name(name: str, number: int | None, rid: str) -> None:
    d = rec("# T\n", name)
    assert (d.number, d.id) == (number, rid)


def test_front_matter_id_wins_and_readme_at_the_root_is_its_stem() -> None:
    assert rec("---\nid: DEC-7\n---\n# T\n", "0007-x.md").id == "DEC-7"
    assert rec("# T\n", "README.md").id == "README"


def test_links_of_every_kind() -> None:
    text = (
        "# T\n\nSee [a](a.md), [ref][r], [shortcut], <https://x.org>, ![img](fig.png),\n"
        '<a href="h.md">h</a> and <img src="i.png">.\n\n'
        "`[not](code.md)`\n\n```\n[fenced](no.md)\n```\n\n"
        "[r]: ref.md\n[shortcut]: short.md\n[unused]: unused.md\n"
    )
    d = rec(text)
    got = [(link.target, link.kind, link.is_image, link.line) for link in d.links]
    assert got == [
        ("a.md", "inline", False, 3),
        ("ref.md", "reference", False, 3),
        ("short.md", "reference", False, 3),
        ("https://x.org", "autolink", False, 3),
        ("fig.png", "image", True, 3),
        ("h.md", "html", False, 4),
        ("i.png", "html", True, 4),
    ]
    assert d.links[0].text == "a" and d.links[0].column == 5


def test_html_comments_with_lines() -> None:
    text = (
        "<!-- vale off -->\n"
        "# T\n"
        "\n"
        "Text <!-- adrguard-disable-next-line ADR201 --> more\n"
        "\n"
        "<!--\n"
        "multi\n"
        "-->\n"
    )
    d = rec(text)
    assert [(c.text, c.line) for c in d.comments] == [
        ("vale off", 1),
        ("adrguard-disable-next-line ADR201", 4),
        ("multi", 6),
    ]


def test_sections_text_and_github_anchors() -> None:
    text = (
        "# Title\n\n## Pros & Cons\n\nOne.\n\nTwo.\n\n## Pros & Cons\n\n## Décision `code`\n\nx\n"
    )
    d = rec(text)
    assert [s.anchor for s in d.sections] == [
        "title",
        "pros--cons",
        "pros--cons-1",
        "décision-code",
    ]
    assert d.sections[1].text == "One.\nTwo." and (d.sections[1].line, d.sections[1].end_line) == (
        3,
        7,
    )
    assert d.section("pros & cons") is d.sections[1]


def test_code_fences_hide_headings_and_status_lines() -> None:
    d = rec("# T\n\n```\n# not a heading\nStatus: accepted\n```\n\n# Status\n\nApproved\n")
    assert d.h1_count == 2 and d.status is Status.ACCEPTED and d.status_line == 10


def test_unreadable_inputs_are_adr001() -> None:
    assert rec(b"# T\x00\n").problems[0].code == "ADR001"
    bad = rec(b"# T\n\xff\xfe\n")
    assert (bad.problems[0].code, bad.problems[0].line) == ("ADR001", 2)
    big = rec("# T\n" + "x" * 100, options=Options(max_file_size=50))
    assert big.problems[0].code == "ADR001" and "limit" in big.problems[0].message
    err = parse(
        SourceFile("docs/adr/0002-y.md", ROOT, None, error="symlink points outside"), Options()
    )
    assert (err.id, err.number, err.problems[0].message) == (
        "ADR-0002",
        2,
        "symlink points outside",
    )
    assert not err.is_readable
    assert (
        parse(SourceFile("docs/adr/0003-z.md", ROOT, None), Options()).problems[0].code == "ADR001"
    )


def test_empty_file_is_a_record_without_anything() -> None:
    d = rec(b"", "0009-empty.md")
    assert (d.id, d.title, d.status, d.problems, d.sections) == ("ADR-0009", None, None, (), ())


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
