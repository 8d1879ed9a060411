"""A real repository for the read guard: the log of ``compactionrepo`` with two retired records
moved into its archive by ``adrguard archive plan`` and ``archive apply``, a folder called
``archive`` that is no ADR archive (``src/archive/``), a symlink to an archived record and a
symlink to the ADR folder, and ``read-guard`` set in ``.adrguard.toml``. Text written for these
tests."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from compactionrepo import build as build_log
from gitrepo import GitRepo

from adrguard.cli import main

ARCHIVED = "docs/adr/archive/0002-use-mysql.md"
ALSO_ARCHIVED = "docs/adr/archive/0004-use-postgresql.md"
ACTIVE = "docs/adr/0006-use-postgresql-16.md"
PAYLOADS = Path(__file__).resolve().parent / "data" / "guard" / "claude"


def build(tmp_path: Path, mode: str = "guard") -> GitRepo:
    repo = build_log(tmp_path)
    plan = repo.path / ".git" / "adrguard" / "plan.json"
    where = ["--repo", str(repo.path)]
    assert main(["archive", "plan", "ADR-0002", "ADR-0004", *where, "--out", str(plan)]) == 0
    assert main(["archive", "apply", str(plan), *where]) == 0
    repo.write({
        "src/archive/notes.md": "# Notes\n\nWhat we tried with MySQL, kept by the team.\n",
        "src/db.py": "DRIVER = 'mysql'  # replaced by postgresql, see ADR-0006\n",
    })
    (repo.path / "notes").mkdir()
    os.symlink("../" + ARCHIVED, repo.path / "notes" / "mysql.md")
    os.symlink("docs/adr", repo.path / "linked-adrs")
    set_mode(repo.path, mode)
    repo.commit("archive the retired records; a folder called archive; symlinks")
    return repo


def set_mode(path: Path, mode: str, extra: str = "") -> None:
    (path / ".adrguard.toml").write_text(f'read-guard = "{mode}"\n{extra}', encoding="utf-8")


def payload(name: str, repo: Path, session: str | None = "session-1") -> bytes:
    """A payload of ``tests/data/guard/claude`` for ``repo`` (``{repo}`` and ``{session}``
    filled in; the session id dropped when ``session`` is None)."""
    text = (PAYLOADS / name).read_text(encoding="utf-8")
    if not name.endswith(".json") or name.startswith("malformed-not-json"):
        return text.replace("{repo}", str(repo)).encode()
    data = json.loads(text)
    filled = _fill(data, str(repo), session)
    if isinstance(filled, dict) and session is None:
        filled.pop("session_id", None)
    return json.dumps(filled).encode()


def _fill(value: Any, repo: str, session: str | None) -> Any:
    if isinstance(value, str):
        return value.replace("{repo}", repo).replace("{session}", session or "")
    if isinstance(value, list):
        return [_fill(v, repo, session) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, repo, session) for k, v in value.items()}
    return value


def hook(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data: bytes,
         *args: str) -> tuple[int, dict[str, Any] | None]:
    """``adrguard guard`` in this process, the payload on standard input: (exit status, the
    JSON answer or None when nothing was printed)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    capsys.readouterr()
    code = main(["guard", *args])
    out = capsys.readouterr().out.strip()
    if not out:
        return code, None
    assert out.count("\n") == 0  # one line
    answer = json.loads(out)
    errors = list(_validator("hookAnswer").iter_errors(answer))
    assert not errors, errors[0].message
    return code, answer


def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    from adrguard.core.schemas import load_schema

    schema = load_schema("guard.schema.json")
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


def payload_problems(data: Any) -> list[str]:
    """What the payload schema (the fields `adrguard guard` reads) says about ``data``."""
    return [e.message for e in _validator("hookPayload").iter_errors(data)]
