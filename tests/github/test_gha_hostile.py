"""Hostile pull requests through the Action's report step: a crashing rule still leaves every
other finding published (attack 3), and the sticky comment is ours alone (attack 5)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakegithub import State
from gha_helpers import ActionRunner

from adrguard.core.findings import Finding
from adrguard.reporters.comment import MARKER
from adrguard.rules import RULES_BY_CODE, RuleContext


def test_a_rule_crash_still_publishes_every_other_finding(
    action: ActionRunner, github: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = RULES_BY_CODE["ADR104"]
    original = rule.check

    def crash_on_the_hostile_record(self: object, ctx: RuleContext) -> Iterator[Finding]:
        if any(d.number == 4 for d in ctx.corpus.decisions):
            raise RuntimeError("planted")
        yield from original(self, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(rule, "check", crash_on_the_hostile_record)
    run = action()
    assert run.code == 0  # fail-on none: advisory, even now
    assert run.outputs["exit-code"] == "3"
    assert "::error title=adrguard::adrguard hit an internal error" in run.stdout
    assert int(run.outputs["error-count"]) >= 4  # the other rules' errors are all there
    assert "ADR000" in run.summary and "ADR201" in run.summary
    body = github.of("POST")[0].body["body"]
    assert body.startswith(MARKER) and "ADR000" in body and "ADR201" in body
