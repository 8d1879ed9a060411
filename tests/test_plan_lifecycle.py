"""The plan lifecycle (issue 33, point 3): `compaction status` lists the kept archive plans
(planned, applied, restored, failed) with their ids; `compaction --confirm PLAN-ID` applies a
kept plan with the checks of `archive apply`. On the real temporary repository the compaction
tests build."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compactionrepo import build, status
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.schemas import validator


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _status(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out, err = run(capsys, "compaction", "status", "--repo", str(repo.path),
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    errors = list(validator("compaction-status.schema.json").iter_errors(data))
    assert not errors, errors[0].message
    return list(data["plans"])


def test_planned_applied_restored_through_confirm(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ("--repo", str(repo.path))
    assert _status(repo, capsys) == []
    code, out, err = run(capsys, "archive", "plan", "ADR-0002", "4", "--save", *where)
    assert code == 0 and out == "" and "compaction --confirm" in err, err
    assert status(repo) == ""  # kept in the git folder: nothing in the work tree
    [plan] = _status(repo, capsys)
    pid = plan["planId"]
    assert plan["state"] == "planned" and plan["records"] == [
        "docs/adr/0002-use-mysql.md", "docs/adr/0004-use-postgresql.md"]
    assert plan["recoveryLog"] is None and plan["planFile"].endswith(f"{pid}.json")
    code, text, _ = run(capsys, "compaction", "status", *where)
    assert text.startswith(f"{pid[:12]}  planned") and "docs/adr/0002-use-mysql.md" in text
    # the same plan kept twice is one plan
    assert run(capsys, "archive", "plan", "ADR-0002", "4", "--save", *where)[0] == 0
    assert [p["planId"] for p in _status(repo, capsys)] == [pid]

    code, out, err = run(capsys, "compaction", "--confirm", pid[:8], *where)
    assert code == 0, err
    assert "moved docs/adr/0002-use-mysql.md -> docs/adr/archive/0002-use-mysql.md" in out
    [plan] = _status(repo, capsys)
    assert plan["state"] == "applied" and plan["recoveryLog"] is not None
    code, out, _ = run(capsys, "compaction", "--confirm", pid, *where)
    assert code == 0 and "nothing to do" in out
    code, out, _ = run(capsys, "archive", "restore", str(repo.path / plan["planFile"]), *where)
    assert code == 0 and status(repo) == ""
    assert [p["state"] for p in _status(repo, capsys)] == ["restored"]
    code, out, _ = run(capsys, "compaction", "status", pid[:12], *where)
    assert out.startswith(f"{pid[:12]}  restored")


def test_confirm_checks_like_apply_and_a_stopped_apply_is_failed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ("--repo", str(repo.path))
    assert run(capsys, "archive", "plan", "ADR-0002", "4", "--save", *where)[0] == 0
    [plan] = _status(repo, capsys)
    # a record edited after the plan was made: confirm refuses, moves nothing
    record = repo.path / "docs/adr/0004-use-postgresql.md"
    kept = record.read_bytes()
    record.write_bytes(kept + b"\nEdited.\n")
    code, _, err = run(capsys, "compaction", "--confirm", plan["planId"], *where)
    assert code == 2 and "docs/adr/0004-use-postgresql.md" in err and "nothing was moved" in err
    assert [p["state"] for p in _status(repo, capsys)] == ["planned"]
    record.write_bytes(kept)
    # an apply that stops half-way (a file changed under it) is listed as failed, with why
    from adrguard.api.archive.apply import apply
    from adrguard.config import load_config

    guide = repo.path / "docs/guide.md"

    def meddle(step: str) -> None:
        if step.startswith("move docs/adr/0004"):
            guide.write_text("# Guide\n\nRewritten meanwhile.\n", encoding="utf-8")

    with pytest.raises(Exception, match=r"docs/guide\.md"):
        apply(repo.path, load_config(repo.path), repo.path / plan["planFile"], hook=meddle)
    [failed] = _status(repo, capsys)
    assert failed["state"] == "failed" and "docs/guide.md" in failed["detail"]
    assert "archive restore" in failed["detail"]
    code, out, _ = run(capsys, "compaction", "status", *where)
    assert f"{plan['planId'][:12]}  failed" in out
