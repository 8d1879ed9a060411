"""Start-up: the CLI imports only the module of the command being run, and the registry that
lists every command (``adrguard --help``) matches what each module registers."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adrguard.cli import COMMAND_MODULES, COMMANDS, build_parser, command_in
from adrguard.core.errors import UserError


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
    assert build_parser(["--help", "check"]).format_help() == build_parser().format_help()


def _commands_of(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_a_command_named_first_reads_its_arguments_without_the_other_commands() -> None:
    """``adrguard check ...``: nothing can print the list of commands, so the other commands'
    stub parsers are not made; the arguments read as the full parser reads them."""
    for argv in (["check", "--hook", "docs/adr/0001-a.md"], ["--debug", "check", "-q", "x"],
                 ["list", "--status", "accepted"], ["graph", "--format", "json"],
                 ["check", "--help-x"], ["check", "list"]):
        lazy = build_parser(argv)
        assert argv[argv.index("--debug") + 1 if "--debug" in argv else 0] in _commands_of(lazy)
        assert "guard" not in _commands_of(lazy) or argv[0] == "guard"
        try:
            want = vars(build_parser().parse_args(argv))
        except UserError as exc:
            with pytest.raises(UserError) as raised:
                lazy.parse_args(argv)
            assert str(raised.value) == str(exc)
            continue
        assert vars(lazy.parse_args(argv)) == want


@pytest.mark.parametrize("argv", [
    ["--help", "check"], ["-h", "check"], ["--he", "check"], ["-", "check"], ["--", "check"],
    ["--bogus", "check"], ["--debug", "-h", "check"], ["--deb", "check", "-x"],
    ["check", "--version"], ["--version", "check"],
])
def test_every_way_to_list_the_commands_lists_them_all(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the top-level parser may print (help, usage, a rejected command), the lazy parser
    says exactly what the full one says."""
    said = []
    for parser in (build_parser(argv), build_parser()):
        try:
            outcome: object = vars(parser.parse_args(argv)).get("command")
        except SystemExit as exc:
            outcome = ("exit", exc.code)
        except UserError as exc:
            outcome = ("error", str(exc))
        said.append((outcome, *capsys.readouterr()))
    assert said[0] == said[1]


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


def test_version_and_help_import_no_msgspec(tmp_path: Path) -> None:
    """msgspec (and the standard library it pulls in) is for commands that read records."""
    for argv in (["--version"], ["--help"]):
        assert "msgspec" not in _all_modules_after(tmp_path, *argv), argv


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


# What ``check`` never needs: the terminal renderer, schema validation (the fitness manifest's),
# the MCP server, the model providers and TLS, the agent and compaction machinery, and the
# history of a change (``check`` without ``--base``).
HEAVY = (
    "rich", "jsonschema", "mcp", "truststore", "adrguard.adapters.models",
    "adrguard.core.agent", "adrguard.mcp", "adrguard.core.compaction",
    "adrguard.core.impact.history",
)


def _after(cwd: Path, argv: tuple[str, ...], imports: str, names: str) -> set[str]:
    """Run the CLI with ``argv`` in a fresh interpreter in ``cwd``, then print the names the
    expression ``names`` lists (``imports`` are what it needs): the set of them."""
    script = (
        f"import json, sys{imports}\nfrom adrguard.cli import main\n"
        f"code = main({list(argv)!r})\n"
        f"print('NAMES=' + json.dumps({names}))"
    )
    env = {**os.environ, "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True, cwd=cwd, env=env)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("NAMES="))
    return set(json.loads(line.removeprefix("NAMES=")))


def _all_modules_after(cwd: Path, *argv: str) -> set[str]:
    return _after(cwd, argv, "", "sorted(sys.modules)")


def _heavy(loaded: set[str], heavy: tuple[str, ...] = HEAVY) -> set[str]:
    return {m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy)}


