"""The baseline end to end, through the CLI in a real git repository: write it, add a defect
(only it fails), fix a known one (a note says the entry can go), shrink it, follow a rename;
and the same verdicts in JSON, SARIF, the GitHub Action's report and MCP's validate_adrs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

RECORD = """# {n}. {title}

## Status

Accepted

## Context

Some context.

## Decision

{decision}

## Consequences

Some consequences.
"""
BASELINE = ".adrguard-baseline.json"


def record(n: int, title: str, decision: str = "We decide.") -> str:
    return RECORD.format(n=n, title=title, decision=decision)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """Two records with old defects (broken links) and a clean one."""
    r = GitRepo(tmp_path / "repo")
    r.write({
        "docs/adr/0001-first.md": record(1, "First", "See [gone](0009-gone.md)."),
        "docs/adr/0002-second.md": record(2, "Second", "See [also gone](0008-gone.md)."),
        "docs/adr/0003-third.md": record(3, "Third"),
    })
    r.commit("records")
    return r


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def check(repo: GitRepo, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    return run(capsys, "check", "--repo", str(repo.path), "--no-cache", *extra)


def as_json(repo: GitRepo, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    from adrguard.core.schemas import validator

    _code, out, _ = check(repo, capsys, "--format", "json", *extra)
    data: dict[str, Any] = json.loads(out)
    validator("report.schema.json").validate(data)
    return data


def test_round_trip_write_add_a_defect_fix_a_known_one(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(repo, capsys)[0] == 1
    code, _, err = run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    assert code == 0 and "wrote .adrguard-baseline.json with 2 entries (2 added" in err
    assert check(repo, capsys)[0] == 0  # every finding is known

    # a new defect: only it fails; the old ones are counted
    repo.write({"docs/adr/0003-third.md": record(3, "Third", "See [new](0007-new.md).")})
    code, out, _ = check(repo, capsys)
    assert code == 1
    assert "0007-new.md" in out and "0009-gone.md" not in out and "0008-gone.md" not in out
    assert "1 new, 2 known (listed in .adrguard-baseline.json; --no-baseline shows them)" in out

    # fixing a known one: the entry can be removed, and the note says how
    repo.write({"docs/adr/0001-first.md": record(1, "First", "No link now.")})
    code, out, _ = check(repo, capsys)
    assert code == 1 and "1 new, 1 known" in out
    assert "note: 1 baseline entry no longer occurs and can be removed with `adrguard baseline " \
        "--update` (ADR201 docs/adr/0001-first.md:" in out

    # --no-baseline shows everything
    code, out, _ = check(repo, capsys, "--no-baseline")
    assert code == 1 and "0008-gone.md" in out and "known" not in out

    # --update drops the fixed entry and does not add the new finding; --add does
    code, _, err = run(capsys, "baseline", "--update", "--repo", str(repo.path), "--no-cache")
    assert "with 1 entry (0 added, 1 dropped)" in err
    assert check(repo, capsys)[0] == 1
    run(capsys, "baseline", "--update", "--add", "--repo", str(repo.path), "--no-cache")
    assert check(repo, capsys)[0] == 0
    entries = json.loads((repo.path / BASELINE).read_text("utf-8"))["entries"]
    assert sorted(e["path"] for e in entries) == ["docs/adr/0002-second.md", "docs/adr/0003-third.md"]


def test_entries_survive_line_moves_and_follow_renames(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    repo.commit("baseline")
    text = (repo.path / "docs/adr/0002-second.md").read_text("utf-8")
    repo.write({"docs/adr/0002-second.md": text.replace("## Context", "Intro.\n\nMore.\n\n## Context")})
    assert check(repo, capsys)[0] == 0  # the broken link moved down four lines: still known
    repo.git("mv", "docs/adr/0002-second.md", "docs/adr/0002-second-decision.md")
    assert check(repo, capsys)[0] == 0  # git reports the rename: the entry follows
    repo.commit("rename")
    assert check(repo, capsys)[0] == 0  # also once committed (renamed since the baseline's commit)
    code, _, err = run(capsys, "baseline", "--update", "--repo", str(repo.path), "--no-cache")
    assert code == 0 and "moved with renamed files" in err
    paths = {e["path"] for e in json.loads((repo.path / BASELINE).read_text("utf-8"))["entries"]}
    assert "docs/adr/0002-second-decision.md" in paths


def test_json_and_sarif_mark_known_and_new(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    repo.write({"docs/adr/0003-third.md": record(3, "Third", "See [new](0007-new.md).")})
    data = as_json(repo, capsys)
    marks = {f["message"].split(":")[1].split()[0]: f["baseline"] for f in data["findings"]}
    assert marks == {"0009-gone.md": "known", "0008-gone.md": "known", "0007-new.md": "new"}
    assert data["summary"]["errors"] == 1  # the summary counts what counts
    assert data["gate"]["known"] == 2 and data["gate"]["baseline"] == BASELINE

    sarif_path = tmp_path / "out.sarif"
    code, out, err = check(repo, capsys, "--format", f"sarif:{sarif_path}")
    assert code == 1 and out == ""
    assert err.strip().endswith("(1 new, 2 known)")  # every format went to a file: one line
    sarif = json.loads(sarif_path.read_text("utf-8"))
    results = sarif["runs"][0]["results"]
    states = sorted(r["baselineState"] for r in results)
    assert states == ["new", "unchanged", "unchanged"]
    # accepted findings are suppressed for code scanning (no alert), new ones are not
    for r in results:
        if r["baselineState"] == "new":
            assert "suppressions" not in r
            continue
        (suppression,) = r["suppressions"]
        assert suppression["kind"] == "external" and suppression["status"] == "accepted"
        assert BASELINE in suppression["justification"]
        where = suppression["location"]["physicalLocation"]["artifactLocation"]
        assert where == {"uri": BASELINE, "uriBaseId": "%SRCROOT%"}
    schema = json.loads((Path(__file__).parent / "reporters" / "sarif-2.1.0.schema.json")
                        .read_text("utf-8"))
    from jsonschema import Draft7Validator

    errors = sorted(Draft7Validator(schema).iter_errors(sarif), key=str)
    assert errors == [], errors[0].message if errors else ""


def test_a_broken_baseline_file_is_one_error_line(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo.path / BASELINE).write_text('{"schemaVersion": 1, "entries": [{"code": "X"}]}', "utf-8")
    code, _, err = check(repo, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: .adrguard-baseline.json:") and "adrguard baseline" in err
    (repo.path / BASELINE).write_text("{not json", "utf-8")
    assert check(repo, capsys)[0] == 2
    assert check(repo, capsys, "--no-baseline")[0] == 1  # --no-baseline does not read it


def test_update_without_a_baseline_and_add_without_update_are_usage_errors(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "baseline", "--update", "--repo", str(repo.path), "--no-cache")
    assert code == 2 and "no baseline at .adrguard-baseline.json to update" in err
    code, _, err = run(capsys, "baseline", "--add", "--repo", str(repo.path))
    assert code == 2 and "--add goes with --update" in err


def test_a_pull_request_cannot_baseline_its_own_findings(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --base the baseline is read as the merge base holds it: entries the change adds do
    not hide the change's own findings."""
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    base = repo.commit("adopt adrguard")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write({"docs/adr/0003-third.md": record(3, "Third", "See [new](0007-new.md).")})
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")  # the PR grows the baseline
    repo.commit("feature")
    assert check(repo, capsys)[0] == 0  # locally the grown baseline hides it
    code, out, _ = check(repo, capsys, "--base", base)
    assert code == 1 and "0007-new.md" in out


