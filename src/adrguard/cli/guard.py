"""``adrguard guard``: the read guard for agent runtimes (docs/read-guard.md).

* ``adrguard guard`` (no action) is a Claude Code ``PreToolUse`` hook: the tool call as JSON on
  standard input, the decision as JSON on standard output, exit status 0 (see
  :mod:`adrguard.adapters.guard.claude`). Whatever goes wrong inside it becomes an answer that
  says so; only when even that cannot be written does it exit 2, which Claude Code reads as
  "block this call" and shows the message to Claude.
* ``adrguard guard read PATH...`` and ``adrguard guard search PATTERN [PATH...]`` are the
  generic form for other runtimes: one JSON line (``schemas/guard.schema.json``) and the exit
  status 0 allowed (with or without a hint), 1 denied, 2 the guard cannot decide (its
  configuration cannot be read: ask the person).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from adrguard.api.agent.guard import (
    Asked,
    Call,
    ContentSearch,
    FileRead,
    Output,
    answer,
    judge,
    read_payload,
    render,
)
from adrguard.cli import add_command
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from adrguard.core.textsafe import neutralise

# 2: the guard cannot decide (its configuration cannot be read: ask the person)
EXIT = {"allow": EXIT_OK, "warn": EXIT_OK, "deny": EXIT_FINDINGS, "ask": EXIT_USAGE}


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: given before or after ACTION, an option is kept (an action's parser would
    # otherwise overwrite it with its default)
    common.add_argument("--repo", type=Path, default=argparse.SUPPRESS,
                        help="the repository (default: the git work tree around the working "
                        "directory the call names, else this one)")
    common.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS,
                        help="neither read nor write the cache folder: the layout is made "
                        "again and nothing is counted")
    common.add_argument("--session", default=argparse.SUPPRESS, metavar="ID",
                        help="the runtime's session id: hints are given once per session and "
                        "repeated reads are counted (counters live in the user's cache folder)")
    p = add_command(
        subparsers, "guard", rewrap=True,
        parents=[common],
        description="Judge one read or search of an agent before it runs, by the configured "
        "`read-guard` mode (off, warn, guard): archived records and unscoped searches of "
        "ADR text are denied in guard mode, with the bounded retrieval to call instead. With "
        "no ACTION, a Claude Code PreToolUse hook (JSON on stdin and stdout). See "
        "docs/read-guard.md.",
    )
    actions = p.add_subparsers(dest="guard_action", metavar="ACTION")
    read = actions.add_parser("read", parents=[common], help="judge a direct read of files")
    read.add_argument("paths", nargs="+", metavar="PATH", help="files to read")
    search = actions.add_parser("search", parents=[common],
                                help="judge a search of file contents")
    search.add_argument("pattern", help="the search pattern")
    search.add_argument("paths", nargs="*", metavar="PATH",
                        help="files and folders searched (default: the working directory)")
    search.add_argument("--glob", action="append", default=[], metavar="GLOB",
                        help="gitignore-style glob as ripgrep takes it; !GLOB leaves out "
                        "(repeatable, the last match wins)")
    search.add_argument("--type", action="append", default=[], metavar="TYPE",
                        help="ripgrep file type searched (md, py, ...)")
    search.add_argument("--type-not", action="append", default=[], metavar="TYPE",
                        help="ripgrep file type left out")
    search.add_argument("--output", choices=("content", "names", "count"), default="content",
                        help="what the search prints: matching lines (default), file names, "
                        "counts")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    args.repo = getattr(args, "repo", None)
    args.session = getattr(args, "session", None)
    args.no_cache = getattr(args, "no_cache", False)
    if args.guard_action is None:
        return _hook(args)
    return _generic(args)


def _generic(args: argparse.Namespace) -> int:
    asked: Asked
    if args.guard_action == "read":
        asked = FileRead(tuple(args.paths), "", "read")
    else:
        asked = ContentSearch(args.pattern, tuple(args.paths), tuple(args.glob),
                              tuple(args.type), tuple(args.type_not), Output(args.output),
                              "rg")
    outcome = judge(Call((asked,), None, args.session, "generic"), args.repo,
                    cache=not args.no_cache)

    print(render(outcome.to_json()))
    return EXIT[outcome.answer.value]


def _hook(args: argparse.Namespace) -> int:
    """The Claude Code hook: every failure is an answer, never a traceback (exit 3 would be a
    non-blocking error there: the call would run unchecked)."""
    try:
        data = sys.stdin.buffer.read(16 * 1024 * 1024 + 1)
        call = read_payload(data)
        if args.session and call.session is None:
            call = call._replace(session=args.session)
        outcome = judge(call, args.repo, cache=not args.no_cache)
        out = answer(outcome.answer, outcome.verdict.reason, outcome.degraded)
        if out is not None:
            sys.stdout.write(render(out) + "\n")
            sys.stdout.flush()
        return EXIT_OK
    except Exception as exc:
        print(f"adrguard read guard failed ({type(exc).__name__}: {neutralise(str(exc))}); "
              "the call is blocked because it could not be judged", file=sys.stderr)
        return EXIT_USAGE
