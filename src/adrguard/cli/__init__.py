"""Command line: ``adrguard <command>``. ``main(argv) -> int`` with the exit codes

0 clean · 1 findings at/above ``--fail-on`` · 2 usage, config or git error · 3 internal bug.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from adrguard import __version__
from adrguard.cli.common import resume_commands, set_quiet
from adrguard.core.errors import UserError
from adrguard.core.outcome import BASELINE_FILE, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from adrguard.api.pipeline.helpers import Ahead

# Every sub-command in ``--help`` order: name -> (module in adrguard.cli whose
# ``register(subparsers)`` adds it, its one-line help). Only the module of the command being run
# is imported (start-up time); every other command is listed by its name and help alone.
# tests/test_startup.py checks that each module registers exactly these names with this help.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check", "check every decision record (read-only)"),
    "list": ("check", "list decision records"),
    "show": ("check", "show one decision record"),
    "rules": ("check", "list every rule"),
    "explain": ("check", "explain one rule"),
    "baseline": (
        "baseline",
        f"record today's findings in {BASELINE_FILE}; check then fails on new ones",
    ),
    "graph": ("graph", "draw the decision graph (mermaid, dot, json)"),
    "relationships": ("graph", "list declared relationships and their problems"),
    "index": ("index", "print, check or write the generated INDEX of each ADR root"),
    "current": ("index", "CURRENT.md views and their CURRENT.sources.json manifests"),
    "new": ("new", "write the next decision record in the log's own style"),
    "supersede": ("new", "write a record that supersedes (or amends) another; mark the old one"),
    "link": ("new", "declare a relation between two records (A amends B), in the log's style"),
    "consolidate": ("new", "draft one record that replaces several; accept it to mark them"),
    "impact": ("impact", "which decisions govern what a change touches (for review)"),
    "verify": ("verify", "check accepted decisions against fitness rules and CI evidence"),
    "action": (
        "gha",
        "used by the GitHub Action (action.yml): prepare the base, publish the reports",
    ),
    "find": ("agent", "the decisions that apply to files being edited and/or a topic"),
    "context": ("agent", "decision text for an agent, within a size budget"),
    "search": ("agent", "records holding every word of a query (identifier, title, markdown)"),
    "mcp": ("mcpcmd", "serve read-only ADR tools to coding agents over MCP (stdio)"),
    "citations": ("citations", "code and documents that cite decisions (or one decision: ID)"),
    "compaction": (
        "compaction",
        "read-only analysis: what to keep, summarize, consolidate, decide or archive",
    ),
    "archive": ("archive", "plan, apply and restore moves of retired records into the archive"),
    "guard": ("guard", "the read guard for coding agents: allow, hint at or deny one read"),
}


def add_command(
    subparsers: Any, name: str, *, rewrap: bool = False, **extra: Any
) -> argparse.ArgumentParser:
    """The parser of command ``name``: its one-line help from :data:`COMMANDS`, its
    description and epilog (in ``extra``) kept as written, or with ``rewrap`` filled to the
    terminal's width (a description of one paragraph)."""
    if not rewrap:
        extra["formatter_class"] = argparse.RawDescriptionHelpFormatter
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=COMMANDS[name][1], **extra)
    return parser


# The command modules, in registration order.
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for m, _ in COMMANDS.values()))

EPILOG = """\
exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage/config/git error, 3 internal bug.
docs: every rule has a page (adrguard explain CODE); configuration lives in .adrguard.toml or
[tool.adrguard] in pyproject.toml.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UserError(f"{message} (see {self.prog} --help)")


def command_in(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` runs: its first non-option token, when that names a command.
    (The top-level options take no value, so the first other token is the command.)"""
    for i, token in enumerate(argv):
        if token == "--":
            token = argv[i + 1] if i + 1 < len(argv) else ""
        elif token.startswith("-"):
            continue
        return token if token in COMMANDS else None
    return None


