"""ReportContext: rule descriptions from docstrings, decisions from a corpus, shared wording."""

from __future__ import annotations

from adrguard.core.findings import Severity, Summary
from adrguard.core.model import Corpus, Decision, Status
from adrguard.reporters import DecisionInfo, context_for, decisions_of, describe
from adrguard.reporters.context import counts, scope
from adrguard.rules.base import BaseRule, RuleMeta


class _Documented(BaseRule):
    """Records supersede each other in a loop.

    **Why**: nobody can tell which
    decision is in force.

    **Bad**: 0006 supersedes 0007, 0007 supersedes 0006.

    **Good**: one direction only.
    """

    meta = RuleMeta("ADR303", "relationship-cycle", "Supersession forms a cycle.", Severity.ERROR)


class _Undocumented(BaseRule):
    meta = RuleMeta("ADR104", "missing-section", "A required section is absent.", Severity.WARNING)


class _WhyOnly(BaseRule):
    """**Why**: short."""

    meta = RuleMeta("ADR101", "missing-title", "No title.", Severity.ERROR)


def test_describe_takes_opening_and_why() -> None:
    assert describe(_Documented) == (
        "Records supersede each other in a loop. Why: nobody can tell which decision is in force."
    )
    assert describe(_Undocumented) == "A required section is absent."
    assert describe(_WhyOnly) == "Why: short."


def test_context_for_sorts_rules_and_keeps_descriptions() -> None:
    ctx = context_for([_Documented, _Undocumented], "1.2.3", color=True)
    assert [m.code for m in ctx.rules] == ["ADR104", "ADR303"]
    assert ctx.description(ctx.rules[1]).startswith("Records supersede")
    assert ctx.color and ctx.version == "1.2.3"
    assert ctx.help_uri("ADR104").endswith("/docs/rules/ADR104.md")


def test_decisions_of_corpus() -> None:
    corpus = Corpus(
        decisions=(
            Decision(
                id="ADR-0001",
                path="docs/adr/0001-a.md",
                root="docs/adr",
                title="A",
                status=Status.ACCEPTED,
            ),
            Decision(id="ADR-0001", path="docs/adr/archive/0001-old.md", root="docs/adr"),
            Decision(id="ADR-0002", path="docs/adr/0002-b.md", root="docs/adr"),
        )
    )
    assert decisions_of(corpus) == {
        "ADR-0001": DecisionInfo("ADR-0001", "docs/adr/0001-a.md", "A", "accepted"),
        "ADR-0002": DecisionInfo("ADR-0002", "docs/adr/0002-b.md", None, None),
    }


def test_wording_pluralises() -> None:
    assert counts(Summary(1, 1, 1, 0, 2)) == "1 error, 0 warnings, 2 notes"
    assert scope(Summary(1, 2, 0, 0, 0)) == "in 1 decision (2 files)"
