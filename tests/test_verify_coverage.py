"""Evidence as CI makes it: coverage.py really runs the tests of a tiny package inside a
temporary repository, ``coverage json`` writes the report, and ``adrguard verify`` judges
accepted decisions by it (the whole total, and one file through an escaped JSON Pointer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.schemas import validator

RECORD = """# 1. Test what we ship

Date: 2024-01-01

## Status

Accepted

## Context

Untested code breaks quietly.

## Decision

Line coverage of the calc package stays at {floor}% or more.

## Consequences

CI runs coverage.py and keeps artifacts/coverage.json.
"""

PACKAGE = {
    "calc/__init__.py": "",
    "calc/ops.py": (
        "def add(a, b):\n    return a + b\n\n\n"
        "def sub(a, b):\n    return a - b\n\n\n"
        "def div(a, b):\n    if b == 0:\n        raise ZeroDivisionError('b')\n    return a / b\n"
    ),
    "tests_calc/__init__.py": "",
    "tests_calc/test_ops.py": (
        "import unittest\n\nfrom calc import ops\n\n\n"
        "class Ops(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(ops.add(1, 2), 3)\n\n"
        "    def test_sub(self):\n        self.assertEqual(ops.sub(3, 2), 1)\n"
    ),
    ".gitignore": "artifacts/\n",
}


def _rules(floor: float, file_floor: float, missing: int = 2) -> str:
    rules = [
        {"id": "coverage-total", "decision": "ADR-0001", "kind": "evidence",
         "evidence": "artifacts/coverage.json", "pointer": "/totals/percent_covered",
         "op": ">=", "value": floor},
        {"id": "coverage-ops", "decision": "ADR-0001", "kind": "evidence",
         "evidence": "artifacts/coverage.json",
         "pointer": "/files/calc~1ops.py/summary/percent_covered", "op": ">=",
         "value": file_floor},
        {"id": "every-line-measured", "decision": "ADR-0001", "kind": "evidence",
         "evidence": "artifacts/coverage.json", "pointer": "/files/calc~1ops.py/missing_lines",
         "measure": "length", "op": "<=", "value": missing},
    ]
    return json.dumps({"schemaVersion": 1, "rules": rules}, indent=2)


def _coverage(repo: Path, data_file: Path) -> dict[str, object]:
    """Run the package's tests under coverage.py and write its JSON report, as a CI step does."""
    env = {**os.environ, "COVERAGE_FILE": str(data_file)}
    env.pop("COVERAGE_PROCESS_START", None)
    for args in (["run", "--source=calc", "-m", "unittest", "discover", "-s", "tests_calc",
                  "-t", "."],
                 ["json", "-o", "artifacts/coverage.json"]):
        subprocess.run([sys.executable, "-m", "coverage", *args], cwd=repo, env=env,
                       check=True, capture_output=True, timeout=120)
    report: dict[str, object] = json.loads((repo / "artifacts/coverage.json").read_text())
    return report


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    pytest.importorskip("coverage")  # in the dev extras; CI installs it
    r = GitRepo(tmp_path / "repo")
    r.write({"docs/adr/0001-test-what-we-ship.md": RECORD.format(floor=60), **PACKAGE,
             ".adrguard-fitness.json": _rules(60, 60)})
    r.commit("a package, its tests and a coverage floor")
    return r


def _verify(repo: GitRepo, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["verify", "--repo", str(repo.path), "--no-cache", "--format", "json", *args])
    data = json.loads(capsys.readouterr().out)
    assert not list(validator("verify.schema.json").iter_errors(data))
    return code, {r["rule"]: r for r in data["results"]}


def test_coverage_json_from_a_real_run_is_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _coverage(repo.path, tmp_path / ".coverage")
    totals = report["totals"]
    assert isinstance(totals, dict)
    measured = totals["percent_covered"]
    assert 50 < measured < 90  # add and sub run; div does not
    code, results = _verify(repo, capsys, "--evidence", "artifacts/coverage.json")
    assert code == 0
    assert results["coverage-total"]["status"] == "pass"
    assert results["coverage-total"]["evidence"][0]["value"] == measured
    assert results["coverage-ops"]["status"] == "pass"
    missing = results["every-line-measured"]
    assert missing["status"] == "violation"  # div's three lines never ran
    assert missing["evidence"][0]["value"] == 3
    repo.write({".adrguard-fitness.json": _rules(60, 60, missing=3)})
    repo.commit("three unmeasured lines are fine")
    code, results = _verify(repo, capsys, "--policy", "enforce")
    assert code == 0 and {r["status"] for r in results.values()} == {"pass"}
    # the floor rises above what the tests reach: a violation, and enforce fails
    repo.write({".adrguard-fitness.json": _rules(90, 60)})
    repo.commit("a higher floor")
    code, results = _verify(repo, capsys, "--policy", "enforce")
    assert code == 1
    assert results["coverage-total"]["status"] == "violation"
    assert f"is {measured}" in results["coverage-total"]["message"]


def test_no_coverage_run_no_pass(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    code, results = _verify(repo, capsys, "--policy", "enforce")
    assert code == 1
    assert {r["status"] for r in results.values()} == {"unknown"}
