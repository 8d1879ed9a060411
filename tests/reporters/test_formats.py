"""The registry of output formats (``adrguard.reporters.formats``) is the single source: the
command line's ``--format`` choices and help, the reporters' dispatch, how standard output treats
a format and the docs' lists all equal it."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from adrguard.cli import build_parser, main
from adrguard.reporters import NEEDS_CATALOGUE, REPORTERS
from adrguard.reporters import formats as registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _format_option(command: str) -> argparse.Action:
    parser = build_parser([command])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return next(a for a in sub.choices[command]._actions if "--format" in a.option_strings)


def test_every_entry_names_a_function_that_exists() -> None:
    for kind in registry.KINDS:
        for f in registry.entries(kind):
            assert callable(registry.renderer(kind, f.name)), (kind, f.name)


def test_the_reporters_of_check_are_the_registry_s() -> None:
    assert tuple(REPORTERS) == registry.names("check")
    assert {"sarif"} == NEEDS_CATALOGUE
    with pytest.raises(KeyError):
        REPORTERS["html"]  # a format of another kind


def test_the_command_line_takes_its_choices_and_help_from_the_registry() -> None:
    graph = _format_option("graph")
    assert tuple(graph.choices or ()) == registry.names("graph")
    assert graph.default == registry.default("graph")
    for command, kind in (("check", "check"), ("verify", "verify"), ("impact", "impact")):
        text = _format_option(command).help or ""
        assert text.startswith(registry.help_text(kind)), command
        bare = re.sub(r" \([^)]*\)", "", text.split(";")[0])
        listed = re.findall(r"(?:^|, (?:or )?)([a-z]+)", bare)
        assert tuple(listed) == registry.names(kind), command


def test_an_unknown_format_lists_the_registry_s_names(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert main(["check", str(tmp_path), "--format", "yaml"]) == 2
    err = capsys.readouterr().err
    assert f"choose one of {', '.join(sorted(registry.names('check')))}" in err


def test_a_name_is_one_stream_in_every_kind() -> None:
    streams: dict[str, set[str]] = {}
    for kind in registry.KINDS:
        for f in registry.entries(kind):
            streams.setdefault(f.name, set()).add(f.stream)
            assert registry.stream(f.name) == f.stream  # what emit() writes it as
    assert all(len(s) == 1 for s in streams.values()), streams
    assert registry.stream("github") == "commands" and registry.stream("sarif") == "json"


def test_the_docs_list_the_registry_s_formats() -> None:
    page = (DOCS / "formats.md").read_text(encoding="utf-8")
    table = tuple(re.findall(r"^\| `([a-z]+)` \|", page, flags=re.MULTILINE))
    assert table == registry.names("check")
    graph = re.search(r"adrguard graph --format ([a-z|]+)", page)
    assert graph is not None and tuple(graph.group(1).split("|")) == registry.names("graph")
    verify = (DOCS / "verify.md").read_text(encoding="utf-8")
    line = verify[verify.index("`--format`: "):]
    line = line[:line.index("writes a file")]
    assert tuple(dict.fromkeys(re.findall(r"`([a-z]+)`", line))) == registry.names("verify")


# The commands whose plain output has a kind of its own in the registry (``PLAIN``); check,
# verify and impact take ``NAME[:PATH]`` (tested above), new/supersede/consolidate's
# ``--format`` is an ADR format (tests/core/test_adrformat.py).
PLAIN_COMMANDS = {
    ("list",): "list",
    ("show",): "show",
    ("rules",): "rules",
    ("graph",): "graph",
    ("relationships",): "relationships",
    ("current", "status"): "current-status",
    ("find",): "agent",
    ("context",): "agent",
    ("search",): "agent",
    ("citations",): "citations",
    ("compaction",): "compaction",
    ("archive", "plan"): "archive-plan",
}


def _format_options(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> dict[tuple[str, ...], argparse.Action]:
    found: dict[tuple[str, ...], argparse.Action] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update(_format_options(sub, (*path, name)))
        elif "--format" in action.option_strings and action.dest == "format" and action.choices:
            found[path] = action
    return found


def test_every_command_s_format_choices_equal_the_registry() -> None:
    options = _format_options(build_parser())
    assert set(options) == set(PLAIN_COMMANDS), "a --format with choices of its own"
    for path, kind in PLAIN_COMMANDS.items():
        assert tuple(options[path].choices or ()) == registry.names(kind), path
        assert options[path].default == registry.default(kind), path
    assert set(registry.PLAIN) <= set(PLAIN_COMMANDS.values()), "a plain kind no command uses"