def _lists_no_commands(argv: Sequence[str], command: str) -> bool:
    """Whether the top-level parser cannot print the list of commands for ``argv``, which
    names ``command`` first, after ``--debug`` at most: no ``--help`` (or an abbreviation of
    it) and no other token comes before it that argparse could read as the command (``-``)
    or reject by listing them."""
    return all(token == "--debug" for token in argv[: list(argv).index(command)])


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser with every command. Given ``argv``, only the module of the command it runs
    is imported; the other commands get a stub parser carrying just their name and help (for
    the top-level ``--help`` and the message that lists them), unless nothing in ``argv`` can
    print that list (:func:`_lists_no_commands`): then they are left out."""
    parser = _Parser(
        prog="adrguard",
        description="Keep Architecture Decision Records honest: structure, links, supersession "
        "chains, generated indexes and the decisions a change touches.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"adrguard {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    stubs = True
    if argv is None:
        wanted = set(COMMAND_MODULES)
    else:
        command = command_in(argv)
        wanted = {COMMANDS[command][0]} if command is not None else set()
        stubs = command is None or not _lists_no_commands(argv, command)
    for module in COMMAND_MODULES:
        if module in wanted:
            loaded = importlib.import_module(f"adrguard.cli.{module}")
            # nothing lists the commands: a module that can add one parser adds the one run
            one = None if stubs else getattr(loaded, "register_one", None)
            if one is not None:
                one(subparsers, command)
            else:
                loaded.register(subparsers)
            continue
        if not stubs:
            continue
        for name, (owner, text) in COMMANDS.items():
            if owner == module:
                subparsers.add_parser(name, help=text)
    return parser


# Commands whose run may parse a whole log: with a cold record cache, helpers that share the
# parse are started before their modules are imported (ADR 64).
PARSES_AHEAD = frozenset({"check"})


def helpers_ahead(argv: Sequence[str]) -> Ahead | None:
    """Parse helpers started before the command's modules are imported (ADR 64), for a
    command of :data:`PARSES_AHEAD` whose record cache looks cold
    (:meth:`~adrguard.api.pipeline.helpers.Ahead.if_cold`); not for a commit's check
    (``--hook``: the few records it changed, with a warm cache) or a command's help. A hint
    for speed: helpers nobody takes are ended, and a run without them reports the same."""
    if command_in(argv) not in PARSES_AHEAD or {"--hook", "--help", "-h"} & set(argv):
        return None
    from adrguard.api.pipeline.helpers import Ahead

    return Ahead.if_cold(no_cache="--no-cache" in argv)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args_list
    ahead = helpers_ahead(args_list)
    try:
        parser = build_parser(args_list)
        args = parser.parse_args(args_list, argparse.Namespace(ahead=ahead))
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        if getattr(args, "quiet", False):
            set_quiet(True)
        code: int = args.func(args)
        return code
    except UserError as exc:
        from adrguard.core.textsafe import neutralise

        print(f"error: {neutralise(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # argparse --help / --version
        return int(exc.code) if isinstance(exc.code, int) else EXIT_OK
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        if debug:
            import traceback

            traceback.print_exc()
        from adrguard.core.textsafe import neutralise

        print(
            f"internal error: {type(exc).__name__}: {neutralise(str(exc))} — this is a bug in "
            f"adrguard {__version__}; rerun with --debug for the traceback and report it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    finally:
        if ahead is not None:
            ahead.close()
        resume_commands()
        set_quiet(False)


def console() -> NoReturn:
    """The ``adrguard`` command (the console script, ``python -m adrguard``): :func:`main` with
    the process's arguments, then :func:`end` with its exit code."""
    end(main())


def end(code: int) -> NoReturn:
    """End this process with ``code`` once the command is done, without tearing the interpreter
    down (ADR 65): the command has closed every file it wrote and ended every process it
    started, and only stdout and stderr are flushed here. What is skipped (freeing every object,
    the last run of the cyclic collector, clearing every module) changes nothing a command did,
    and takes 25 to 40 ms after a check. With another thread alive (a library's), the usual exit
    runs and waits for it, with its exit handlers."""
    import threading

    if threading.active_count() > 1:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a reader that has gone (a closed pipe), a closed stream
            pass
    os._exit(code)
