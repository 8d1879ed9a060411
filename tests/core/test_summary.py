"""A record in one sentence (``summary`` of list/list_adrs), what a model reads of a candidate,
and the title and date of a citing document (``referencedBy``)."""

from __future__ import annotations

import pytest

from adrguard.core.agent.summary import MAX_SUMMARY, candidate_summary, first_sentence, summary
from adrguard.core.citations.document import describe
from adrguard.core.model import SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse


def rec(text: str) -> object:
    return parse(SourceFile("docs/adr/0001-x.md", "docs/adr", text.encode()), Options())


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("We use PostgreSQL. It is boring.", "We use PostgreSQL."),
        ("We use e.g. Redis for caching. Then more.", "We use e.g. Redis for caching."),
        ("Upgrade to v1.2 first. Then the rest.", "Upgrade to v1.2 first."),
        ("Ask J. Smith before. Done.", "Ask J. Smith before."),
        ("No full stop at all", "No full stop at all"),
        ("我们使用队列。然后", "我们使用队列。"),
        ("Wrapped over\nseveral lines. Next.", "Wrapped over several lines."),
        ("", None),
    ],
)
def test_first_sentence(text: str, first: str | None) -> None:
    assert first_sentence(text) == first


def test_a_long_sentence_is_cut_at_a_word() -> None:
    cut = first_sentence("word " * 100)
    assert cut is not None and len(cut) <= MAX_SUMMARY and cut.endswith("word…")
    for n in range(MAX_SUMMARY - 3, MAX_SUMMARY + 3):  # a full stop just past the bound
        text = "x" * n + ". More."
        got = first_sentence(text)
        assert got is not None and len(got) <= MAX_SUMMARY


def test_the_summary_comes_from_the_decision_section() -> None:
    d = rec(
        "# 1. Use queues\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n"
        "Calls time out under load. Sometimes.\n\n## Decision\n\nWe put a queue between the "
        "web tier and the workers. It is durable.\n"
    )
    assert summary(d) == "We put a queue between the web tier and the workers."  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("heading", "body"),
    [
        ("Decision Outcome", 'Chosen option: "Kafka", because it keeps order.'),
        ("2. Decision:", "Kafka keeps order."),
        ("Entscheidung", "Wir nehmen Kafka."),
        ("Proposal", "Adopt Kafka for events."),
    ],
)
def test_the_decision_section_is_found_by_meaning(heading: str, body: str) -> None:
    d = rec(f"# Events\n\n## Context\n\nOrder matters here.\n\n## {heading}\n\n{body}\n")
    assert summary(d) == body  # type: ignore[arg-type]


def test_without_a_decision_section_the_first_prose_is_used() -> None:
    d = rec("# Events\n\n## Status\n\nAccepted\n\n## Notes\n\nWe keep events forever. Yes.\n")
    assert summary(d) == "We keep events forever."  # type: ignore[arg-type]
    assert summary(rec("# Only a title\n")) is None  # type: ignore[arg-type]
    below = rec("# 28 Scanning\n\nDate: 2021-11-05\n\n**Link: https://x.example/y**\n\n"
                "(Kept elsewhere. Here is a sign-post.)\n")
    assert summary(below) == "(Kept elsewhere."  # type: ignore[arg-type]
    assert summary(rec("# T\n\nDate: 2021-11-05\nStatus: accepted\n")) is None  # type: ignore[arg-type]


def test_a_candidate_summary_is_bounded_and_never_the_whole_body() -> None:
    d = rec(
        "# Evidence\n\n## Context\n\nClaims are cheap. More.\n\n## Decision\n\nShow, do not "
        "tell. Always.\n\n## Applies when\n\n- writing tests\n- reviewing\n\n## Notes\n\n"
        "SECRET-SENTENCE.\n"
    )
    text = candidate_summary(d, 600)  # type: ignore[arg-type]
    assert text == ("Decision: Show, do not tell. Context: Claims are cheap. "
                    "Applies when: writing tests; reviewing")
    assert "SECRET" not in text
    assert len(candidate_summary(d, 30)) <= 30  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "title", "date"),
    [
        ("---\ntitle: 'Testing framework'\ndate: 2026-01-20\n---\n# Other\n", "Testing framework",
         "2026-01-20"),
        ("# RFC 0004: Adherence\n\n| | |\n|---|---|\n| **Date** | 2026-01-24 |\n| ADRs | 0004 |\n",
         "RFC 0004: Adherence", "2026-01-24"),
        ("# Note\n\nDate: January 5, 2025\n", "Note", "January 5, 2025"),
        ("```\n# not a title\n```\n# Real\n\nDate: soon\n", "Real", None),
        ("Just text citing ADR-0004.\n", None, None),
        ("---\ndate: none\n---\n# T\n\n* **Created**: 2024-03-01\n", "T", "2024-03-01"),
    ],
)
def test_a_citing_document_title_and_date(text: str, title: str | None, date: str | None) -> None:
    assert describe(text.encode()) == (title, date)