@pytest.mark.uses_cache
def test_check_leaves_heavy_modules_unimported(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``adrguard check`` in a git work tree, cold and warm, on a log whose records miss a
    section (so the template rule looks for templates: none here, so the warm run still never
    imports the parser) imports none of :data:`HEAVY` nor gitpython (the work tree is listed by
    ``git ls-files``, ADR 36); the warm run not the parser either."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, status in ((1, "Accepted"), (2, "Superseded by [3](0003-r3.md)"), (3, "Proposed")):
        end = "" if n == 3 else "\n## Consequences\n\nFine.\n"
        (adr / f"000{n}-r{n}.md").write_text(
            f"# {n}. Record {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n"
            f"## Context\n\nWe need it.\n\n## Decision\n\nWe do it.\n{end}",
            encoding="utf-8",
        )
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path.parent / "cache"))
    cold = _all_modules_after(tmp_path, "check")
    warm = _all_modules_after(tmp_path, "check")
    first = subprocess.run([sys.executable, "-m", "adrguard", "check"], cwd=tmp_path,
                           capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert "ADR104" in first.stdout  # a section is missing: the template rule looked
    assert "adrguard.rules.presence" in cold  # the rules did run
    assert "adrguard.core.parse.record" in cold
    assert _heavy(cold, (*HEAVY, "git")) == set()
    assert _heavy(warm, (*HEAVY, "git")) == set()
    assert "adrguard.core.parse.record" not in warm
    assert "yaml" not in warm  # front matter is read only by the parser
    assert "yaml" not in cold  # ... and only when a record has some
    # no impact manifest, no fitness manifest, no change: their modules stay unloaded
    features = ("adrguard.core.impact.analysis", "adrguard.core.fitness.manifest")
    assert _heavy(cold, features) == set() and _heavy(warm, features) == set()
    assert _heavy(cold, UNUSED_HERE) == set() and _heavy(warm, UNUSED_HERE) == set()


# What a run on a log like the ones above does not use: pathspec (the built-in excludes are
# plain names, matched without it; no record has path globs), the impact manifest's module and
# the glob matcher (no manifest, no globs), and the claims of other refs (no --against).
UNUSED_HERE = (
    "pathspec", "adrguard.core.impact.mapping", "adrguard.core.impact.globs",
    "adrguard.core.authoring.claims", "adrguard.api.claims",
)


@pytest.mark.uses_cache
def test_the_hook_reads_the_committed_records_without_gitpython(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``check --hook`` compares the staged record with the one HEAD holds: that one is read by
    ``git cat-file --batch``, so the hook imports no gitpython either; it still tells the finding
    the commit causes from an older one in a file the commit leaves alone."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    body = "## Context\n\nWe need it.\n\n## Decision\n\nWe do it.\n\n## Consequences\n\nFine.\n"
    (adr / "0001-r1.md").write_text(f"# 1. Record 1\n\nDate: 2024-01-01\n\n## Status\n\n"
                                    f"Accepted\n\n{body}", encoding="utf-8")
    (adr / "0002-r2.md").write_text("# 2. Record 2\n\nDate: 2024-01-02\n\n## Status\n\n"
                                    "Accepted\n\n## Context\n\nOld gap.\n", encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env=env)
    (adr / "0001-r1.md").write_text("# 1. Record 1\n\nDate: 2024-01-01\n\n## Status\n\n"
                                    "Accepted\n\n## Context\n\nNew.\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path.parent / "cache"))
    staged = "docs/adr/0001-r1.md"
    for _ in range(2):  # cold, then warm
        loaded = _all_modules_after(tmp_path, "check", "--hook", staged)
        assert "git" not in {m.split(".")[0] for m in loaded}
        # (the change analysis, which a change always runs, reads the mapping and globs)
        assert _heavy(loaded, ("pathspec", "adrguard.core.authoring.claims")) == set()
    run = subprocess.run([sys.executable, "-m", "adrguard", "check", "--hook", staged],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1"})
    assert "0001-r1.md" in run.stdout and "ADR104" in run.stdout
    assert "1 older finding" in run.stdout and "0002-r2.md" not in run.stdout


@pytest.mark.uses_cache
def test_a_warm_check_of_a_log_found_by_content_parses_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """No configuration and no folder named like a log: the roots are found by reading a sample
    of numbered files. The warm run takes that answer from the cache (ADR 41): no parser, and
    the same report as a run without the cache."""
    log = tmp_path / "handbook" / "choices"
    log.mkdir(parents=True)
    for n in range(1, 5):
        (log / f"{n:03d}-choice-{n}.md").write_text(
            f"# {n}. Choice {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n"
            "## Context\n\nWe need it.\n\n## Decision\n\nWe do it.\n\n## Consequences\n\nFine.\n",
            encoding="utf-8",
        )
    (log / "README.md").write_text("# Choices\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path.parent / "cache"))
    cold = _all_modules_after(tmp_path, "check")
    warm = _all_modules_after(tmp_path, "check")
    assert "adrguard.core.parse.record" in cold
    assert "adrguard.core.parse.record" not in warm
    env = {**os.environ, "NO_COLOR": "1"}
    runs = [subprocess.run([sys.executable, "-m", "adrguard", "check", "--format", "json", *flag],
                           cwd=tmp_path, capture_output=True, text=True, env=env)
            for flag in ([], ["--no-cache"])]
    assert runs[0].stdout == runs[1].stdout and runs[0].returncode == runs[1].returncode
    assert json.loads(runs[0].stdout)["summary"]["decisions"] == 4


# The dataclasses a warm check may still create, each for a reason (ADR 43): fields that are
# not compared (``RuleContext._derived``, ``CheckRequest.cancel``/``corpus``), fields set after
# ``__init__`` (``Scanner``). The parser's and the root search's types are structs too
# (``FormatSpec``, which ``--version`` and ``--help`` import, a named tuple).
DATACLASSES_ALLOWED = {
    "adrguard.rules.base.RuleContext", "adrguard.api.check.CheckRequest",
    "adrguard.core.citations.scan.Scanner",
}


def _dataclasses_after(cwd: Path, *argv: str) -> set[str]:
    return _after(
        cwd, argv, ", dataclasses, inspect",
        "sorted(f'{m}.{n}' for m, mod in list(sys.modules.items())"
        " if m.startswith('adrguard') for n, c in vars(mod).items()"
        " if inspect.isclass(c) and c.__module__ == m and dataclasses.is_dataclass(c))",
    )


@pytest.mark.uses_cache
def test_a_warm_check_and_hook_create_only_the_listed_dataclasses(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A dataclass costs about half a millisecond to create at import: the value types of a
    check (records, findings, the report, sources, the configuration) are msgspec structs,
    and a warm ``check`` or ``check --hook`` creates no dataclass beyond the listed ones."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n in (1, 2):
        (adr / f"000{n}-r{n}.md").write_text(
            f"# {n}. Record {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n"
            "## Context\n\nWe need it.\n\n## Decision\n\nWe do it.\n\n## Consequences\n\nFine.\n",
            encoding="utf-8",
        )
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path.parent / "cache"))
    _all_modules_after(tmp_path, "check")  # fills the record cache
    (adr / "0002-r2.md").write_text((adr / "0002-r2.md").read_text("utf-8") + "\nMore.\n",
                                    encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    for argv in (("check",), ("check", "--hook", "docs/adr/0002-r2.md")):
        made = _dataclasses_after(tmp_path, *argv)
        assert made - DATACLASSES_ALLOWED == set(), argv
        assert "adrguard.core.model.Decision" not in made


def test_a_module_that_adds_one_parser_adds_the_one_it_adds_with_the_others() -> None:
    """``adrguard check ...`` builds the parser of ``check`` alone (issue 30): each command of a
    module with ``register_one`` gets the parser (help, defaults) ``register`` gives it, and no
    other."""
    for module in COMMAND_MODULES:
        loaded = importlib.import_module(f"adrguard.cli.{module}")
        if not hasattr(loaded, "register_one"):
            continue
        full = argparse.ArgumentParser(prog="adrguard")
        loaded.register(full.add_subparsers())
        names = _commands_of(full)
        assert len(names) > 1
        for name in names:
            one = argparse.ArgumentParser(prog="adrguard")
            loaded.register_one(one.add_subparsers(), name)
            assert _commands_of(one) == [name]
            made, given = _subparser(one, name), _subparser(full, name)
            assert made.format_help() == given.format_help()
            assert made._defaults == given._defaults and made._defaults["func"]


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = action.choices[name]
    return sub
