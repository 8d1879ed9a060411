"""Statuses, titles and ids the parser reads from text written for these tests: headings in any
language, dated histories, template text, process lifecycles, ids in the log's own scheme."""

from __future__ import annotations

import pytest

from adrguard.core.model import Decision, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import formats, ids
from adrguard.core.parse import status as st
from adrguard.core.parse.record import parse

ROOT = "docs/adr"
SYN = Options().status_synonyms


def rec(text: str, name: str = "0001-x.md", root: str = ROOT) -> Decision:
    return parse(SourceFile(path=f"{root}/{name}", root=root, data=text.encode()), Options())


def body(heading: str, status: str) -> str:
    return f"# 1. Pick a queue\n\n## {heading}\n\n{status}\n\n## Context\n\nWe need one.\n"


@pytest.mark.parametrize(
    "heading",
    [
        "Status",
        "상태 (Status)",
        "Status / 状态",
        "状态",
        "Statut",
        "Estado",
        "Stato",
        "Статус",
        "ステータス",
        "2. Status",
        "📌 Status:",
        "상태 Status",
        "Decision status",
        "Statut de la décision",
    ],
)
def test_a_status_heading_in_any_language(heading: str) -> None:
    d = rec(body(heading, "Accepted"))
    assert (d.status, d.status_raw, d.status_line) == (Status.ACCEPTED, "Accepted", 5)


@pytest.mark.parametrize("heading", ["Implementation status", "Statuses of services", "Context"])
def test_other_headings_are_not_the_status(heading: str) -> None:
    assert rec(body(heading, "Accepted")).status is None


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        # process lifecycles (PEP 1, KEP, EIP-1, JEP, pull requests)
        ("Final", Status.ACCEPTED),
        ("Active", Status.ACCEPTED),
        ("Living", Status.ACCEPTED),
        ("Implemented (since 2.3)", Status.ACCEPTED),
        ("Implementable", Status.ACCEPTED),
        ("Provisional", Status.ACCEPTED),
        ("Merged", Status.ACCEPTED),
        ("Drafted", Status.DRAFT),
        ("Partially accepted", Status.ACCEPTED),
        ("Deferred", Status.PROPOSED),
        ("Last Call", Status.PROPOSED),
        ("Under discussion", Status.PROPOSED),
        ("Withdrawn by the author", Status.REJECTED),
        ("Abandoned", Status.REJECTED),
        ("Obsolete", Status.DEPRECATED),
        ("Historic", Status.DEPRECATED),
        ("Obsoleted by RFC 9110", Status.SUPERSEDED),
        ("Replaced by [7](0007-y.md)", Status.SUPERSEDED),
        ("Stagnant", Status.PROPOSED),
        ("experimental", Status.PROPOSED),
        ("Placeholder", Status.DRAFT),
        ("in-progress", Status.DRAFT),
        ("On_hold", Status.PROPOSED),
        ("Likely Decline", Status.PROPOSED),
        ("Stage 4", Status.ACCEPTED),
        ("Accepted with revisions", Status.ACCEPTED),
        # translations of the Nygard and MADR templates
        ("Akzeptiert", Status.ACCEPTED),
        ("Abgelöst durch ADR-7", Status.SUPERSEDED),
        ("Acceptée", Status.ACCEPTED),
        ("mergée", Status.ACCEPTED),
        ("Remplacé par l'ADR 7", Status.SUPERSEDED),
        ("Rechazado", Status.REJECTED),
        ("Aceito", Status.ACCEPTED),
        ("Substituído por ADR-7", Status.SUPERSEDED),
        ("Approvata", Status.ACCEPTED),
        ("Bozza", Status.DRAFT),
        ("Goedgekeurd", Status.ACCEPTED),
        ("Vervangen door ADR-7", Status.SUPERSEDED),
        ("Принято", Status.ACCEPTED),
        ("Отклонено", Status.REJECTED),
        ("已采纳", Status.ACCEPTED),
        ("已废弃", Status.DEPRECATED),
        ("提议中", Status.PROPOSED),
        ("承認済み", Status.ACCEPTED),
        ("却下", Status.REJECTED),
        ("승인됨", Status.ACCEPTED),
        ("대체됨", Status.SUPERSEDED),
    ],
)
def test_the_vocabulary_covers_processes_and_languages(written: str, expected: Status) -> None:
    assert rec(body("Status", written)).status is expected


