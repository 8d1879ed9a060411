"""``adrguard verify`` end to end: real git repositories, the real CLI in-process, JSON
validated against its schema. Every kind passing and violating; missing, contradictory and
ill-typed evidence (unknown, inconclusive); a rule on a superseded decision (not applicable,
successor named); the drift baseline (known, new, fixed); advisory and enforce exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import verifyrepo
from gitrepo import GitRepo
from verifyrepo import RULES, build, write_evidence

from adrguard.cli import main
from adrguard.core.schemas import validator

SARIF_SCHEMA = Path(__file__).resolve().parent / "reporters" / "sarif-2.1.0.schema.json"


def run(repo: GitRepo, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", "--repo", str(repo.path), "--no-cache", *args])
    out, err = capsys.readouterr()
    return code, out, err


def verify_json(repo: GitRepo, capsys: pytest.CaptureFixture[str], *args: str
                ) -> tuple[int, dict[str, Any]]:
    code, out, err = run(repo, capsys, "--format", "json", *args)
    assert code in (0, 1), err
    data = json.loads(out)
    errors = list(validator("verify.schema.json").iter_errors(data))
    assert not errors, errors[0].message
    return code, data


def by_rule(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["rule"]: r for r in data["results"]}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path / "repo")


def test_a_clean_repository_passes_every_rule_of_accepted_decisions(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = verify_json(repo, capsys)
    assert code == 0
    results = by_rule(data)
    assert {k: r["status"] for k, r in results.items()} == {
        "coverage-floor": "pass", "no-urllib": "not-applicable", "httpx-only": "pass",
        "api-not-db": "pass", "layers-exist": "pass", "no-env-files": "pass"}
    assert data["summary"] == {"pass": 5, "violation": 0, "unknown": 0, "notApplicable": 1,
                               "newViolations": 0}
    assert data["inconclusive"] is False and data["policyFailed"] is False
    cov = results["coverage-floor"]
    assert cov["confidence"] == "medium"  # a claim of a file another tool wrote
    assert cov["evidence"] == [{"file": "artifacts/architecture-evidence.json",
                                "pointer": "/coverage/percent", "value": 91.5,
                                "verdict": "pass"}]
    assert results["api-not-db"]["confidence"] == "medium"  # run-time imports are invisible
    assert results["no-env-files"]["confidence"] == "high"
    assert data["coverage"]["line"] == "4 of 4 accepted decisions have fitness rules"


def test_a_rule_on_a_superseded_decision_is_not_applicable_and_names_the_successor(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    # shop/service/orders.py imports httpx, which ADR-0002's rule forbids: it does not count
    _code, data = verify_json(repo, capsys)
    rule = by_rule(data)["no-urllib"]
    assert rule["status"] == "not-applicable"
    assert rule["decisionStatus"] == "superseded"
    assert rule["successor"] == "ADR-0003"
    assert "ADR-0003 (Use httpx for HTTP)" in rule["message"]
    assert rule["evidence"] == []


VIOLATIONS: list[tuple[str, dict[str, str], str, list[str]]] = [
    ("coverage-floor", {}, "/coverage/percent is 71.25", []),
    ("httpx-only", {"shop/service/legacy.py": "x = 1\nimport urllib.request\n"},
     "1 matching line in 1 file", ["shop/service/legacy.py:2"]),
    ("api-not-db", {"shop/api/admin.py": "from ..db.models import TABLE\nfrom shop import db\n"},
     "2 forbidden imports in 1 file", ["shop/api/admin.py:1", "shop/api/admin.py:2"]),
    ("layers-exist", {}, "no tracked file matches 'shop/db/*.py'", []),
    ("no-env-files", {"deploy/.env": "TOKEN=x\n"}, "1 tracked file matches", []),
]


@pytest.mark.parametrize(("rule", "files", "message", "locations"), VIOLATIONS,
                         ids=[v[0] for v in VIOLATIONS])
def test_each_kind_reports_its_violation(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], rule: str, files: dict[str, str],
    message: str, locations: list[str]
) -> None:
    if rule == "coverage-floor":
        write_evidence(repo, {"coverage": {"percent": 71.25}})
    if rule == "layers-exist":
        repo.git("rm", "-q", "shop/db/models.py", "shop/db/__init__.py")
    repo.write(files)
    repo.git("add", "-A")
    code, data = verify_json(repo, capsys)
    assert code == 0  # advisory
    result = by_rule(data)[rule]
    assert result["status"] == "violation", result
    assert message in result["message"]
    found = [e["location"] for e in result["evidence"] if "location" in e]
    assert found == locations
    others = {k: r["status"] for k, r in by_rule(data).items() if k != rule}
    assert "violation" not in others.values()
    code, _out, _err = run(repo, capsys, "--policy", "enforce")
    assert code == 1


def test_forbidden_text_reports_every_matching_line_with_its_place(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"shop/a.py": "import urllib.request  # one\nx = urllib.request.urlopen\n",
                "shop/b.bin.py": "urllib.request\0binary\n"})
    repo.git("add", "-A")
    code, out, _err = run(repo, capsys)
    assert code == 0
    assert "shop/a.py:1" in out and "shop/a.py:2" in out
    assert "1 binary file skipped" in out


def test_missing_evidence_is_unknown_and_the_run_inconclusive(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    os.remove(repo.path / "artifacts" / "architecture-evidence.json")
    code, data = verify_json(repo, capsys)
    assert code == 0  # advisory: reported, never enforced
    cov = by_rule(data)["coverage-floor"]
    assert cov["status"] == "unknown" and cov["confidence"] == "none"
    assert "not found" in cov["evidence"][0]["problem"]
    assert data["inconclusive"] is True and data["policyFailed"] is False
    code, data = verify_json(repo, capsys, "--policy", "enforce")
    assert code == 1 and data["policyFailed"] is True


@pytest.mark.parametrize(
    ("evidence", "problem"),
    [
        ({"coverage": {}}, "no key 'percent' at /coverage"),
        ({"coverage": {"percent": "91%"}}, "expected a number, found a string"),
        ({"coverage": {"percent": True}}, "expected a number, found a boolean"),
        ({"coverage": [91]}, "/coverage is an array: 'percent' is not an index"),
    ],
)
def test_a_missing_pointer_or_a_wrong_type_is_unknown_never_pass(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], evidence: Any, problem: str
) -> None:
    write_evidence(repo, evidence)
    _code, data = verify_json(repo, capsys)
    cov = by_rule(data)["coverage-floor"]
    assert cov["status"] == "unknown"
    assert problem in cov["evidence"][0]["problem"]


@pytest.mark.parametrize("raw", [b'{"coverage": {"percent": 90, "percent": 10}}',
                                 b'{"coverage": {"percent": NaN}}', b"[" * 100 + b"]" * 100,
                                 b"\xff\xfe not utf-8", b'{"coverage": '])
def test_evidence_that_is_not_safe_json_is_unknown(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    repo.write({"artifacts/architecture-evidence.json": raw})
    _code, data = verify_json(repo, capsys)
    assert by_rule(data)["coverage-floor"]["status"] == "unknown"
    assert data["evidenceFiles"][0]["problem"]


def test_contradictory_evidence_files_are_unknown(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rules = [{"id": "coverage-floor", "decision": "ADR-0001", "kind": "evidence",
              "evidence": ["artifacts/linux.json", "artifacts/windows.json"],
              "pointer": "/totals/percent_covered", "op": ">=", "value": 80}]
    repo = build(tmp_path / "repo", rules=rules, evidence={})
    write_evidence(repo, {"totals": {"percent_covered": 85}}, "artifacts/linux.json")
    write_evidence(repo, {"totals": {"percent_covered": 62}}, "artifacts/windows.json")
    _code, data = verify_json(repo, capsys)
    result = data["results"][0]
    assert result["status"] == "unknown"
    assert result["message"].startswith("contradictory evidence: artifacts/linux.json says pass")
    assert [e["verdict"] for e in result["evidence"]] == ["violation", "pass"]
    assert data["inconclusive"] is True
    write_evidence(repo, {"totals": {"percent_covered": 81}}, "artifacts/windows.json")
    _code, data = verify_json(repo, capsys)
    assert data["results"][0]["status"] == "pass"  # both agree


def test_evidence_given_on_the_command_line_is_the_only_evidence_read(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    write_evidence(repo, {"unrelated": 1}, "artifacts/other.json")
    _code, data = verify_json(repo, capsys, "--evidence", "artifacts/other.json")
    cov = by_rule(data)["coverage-floor"]
    assert cov["status"] == "unknown"
    assert "not among the evidence files given" in cov["evidence"][0]["problem"]
    assert data["notes"] == ["evidence artifacts/other.json was given but no rule names it"]


def test_evidence_through_a_symlink_out_of_the_repository_is_not_read(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "architecture-evidence.json").write_text('{"coverage": {"percent": 99}}')
    os.remove(repo.path / "artifacts" / "architecture-evidence.json")
    os.rmdir(repo.path / "artifacts")
    os.symlink(outside, repo.path / "artifacts")
    _code, data = verify_json(repo, capsys)
    cov = by_rule(data)["coverage-floor"]
    assert cov["status"] == "unknown"
    assert "symlink out of the repository" in cov["evidence"][0]["problem"]
    os.remove(repo.path / "artifacts")
    os.mkdir(repo.path / "artifacts")
    os.symlink(outside / "architecture-evidence.json",
               repo.path / "artifacts" / "architecture-evidence.json")
    _code, data = verify_json(repo, capsys)
    assert "symlink points outside" in by_rule(data)["coverage-floor"]["evidence"][0]["problem"]


@pytest.mark.parametrize(("args", "message"), [
    (["--evidence", "../x.json"], "contains '..'"),
    (["--evidence", "/etc/passwd"], "is absolute"),
    ([arg for i in range(21) for arg in ("--evidence", f"e{i}.json")], "at most 20"),
    (["--rules", "nothing.json"], "no fitness manifest at nothing.json"),
    (["--baseline", "missing.json"], "no drift baseline at missing.json"),
])
def test_usage_problems_are_one_error_line_and_exit_2(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(repo, capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("rules", "message"), [
    ([{**RULES[0], "decision": "ADR-0042"}], "6:7: rule 'coverage-floor': no decision matches "
                                             "'ADR-0042'"),
    ([{**RULES[0], "evidence": "../coverage.json"}], "rule 'coverage-floor': evidence "
                                                     "'../coverage.json' is a path that climbs"),
    ([{**RULES[0], "op": "<", "value": "eighty"}], "op '<' needs a number"),
])
def test_a_manifest_verify_cannot_use_is_exit_2_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: list[dict[str, Any]], message: str
) -> None:
    repo = build(tmp_path / "repo", rules=rules)
    code, _out, err = run(repo, capsys)
    assert code == 2
    assert err.startswith("error: .adrguard-fitness.json:") and message in err


def test_the_drift_baseline_tells_known_new_and_fixed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    write_evidence(repo, {"coverage": {"percent": 70}})
    repo.write({"shop/api/admin.py": "from shop.db import models\n", "keys/server.pem": "k\n"})
    repo.git("add", "-A")
    before = repo.git("status", "--porcelain")
    code, _out, err = run(repo, capsys, "--write-baseline")
    assert code == 0 and "wrote .adrguard-drift-baseline.json with 3 violations" in err
    after = repo.git("status", "--porcelain")
    assert set(after.splitlines()) - set(before.splitlines()) == {
        "?? .adrguard-drift-baseline.json"}  # the one file --write-baseline writes
    baseline = json.loads((repo.path / ".adrguard-drift-baseline.json").read_text())
    assert not list(validator("drift-baseline.schema.json").iter_errors(baseline))
    assert sorted(v["rule"] for v in baseline["violations"]) == [
        "api-not-db", "coverage-floor", "no-env-files"]
    # known: nothing changed, so enforce passes
    code, data = verify_json(repo, capsys, "--policy", "enforce")
    assert code == 0 and data["policyFailed"] is False
    assert {r["baseline"] for r in data["results"] if r["status"] == "violation"} == {"known"}
    assert data["drift"] == {"baseline": ".adrguard-drift-baseline.json", "new": 0, "known": 3,
                             "fixed": 0, "stale": 0}
    # moved lines stay known; a new violation is new; a fixed one is fixed
    repo.write({"shop/api/admin.py": "\n\nfrom shop.db import models\nimport shop.db.models\n"})
    repo.git("rm", "-qf", "keys/server.pem")
    code, data = verify_json(repo, capsys, "--policy", "enforce")
    assert code == 1 and data["policyFailed"] is True
    results = by_rule(data)
    states = [(e["location"], e["baseline"]) for e in results["api-not-db"]["evidence"]]
    assert states == [("shop/api/admin.py:3", "known"), ("shop/api/admin.py:4", "new")]
    assert results["api-not-db"]["baseline"] == "new"
    assert results["no-env-files"]["status"] == "pass"
    assert results["no-env-files"]["baseline"] == "fixed"
    assert results["coverage-floor"]["baseline"] == "known"
    assert data["drift"]["new"] == 1 and data["drift"]["fixed"] == 1
    assert data["summary"]["newViolations"] == 1
    # SARIF: known violations are suppressed (the drift baseline named), new ones are not
    code, out, _err = run(repo, capsys, "--format", "sarif")
    sarif = json.loads(out)
    import jsonschema

    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    marked = {(r["baselineState"], bool(r.get("suppressions")))
              for r in sarif["runs"][0]["results"] if "baselineState" in r}
    assert marked == {("new", False), ("unchanged", True)}
    assert all(s["kind"] == "external" and ".adrguard-drift-baseline.json" in s["justification"]
               for r in sarif["runs"][0]["results"] for s in r.get("suppressions", ()))


def test_enforce_fails_on_new_violations_and_advisory_never(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(repo, capsys, "--policy", "enforce")[0] == 0
    repo.write({"deploy/.env": "A=1\n"})
    repo.git("add", "-A")
    code, out, _err = run(repo, capsys)
    assert code == 0 and "policy advisory: reported, not enforced (1 violation, in 1 rule)" in out
    code, out, _err = run(repo, capsys, "--policy", "enforce")
    assert code == 1 and "policy enforce: FAILED: 1 violation, in 1 rule" in out
    repo.write({".adrguard.toml": '[verify]\npolicy = "enforce"\n'})
    assert run(repo, capsys)[0] == 1  # the config's policy
    assert run(repo, capsys, "--policy", "advisory")[0] == 0  # the option wins


def test_the_manifest_and_baseline_paths_come_from_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = build(tmp_path / "repo")
    (repo.path / "ci").mkdir()
    repo.git("mv", ".adrguard-fitness.json", "ci/fitness.json")
    repo.write({".adrguard.toml": '[verify]\nrules = "ci/fitness.json"\n'
                                  'baseline = "ci/drift.json"\n'})
    code, _out, err = run(repo, capsys, "--write-baseline")
    assert code == 0 and "ci/drift.json" in err
    _code, data = verify_json(repo, capsys)
    assert data["manifest"] == "ci/fitness.json"
    assert data["drift"]["baseline"] == "ci/drift.json"


def test_text_markdown_and_sarif(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    import jsonschema

    repo.write({"shop/api/admin.py": "from shop.db import models  # @org/team <b>x</b>\n"})
    repo.git("add", "-A")
    code, out, _err = run(repo, capsys, "--format", "markdown")
    assert code == 0
    assert out.startswith("### Fitness rules (adrguard verify)")
    assert "| ❌ violation | `api-not-db` |" in out and "<b>" not in out
    code, out, _err = run(repo, capsys, "--format", "sarif")
    sarif = json.loads(out)
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "api-not-db" and result["kind"] == "fail"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1


def test_audit_lists_decisions_with_and_without_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = build(tmp_path / "repo", rules=RULES[:2])
    code, out, _err = run(repo, capsys, "--audit")
    assert code == 0
    assert out.startswith("audit of .adrguard-fitness.json: 1 of 4 accepted decisions have "
                          "fitness rules")
    assert "ADR-0004 (Keep the shop layered)" in out.split("without fitness rules:")[1]
    assert "no-urllib: ADR-0002 (Use the standard library for HTTP) is superseded; its " \
           "successor is ADR-0003" in out
    code, out, _err = run(repo, capsys, "--audit", "--format", "json")
    data = json.loads(out)
    assert not list(validator("verify-audit.schema.json").iter_errors(data))
    assert data["summary"] == "1 of 4 accepted decisions have fitness rules"
    assert [d["id"] for d in data["uncovered"]] == ["ADR-0003", "ADR-0004", "ADR-0005"]
    assert data["inactive"][0]["successor"] == "ADR-0003"


def test_check_reports_the_manifest_problems_not_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = [*RULES, {"id": "ghost", "decision": "ADR-0099", "kind": "forbidden-paths",
                      "paths": ["x"]}]
    repo = build(tmp_path / "repo", rules=rules)
    repo.write({"deploy/.env": "A=1\n"})  # a violation: verify's business, not check's
    repo.commit("env")
    code = main(["check", "--repo", str(repo.path), "--no-cache", "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    codes = sorted(f["code"] for f in findings if f["code"].startswith("ADR7"))
    assert codes == ["ADR702", "ADR703"] and code == 1


def test_verify_is_in_the_command_list_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--help"]) == 0
    assert "--write-baseline" in capsys.readouterr().out


def test_a_repository_without_records_or_manifest(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "empty")
    repo.write({"docs/adr/0001-a.md": verifyrepo.RECORDS["docs/adr/0001-measure-test-coverage.md"]})
    repo.commit("one record")
    code, _out, err = run(repo, capsys)
    assert code == 2 and "no fitness manifest at .adrguard-fitness.json" in err
