"""The CLI in-process through cli.main: exit codes, errors as one line, help that teaches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adrguard import __version__
from adrguard.cli import main

NYGARD = """# {n}. {title}

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


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _adr(n: int, title: str, status: str = "Accepted") -> str:
    return NYGARD.format(n=n, title=title, status=status)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"adrguard {__version__}"


def test_python_dash_m_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "adrguard", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and __version__ in out.stdout


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "check" in capsys.readouterr().err


def test_unknown_option_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert "error: unrecognized arguments: --no-such-flag" in err
    assert "Traceback" not in err


def test_check_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == 0
    out = capsys.readouterr().out
    for word in ("--fail-on", "--format", "--select", "examples:"):
        assert word in out


def test_clean_repo_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"docs/adr/0001-use-adrs.md": _adr(1, "Use ADRs")})
    assert main(["check", "--repo", str(tmp_path)]) == 0
    assert "No problems found" in capsys.readouterr().out


def test_findings_exit_1_and_fail_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"docs/adr/0001-use-adrs.md": "# 1. Use ADRs\n\nSee [the plan](plan.md).\n"})
    assert main(["check", "--repo", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "ADR201" in out and "docs/adr/0001-use-adrs.md" in out
    assert main(["check", "--repo", str(tmp_path), "--fail-on", "none"]) == 0
    assert main(["check", "--repo", str(tmp_path), "--exit-zero"]) == 0
    assert main(["check", "--repo", str(tmp_path), "--ignore", "ADR201,missing-status"]) == 0


def test_no_adr_folder_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--repo", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "roots" in err[0]


def test_config_typo_names_closest_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(
        tmp_path,
        {
            "docs/adr/0001-use-adrs.md": _adr(1, "Use ADRs"),
            ".adrguard.toml": 'rots = ["docs/adr"]\n',
        },
    )
    assert main(["check", "--repo", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: .adrguard.toml: unknown key 'rots'") and "'roots'" in err
    assert len(err.splitlines()) == 1


def test_pyproject_table_and_first_found_wins(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "records/0001-use-adrs.md": _adr(1, "Use ADRs"),
            "pyproject.toml": '[tool.adrguard]\nroots = ["records"]\n',
        },
    )
    assert main(["check", "--repo", str(tmp_path)]) == 0
    # .adrguard.toml wins and is not merged with pyproject.toml: its roots do not exist
    _write(tmp_path, {".adrguard.toml": 'roots = ["nowhere"]\n'})
    assert main(["check", "--repo", str(tmp_path)]) == 2


def test_list_json_and_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adrguard.core.schemas import validator

    _write(
        tmp_path,
        {
            "docs/adr/0001-use-adrs.md": _adr(1, "Use ADRs"),
            "docs/adr/0002-use-python.md": _adr(2, "Use Python", "Proposed"),
            "docs/adr/README.md": "# Index\n",
        },
    )
    assert main(["list", "--repo", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validator("list.schema.json").validate(data)
    assert [(d["id"], d["status"], d["title"]) for d in data["decisions"]] == [
        ("ADR-0001", "accepted", "Use ADRs"),
        ("ADR-0002", "proposed", "Use Python"),
    ]


def test_show_by_number_and_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"docs/adr/0001-use-adrs.md": _adr(1, "Use ADRs")})
    assert main(["show", "1", "--repo", str(tmp_path)]) == 0
    assert "ADR-0001: Use ADRs" in capsys.readouterr().out
    assert main(["show", "99", "--repo", str(tmp_path)]) == 2
    assert "no decision matches '99'" in capsys.readouterr().err


def test_rules_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert "ADR102" in capsys.readouterr().out
    assert main(["explain", "missing-status"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("# ADR102 missing-status") and "Why" in page
    assert main(["explain", "ADR999"]) == 2


def test_format_to_file_and_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"docs/adr/0001-use-adrs.md": _adr(1, "Use ADRs")})
    out_file = tmp_path / "out" / "report.json"
    assert (
        main(["check", "--repo", str(tmp_path), "--format", f"json:{out_file}", "--format", "text"])
        == 0
    )
    assert json.loads(out_file.read_text())["summary"]["errors"] == 0
    assert main(["check", "--repo", str(tmp_path), "--format", "bogus"]) == 2
    assert main(["check", "--repo", str(tmp_path), "--format", "json", "--format", "text"]) == 2
