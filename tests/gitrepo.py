"""Build real temporary git repositories with fixed names and dates (stable commit ids).

Importable from any test (pytest puts ``tests/`` on ``sys.path`` for its conftest.py).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

BASE_ENV = {
    "GIT_AUTHOR_NAME": "adrguard tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "adrguard tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}


class GitRepo:
    """A work tree in ``path``; every commit gets the next fixed date."""

    def __init__(self, path: Path, *, init: bool = True, branch: str = "main") -> None:
        self.path = path
        self.commits = 0
        if init:
            path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", branch)
            self.git("config", "core.autocrlf", "false")

    def env(self) -> dict[str, str]:
        date = f"2024-01-{1 + self.commits:02d}T12:00:00+00:00"
        return {**os.environ, **BASE_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}

    def git(self, *args: str | bytes) -> str:
        done = subprocess.run(
            ["git", *args], cwd=self.path, env=self.env(), check=True, capture_output=True
        )
        return done.stdout.decode("utf-8", "replace").strip()

    def write(self, files: Mapping[str, str | bytes]) -> None:
        for rel, content in files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)

    def write_bytes_path(self, rel: bytes, content: bytes) -> None:
        """A file whose name is not valid UTF-8."""
        target = os.path.join(os.fsencode(self.path), rel)
        with open(target, "wb") as fh:
            fh.write(content)

    def remove(self, paths: Iterable[str]) -> None:
        for rel in paths:
            (self.path / rel).unlink()

    def commit(self, message: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "--no-verify", "-m", message)
        self.commits += 1
        return self.git("rev-parse", "HEAD")

    def replace_tree(self, files: Mapping[str, str | bytes], keep: Iterable[str] = ()) -> None:
        """Make the work tree hold exactly ``files`` (plus ``keep``)."""
        kept = set(keep)
        for rel in self.git("ls-files", "-z").split("\0"):
            if rel and rel not in kept and rel not in files:
                (self.path / rel).unlink()
        self.write(files)
