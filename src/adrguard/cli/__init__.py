"""Command line: ``adrguard <command>``. ``main(argv) -> int`` with the exit codes

0 clean · 1 findings at/above ``--fail-on`` · 2 usage, config or git error · 3 internal bug.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from adrguard import __version__
from adrguard.core.errors import UserError

# Each module in adrguard.cli named here exposes register(subparsers).
COMMAND_MODULES: tuple[str, ...] = ("check", "graph", "index", "impact", "gha", "agent", "mcpcmd")

EPILOG = """\
exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage/config/git error, 3 internal bug.
docs: every rule has a page (adrguard explain CODE); configuration lives in .adrguard.toml or
[tool.adrguard] in pyproject.toml.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UserError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
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
    for name in COMMAND_MODULES:
        importlib.import_module(f"adrguard.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args_list
    try:
        parser = build_parser()
        args = parser.parse_args(args_list)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        code: int = args.func(args)
        return code
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # argparse --help / --version
        return int(exc.code) if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if debug:
            import traceback

            traceback.print_exc()
        print(
            f"internal error: {type(exc).__name__}: {exc} — this is a bug in adrguard "
            f"{__version__}; rerun with --debug for the traceback and report it",
            file=sys.stderr,
        )
        return 3
