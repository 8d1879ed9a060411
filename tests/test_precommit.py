"""The pre-commit hook, end to end: ``pre-commit try-repo`` builds the hook's virtualenv with
pip (from PyPI) and runs ``adrguard check --hook`` on the staged files of a temporary repository
that holds ADRs, as a commit would: a configured root with any name, a commit that touches an
unrelated record of a log with old errors (passes), a commit that adds a broken link (fails).
Each try-repo builds its environment anew (about 20 s), so these tests are marked ``slow``
(``-m "not slow"`` leaves them out; CI runs them). The same judging is tested in-process, with
more cases, in tests/test_change_scope.py.

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

import pytest
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


def test_manifest_is_valid_and_lets_adrguard_decide(repo_dir: Path) -> None:
    """pre-commit's `files:` regex is fixed, so it cannot know a configured or detected root:
    the hooks run on every commit, get the staged files and let adrguard decide."""
    manifest = repo_dir / ".pre-commit-hooks.yaml"
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(manifest)],
        check=True, capture_output=True,
    )
    hooks = {h["id"]: h for h in yaml.safe_load(manifest.read_text(encoding="utf-8"))}
    for name, entry in (
        ("adrguard", "adrguard check --hook"),
        ("adrguard-fix", "adrguard index --write --exit-non-zero-on-fix --hook"),
    ):
        hook = hooks[name]
        assert hook["entry"] == entry
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is True and hook["always_run"] is True
        assert "files" not in hook and "types" not in hook
        assert hook["require_serial"] is True
        assert hook["stages"] == ["pre-commit", "pre-merge-commit", "manual"]


@pytest.fixture(scope="module")
def hook(repo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """One hook repository (this work tree) and one PRE_COMMIT_HOME for the module: the hook's
    environment is built once."""
    base = tmp_path_factory.mktemp("hook")
    env = _env(base)
    return _hook_repo(repo_dir, base / "hook", env), env


def _target(path: Path, env: dict[str, str], files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, "utf-8")
    _commit_all(path, env)
    return path


def _stage(target: Path, env: dict[str, str], files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        if text is None:
            _git(target, env, "rm", "-q", rel)
            continue
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(text, "utf-8")
        _git(target, env, "add", rel)


def _staged_run(hook_repo: Path, target: Path, env: dict[str, str], hook_id: str = "adrguard"
                ) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo`` on the staged files, as a commit would run it."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook_id, "--verbose"],
        cwd=target, env=env, capture_output=True, text=True, timeout=900,
    )


OLD_ERRORS = NO_STATUS.replace("We run a database server.", "See [gone](0009-gone.md).")


@pytest.mark.slow
def test_hook_follows_a_configured_root_with_any_name(
    hook: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    hook_repo, env = hook
    target = _target(tmp_path, env, {
        ".adrguard.toml": 'roots = ["handbook/choices"]\n',
        "handbook/choices/0001-first.md": ACCEPTED,
    })
    _stage(target, env, {"handbook/choices/0002-second.md":
                         ACCEPTED.replace("# 1.", "# 2.") + "\n[next](0003-next.md)\n"})
    failing = _staged_run(hook_repo, target, env)
    out = failing.stdout
    assert failing.returncode == 1, out + failing.stderr
    assert "(no files to check)" not in out
    assert "ADR201" in out and "handbook/choices/0002-second.md" in out


@pytest.mark.slow
def test_hook_passes_a_commit_that_touches_an_unrelated_record_in_a_log_with_old_errors(
    hook: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    hook_repo, env = hook
    target = _target(tmp_path, env, {
        "docs/adr/0001-first.md": ACCEPTED,
        "docs/adr/0002-use-postgresql.md": OLD_ERRORS,  # no status, two broken links: old
    })
    _stage(target, env, {"docs/adr/0001-first.md": ACCEPTED.replace("this project.", "this  project.")})
    done = _staged_run(hook_repo, target, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"adrguard \(architecture decision records\)\.+Passed", done.stdout)
    assert "3 older findings in files this commit does not touch; run adrguard check" in done.stdout


@pytest.mark.slow
def test_hook_fails_a_commit_that_adds_a_broken_link(
    hook: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    hook_repo, env = hook
    target = _target(tmp_path, env, {
        "docs/adr/0001-first.md": ACCEPTED,
        "docs/adr/0002-use-postgresql.md": OLD_ERRORS,
    })
    _stage(target, env, {"docs/adr/0001-first.md": ACCEPTED + "\nSee [the plan](0007-plan.md).\n"})
    done = _staged_run(hook_repo, target, env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ADR201" in done.stdout and "0007-plan.md" in done.stdout
    assert "0009-gone.md" not in done.stdout  # the old error stays summarised


@pytest.mark.slow
def test_try_repo_all_files_checks_every_file(
    hook: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    hook_repo, env = hook
    target = _target(tmp_path, env, {"docs/adr/0001-record-architecture-decisions.md": ACCEPTED})
    _stage(target, env, {"docs/adr/0002-use-postgresql.md": NO_STATUS})
    failing = _try_repo(hook_repo, target, env)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "ADR201" in failing.stdout  # the broken link fails the commit; ADR102 warns
    assert "docs/adr/0002-use-postgresql.md" in failing.stdout


HAND_INDEX = "# Decisions\n\n- [1. Record architecture decisions](0001-first.md)\n"


@pytest.mark.slow
def test_fixer_hook_creates_no_index_and_leaves_a_hand_written_one_alone(
    hook: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """`adrguard-fix` regenerates only the indexes a log opted into: in a log that never had a
    generated index it creates none (it used to write INDEX.md on every commit until it was
    committed), and a README.md that is the log's hand-written index is left alone with a note
    on how to opt in (it used to refuse every commit with exit 2)."""
    hook_repo, env = hook
    plain = _target(tmp_path / "plain", env, {"docs/adr/0001-first.md": ACCEPTED})
    _stage(plain, env, {"docs/adr/0002-use-postgresql.md": NO_STATUS})
    done = _staged_run(hook_repo, plain, env, "adrguard-fix")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"adrguard-fix \(regenerate ADR indexes\)\.+Passed", done.stdout)
    assert not (plain / "docs/adr/INDEX.md").exists()

    hand = _target(tmp_path / "hand", env, {
        "docs/adr/0001-first.md": ACCEPTED, "docs/adr/README.md": HAND_INDEX,
    })
    _stage(hand, env, {"docs/adr/0002-use-postgresql.md": NO_STATUS})
    done = _staged_run(hook_repo, hand, env, "adrguard-fix")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "docs/adr/README.md is written by hand" in done.stdout
    assert "adrguard index --write --init" in done.stdout
    assert (hand / "docs/adr/README.md").read_text("utf-8") == HAND_INDEX
    assert not (hand / "docs/adr/INDEX.md").exists()
