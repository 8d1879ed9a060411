"""Which of a record's status statements is its metadata (written for these tests): a header
line outranks a `status` heading nested deep in the body, and a `Status:` line inside a
sentence further down is not a status."""

from __future__ import annotations

from adrguard.core.model import Decision, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse.record import parse


def rec(text: str) -> Decision:
    return parse(SourceFile(path="docs/rfcs/0001-acks.md", root="docs/rfcs", data=text.encode()),
                 Options())


def test_a_header_line_outranks_a_status_field_described_deep_in_the_body() -> None:
    d = rec(
        "# RFC 1: Acks\n\n- Status: Accepted\n\n## Reference\n\n### The ack message\n\n"
        "#### status\n\nRequired, values OK or PENDING.\n"
    )
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "Accepted")


def test_a_status_field_described_deep_in_the_body_is_no_status() -> None:
    d = rec("# Acks\n\n## Reference\n\n### The ack message\n\n#### status\n\nOK or PENDING.\n")
    assert d.status is None


def test_a_status_section_under_a_metadata_heading_is_the_status() -> None:
    d = rec("# Acks\n\n## Metadata\n\n### Status\n\nAccepted\n\n## Context\n\nWe ack.\n")
    assert d.status is Status.ACCEPTED


def test_a_status_line_inside_a_sentence_in_the_body_is_no_status() -> None:
    d = rec(
        "# Faster builds\n\n## Summary\n\nWe cache.\n\n## Details\n\n1. The operator sets the "
        "condition back to\n   Status: False as long as the flag is set.\n"
    )
    assert d.status is None


def test_a_status_line_that_opens_its_paragraph_in_the_body_is_the_status() -> None:
    d = rec("# Faster builds\n\n## Details\n\nStatus: Parked\n")
    assert (d.status, d.status_raw) == (Status.UNKNOWN, "Parked")


def test_a_status_section_about_the_subject_yields_to_the_header_metadata() -> None:
    d = rec(
        "# Key expiry\n\n| Status | Implemented |\n|---|---|\n\n## Context\n\nKeys expire.\n\n"
        "## Status\n\nThe `Status` type gets a new field for the expiry.\n"
    )
    assert (d.status, d.status_raw) == (Status.ACCEPTED, "Implemented")


def test_a_current_status_section_in_prose_is_no_status() -> None:
    d = rec("# Errors\n\n## Proposal\n\nA code.\n\n## Current status\n\nTwo servers ship it.\n")
    assert d.status is None


def test_a_labelled_heading_about_a_described_state_is_no_status() -> None:
    d = rec(
        "# Progress\n\n## Proposal\n\nA field.\n\n### Field values\n\n#### State: `Waiting`\n\n"
        "Nothing moves yet.\n"
    )
    assert d.status is None


def test_a_field_the_record_documents_in_code_is_no_status() -> None:
    d = rec(
        "# Export manifests\n\n## Design\n\nEach entry holds:\n\n- `id`: the entry's number\n"
        "- `status`: Export status (Pending, Running, Done)\n"
    )
    assert d.status is None


def test_a_status_label_in_the_header_stays_the_status_even_in_code() -> None:
    d = rec("# Export manifests\n\n- `Status`: Accepted\n\n## Design\n\nx\n")
    assert d.status is Status.ACCEPTED


def test_a_status_heading_a_record_with_metadata_describes_deep_in_its_body_is_no_statement() -> None:
    d = rec(
        "---\nstatus: Active\n---\n\n# The process\n\n## Statuses\n\n### Status: Proposed\n\n"
        "A proposal waits for review.\n\n### Status: Active\n\nIn force.\n"
    )
    assert (d.status, [s.raw for s in d.statuses]) == (Status.ACCEPTED, ["Active"])