def test_the_action_report_counts_only_new_findings(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Action reads the check's JSON: known findings neither count nor fail the step, and
    the job summary says how many are known."""
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    check(repo, capsys, "--exit-zero", "--format", f"json:{out_dir / 'report.json'}",
          "--format", f"markdown:{out_dir / 'report.md'}")
    outputs, summary = tmp_path / "outputs", tmp_path / "summary"
    for name, value in {
        "ADRGUARD_OUT_DIR": str(out_dir), "ADRGUARD_CHECK_EXIT": "0", "INPUT_FAIL_ON": "error",
        "INPUT_COMMENT": "false", "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(repo.path),
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["action", "report", "--root", str(repo.path)]) == 0
    text = outputs.read_text("utf-8")
    assert "error-count<<" in text and "\n0\n" in text.split("error-count<<", 1)[1][:80]
    assert "0 new, 2 known" in summary.read_text("utf-8")

    repo.write({"docs/adr/0003-third.md": record(3, "Third", "See [new](0007-new.md).")})
    check(repo, capsys, "--exit-zero", "--format", f"json:{out_dir / 'report.json'}")
    capsys.readouterr()
    assert main(["action", "report", "--root", str(repo.path)]) == 1  # fail-on error: the new one


def test_mcp_validate_adrs_uses_the_baseline(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.api.agent.surface import validate_adrs
    from adrguard.api.agent.workspace import Workspace

    ws = Workspace.open(repo.path, cache=False)
    assert validate_adrs(ws)["valid"] is False
    run(capsys, "baseline", "--repo", str(repo.path), "--no-cache")
    data = validate_adrs(ws)
    assert data["valid"] is True and data["summary"]["errors"] == 0
