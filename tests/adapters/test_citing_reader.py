"""The citation scan's reader resolves each folder once, from its parent: a folder below a
symlink that leaves the repository is refused, one below a link that stays inside is read,
exactly as resolving each whole path would say."""

from __future__ import annotations

import os
from pathlib import Path

from adrguard.adapters.citing import Reader
from adrguard.pathguard import is_inside


def test_folders_resolve_as_their_whole_paths_do(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    outside = tmp_path / "outside"
    (outside / "deep" / "er").mkdir(parents=True)
    (outside / "deep" / "er" / "secret.py").write_text("# ADR-0001\n", encoding="utf-8")
    (repo / "src" / "a" / "b").mkdir(parents=True)
    (repo / "src" / "a" / "b" / "code.py").write_text("# ADR-0002\n", encoding="utf-8")
    os.symlink(outside, repo / "out")  # leaves the repository
    os.symlink(repo / "src" / "a", repo / "alias")  # stays inside
    os.symlink(outside, repo / "src" / "a" / "back")  # nested, leaves
    os.symlink("../..", repo / "src" / "a" / "up")  # relative, stays inside
    base = os.path.realpath(repo)
    folders = [
        "src", "src/a", "src/a/b", "out", "out/deep", "out/deep/er", "alias", "alias/b",
        "src/a/back/deep", "src/a/up", "src/a/up/src/a/b", "missing/x", "src/missing",
    ]
    reader = Reader(base, 1 << 20)
    for folder in reversed(folders):  # children first, then their parents from the cache
        expected = is_inside(os.path.realpath(base + os.sep + folder), base)
        assert reader._folder_inside(folder) is expected, folder
    fresh = Reader(base, 1 << 20)
    assert fresh.read("out/deep/er/secret.py") == (None, "outside")
    assert fresh.read("src/a/back/deep/er/secret.py") == (None, "outside")
    assert fresh.read("alias/b/code.py") == (b"# ADR-0002\n", None)
    assert fresh.read("src/a/up/src/a/b/code.py") == (b"# ADR-0002\n", None)
    assert fresh.read("src/a/b/code.py") == (b"# ADR-0002\n", None)
    assert fresh.read("missing/x/y.py") is None
