"""Judging a change (``check --hook``, ``--changed``, ``--base``) in real git repositories:
findings in files the change does not touch that were there before it are summarised in one
line and do not fail; findings the change causes anywhere do. (The same hook through
``pre-commit try-repo``: tests/test_precommit.py.)"""

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
OLD = "docs/adr/0002-old.md"


def record(n: int, title: str, decision: str = "We decide.") -> str:
    return RECORD.format(n=n, title=title, decision=decision)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """A log with old errors in 0002 (two broken links) and a clean 0001 that 0003 links to."""
    r = GitRepo(tmp_path / "repo")
    r.write({
        "docs/adr/0001-first.md": record(1, "First"),
        OLD: record(2, "Old", "See [a](0009-a.md) and [b](0008-b.md)."),
        "docs/adr/0003-third.md": record(3, "Third", "Builds on [first](0001-first.md)."),
        "src/app.py": "print('hi')\n",
    })
    r.commit("records")
    return r


def run(repo: GitRepo, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--repo", str(repo.path), "--no-cache", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_hook_passes_an_unrelated_change_in_a_log_with_old_errors(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"docs/adr/0001-first.md": record(1, "First", "We  decide.")})
    repo.git("add", "-A")
    code, out, _ = run(repo, capsys, "--hook", "docs/adr/0001-first.md")
    assert code == 0, out
    assert "2 older findings in files this commit does not touch; run adrguard check" in out
    assert "0009-a.md" not in out
    assert run(repo, capsys)[0] == 1  # a manual run still shows (and fails on) everything


def test_hook_fails_a_broken_link_the_commit_adds(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"docs/adr/0001-first.md": record(1, "First", "See [plan](0007-plan.md).")})
    repo.git("add", "-A")
    code, out, _ = run(repo, capsys, "--hook", "docs/adr/0001-first.md")
    assert code == 1 and "0007-plan.md" in out and "0009-a.md" not in out


def test_hook_fails_what_a_deletion_breaks_in_an_untouched_record(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.git("rm", "-q", "docs/adr/0001-first.md")  # pre-commit passes no file for a deletion
    code, out, _ = run(repo, capsys, "--hook")
    assert code == 1
    assert "docs/adr/0003-third.md" in out and "0001-first.md does not exist" in out
    assert "2 older findings" in out


def test_hook_fails_a_duplicate_id_the_commit_causes_in_an_untouched_record(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"docs/adr/0001-again.md": record(1, "Again")})
    repo.git("add", "-A")
    code, out, _ = run(repo, capsys, "--hook", "docs/adr/0001-again.md")
    assert code == 1
    assert "docs/adr/0001-first.md" in out and "ADR106" in out  # untouched, but caused


def test_hook_exits_at_once_when_nothing_relevant_changed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"src/app.py": "print('bye')\n"})
    repo.git("add", "-A")
    code, out, err = run(repo, capsys, "--hook", "src/app.py")
    assert code == 0 and out == ""
    assert "changes no file under the ADR roots and no adrguard setting" in err
    # the config is a setting: changing it runs the check
    repo.write({".adrguard.toml": 'ignore = ["ADR104"]\n'})
    repo.git("add", "-A")
    code, out, _ = run(repo, capsys, "--hook", ".adrguard.toml")
    assert code == 0 and "2 older findings" in out


def test_hook_in_a_repository_without_adrs_does_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = GitRepo(tmp_path / "plain")
    r.write({"README.md": "# x\n", "pyproject.toml": "[project]\nname = 'x'\n"})
    r.commit("x")
    r.write({"pyproject.toml": "[project]\nname = 'y'\n"})
    r.git("add", "-A")
    code = main(["check", "--repo", str(r.path), "--hook", "pyproject.toml"])
    err = capsys.readouterr().err
    assert code == 0 and "no ADR folder in this repository" in err


def test_hook_follows_a_configured_root_with_any_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = GitRepo(tmp_path / "cfg")
    r.write({".adrguard.toml": 'roots = ["handbook/choices"]\n',
             "handbook/choices/0001-first.md": record(1, "First")})
    r.commit("x")
    r.write({"handbook/choices/0002-second.md": record(2, "Second", "[x](0005-x.md)")})
    r.git("add", "-A")
    code = main(["check", "--repo", str(r.path), "--no-cache", "--hook",
                 "handbook/choices/0002-second.md"])
    assert code == 1 and "0005-x.md" in capsys.readouterr().out


