"""``adrguard check`` as a new user meets it: PATH arguments, ``--repo`` (and the deprecated
``--root``), ``-v`` naming each root and why, a run that finds nothing, and the one-line
summary when every report goes to a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from adrguard.cli import main

RECORD = "# {n}. T{n}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n"


def write(base: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text, "utf-8")
    return base


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write(tmp_path, {
        "docs/adr/0001-a.md": RECORD.format(n=1),
        "docs/adr/README.md": "# Index\n",
        "handbook/choices/0001-b.md": RECORD.format(n=1) + "\n[x](nope.md)\n",
        "notes/todo.md": "# Todo\n",
    })


def test_a_folder_outside_every_root_is_checked_as_a_root(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    assert run(capsys, "check", "--no-cache")[0] == 0  # handbook/ is not found by itself
    code, out, _ = run(capsys, "check", "--no-cache", "handbook/choices")
    assert code == 1 and "handbook/choices/0001-b.md" in out and "nope.md" in out
    code, out, _ = run(capsys, "check", "--no-cache", "docs/adr")  # what the README says
    assert code == 0 and "1 decision" in out
    # the repository itself, or a folder that holds a root, is not made a root
    for wider in (".", "docs"):
        code, out, _ = run(capsys, "check", "--no-cache", wider)
        assert code == 0 and "1 decision (1 file)" in out, wider


def test_a_missing_path_and_a_file_outside_the_roots_are_usage_errors(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "check", "--no-cache", "nope/")
    assert code == 2 and out == "" and err.startswith("error: nope/: no such file or folder")
    code, _, err = run(capsys, "check", "--no-cache", "notes/todo.md")
    assert code == 2 and "notes/todo.md is not inside an ADR root (roots: docs/adr)" in err
    assert "adrguard check FOLDER" in err


def test_verbose_names_each_root_why_and_what_it_holds(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "check", "--repo", str(repo), "--no-cache", "-v")
    assert code == 0
    assert ("adrguard: ADR root docs/adr: 1 record file, 1 skipped; named like a decision "
            "log (adr/)") in err


def test_root_is_a_deprecated_alias_of_repo(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--root", str(repo), "--no-cache")
    assert code == 0 and err.startswith("warning: --root is deprecated")
    assert "--repo" in err


def test_finding_no_decision_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"docs/adr/README.md": "# Decisions\n\nNone yet.\n"})
    code, out, err = run(capsys, "check", "--repo", str(tmp_path), "--no-cache")
    assert code == 2 and out == ""
    assert "no decision records found: looked in docs/adr (named like a decision log" in err
    assert "1 markdown file skipped" in err
    (tmp_path / "docs/adr/README.md").unlink()
    code, _, err = run(capsys, "check", "--repo", str(tmp_path), "--no-cache")
    assert code == 2 and "no records yet" in err


def test_every_format_to_a_file_prints_the_summary_to_stderr(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "r.json"
    code, out, err = run(capsys, "check", "--repo", str(repo), "--no-cache",
                         "--format", f"json:{out_file}")
    assert code == 0 and out == "" and out_file.is_file()
    assert err.strip() == "adrguard: 0 errors, 0 warnings, 0 notes in 1 decision (1 file)"
    code, out, err = run(capsys, "check", "--repo", str(repo), "--no-cache",
                         "--format", f"json:{out_file}", "--format", "text")
    assert "adrguard:" not in err  # the text report says it already
