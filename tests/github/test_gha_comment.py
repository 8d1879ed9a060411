"""The sticky comment body: hostile ADR text stays inert, and the body always fits."""

from __future__ import annotations

import re

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.graph.graph import build
from adrguard.core.model import Corpus, Decision, Location, Status
from adrguard.reporters.comment import (
    COMMENT_LIMIT,
    MARKER,
    SUMMARY_LIMIT,
    Page,
    comment,
    has_news,
    neighbourhood,
    resolved,
    summary,
)
from adrguard.reporters.context import DecisionInfo, ReportContext
from adrguard.reporters.github import render as render_annotations

HOSTILE = "Use ::error::pwned @org/team <img src=x onerror=alert(1)> #123 [x](https://evil.example)"
CTX = ReportContext(
    version="0.0.0",
    decisions={"ADR-0009": DecisionInfo("ADR-0009", "docs/adr/0009-x.md", HOSTILE, "accepted")},
)


def _finding(message: str, code: str = "ADR104", line: int = 1) -> Finding:
    return Finding(code, "missing-section", Severity.WARNING, message,
                   Location("docs/adr/0009-x.md", line), decision_id="ADR-0009")


def _visible(markdown: str) -> str:
    """What survives outside code fences and our own generated links."""
    return re.sub(r"```.*?```", "", markdown, flags=re.S)


def test_hostile_title_and_message_are_inert() -> None:
    report = Report((_finding(HOSTILE),), decisions=1, files=1)
    body = comment(report, CTX, Page())
    visible = _visible(body)
    assert body.startswith(MARKER + "\n")
    assert "@org" not in visible  # no ping: a zero-width space follows the @
    assert "@&#8203;org/team" in visible
    assert "#123" not in visible and "#&#8203;123" in visible
    assert "<img" not in visible and "&lt;img" in visible
    assert "](https://evil" not in visible and "https://evil" not in visible
    assert "\\[x\\]" in visible  # no link syntax left


def test_hostile_message_cannot_inject_workflow_commands() -> None:
    report = Report((_finding("line one\n::error::injected\r\n::set-output name=x::y"),), 1, 1)
    text = render_annotations(report, CTX)
    assert text.count("\n") == 1 and text.startswith("::warning ")
    assert "%0A::error::injected%0D%0A::set-output" in text


def test_seventy_thousand_character_message_fits_the_comment_limit() -> None:
    big = "A" * 70_000
    report = Report(tuple(_finding(big + str(i), line=i) for i in range(1, 4)), 1, 1)
    body = comment(report, CTX, Page())
    assert len(body) < 65_536 and len(body) <= COMMENT_LIMIT
    assert "more characters)" in body  # each message is shortened, and says so
    assert body.count("| 🟡 warning |") == 3


def test_many_findings_are_cut_with_a_note() -> None:
    report = Report(tuple(_finding("x" * 900 + f" {i}", line=i) for i in range(1, 400)), 1, 1)
    body = comment(report, CTX, Page())
    assert len(body.encode("utf-8")) <= COMMENT_LIMIT
    assert re.search(r"\*\*\d+ more findings not shown\*\*", body)
    big = summary(report, CTX, Page())
    assert "not shown" not in big and len(big.encode("utf-8")) <= SUMMARY_LIMIT


def test_summary_fits_one_mebibyte() -> None:
    report = Report(tuple(_finding("y" * 990 + f" {i}", line=i) for i in range(1, 2000)), 1, 1)
    text = summary(report, CTX, Page())
    assert len(text.encode("utf-8")) <= 1024 * 1024
    assert "not shown" in text


def _decision(n: int, status: Status, title: str) -> Decision:
    return Decision(id=f"ADR-{n:04d}", path=f"docs/adr/{n:04d}-x.md", root="docs/adr", number=n,
                    title=title, status=status)


def test_neighbourhood_follows_supersession_one_step() -> None:
    from adrguard.core.model import Relationship, RelKind

    a = _decision(1, Status.SUPERSEDED, "Old")
    b_rel = Relationship(RelKind.SUPERSEDES, "ADR-0002", "0001-x.md", Location("docs/adr/0002-x.md", 5))
    b = Decision(id="ADR-0002", path="docs/adr/0002-x.md", root="docs/adr", number=2,
                 title="New ``` @team", status=Status.ACCEPTED, relationships=(b_rel,))
    c = _decision(3, Status.ACCEPTED, "Unrelated")
    graph = build(Corpus((a, b, c)))
    v = neighbourhood(graph, [b])
    assert [d.id for d in v.nodes] == ["ADR-0001", "ADR-0002"]
    assert v.emphasis == {"docs/adr/0002-x.md"}
    assert [(e.kind, e.source, e.target) for e in v.edges] == [
        ("supersedes", "docs/adr/0002-x.md", "docs/adr/0001-x.md")]


def test_resolved_body_and_news() -> None:
    clean = Report((), 3, 3)
    assert not has_news(clean, None)
    assert has_news(Report((_finding("x"),), 1, 1), None)
    text = resolved(Page(run_url="https://github.com/acme/shop/actions/runs/1"))
    assert text.startswith(MARKER) and "Nothing left to report" in text