def test_hook_judges_the_staged_change_not_untracked_files(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"docs/adr/0001-first.md": record(1, "First", "See [n](0004-new.md).")})
    repo.git("add", "-A")
    repo.write({"docs/adr/0004-new.md": record(4, "New")})  # on disk, not staged
    code, out, err = run(repo, capsys, "--hook", "docs/adr/0001-first.md")
    assert code == 1 and "0004-new.md does not exist" in out  # not in the commit
    assert "1 record file under the ADR roots is not tracked by git and was not checked " \
        "(docs/adr/0004-new.md)" in err


def test_changed_judges_the_work_tree_and_untracked_files(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(repo, capsys, "--changed")
    assert code == 0 and "No new problems found" in out
    repo.write({"docs/adr/0004-new.md": record(4, "New", "See [x](0006-x.md).")})  # untracked
    code, out, _ = run(repo, capsys, "--changed")
    assert code == 1 and "docs/adr/0004-new.md (untracked)" in out and "0006-x.md" in out
    assert "2 older findings in files outside the uncommitted changes" in out


def test_base_holds_older_findings_and_marks_them_in_json(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    base = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write({"docs/adr/0001-first.md": record(1, "First", "See [n](0005-n.md).")})
    repo.commit("feature")
    code, out, _ = run(repo, capsys, "--base", base)
    assert code == 1 and "0005-n.md" in out and "0009-a.md" not in out
    # the base as the GitHub Action passes it, a full commit id, reads as its short id
    assert f"2 older findings in files outside the changes since {base[:12]};" in out
    assert base not in out
    _code, md, _ = run(repo, capsys, "--base", base, "--format", "markdown")
    assert base[:12] in md and base not in md
    code, raw, _ = run(repo, capsys, "--base", base, "--format", "json")
    data: dict[str, Any] = json.loads(raw)
    from adrguard.core.schemas import validator

    validator("report.schema.json").validate(data)
    older = [f["path"] for f in data["findings"] if f.get("older")]
    assert older == [OLD, OLD] and data["gate"]["older"] == 2
    assert data["summary"]["errors"] == 1


def test_changed_and_hook_exclude_base(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(repo, capsys, "--changed", "--base", "HEAD")[0] == 2
    assert run(repo, capsys, "--hook", "--base", "HEAD")[0] == 2


def test_changed_outside_git_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs/adr").mkdir(parents=True)
    (tmp_path / "docs/adr/0001-a.md").write_text(record(1, "A"), "utf-8")
    assert main(["check", "--repo", str(tmp_path), "--changed"]) == 2
    assert "not inside a git work tree" in capsys.readouterr().err


MIRROR = "docs/adr/zh/0001-first.md"


def test_deleting_a_record_never_promotes_its_translation_mirror(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28.8: with its original gone, the only evidence that ``zh/0001-first.md`` is a
    translation is the state before the change; the change views read it from there, so the
    copy never takes over ADR-0001 (it read as an id reused, or as a rename)."""
    repo.write({MIRROR: "# 1. 第一\n\n## 状态\n\n已接受\n"})
    base = repo.commit("a translation")
    repo.git("rm", "-q", "docs/adr/0001-first.md")
    views = (["--hook"], ["--changed"])
    for judged in views:
        _code, out, _ = run(repo, capsys, "--format", "json", *judged)
        data = json.loads(out)
        codes = {(f["code"], f["path"]) for f in data["findings"]}
        assert ("ADR506", "docs/adr/0001-first.md") in codes, judged  # the deletion counts
        assert [c for c in codes if c[1] == MIRROR] == [("ADR106", MIRROR)], judged  # a mirror
        assert data["summary"]["decisions"] == 2, judged  # 0002 and 0003; the copy is no record
    repo.commit("drop the first record")
    _code, out, _ = run(repo, capsys, "--format", "json", "--base", base)
    data = json.loads(out)
    on_copy = {f["code"] for f in data["findings"] if f["path"] == MIRROR}
    assert on_copy <= {"ADR106"}  # no ADR507 (id reused), no ADR104: it is still a mirror
    assert {f["code"] for f in data["findings"]} >= {"ADR506"}
