"""Status written with markup that says which part counts, from text written for these tests: a
key/value table row, struck-through history, one emphasised choice among the vocabulary, an
emoji checklist."""

from __future__ import annotations

import pytest

from adrguard.core.model import SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse.record import parse


def status(text: str) -> Status | None:
    data = text.encode()
    return parse(SourceFile(path="docs/adr/0004-pick.md", root="docs/adr", data=data), Options()).status


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a metadata table under the title
        ("| Field | Value |\n|---|---|\n| Status | Accepted |\n| Owner | Team A |\n", Status.ACCEPTED),
        ("| **Status:** | Rejected |\n|---|---|\n| Date | 2021-01-01 |\n", Status.REJECTED),
        ("## Status\n\n| Status | Date |\n|---|---|\n| Accepted | 2020-01-01 |\n", Status.ACCEPTED),
        # struck-through history: the struck value is what it was
        ("## Status\n\n~~Proposed~~ Accepted\n", Status.ACCEPTED),
        ("Status: ~~Draft~~ Rejected\n", Status.REJECTED),
        # one emphasised choice among the vocabulary
        ("## Status\n\nProposed | **Accepted** | Deprecated\n", Status.ACCEPTED),
        ("Status: Proposed / Accepted / **Rejected**\n", Status.REJECTED),
        ("## Status\n\n**Accepted**\n", Status.ACCEPTED),
        # an emoji checklist: the ticked entry
        ("## Status\n\n⬜️ Proposed\n✅ Accepted\n⬜️ Deprecated\n", Status.ACCEPTED),
        ("## Status\n\n- ⬜ Proposed\n- ✅ Accepted\n- ⬜ Deprecated\n", Status.ACCEPTED),
        ("## Status\n\n⬜ Proposed ✅ Accepted ⬜ Deprecated\n", Status.ACCEPTED),
    ],
)
def test_markup_says_which_status_counts(text: str, want: Status) -> None:
    assert status(f"# 4. Pick\n\n{text}\n## Context\n\nC.\n") is want


def test_a_table_header_that_only_names_columns_states_nothing() -> None:
    # `| Status | Owner |` names columns: no row of it is read as the status line
    assert status("# 4. Pick\n\n| Status | Owner |\n|---|---|\n| Sam | Team A |\n") is None


def test_two_emphasised_choices_are_no_choice() -> None:
    got = status("# 4. Pick\n\n## Status\n\n**Proposed** | **Accepted** | Deprecated\n")
    assert got is not Status.ACCEPTED
