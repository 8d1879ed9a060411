"""Start-up: the CLI imports only the module of the command being run, and the registry that
lists every command (``adrguard --help``) matches what each module registers."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from adrguard.cli import COMMAND_MODULES, COMMANDS, build_parser, command_in


def _registered(module: str) -> list[tuple[str, str | None]]:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    importlib.import_module(f"adrguard.cli.{module}").register(subparsers)
    return [(a.dest, a.help) for a in subparsers._choices_actions]


def test_registry_matches_what_each_module_registers() -> None:
    expected = [(name, text) for name, (_, text) in COMMANDS.items()]
    actual = [entry for module in COMMAND_MODULES for entry in _registered(module)]
    assert actual == expected


def test_lazy_parser_lists_every_command_like_the_full_one() -> None:
    assert build_parser([]).format_help() == build_parser().format_help()
    assert build_parser(["check"]).format_help() == build_parser().format_help()


def test_command_in() -> None:
    assert command_in([]) is None
    assert command_in(["--debug", "check", "--format", "json"]) == "check"
    assert command_in(["--", "rules"]) == "rules"
    assert command_in(["chek"]) is None
    assert command_in(["--version"]) is None


def _cli_modules_after(*argv: str) -> set[str]:
    script = (
        "import json, sys\nfrom adrguard.cli import main\n"
        f"main({list(argv)!r})\n"
        "print('MODULES=' + json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("MODULES="))
    return {m for m in json.loads(line.removeprefix("MODULES=")) if m.startswith("adrguard.")}


def test_version_and_help_import_no_command_module() -> None:
    for argv in (["--version"], ["--help"]):
        loaded = _cli_modules_after(*argv)
        assert not {f"adrguard.cli.{m}" for m in COMMAND_MODULES} & loaded
        assert "adrguard.core.model" not in loaded


def test_a_command_imports_only_its_module() -> None:
    loaded = _cli_modules_after("explain", "ADR201")
    assert {f"adrguard.cli.{m}" for m in COMMAND_MODULES} & loaded == {"adrguard.cli.check"}


@pytest.mark.uses_cache
def test_a_warm_check_does_not_import_the_record_parser(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every record comes from the cache on the second run: the parser (and its hundreds of
    patterns) is never imported; the first run imports it."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-use-adrs.md").write_text(
        "# 1. Use ADRs\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n"
        "## Decision\n\nd\n\n## Consequences\n\nq\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    first = _cli_modules_after("check", "--repo", str(tmp_path))
    second = _cli_modules_after("check", "--repo", str(tmp_path))
    assert "adrguard.core.parse.record" in first
    assert "adrguard.core.parse.record" not in second
