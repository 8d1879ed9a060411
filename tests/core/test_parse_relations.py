"""The parser on tiny inline records: links, comments, sections and relationships."""

from __future__ import annotations

import pytest

from adrguard.core.model import Decision, RelKind, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import relations
from adrguard.core.parse.record import parse

ROOT = "docs/adr"


def rec(text: str, name: str = "0001-x.md") -> Decision:
    return parse(SourceFile(f"{ROOT}/{name}", ROOT, text.encode("utf-8")), Options())


def rels(d: Decision) -> list[tuple[str, str]]:
    return [(r.kind.value, r.target_raw) for r in d.relationships]


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


def test_compound_front_matter_status() -> None:
    d = rec('---\nstatus: "accepted; supersedes ADR-0045"\n---\n# T\n')
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "accepted; supersedes ADR-0045")
    assert rels(d) == [("supersedes", "ADR-0045")]
    assert d.relationships[0].origin == "status" and d.relationships[0].location.line == 2
    old = rec('---\nstatus: "superseded by ADR-0057"\n---\n# T\n')
    assert (old.status, rels(old)) == (Status.SUPERSEDED, [("superseded-by", "ADR-0057")])


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


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- We supersede [ADR 4](/adr/4) with the current ADR.", [("supersedes", "/adr/4")]),
        ("We hereby replace [9. Queues](0009-queues.md).", [("supersedes", "0009-queues.md")]),
        ("- Extends ADR-0012 with two optional fields.", [("amends", "ADR-0012")]),
        ("Extended by [ADR 0017](0017-validation.md)", [("amended-by", "0017-validation.md")]),
        ("This ADR describes the new client, which replaces the plugin pattern described in "
         "[ADR-0006](0006-plugins.md) (now deprecated).", [("supersedes", "0006-plugins.md")]),
        ("While this does not directly supersede [ADR 5](0005-x.md), it prepares it.", []),
        ("The library extends [the parser](https://example.com) with hooks.", []),
    ],
)
def test_authors_and_replaced_descriptions_declare_relations(
    line: str, expected: list[tuple[str, str]]
) -> None:
    assert rels(rec(f"# 1. A\n\n## Status\n\nAccepted\n\n## Context\n\n{line}\n")) == expected


def test_a_retired_records_reason_names_its_successor() -> None:
    text = (
        "---\nstatus: Deprecated\ndeprecated-reason: The old client is gone; its plugin system "
        "was rewritten for the new client. See ADR-0031.\n---\n# 7. Plugins\n"
    )
    assert rels(rec(text, "0007-plugins.md")) == [("superseded-by", "ADR-0031")]
    accepted = text.replace("status: Deprecated", "status: Accepted")
    assert rels(rec(accepted, "0007-plugins.md")) == []


@pytest.mark.parametrize("value", ["N/A", "None", "n.a.", "-", "TBD", "''"])
def test_a_placeholder_for_nothing_states_no_relation(value: str) -> None:
    d = rec(f"---\nstatus: accepted\nreplaces: {value}\nsuperseded-by: {value}\n---\n# 1. A\n")
    assert rels(d) == []


def test_a_comma_separated_relation_value_is_a_list() -> None:
    d = rec("---\nstatus: accepted\nreplaces: 655, 777\n---\n# 1. A\n")
    assert rels(d) == [("supersedes", "655"), ("supersedes", "777")]


def test_email_autolinks_and_footnotes_are_not_paths() -> None:
    d = rec(
        "# 1. A\n\n## Status\n\nAccepted\n\nBy Ann <ann@example.org>, see the note[^1].\n\n"
        "[^1]:\n    ```json\n    {}\n    ```\n"
    )
    assert [link.target for link in d.links] == ["mailto:ann@example.org"]



@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Accepted; **superseded by** ADR-0007", [("superseded-by", "ADR-0007")]),
        ("Accepted; 2023-05-03: marked as superseded by ADR-0007",
         [("superseded-by", "ADR-0007")]),
        ("Accepted - *Amended by ADR 12*", [("amended-by", "ADR 12")]),
        ("Withdrawn; note: rejected in favour of ADR-5", [("in-favour-of", "ADR-5")]),
    ],
)
def test_a_later_clause_loses_its_lead_as_the_first_does(
    line: str, expected: list[tuple[str, str]]
) -> None:
    # emphasis, a changelog date, "note:" or "marked as" before the wording of a clause after
    # the first (after ";" or " - ") are skipped exactly as at the line's start
    first = line.split("; ", 1)[-1].split(" - ", 1)[-1]
    for text in (line, first):
        assert [(f.kind.value, f.target) for f in relations.scan_line(text, [])] == expected