@pytest.mark.parametrize(
    "written",
    [
        "2021-04-01 Accepted",
        "2021/04/01: Accepted",
        "1 April 2021 - Accepted",
        "April 1, 2021 — accepted",
        "Accepted on 2021-04-01",
    ],
)
def test_a_status_line_that_starts_or_ends_with_a_date(written: str) -> None:
    d = rec(body("Status", written))
    assert (d.status, d.status_raw) == (Status.ACCEPTED, written)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("2020-01-01 proposed → 2020-02-01 accepted", Status.ACCEPTED),
        ("Proposed 2020-01-01; Accepted 2020-03-04", Status.ACCEPTED),
        ("Accepted (2020-01-01), superseded by ADR-5 (2021-02-02)", Status.SUPERSEDED),
        ("Proposed (2021-03-01) - Rejected (2021-04-01)", Status.REJECTED),
    ],
)
def test_a_dated_history_on_one_line_counts_its_latest_entry(
    written: str, expected: Status
) -> None:
    assert rec(f"# 1. X\n\nStatus: {written}\n").status is expected


def test_a_dated_history_in_paragraphs_counts_its_latest_entry() -> None:
    section = "2021-03-01 Proposed\n\n2021-03-09 Accepted\n\n2022-01-20 Deprecated"
    d = rec(body("Status", section))
    assert (d.status, d.status_raw, d.status_line) == (Status.DEPRECATED, "2022-01-20 Deprecated", 9)


def test_a_dated_history_written_out_of_order_still_counts_the_latest() -> None:
    d = rec(body("状态", "2019-05-02 通过\n2019-04-28 提议"))
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "2019-05-02 通过")


def test_a_legend_line_before_the_history_is_not_the_status() -> None:
    section = "Choices: proposed / accepted / rejected / deprecated\n\n2020-02-02 proposed"
    d = rec(body("Status", section))
    assert (d.status, d.status_raw) == (Status.PROPOSED, "2020-02-02 proposed")


@pytest.mark.parametrize(
    "section",
    [
        "{Proposed | Accepted | Rejected}",
        "> Proposed or Accepted\n>\n> Pick one when the review is over.",
        "Draft / Proposed / Accepted / Superseded",
        "- Proposed\n- Accepted\n- Rejected\n- Deprecated",
        '> A record is "proposed" while we talk, "accepted" once agreed, and "superseded" later.'
        "\n\n{Proposed|Accepted}",
    ],
)
def test_template_text_is_never_a_real_status(section: str) -> None:
    d = rec(body("Status", section))
    assert d.status is Status.UNKNOWN
    assert st.is_template_text(st.fold(d.status_raw or ""), SYN)


@pytest.mark.parametrize(
    "front_matter",
    [
        'status: "{proposed | rejected | accepted | superseded by ADR-0123"',  # quoted, unclosed
        "status: {proposed | rejected | accepted}",  # YAML reads a mapping
        "status: [proposed, accepted]",  # YAML reads a list
    ],
)
def test_template_braces_left_in_front_matter(front_matter: str) -> None:
    d = rec(f"---\n{front_matter}\ndate: {{YYYY-MM-DD}}\n---\n# T\n")
    assert (d.status, d.status_line, d.problems) == (Status.UNKNOWN, 2, ())


def test_template_braces_that_break_the_yaml_still_read_as_template_text() -> None:
    d = rec("---\nstatus: {proposed | accepted | superseded by [ADR-5](0005-x.md)}\n---\n# T\n")
    assert [p.code for p in d.problems] == ["ADR002"]
    assert (d.status, d.status_line) == (Status.UNKNOWN, 2)


def test_help_text_above_the_status_is_skipped() -> None:
    section = (
        '> Write "proposed" while we discuss it, "accepted" once agreed, "rejected" if not.\n\n'
        "Accepted"
    )
    d = rec(body("Status", section))
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "Accepted")


def test_a_checklist_counts_the_ticked_box() -> None:
    d = rec(body("Status", "- [ ] Proposed\n- [x] Accepted\n- [ ] Rejected"))
    assert d.status is Status.ACCEPTED


def test_an_unknown_word_stays_unknown_and_is_kept_as_written() -> None:
    d = rec(body("Status", "Parked until spring"))
    assert (d.status, d.status_raw) == (Status.UNKNOWN, "Parked until spring")


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("proposed | partially superseded by [4. Queue naming](0004-queue-naming.md)",
         Status.PROPOSED),
        ("accepted | amended by [6](0006-retries.md)", Status.ACCEPTED),
        ("accepted | superseded by [9. Use Kafka](0009-use-kafka.md)", Status.SUPERSEDED),
    ],
)
def test_a_compound_status_is_not_a_templates_alternatives(written: str, expected: Status) -> None:
    assert rec(body("Status", written)).status is expected


