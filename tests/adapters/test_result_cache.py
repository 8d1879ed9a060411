"""The result cache and the cached git listing never change a report: every input the engine
sees is part of the key, and a damaged entry is a miss. Real files and real git repositories."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

{status}

## Context

See [the first](0001-first.md) and [the plan](../plan.md).

## Decision

Yes.

## Consequences

Some.
"""

FILES = {
    "docs/adr/0001-first.md": RECORD.format(n=1, title="First", status="Accepted"),
    "docs/adr/0002-second.md": RECORD.format(n=2, title="Second", status="Proposed"),
}


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    return _report(root, capsys, "--no-cache", *extra)


def _entry(root: Path, name: str) -> Path:
    return root / ".adrguard_cache" / f"{name}.json"


@pytest.fixture
def plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the git shortcut apply: no variables that move the repository or its config."""
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_DIR", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def test_second_run_is_served_from_the_result_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    first = _report(repo.path, capsys)
    assert _entry(repo.path, "check-result").is_file()
    assert _entry(repo.path, "git-files").is_file()
    stored = json.loads(_entry(repo.path, "check-result").read_text())
    assert stored["value"]["findings"], "the corpus has a broken link to report"
    assert _report(repo.path, capsys) == first == _cold(repo.path, capsys)


def test_warm_hit_imports_neither_the_engine_nor_the_parser(
    tmp_path: Path, plain_git: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(git is asked which files are untracked: manual runs check those too.)"""
    repo = _repo(tmp_path)
    monkeypatch.delenv("ADRGUARD_NO_CACHE", raising=False)
    probe = (
        "import sys\n"
        "from adrguard.cli import main\n"
        "code = main(['check', '--repo', sys.argv[1], '--format', 'json'])\n"
        "heavy = sorted(m for m in ('adrguard.engine', 'adrguard.core.parse', 'pyromark')"
        " if m in sys.modules)\n"
        "print(code, heavy, file=sys.stderr)\n"
    )
    cmd = [sys.executable, "-c", probe, str(repo.path)]
    subprocess.run(cmd, capture_output=True, check=False)  # fills the caches
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.stderr.strip().splitlines()[-1] == "1 []"


def test_new_link_target_changes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    before = _report(repo.path, capsys)
    assert "plan.md" in before
    repo.write({"docs/plan.md": "# Plan\n"})
    repo.git("add", "docs/plan.md")  # staged, not committed: part of the next commit
    after = _report(repo.path, capsys)
    assert "plan.md" not in after
    assert after == _cold(repo.path, capsys)
    repo.git("rm", "-q", "--cached", "docs/plan.md")  # untracked and outside the ADR roots:
    assert _report(repo.path, capsys) == before       # not seen, so the link is broken again


def test_changed_record_option_and_paths_are_new_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    _report(repo.path, capsys)
    second = repo.path / "docs/adr/0002-second.md"
    second.write_text(second.read_text().replace("Proposed", "Bogus"), encoding="utf-8")
    assert _report(repo.path, capsys) == _cold(repo.path, capsys)
    for extra in (
        ("--profile", "strict"),
        ("--select", "ADR201"),
        ("--ignore", "ADR201"),
        ("--today", "2030-01-01"),
        (str(second),),
    ):
        assert _report(repo.path, capsys, *extra) == _cold(repo.path, capsys, *extra), extra


def test_index_file_change_is_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    assert main(["index", "--repo", str(repo.path), "--write"]) == 0
    repo.commit("index")
    capsys.readouterr()
    fresh = _report(repo.path, capsys)
    index = repo.path / "docs/adr/INDEX.md"
    index.write_text(index.read_text().replace("Second", "Sekond"), encoding="utf-8")
    stale = _report(repo.path, capsys)
    assert stale != fresh
    assert stale == _cold(repo.path, capsys)


@pytest.mark.parametrize(
    "damage",
    [
        b"{",
        b'{"format": 1, "key": "nope", "value": {}}',
        "same-key-bad-value",
        "same-key-forged-finding",
    ],
)
def test_damaged_result_entry_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None, damage: bytes | str
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    entry = _entry(repo.path, "check-result")
    if isinstance(damage, bytes):
        entry.write_bytes(damage)
    else:
        data = json.loads(entry.read_text())
        if damage == "same-key-bad-value":
            data["value"]["findings"] = "not a list"
        else:
            data["value"]["findings"][0][2] = 99  # no such severity
        entry.write_text(json.dumps(data))
    assert _report(repo.path, capsys) == cold


def test_forged_git_listing_with_a_stale_key_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    listing = _entry(repo.path, "git-files")
    data = json.loads(listing.read_text())
    data["value"][0] = ["docs/adr/0001-first.md"]  # forged: hides a record
    data["key"] = data["key"] + "x"
    listing.write_text(json.dumps(data))
    _entry(repo.path, "check-result").unlink()
    assert _report(repo.path, capsys) == cold


def test_git_variables_bypass_the_listing_shortcut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    cold = _cold(repo.path, capsys)
    assert _report(repo.path, capsys) == cold
    assert not _entry(repo.path, "git-files").exists()
    assert _entry(repo.path, "check-result").exists()


def test_cache_committed_to_git_is_not_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    """A pull request can commit `.adrguard_cache/` with forged entries under keys it can
    compute (content hashes). A cache that git tracks is therefore never read."""
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    (shard,) = (repo.path / ".adrguard_cache").glob("parse-*.json")
    shard.write_text(shard.read_text().replace('"First"', '"Forged"'), encoding="utf-8")
    result = _entry(repo.path, "check-result")
    stored = json.loads(result.read_text())
    stored["value"]["findings"] = []
    result.write_text(json.dumps(stored))

    main(["list", "--repo", str(repo.path), "--format", "json"])
    assert "Forged" in capsys.readouterr().out  # untracked: the (local) cache is used

    repo.git("add", "-f", ".adrguard_cache")
    repo.commit("a forged cache")
    main(["list", "--repo", str(repo.path), "--format", "json"])
    listed = capsys.readouterr().out
    assert "Forged" not in listed and '"First"' in listed
    assert _report(repo.path, capsys) == cold


def _markdown(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "markdown", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def test_decision_rows_come_from_their_own_entry_or_from_the_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    """The markdown report names decisions. A warm hit reads the rows stored beside the result
    (other formats never do). A damaged or missing rows entry means parsing the records again,
    so the report still equals a cold run."""
    repo = _repo(tmp_path)
    cold = _markdown(repo.path, capsys, "--no-cache")
    assert "First" in cold
    assert _markdown(repo.path, capsys) == cold  # stores
    assert _markdown(repo.path, capsys) == cold  # hit
    rows = _entry(repo.path, "check-rows")
    stored = json.loads(rows.read_text())
    stored["value"] = [[i, p, "Forged" if t == "First" else t, s] for i, p, t, s in stored["value"]]
    rows.write_text(json.dumps(stored))
    assert "Forged" in _markdown(repo.path, capsys)  # the entry is read
    for damage in ('{"format": 1}', "[", json.dumps({**stored, "value": [[1, 2, 3, 4]]})):
        rows.write_text(damage)
        assert _markdown(repo.path, capsys) == cold
    rows.unlink()
    assert _markdown(repo.path, capsys) == cold
