"""The Action's ``verify`` input: ``adrguard verify`` runs in the report step, its section
reaches the job summary and the sticky comment, and ``verify-policy: enforce`` fails the step
on a new violation (advisory never does)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakegithub import State
from gha_helpers import ActionRunner

from adrguard.core.schemas import validator

MANIFEST = {
    "schemaVersion": 1,
    "rules": [
        {"id": "payments-tested", "decision": "ADR-0003", "kind": "evidence",
         "evidence": "artifacts/coverage.json", "pointer": "/totals/percent_covered",
         "op": ">=", "value": 80},
        {"id": "no-sql-in-payments", "decision": "ADR-0003", "kind": "forbidden-text",
         "paths": ["src/payments/**"], "pattern": "(?i)\\bselect\\b.+\\bfrom\\b"},
    ],
}


def _prepare(action: ActionRunner, percent: float, ledger: str = "x = 2\n") -> None:
    repo = action.fx.repo
    repo.write({".adrguard-fitness.json": json.dumps(MANIFEST), "src/payments/ledger.py": ledger,
                ".gitignore": "artifacts/\n"})
    repo.commit("fitness rules")
    repo.write({"artifacts/coverage.json": json.dumps({"totals": {"percent_covered": percent}})})


def test_verify_adds_its_section_to_the_summary_and_the_comment(
    action: ActionRunner, github: State
) -> None:
    _prepare(action, 72.0, "ROWS = 'SELECT * FROM payments'\n")
    run = action(verify="true", **{"verify-evidence": "artifacts/coverage.json"})
    assert run.code == 0  # advisory
    assert "### Fitness rules (adrguard verify)" in run.summary
    assert "`payments-tested`" in run.summary and "`no-sql-in-payments`" in run.summary
    body = github.of("POST")[0].body["body"]
    assert "### Fitness rules (adrguard verify)" in body
    assert run.outputs["verify-policy-failed"] == "false"
    data = json.loads(Path(run.outputs["verify-json"]).read_text(encoding="utf-8"))
    assert not list(validator("verify.schema.json").iter_errors(data))
    assert data["summary"]["violation"] == 2


def test_enforce_fails_the_step_on_a_new_violation(action: ActionRunner) -> None:
    _prepare(action, 72.0)
    run = action(verify="true", **{"verify-policy": "enforce"})
    assert run.code == 1 and run.outputs["verify-policy-failed"] == "true"
    assert "policy enforce: FAILED" in run.summary
    _prepare(action, 93.0)
    run = action(verify="true", **{"verify-policy": "enforce"})
    assert run.code == 0 and run.outputs["verify-policy-failed"] == "false"


def test_a_manifest_verify_cannot_use_is_reported(action: ActionRunner) -> None:
    repo = action.fx.repo
    repo.write({".adrguard-fitness.json": '{"schemaVersion": 1, "rules": [{"id": "x"}]}'})
    repo.commit("a broken manifest")
    run = action(verify="true")
    assert run.code == 0
    assert "adrguard verify could not run" in run.summary
    assert "::error title=adrguard::adrguard verify could not run" in run.stdout
    run = action(verify="true", **{"verify-policy": "enforce"})
    assert run.code == 1


def test_verify_is_off_by_default(action: ActionRunner) -> None:
    _prepare(action, 10.0)
    run = action()
    assert "Fitness rules" not in run.summary and "verify-json" not in run.outputs


def test_a_nul_in_an_evidence_path_still_publishes_everything(
    action: ActionRunner, github: State
) -> None:
    """Round 2 (issue 27): on main a NUL in an evidence path crashed the verify section, so the
    report step left an empty summary, no annotations and no comment."""
    rule = {"id": "payments-tested", "decision": "ADR-0003", "kind": "evidence",
            "evidence": "artifacts/cov\u0000.json", "pointer": "", "op": "==", "value": 1}
    manifest = {"schemaVersion": 1, "rules": [rule]}
    repo = action.fx.repo
    repo.write({".adrguard-fitness.json": json.dumps(manifest), ".gitignore": "artifacts/\n"})
    repo.commit("a manifest with a NUL")
    run = action(verify="true")
    assert run.code == 0
    assert "adrguard verify could not run" in run.summary and "control character" in run.summary
    assert "## adrguard" in run.summary
    assert "::error title=adrguard::adrguard verify could not run" in run.stdout
    assert "file=" in run.stdout  # the check's annotations
    body = github.of("POST")[0].body["body"]
    assert "### Fitness rules (adrguard verify)" in body


def test_a_verify_that_crashes_is_reported_and_the_check_still_published(
    action: ActionRunner, github: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in verify (injected here) is said to be one, in the summary and as an error
    annotation; the check's own report, annotations and comment are still published."""
    from adrguard.api import verify as verify_api

    _prepare(action, 90.0)

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(verify_api, "verify", crash)
    run = action(verify="true", **{"verify-policy": "enforce"})
    assert run.code == 1  # enforce: no verdict fails the step
    assert "adrguard verify hit an internal error: RuntimeError: injected fault" in run.summary
    assert "::error title=adrguard::adrguard verify hit an internal error" in run.stdout
    assert "## adrguard" in run.summary and github.of("POST")
