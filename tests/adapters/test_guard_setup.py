"""What the read guard knows before a call, and its cache: the same layout as discovery, kept
in the cache under the configuration's bytes and the git index, and made again when a file
root detection read (a record sampled by content) changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.adapters.guard.setup import SetupError, load_setup
from adrguard.core.guard.layout import PathState
from adrguard.core.guard.policy import Mode

RECORD = "# {n}. Decision {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"


def _repo(tmp_path: Path, config: str = 'read-guard = "guard"\n') -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    files = {f"records/{n:04d}-decision-{n}.md": RECORD.format(n=n) for n in range(1, 5)}
    files["records/archive/0005-old.md"] = RECORD.format(n=5)
    files["src/archive/notes.md"] = "# notes\n"
    files[".adrguard.toml"] = config
    repo.write(files)
    repo.commit("log")
    return repo


@pytest.mark.uses_cache
def test_the_layout_is_discoverys_and_comes_from_the_cache_the_second_time(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    first, folder = load_setup(repo.path)
    assert folder is not None and not first.cached
    assert first.mode is Mode.GUARD
    assert first.layout.roots == ("records",)  # found by content: "records" is no log name
    layout = first.layout
    assert layout.state("records/archive/0005-old.md") is PathState.ARCHIVED
    assert layout.state("records/0001-decision-1.md") is PathState.ACTIVE
    assert layout.state("src/archive/notes.md") is PathState.OUTSIDE
    second, _ = load_setup(repo.path)
    assert second.cached
    assert (second.mode, second.layout.roots, dict(second.layout.records)) == (
        first.mode, first.layout.roots, dict(first.layout.records))


@pytest.mark.uses_cache
def test_a_file_root_detection_read_invalidates_the_entry(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    load_setup(repo.path)
    assert load_setup(repo.path)[0].cached
    sampled = repo.path / "records" / "0001-decision-1.md"
    sampled.write_text(sampled.read_text() + "\nMore context.\n")  # not staged: same index
    assert not load_setup(repo.path)[0].cached
    assert load_setup(repo.path)[0].cached


def test_a_bad_configuration_keeps_the_mode_when_it_can(tmp_path: Path) -> None:
    repo = _repo(tmp_path, 'read-guard = "warn"\nprofile = "loose"\n')
    with pytest.raises(SetupError) as caught:
        load_setup(repo.path)
    assert caught.value.mode is Mode.WARN and "profile" in str(caught.value)
    (repo.path / ".adrguard.toml").write_text("read-guard = \n")
    with pytest.raises(SetupError) as caught:
        load_setup(repo.path)
    assert caught.value.mode is None and "not valid TOML" in str(caught.value)


def test_a_config_symlinked_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    outside = tmp_path / "outside.toml"
    outside.write_text('read-guard = "off"\n')
    (repo.path / ".adrguard.toml").unlink()
    os.symlink(outside, repo.path / ".adrguard.toml")
    with pytest.raises(SetupError) as caught:
        load_setup(repo.path)
    assert "outside the repository" in str(caught.value)


def test_off_needs_no_layout(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "")
    setup, _ = load_setup(repo.path)
    assert setup.mode is Mode.OFF and setup.layout.records == {}
