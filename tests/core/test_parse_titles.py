"""The parser on tiny inline records: titles, numbers and ids."""

from __future__ import annotations

import pytest

from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

ROOT = "docs/adr"


def rec(text: str, name: str = "0001-x.md") -> Decision:
    return parse(SourceFile(f"{ROOT}/{name}", ROOT, text.encode("utf-8")), Options())


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


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("ADR 12: 3 Musketeers", "3 Musketeers"),
        ("1.2 Upgrade", "2 Upgrade"),
        ("Architecture Decision Record: 4. Loading", "Loading"),
    ],
)
def test_only_one_number_prefix_is_stripped(heading: str, title: str) -> None:
    assert rec(f"# {heading}\n").title == title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # a setext heading that opens the body, numbered in the log's own scheme
        ("GR7: Connection scaling\n----\n* Status: Draft\n\n## Abstract\n\nx\n", "Connection scaling"),
        ("## Created timestamps\n\n* **Owners**: ann\n\n## Why\n\nx\n", "Created timestamps"),
        # a metadata block's Title field, in bullets or in a table
        ("* Title: Cache the price lists\n* Status: Accepted\n\n## Context\n\nx\n",
         "Cache the price lists"),
        ("| ACP | 7 |\n| :--- | :--- |\n| **Title** | Dynamic fees |\n| **Status** | Final |\n\n"
         "## Abstract\n\nx\n", "Dynamic fees"),
        # a preamble written as a code block
        ("## Preamble\n\n```\nCAP: 0007\nTitle: Bump sequence\nStatus: Final\n```\n\n## Summary\n",
         "Bump sequence"),
        # a section that opens the body is no title
        ("## Context and Problem Statement\n\nx\n\n## Decision Outcome\n\ny\n", None),
        ("## Status\n\nAccepted\n", None),
    ],
)
def test_a_title_stated_in_another_shape(text: str, title: str | None) -> None:
    assert rec(text, "GR7-x.md").title == title


def test_a_preamble_code_block_states_status_and_date() -> None:
    d = rec("## Preamble\n\n```\nTitle: Bump\nStatus: Final\nCreated: 2018-02-08\n```\n\n## S\n")
    assert (d.status_raw, d.date) == ("Final", "2018-02-08")


def test_a_preamble_reads_past_continuation_lines_and_lines_of_no_key() -> None:
    d = rec("```\nProposal: 0042\nTitle: Hosted tills\nAuthor: Ann Example <ann@example.org>\n"
            "        Bo Example <bo@example.org>\nStatus: Active\nCreated: 2022-07-07\n"
            "Revision 2.5.0\n```\n\n## Abstract\n\nx\n")
    assert (d.title, d.status_raw, d.date) == ("Hosted tills", "Active", "2022-07-07")


def test_a_code_block_of_prose_is_no_preamble() -> None:
    d = rec("# A record\n\n```\nNote: this is an example\nof a block\n```\n\n## Status\n\n"
            "Accepted\n")
    assert (d.title, d.status_raw) == ("A record", "Accepted")


@pytest.mark.parametrize(
    ("h1", "title", "status"),
    [
        ("Accepted: Support texture import", "Support texture import", "accepted"),
        ("[Draft] Add build notifications", "Add build notifications", "draft"),
        ("Kafka: a decision on queues", "Kafka: a decision on queues", None),
    ],
)
def test_a_status_written_as_the_titles_prefix(h1: str, title: str, status: str | None) -> None:
    d = rec(f"# {h1}\n\n## Context\n\nx\n", "20210523-x.md")
    assert d.title == title
    assert (d.status.value if d.status else None) == status


def test_a_stated_status_outranks_the_titles_prefix() -> None:
    d = rec("# Draft: Use a queue\n\n## Status\n\nAccepted\n", "20210523-x.md")
    assert d.status is not None and d.status.value == "accepted" and d.title == "Use a queue"
