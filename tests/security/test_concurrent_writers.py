"""Round 2, concurrent writers (issue 27): two `archive apply` (or an apply and a restore) of
one plan never race. The first holds the lock of the plan's recovery log; the other says so
and exits 2; a killed holder leaves no stale lock. Real git repository, real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from compactionrepo import build, status
from gitrepo import GitRepo
from hostile import run

SRC = Path(__file__).resolve().parents[2] / "src"

# An apply that stops after its first move until the file named by argv[3] exists.
PAUSED_APPLY = """\
import os, sys, time
from pathlib import Path
from adrguard.config import load_config
from adrguard.api.archive.apply import apply
root, plan, go = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
def hook(step):
    if step.startswith("move "):
        Path(str(go) + ".waiting").touch()
        while not go.exists():
            time.sleep(0.02)
apply(root, load_config(root), plan, hook=hook)
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    r = build(tmp_path)
    monkeypatch.chdir(r.path)
    return r


def _plan(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> Path:
    out = repo.path / ".git" / "adrguard" / "plan.json"
    result = run(capsys, "archive", "plan", "ADR-0002", "4", "--out", str(out))
    assert result.code == 0, result.err
    return out


def _wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the first apply never reached its first move"
        time.sleep(0.02)


@pytest.mark.parametrize("second", ["apply", "restore"])
def test_a_second_apply_or_restore_waits_its_turn(
    repo: GitRepo, tmp_path: Path, second: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main the second `archive apply` raced the first and died with a KeyError (exit 3)."""
    plan = _plan(repo, capsys)
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    first = subprocess.Popen([sys.executable, "-c", PAUSED_APPLY, str(repo.path), str(plan),
                              str(go)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(Path(str(go) + ".waiting"), first)
        result = run(capsys, "archive", second, str(plan))
        assert result.code == 2, (result.out, result.err)
        assert result.err.startswith("error: another adrguard is applying or restoring plan")
        assert result.err.count("\n") == 1 and f"`adrguard archive {second}` again" in result.err
    finally:
        go.touch()
        _out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err.decode()
    log = next((repo.path / ".git/adrguard/archive").glob("*.json"))
    assert json.loads(log.read_text())["state"] == "applied"
    assert run(capsys, "archive", "apply", str(plan)).code == 0  # nothing to do: no lock left
    assert run(capsys, "archive", "restore", str(plan)).code == 0
    assert status(repo) == ""


def test_two_applies_started_together_never_crash(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two real `adrguard archive apply` processes at once: one applies, the other applies
    nothing or stops with the lock message; neither exits 3."""
    plan = _plan(repo, capsys)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, "-m", "adrguard", "archive", "apply", str(plan), "--repo",
               str(repo.path)]
    both = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    done = [(p.wait(timeout=120), p.communicate()[1].decode()) for p in both]
    assert sorted(code for code, _ in done) in ([0, 0], [0, 2]), done
    for code, err in done:
        assert code != 2 or err.startswith("error: another adrguard is applying"), err
    assert "archive/0002-use-mysql.md" in repo.git("status", "--porcelain")