def test_two_bare_alternatives_are_still_template_text() -> None:
    assert rec(body("Status", "proposed | accepted")).status is Status.UNKNOWN


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("The migration steps above have been implemented; the runbook links them.",
         Status.ACCEPTED),
        ("This has now been rejected by the review board.", Status.REJECTED),
        ("Both parts have been partially implemented.", Status.UNKNOWN),
    ],
)
def test_a_sentence_that_says_what_became_of_the_decision(written: str, expected: Status) -> None:
    assert rec(body("Status", written)).status is expected


@pytest.mark.parametrize(
    "element",
    [
        "<decision-state status='accepted'></decision-state>",
        '<span class="badge" data-status="accepted">✔</span>',
        '<div>\n<status-badge state="accepted" />\n</div>',
    ],
)
def test_an_element_that_states_the_status_as_an_attribute(element: str) -> None:
    d = rec(body("Status", element))
    assert d.status is Status.ACCEPTED
    assert "accepted" in (d.status_raw or "")


def test_quote_keeps_messages_short() -> None:
    assert st.quote("x" * 200) == repr("x" * 79 + "…")
    assert st.quote("a\n  b") == "'a b'"


@pytest.mark.parametrize(
    ("name", "h1", "title", "number"),
    [
        ("DR002-no-fees.md", "DR002: We will not charge fees", "We will not charge fees", 2),
        ("0001-state-store.md", "API-001: State store design", "State store design", 1),
        ("kep-0042-x.md", "KEP-42 Move the scheduler", "Move the scheduler", 42),
        ("0003-x.md", "Python 3 upgrade", "Python 3 upgrade", None),
        ("0001-x.md", "[Pick a queue]", "Pick a queue", None),
        ("0011-x.md", "[ADR-0011] Pick a queue", "Pick a queue", 11),
        ("0012-x.md", "Title: Pick a queue", "Pick a queue", None),
    ],
)
def test_a_title_that_repeats_the_records_own_id(
    name: str, h1: str, title: str, number: int | None
) -> None:
    d = rec(f"# {h1}\n\nText.\n", name=name)
    assert (d.title, d.title_number) == (title, number)


@pytest.mark.parametrize(
    "h1",
    [
        "{short title of solved problem and solution}",
        "[titre court du problème résolu]",
        "Title (a description of the decision, not the problem)",
        "ADR {NUMBER}: {TITLE}",
        "ADR-XXXX: [결정 제목]",
        "<Decision title>",
    ],
)
def test_a_placeholder_title_is_no_title(h1: str) -> None:
    d = rec(f"# {h1}\n\nText.\n")
    assert d.title is None and d.title_raw == h1


@pytest.mark.parametrize(
    ("name", "prefix", "number", "version", "record_id"),
    [
        ("0012-use-x", "", 12, None, "ADR-0012"),
        ("adr-05", "adr", 5, None, "ADR-0005"),
        ("DR008-no-fees", "dr", 8, None, "DR-0008"),
        ("rfc_0031-cache", "rfc", 31, None, "RFC-0031"),
        ("std-0002-v3-naming", "std", 2, 3, "STD-0002-v3"),
        ("2023-03-02-use-x", "", None, None, None),
        ("2019-11-04_007-publish-events", "", 7, None, "ADR-0007"),
        ("20191104-012-cache-keys", "", 12, None, "ADR-0012"),
        ("2022-05-01-3-tier-layout", "", None, None, None),
        ("2024-01-15-2fa-support", "", None, None, None),
        ("202012-receive-split", "", None, None, None),
        ("v2-migration", "", None, None, None),
    ],
)
def test_ids_from_file_names(
    name: str, prefix: str, number: int | None, version: int | None, record_id: str | None
) -> None:
    parsed = ids.parse_name(name)
    assert (parsed.prefix, parsed.number, parsed.version, parsed.id) == (
        prefix, number, version, record_id
    )


def test_supplements_and_guides_are_not_records() -> None:
    assert formats.non_record_type({"type": "Supplement"}) == "Supplement"
    assert formats.non_record_type({"doc_type": "how-to"}) == "how-to"
    assert formats.non_record_type({"Type": "Implementation Notes"}) == "Implementation Notes"
    assert formats.non_record_type({"type": "Decision Record"}) is None
    assert formats.non_record_type({"type": "Standard"}) is None
    assert formats.non_record_type({"type": ["guide"]}) is None  # not a plain value


