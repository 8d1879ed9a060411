"""action.yml: the documented defaults, and no ``${{ }}`` expression inside a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / "docs" / "examples" / "workflows").glob("*.yml"))


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_input_defaults() -> None:
    action = _load(REPO / "action.yml")
    inputs = action["inputs"]
    assert inputs["fail-on"]["default"] == "none"
    assert inputs["comment"]["default"] == "true"
    assert inputs["annotations"]["default"] == "true"
    assert inputs["sarif-file"]["default"] == ""
    assert inputs["base"]["default"] == ""
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert {"config", "profile", "version"} <= set(inputs)
    assert all(name == name.lower() and "_" not in name for name in inputs)
    assert set(action["outputs"]) == {"exit-code", "error-count", "warning-count", "note-count",
                                      "report-json", "sarif-file", "verify-json",
                                      "verify-policy-failed"}
    assert inputs["verify"]["default"] == "false" and inputs["verify-policy"]["default"] == ""
    assert action["runs"]["using"] == "composite"


def _runs(doc: Any) -> list[str]:
    found: list[str] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key == "run" and isinstance(value, str):
                found.append(value)
            else:
                found += _runs(value)
    elif isinstance(doc, list):
        for item in doc:
            found += _runs(item)
    return found


@pytest.mark.parametrize("path", [REPO / "action.yml", *WORKFLOWS], ids=lambda p: p.name)
def test_no_expression_inside_a_script(path: Path) -> None:
    scripts = _runs(_load(path))
    assert all("${{" not in s for s in scripts)


def test_action_installs_from_its_own_checkout_into_its_own_venv() -> None:
    steps = _load(REPO / "action.yml")["runs"]["steps"]
    install = steps[0]
    assert install["env"]["ADRGUARD_ACTION_PATH"] == "${{ github.action_path }}"
    assert '"$RUNNER_TEMP/adrguard-venv"' in install["run"]
    assert all(s.get("shell") == "bash" for s in steps)
    checks = [s["run"] for s in steps if "adrguard\" \"${args[@]}\"" in s.get("run", "")]
    assert len(checks) == 1  # exactly one adrguard check invocation
    for fmt in ("json:", "github:", "sarif:", "markdown:", "--no-cache", "--base",
                "--repository-url"):
        assert fmt in checks[0]


def test_example_workflows_exist_and_pin_third_party_actions() -> None:
    assert {p.name for p in WORKFLOWS} >= {"adrguard-advisory.yml", "adrguard-gate.yml",
                                           "adrguard-sarif.yml"}
    for path in WORKFLOWS:
        doc = _load(path)
        assert doc.get("permissions") is not None, path.name  # explicit, minimal
        for job in doc["jobs"].values():
            for step in job["steps"]:
                uses = step.get("uses", "")
                if uses and not uses.startswith("./"):
                    ref = uses.rpartition("@")[2]
                    assert len(ref) == 40 and all(c in "0123456789abcdef" for c in ref), uses
