"""The pre-commit hook, end to end: ``pre-commit try-repo`` builds the hook's virtualenv with
pip (from PyPI) and runs ``adrguard check`` in a temporary repository that holds ADRs.

try-repo only sees committed files plus modifications of *tracked* ones (it runs
``git add -u`` into a shadow repository), so new, untracked files of this checkout would be
missing. The test therefore commits a copy of the checkout's work tree (tracked and untracked,
not ignored files) into a temporary hook repository first: what is tested is the work tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.org",
    "GIT_AUTHOR_DATE": "2024-01-02T03:04:05Z",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.org",
    "GIT_COMMITTER_DATE": "2024-01-02T03:04:05Z",
    "GIT_CONFIG_NOSYSTEM": "1",
}
PROJECT_FILES = (
    "src", "schemas", "pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml",
)

ACCEPTED = """# 1. Record architecture decisions

Date: 2024-01-02

## Status

Accepted

## Context

We need to record the architectural decisions made on this project.

## Decision

We will use Architecture Decision Records, as described by Michael Nygard.

## Consequences

See Michael Nygard's article.
"""
NO_STATUS = """# 2. Use PostgreSQL

Date: 2024-01-03

## Context

We need a database (see [the sizing notes](sizing.md)).

## Decision

We will use PostgreSQL.

## Consequences

We run a database server.
"""


def _env(tmp_path: Path) -> dict[str, str]:
    # Drop git variables a surrounding hook may have set (GIT_DIR, GIT_INDEX_FILE, ...).
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["NO_COLOR"] = "1"
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=cwd, env=env, check=True, capture_output=True,
    )


def _commit_all(repo: Path, env: dict[str, str]) -> None:
    _git(repo, env, "init", "-q")
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "-m", "snapshot")


def _work_tree_files(repo_dir: Path) -> list[str]:
    """What ``git add -A`` would commit here: tracked plus untracked, not ignored files."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=repo_dir, check=True, capture_output=True, text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist)
        return [str(p.relative_to(repo_dir)) for n in PROJECT_FILES for p in _tree(repo_dir / n)]
    return [f for f in out.split("\0") if f and (repo_dir / f).is_file()]


def _tree(path: Path) -> list[Path]:
    if path.is_dir():
        return [p for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    return [path] if path.is_file() else []


def _hook_repo(repo_dir: Path, dest: Path, env: dict[str, str]) -> Path:
    for rel in _work_tree_files(repo_dir):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo_dir / rel, dest / rel)
    _commit_all(dest, env)
    return dest


def _try_repo(
    hook_repo: Path, target: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "adrguard",
         "--all-files", "--verbose"],
        cwd=target, env=env, capture_output=True, text=True, timeout=900,
    )


def test_manifest_is_valid_and_triggers_on_adr_folders(repo_dir: Path) -> None:
    manifest = repo_dir / ".pre-commit-hooks.yaml"
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(manifest)],
        check=True, capture_output=True,
    )
    hooks = {h["id"]: h for h in yaml.safe_load(manifest.read_text(encoding="utf-8"))}
    hook = hooks["adrguard"]
    assert hook["entry"] == "adrguard check"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["require_serial"] is True
    assert hook["stages"] == ["pre-commit", "pre-merge-commit", "manual"]
    files = re.compile(hook["files"])
    for path in (
        "docs/adr/0001-a.md", "docs/adrs/0001-a.md", "docs/decisions/x.md", "doc/adr/x.md",
        "docs/architecture/decisions/x.md", "adr/x.md", "decisions/x.md",
        "architecture-decision-record/x.md", "services/api/docs/adr/x.md",
        ".adrguard.toml", "pyproject.toml",
    ):
        assert files.search(path), path
    for path in ("src/app.py", "README.md", "docs/adrx/a.md", "sub/pyproject.toml"):
        assert not files.search(path), path


def test_try_repo_clean_then_failing(repo_dir: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    hook = _hook_repo(repo_dir, tmp_path / "hook", env)
    target = tmp_path / "target"
    (target / "docs" / "adr").mkdir(parents=True)
    (target / "docs/adr/0001-record-architecture-decisions.md").write_text(ACCEPTED, "utf-8")
    _commit_all(target, env)

    clean = _try_repo(hook, target, env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"adrguard \(architecture decision records\)\.+Passed", clean.stdout)

    (target / "docs/adr/0002-use-postgresql.md").write_text(NO_STATUS, "utf-8")
    _git(target, env, "add", "-A")  # staged: part of the next commit
    failing = _try_repo(hook, target, env)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "ADR201" in failing.stdout  # the broken link fails the commit; ADR102 warns
    assert "docs/adr/0002-use-postgresql.md" in failing.stdout
