"""Parse helpers started ahead of a cold ``check`` (ADR 64): when the command line starts them,
that the run takes them, and that a run with them reports exactly what a run without them
does."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.adapters.cache.store import ENTRIES, looks_cold
from adrguard.api.pipeline import helpers, parsing
from adrguard.api.pipeline.helpers import Ahead, Helper
from adrguard.cli import helpers_ahead, main
from adrguard.core.model import SourceFile
from adrguard.core.options import Options

RECORD = """# {n}. Queue job {n}

Date: 2024-05-{day:02d}

## Status

{status}

## Context

Job {n} is slow; see ADR-{prev} and [the one before]({prev:04d}-queue-job-{prev}.md).

## Decision

Queue it.
"""


def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, warm: bool) -> Path:
    """A cache folder of its own, on; ``warm``: it holds entries already."""
    folder = tmp_path / "cache"
    folder.mkdir()
    if warm:
        (folder / ENTRIES).mkdir()
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(folder))
    monkeypatch.delenv("ADRGUARD_NO_CACHE", raising=False)
    return folder


def test_a_cache_folder_without_entries_or_a_cache_that_is_off_looks_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _cache(tmp_path, monkeypatch, warm=False)
    assert looks_cold(off=False)
    (folder / ENTRIES).mkdir()
    assert not looks_cold(off=False)
    assert looks_cold(off=True)  # --no-cache
    monkeypatch.setenv("ADRGUARD_NO_CACHE", "1")
    assert looks_cold(off=False)
    monkeypatch.delenv("ADRGUARD_NO_CACHE")
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "not yet made"))
    assert looks_cold(off=False)


@pytest.mark.parametrize(
    ("argv", "started"),
    [
        (["check"], True),
        (["--debug", "check", "docs/adr", "--format", "json"], True),
        (["check", "--hook", "docs/adr/0001-a.md"], False),  # a commit's check: few, warm
        (["check", "--help"], False),
        (["list"], False),
        (["index", "--write"], False),
        ([], False),
    ],
)
def test_the_command_line_starts_helpers_ahead_only_for_a_cold_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], started: bool
) -> None:
    _cache(tmp_path, monkeypatch, warm=False)
    monkeypatch.setattr(helpers, "cpus", lambda: 2)
    ahead = helpers_ahead(argv)
    try:
        assert (ahead is not None and len(ahead) == 1) is started
    finally:
        if ahead is not None:
            ahead.close()


def test_a_warm_cache_or_one_processor_starts_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cache(tmp_path, monkeypatch, warm=True)
    monkeypatch.setattr(helpers, "cpus", lambda: 4)
    assert helpers_ahead(["check"]) is None
    ahead = helpers_ahead(["check", "--no-cache"])  # this run goes without the cache
    assert ahead is not None and len(ahead) == 3
    ahead.close()
    monkeypatch.setattr(helpers, "cpus", lambda: 1)
    assert helpers_ahead(["check", "--no-cache"]) is None


def test_a_cold_check_takes_its_helpers_and_reports_what_a_serial_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({
        f"docs/adr/{n:04d}-queue-job-{n}.md": RECORD.format(
            n=n, day=n % 28 + 1, prev=max(n - 1, 1),
            status=("Accepted", "Superseded by ADR-2", "Sometime")[n % 3])
        for n in range(1, 41)
    })
    repo.commit("records")
    monkeypatch.chdir(repo.path)
    argv = ["check", "--format", "json", "--no-baseline", "--today", "2024-06-01"]

    monkeypatch.setattr(helpers, "cpus", lambda: 1)
    monkeypatch.setattr(parsing, "cpus", lambda: 1)
    serial_code = main([*argv, "--no-cache"])
    serial = capsys.readouterr().out

    monkeypatch.setattr(parsing, "SHARE_MIN", 2)  # share even these forty records
    monkeypatch.setattr(parsing, "HEAD_START_AHEAD", 2)
    monkeypatch.setattr(helpers, "cpus", lambda: 3)
    monkeypatch.setattr(parsing, "cpus", lambda: 3)
    taken: list[tuple[Helper | None, int]] = []
    helper_for = parsing._helper_for

    def spy(part: list[SourceFile], opts: Options, ahead: Ahead | None) -> Helper | None:
        waiting = len(ahead) if ahead is not None else 0
        helper = helper_for(part, opts, ahead)
        taken.append((helper, waiting))
        return helper

    monkeypatch.setattr(parsing, "_helper_for", spy)
    for cache in ("--no-cache", None):  # off, and on in a cold folder
        if cache is None:
            _cache(tmp_path, monkeypatch, warm=False)
        taken.clear()
        code = main([*argv, cache] if cache else argv)
        assert (code, capsys.readouterr().out) == (serial_code, serial)
        assert [w for _, w in taken] == [2, 1]  # both slices went to helpers started ahead
        assert all(h is not None and h._process.returncode == 0 for h, _ in taken)
    assert '"ADR103"' in serial  # the check found something: the outputs compared are not empty
