"""`adrguard check --against` and `--claims` end to end: two branches of a real temporary git
repository that add the same record number each get ADR509 against the other; refs and globs
are read from what is fetched, nothing else; bad input is one `error:` line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

RECORD = "# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n## Context\n\nWhy.\n"


def _two_branches(tmp_path: Path) -> GitRepo:
    """main: 0001 and 0002; branch kafka adds 0003-use-kafka, branch pulsar 0003-use-pulsar."""
    repo = GitRepo(tmp_path / "repo")
    repo.write({".adrguard.toml": "cache = false\n",
                "docs/adr/0001-first.md": RECORD.format(n=1, title="First", status="Accepted"),
                "docs/adr/0002-second.md": RECORD.format(n=2, title="Second", status="Accepted")})
    repo.commit("base")
    for name, title in (("kafka", "Use Kafka"), ("pulsar", "Use Pulsar")):
        repo.git("checkout", "-q", "-b", name, "main")
        repo.write({f"docs/adr/0003-{name}.md": RECORD.format(n=3, title=title,
                                                               status="Proposed")})
        repo.commit(name)
    repo.git("checkout", "-q", "main")
    return repo


def _check(repo: GitRepo, *args: str) -> int:
    return main(["check", "--repo", str(repo.path), "--no-cache", "--format", "json", *args])


def _adr509(out: str) -> list[tuple[str, str]]:
    return [(f["path"], f["message"]) for f in json.loads(out)["findings"]
            if f["code"] == "ADR509"]


def test_each_branch_gets_adr509_against_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _two_branches(tmp_path)
    for mine, theirs in (("kafka", "pulsar"), ("pulsar", "kafka")):
        repo.git("checkout", "-q", mine)
        assert _check(repo, "--base", "main", "--against", theirs) == 0  # a warning
        captured = capsys.readouterr()
        found = _adr509(captured.out)
        assert [p for p, _ in found] == [f"docs/adr/0003-{mine}.md"]
        assert f"{theirs} also adds number 3" in found[0][1]
        assert f"docs/adr/0003-{theirs}.md" in found[0][1]
        assert "renumber this record to 4" in found[0][1]
        assert f"adrguard: {theirs} adds ADR-0003 (docs/adr/0003-{theirs}.md)" in captured.err
        assert repo.git("status", "--porcelain") == ""


def test_a_glob_names_every_other_branch_and_skips_this_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _two_branches(tmp_path)
    repo.git("checkout", "-q", "kafka")
    assert _check(repo, "--against", "refs/heads/*") == 0  # no --base: the work tree
    captured = capsys.readouterr()
    assert [p for p, _ in _adr509(captured.out)] == ["docs/adr/0003-kafka.md"]
    assert "main adds no record" in captured.err
    assert "kafka adds" not in captured.err  # this branch itself is not another ref
    assert _check(repo, "--against", "refs/remotes/origin/pr/*") == 0  # matches nothing
    assert _adr509(capsys.readouterr().out) == []


def test_a_branch_that_merged_main_after_the_other_took_the_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _two_branches(tmp_path)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge kafka", "kafka")
    repo.git("checkout", "-q", "pulsar")
    assert _check(repo, "--base", "main", "--against", "main") == 0
    found = _adr509(capsys.readouterr().out)
    assert [p for p, _ in found] == ["docs/adr/0003-pulsar.md"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--against", "no-such-branch"], "against ref 'no-such-branch' not found"),
        (["--against", "--base"], "is not a ref name or glob"),
        (["--claims", "claims.json"], "--claims needs --base"),
        (["--base", "main", "--claims", "claims.json"], "invalid at pullRequests.0"),
    ],
)
def test_bad_refs_and_claims_files_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    repo = _two_branches(tmp_path)
    bad = {"schemaVersion": 1, "pullRequests": [{"number": 0, "files": []}]}
    (tmp_path / "claims.json").write_text(json.dumps(bad), "utf-8")
    args = [str(tmp_path / a) if a == "claims.json" else a for a in args]
    if args[:2] == ["--against", "--base"]:
        args = ["--against=--base"]
    assert _check(repo, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err, err