def test_superseded_without_by_takes_the_record_its_status_names() -> None:
    d = rec(body("Status", "superseded - the idea stays, but in ADR 9 we chose another way"))
    assert d.status is Status.SUPERSEDED
    assert [(r.kind.value, r.target_raw) for r in d.relationships] == [("superseded-by", "ADR 9")]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Superseded by DR008", [("superseded-by", "DR008")]),
        ("This record supersedes ADRs 4 and 5.", [("supersedes", "ADR 4"), ("supersedes", "ADR 5")]),
        ("This is an addendum to ADR-12.", [("amends", "ADR-12")]),
        ("This ADR adds to ADR-3; it does not replace it.", [("amends", "ADR-3")]),
        ("- 2024-01-02: Mark as rejected in favour of ADR-7", [("in-favour-of", "ADR-7")]),
        ("Superseded by Python 3 in the end", []),
    ],
)
def test_relation_wording_and_ids(line: str, expected: list[tuple[str, str]]) -> None:
    d = rec(f"# 1. X\n\n## Context\n\n{line}\n", name="DR001-x.md")
    assert [(r.kind.value, r.target_raw) for r in d.relationships] == expected


@pytest.mark.parametrize(
    ("key", "kind"),
    [("enhances", "amends"), ("updates", "amends"), ("obsoletes", "supersedes")],
)
def test_front_matter_relation_keys(key: str, kind: str) -> None:
    d = rec(f"---\n{key}: 0002-y.md\n---\n# 1. X\n")
    assert [(r.kind.value, r.target_raw) for r in d.relationships] == [(kind, "0002-y.md")]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ADR 2 can be considered superseded now.", [("supersedes", "ADR 2")]),
        ("[ADR-3](0003-x.md) is now partly superseded.", [("amends", "0003-x.md")]),
        ("ADR 4 should be marked as superseded once the model is done.", []),
        ("ADR 5 is superseded by ADR 6 already.", []),
    ],
)
def test_a_record_named_as_superseded_by_the_one_that_says_so(
    line: str, expected: list[tuple[str, str]]
) -> None:
    d = rec(f"# 9. X\n\n## Context\n\n{line}\n", name="0009-x.md")
    assert [(r.kind.value, r.target_raw) for r in d.relationships] == expected


@pytest.mark.parametrize(
    "text",
    [
        "- **상태 (Status)**: 승인됨\n- 날짜: 2024-01-02\n",
        "状态 / Status：已接受\n\n日期：2024-01-02\n",
        "Decision status: Accepted\nDate: 2024-01-02\n",
    ],
)
def test_bilingual_status_and_date_labels(text: str) -> None:
    d = rec(f"# 1. Pick a queue\n\n{text}\n## Context\n\nText.\n")
    assert (d.status, d.date) == (Status.ACCEPTED, "2024-01-02")


def test_a_dated_history_passes_over_lines_that_name_no_status() -> None:
    section = "- 2024-03-12: Drafted\n- 2024-03-14: Merged\n- 2025-04-04: Edited (typo)\n"
    d = rec(body("Status", section))
    assert d.status is Status.ACCEPTED and "Merged" in (d.status_raw or "")


def test_explicit_metadata_outranks_a_section_that_only_shares_the_name() -> None:
    text = (
        "# KEEP-0033: Caching\n\n* **Type**: Design proposal\n* **Status**: Accepted\n\n"
        "## Current state\n\nThe cache has no options for now.\n\n## Summary\n\nx\n"
    )
    d = rec(text, "0033-caching.md")
    assert d.status is Status.ACCEPTED and d.status_raw == "Accepted"
    plain = "# 3. C\n\n* Status: Proposed\n\n## Status\n\nAccepted\n"
    assert rec(plain, "0003-c.md").status is Status.ACCEPTED  # a Status section stays first


@pytest.mark.parametrize(("written", "expected"), [
    ("Accepted ſep 2024", (2024, 9, 1)),  # "ſ" (long s) is an "s" to a case-blind pattern
    ("Accepted 3 SEP 2024", (2024, 9, 3)),
    ("Accepted on Sep 4, 2024", (2024, 9, 4)),
])
def test_a_month_name_dates_in_any_case(written: str, expected: tuple[int, int, int]) -> None:
    assert st.date_key(written) == expected
    d = rec(body("Status", written))
    assert d.status is Status.ACCEPTED and not d.problems
