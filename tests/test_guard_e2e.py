"""`adrguard guard` run the way Claude Code runs a PreToolUse hook: a new process in the
project, the tool call as JSON on standard input, the answer read from standard output with the
exit status. Also the generic form's exit statuses, and the layout cache: a warm call reads no
record and gives the same answers as a cold one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from guardrepo import ACTIVE, ARCHIVED, build, payload, set_mode

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("guard-e2e")).path


def run(repo: Path, cache: Path, stdin: bytes, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADRGUARD_")}
    env.update({"ADRGUARD_CACHE_DIR": str(cache), "PYTHONPATH": str(SRC)})
    done = subprocess.run([sys.executable, "-m", "adrguard", "guard", *args], cwd=repo,
                          input=stdin, capture_output=True, env=env, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def answer(out: str) -> dict[str, Any] | None:
    return json.loads(out) if out.strip() else None


def test_the_hook_as_claude_code_runs_it(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    session = "3f8e2a1c-7d4b-4e0a-9c61-0d2f5b8a9e17"
    code, out, err = run(repo, cache, payload("read-archived.json", repo, session))
    assert (code, err) == (0, "")
    denied = answer(out)
    assert denied is not None
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "adrguard context docs/adr/archive/0002-use-mysql.md" in \
        denied["hookSpecificOutput"]["permissionDecisionReason"]
    code, out, err = run(repo, cache, payload("read-active.json", repo, session))
    assert (code, out, err) == (0, "", "")  # allowed: nothing printed
    code, out, _ = run(repo, cache, payload("read-active.json", repo, session))
    repeat = answer(out)
    assert repeat is not None and "read already" in \
        repeat["hookSpecificOutput"]["additionalContext"]
    code, out, _ = run(repo, cache, payload("bash-grep-everywhere.json", repo, session))
    unscoped = answer(out)
    assert unscoped is not None and "--exclude-dir=adr" in \
        unscoped["hookSpecificOutput"]["permissionDecisionReason"]
    code, out, _ = run(repo, cache, payload("bash-rg-code.json", repo, session))
    assert (code, out) == (0, "")
    code, out, _ = run(repo, cache, b"{not json")
    broken = answer(out)
    assert code == 0 and broken is not None
    assert broken["hookSpecificOutput"]["permissionDecision"] == "deny"
    # the counters live in the cache folder, under a hash of the session id
    sessions = list((cache / "guard-sessions").iterdir())
    assert [p.name for p in sessions] != [] and all(session not in p.name for p in sessions)
    assert not (repo / "guard-sessions").exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    assert status == ""  # nothing written into the work tree


def test_the_generic_form_exit_statuses(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert run(repo, cache, b"", "read", ACTIVE)[0] == 0
    code, out, _ = run(repo, cache, b"", "read", ARCHIVED)
    assert code == 1 and json.loads(out)["decision"] == "deny"
    code, out, _ = run(repo, cache, b"", "search", "mysql", ".", "--glob", "!docs/adr/**")
    assert code == 0 and json.loads(out)["decision"] == "allow"
    code, out, _ = run(repo, cache, b"", "search", "mysql")
    assert code == 1 and json.loads(out)["notices"][0]["kind"] == "unscoped"


def test_warm_calls_answer_like_cold_ones(repo: Path, tmp_path: Path) -> None:
    """The layout comes from the cache on the second call; every answer is the same as with no
    cache at all (a cache never changes a result)."""
    cases = ["read-archived.json", "read-active.json", "grep-content-everywhere.json",
             "grep-code-glob.json", "bash-cat-archived-symlinked-folder.json",
             "read-folder-named-archive.json"]
    cache = tmp_path / "cache"
    cold = [run(repo, cache, payload(c, repo, None))[1] for c in cases]
    assert list(cache.glob("v1/*/*")), "the layout was not cached"
    warm = [run(repo, cache, payload(c, repo, None))[1] for c in cases]
    env_off = tmp_path / "off"
    plain = []
    for case in cases:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADRGUARD_")}
        env.update({"ADRGUARD_CACHE_DIR": str(env_off), "ADRGUARD_NO_CACHE": "1",
                    "PYTHONPATH": str(SRC)})
        done = subprocess.run([sys.executable, "-m", "adrguard", "guard"], cwd=repo,
                              input=payload(case, repo, None), capture_output=True, env=env,
                              timeout=120)
        plain.append(done.stdout.decode())
    assert cold == warm == plain
    assert not env_off.exists()


def test_a_changed_layout_is_seen_at_once(repo: Path, tmp_path: Path) -> None:
    """Archiving one more record (git mv) changes the git index, so the cached layout is not
    used: the next call sees the record archived."""
    cache = tmp_path / "cache"
    record = "docs/adr/0008-use-a-queue.md"
    assert run(repo, cache, b"", "read", record)[0] == 0
    subprocess.run(["git", "mv", record, "docs/adr/archive/0008-use-a-queue.md"], cwd=repo,
                   check=True)
    try:
        code, out, _ = run(repo, cache, b"", "read", "docs/adr/archive/0008-use-a-queue.md")
        assert code == 1, out
        set_mode(repo, "warn")  # the configuration's bytes are in the key too
        code, out, _ = run(repo, cache, b"", "read", "docs/adr/archive/0008-use-a-queue.md")
        assert code == 0 and json.loads(out)["decision"] == "warn"
    finally:
        subprocess.run(["git", "mv", "docs/adr/archive/0008-use-a-queue.md", record], cwd=repo,
                       check=True)
        set_mode(repo, "guard")
