"""Helpers for the hostile-repository tests: a real git repository with records the test
writes, and the real CLI run in-process (``cli.main``) with its output captured."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

RECORD = """# {n}. {title}

Date: 2024-01-0{n}

## Status

{status}

## Context

Some context.

## Decision

We do it.

## Consequences

It is done.
"""


def record(n: int, title: str = "A decision", status: str = "Accepted") -> str:
    return RECORD.format(n=n, title=title, status=status)


def make_repo(path: Path, files: Mapping[str, str | bytes], *, commit: bool = True) -> GitRepo:
    """A git repository holding ``files`` (committed unless ``commit`` is false)."""
    repo = GitRepo(path)
    repo.write(files)
    if commit:
        repo.commit("records")
    return repo


@dataclass
class Result:
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    """``adrguard ARGS`` in-process; the exit code and what it printed."""
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)
