"""The pre-commit hook and the record cache: the tree before the commit (what ``HEAD`` holds)
takes a changed record from the work tree's pack when that pack still holds its bytes at
``HEAD`` (it was checked before it was edited), and writes nothing to the pack; the report is the
one a run without the cache gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from recordcache import files, read_pack

BODY = "## Context\n\nWe need it.\n\n## Decision\n\n{decision}\n\n## Consequences\n\nFine.\n"


def _record(n: int, decision: str, status: str = "Accepted") -> str:
    return (f"# {n}. Record {n}\n\nDate: 2024-01-{n:02d}\n\n## Status\n\n{status}\n\n"
            + BODY.format(decision=decision))


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    subprocess.run(["git", *args], cwd=root, check=True, env=env)


def _log(root: Path) -> Path:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-r1.md").write_text(_record(1, "We use one queue."), encoding="utf-8")
    for n in range(2, 17):  # a log of 16: an edit keeps the pack's base (it writes a delta)
        (adr / f"{n:04d}-r{n}.md").write_text(_record(n, f"We keep {n}.", "Proposed"),
                                             encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return adr


def _hook(root: Path, *extra: str) -> tuple[str, str, int, list[str]]:
    """Run ``check --hook`` on the first record in a fresh interpreter: its report (stdout,
    stderr, exit code) and the adrguard parser modules it imported."""
    script = (
        "import json, sys\nfrom adrguard.cli import main\n"
        f"code = main(['check', '--hook', 'docs/adr/0001-r1.md', *{list(extra)!r}])\n"
        "sys.stdout.flush()\n"
        "print('MODULES=' + json.dumps(sorted(m for m in sys.modules"
        " if m.startswith('adrguard.core.parse.record'))), file=sys.stderr)\n"
        "sys.exit(code)"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=root, env={**os.environ, "NO_COLOR": "1"})
    lines = run.stderr.splitlines()
    modules = json.loads(lines[-1].removeprefix("MODULES="))
    return run.stdout, "\n".join(lines[:-1]), run.returncode, modules


def _packs() -> dict[Path, dict[bytes, bytes]]:
    return {p: entries for p in files() if (entries := read_pack(p)) is not None}


@pytest.mark.uses_cache
def test_the_hook_takes_the_record_before_the_commit_from_the_cache(tmp_path: Path,
                                                                    monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A log checked, then a record's decision rewritten and staged: the first hook run parses
    the staged record, the second parses nothing (both sides come from the cache, the side
    before the commit from the entry the first check stored), and both report the finding the
    commit causes exactly as a run without the cache does."""
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    adr = _log(root)
    subprocess.run([sys.executable, "-m", "adrguard", "check"], cwd=root, check=False,
                   capture_output=True)
    (adr / "0001-r1.md").write_text(_record(1, "We use two queues."), encoding="utf-8")
    _git(root, "add", "-A")

    first = _hook(root)
    packs = _packs()
    second = _hook(root)
    uncached = _hook(root, "--no-cache")

    assert "ADR505" in first[0]  # the accepted decision's text changed: the HEAD side was read
    assert first[3] == ["adrguard.core.parse.record"]  # the staged bytes are new
    assert second[3] == []  # nothing parsed: the bytes at HEAD come from the work tree's pack
    assert first[:3] == second[:3] == uncached[:3]
    assert _packs() == packs  # reading the pack for the side before the commit wrote nothing


@pytest.mark.uses_cache
def test_the_hook_parses_the_record_before_the_commit_when_the_cache_lacks_it(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Never checked before the edit: the bytes at HEAD are in no pack, so the side before the
    commit parses them, every time (they are not stored: the pack holds the work tree's
    records), with the same report."""
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    adr = _log(root)
    (adr / "0001-r1.md").write_text(_record(1, "We use two queues."), encoding="utf-8")
    _git(root, "add", "-A")

    runs = [_hook(root), _hook(root), _hook(root, "--no-cache")]

    assert "ADR505" in runs[0][0]
    assert [r[3] for r in runs] == [["adrguard.core.parse.record"]] * 3
    assert runs[0][:3] == runs[1][:3] == runs[2][:3]
