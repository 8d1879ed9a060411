"""Paths as agents write them, made repo-relative for the read guard: relative to the working
directory, with `..`, `~`, backslashes, symlinks (a file or a folder), another letter case of
the same file, and paths outside the repository."""

from __future__ import annotations

import os
from pathlib import Path

from adrguard.adapters.guard.paths import Resolver
from adrguard.core.guard.layout import LogLayout

ARCHIVED = "docs/adr/archive/0002-b.md"


def _tree(tmp_path: Path) -> tuple[Path, Resolver]:
    top = tmp_path / "repo"
    for rel in ("docs/adr/0001-a.md", ARCHIVED, "src/x.py"):
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text("x\n")
    os.symlink("../" + ARCHIVED, top / "src" / "link.md")
    os.symlink("../docs/adr", top / "src" / "adrs")
    layout = LogLayout(("docs/adr",), ("archive",), {"docs/adr/0001-a.md": False, ARCHIVED: True})
    return top, Resolver(str(top), layout)


def test_readings(tmp_path: Path) -> None:
    top, r = _tree(tmp_path)
    cwd = str(top / "src")
    assert r.target(str(top / ARCHIVED), cwd).path == ARCHIVED
    assert r.target("../docs/adr/archive/0002-b.md", cwd).path == ARCHIVED
    assert r.target("link.md", cwd).path == ARCHIVED  # the symlink leads to it
    assert r.target("adrs/archive/0002-b.md", cwd).path == ARCHIVED  # a symlinked folder
    assert r.target("..\\docs\\adr\\archive\\0002-b.md", cwd).path == ARCHIVED
    assert r.target(str(top / "src/../docs/./adr/archive/../archive/0002-b.md"), cwd).path == \
        ARCHIVED
    assert r.target("x.py", cwd).path == "src/x.py"
    assert r.target("/etc/passwd", cwd).path is None
    assert r.target("../../outside.md", cwd).path is None
    assert r.target("x.py", None).path is None  # relative to a directory nobody knows


def test_another_letter_case_of_the_same_file(tmp_path: Path) -> None:
    top, r = _tree(tmp_path)
    # a second name of the same file (as a case-insensitive file system gives one)
    os.link(top / ARCHIVED, top / "docs/adr/archive/0002-B.md")
    assert r.target(str(top / "docs/adr/archive/0002-B.md"), str(top)).path == ARCHIVED
    (top / "docs/adr/0001-A.md").write_text("another file\n")
    assert r.target(str(top / "docs/adr/0001-A.md"), str(top)).path == "docs/adr/0001-A.md"


def test_wildcards_keep_their_pattern(tmp_path: Path) -> None:
    top, r = _tree(tmp_path)
    target = r.target("adrs/archive/*.md", str(top / "src"), wildcard=True)
    assert target.wildcard and target.path == "docs/adr/archive/*.md"


def test_working_directories(tmp_path: Path) -> None:
    top, r = _tree(tmp_path)
    assert r.working(str(top), ("docs", "adr")) == str(top / "docs" / "adr")
    assert r.working(str(top), ("docs", None)) is None
    assert r.relative(str(top / "docs")) == "docs"
    assert r.relative("/") is None
