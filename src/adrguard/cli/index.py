"""``index`` (print, ``--check``, ``--write``) and ``current`` (``status``, ``stamp``, ``init``)."""

from __future__ import annotations

import argparse
import difflib
from typing import TYPE_CHECKING, Any

from adrguard import api
from adrguard.api import generated
from adrguard.api.pipeline.sources import hook_has_work
from adrguard.cli import add_command
from adrguard.cli.common import (
    add_common,
    add_format,
    info,
    load_config_for,
    out,
    print_json,
    write_stdout,
)
from adrguard.core.errors import UserError
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_OK
from adrguard.core.wording import plural

if TYPE_CHECKING:
    from pathlib import Path

    from adrguard.api.generated import CurrentState, IndexState
    from adrguard.config import Config
    from adrguard.core.model import Corpus


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "index",
        description="The INDEX of every ADR root (and of each archive folder): a table of number, "
        "title, status, date and successor between <!-- adrguard:index:start --> and "
        "<!-- adrguard:index:end -->. Text around the markers is kept. Without an option the "
        "expected files are printed. Only the logs that opted in (an index with the markers, or "
        "[index] configured) are checked and written; --init opts a log in.",
        epilog="examples:\n  adrguard index\n  adrguard index --check\n  adrguard index --write\n"
        "  adrguard index --write --init   # add the markers to a hand-written index",
    )
    add_common(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="exit 1 and print a unified diff when an index a log opted into is stale or "
        "missing",
    )
    mode.add_argument(
        "--write",
        action="store_true",
        help="write every stale or missing index of the logs that opted in (atomic; never "
        "touches records, never creates an index a log did not opt into)",
    )
    p.add_argument(
        "--init",
        action="store_true",
        help="with --write: opt the logs in: create the index of a root that has none, and "
        "append the generated table to an index written by hand (without markers)",
    )
    p.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="with --write: exit 1 when a file was written (pre-commit fixer hooks)",
    )
    p.add_argument(
        "--hook",
        action="store_true",
        help="as a pre-commit hook: do nothing when the staged change touches no file under an "
        "ADR root and no adrguard setting (FILES are the files pre-commit passes)",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help=argparse.SUPPRESS)
    p.set_defaults(func=run_index)

    c = add_command(
        subparsers, "current",
        description="CURRENT.md is a human-reviewed summary of the decisions in force; "
        "CURRENT.sources.json records what it was reviewed against. Workflow: `current init` "
        "(draft) -> review -> `current stamp` -> `current status` / `adrguard check` (stale?).",
    )
    sub = c.add_subparsers(dest="current_command", metavar="ACTION", required=True)
    for name, text in (
        ("status", "say whether each CURRENT.md is fresh, with every reason when it is stale"),
        ("stamp", "after review: write or update CURRENT.sources.json (keeps coverage values)"),
        ("init", "create a draft CURRENT.md listing the decisions in force (never overwrites)"),
    ):
        sp = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        add_common(sp)
        sp.add_argument(
            "--adr-root",
            action="append",
            default=[],
            metavar="DIR",
            help="only this ADR root (repo-relative; repeatable; default: every root)",
        )
        if name == "status":
            add_format(sp, "current-status",
                       help="json: schemas/current-status.schema.json (exit codes as for text)")
        sp.set_defaults(func=run_current, current_command=name)


def _corpus(args: argparse.Namespace, root: Path, config: Config) -> Corpus:
    # as a hook: what the commit holds; by hand: untracked records too, like `check`
    corpus = api.load_with(root, config, untracked=not getattr(args, "hook", False))
    if args.verbose:
        info(
            f"adrguard: config {config.source or 'built-in defaults'}; roots "
            f"{', '.join(corpus.roots)}"
        )
    return corpus


def run_index(args: argparse.Namespace) -> int:
    if (args.init or args.exit_non_zero_on_fix) and not args.write:
        raise UserError("--init and --exit-non-zero-on-fix go with --write")
    if args.files and not args.hook:
        raise UserError("index takes no FILE arguments (they are for --hook)")
    root, config = load_config_for(args)
    if args.hook:
        why = hook_has_work(root, config, args.files)
        if why is not None:
            info(f"adrguard: {why}")
            return EXIT_OK
    corpus = _corpus(args, root, config)
    if not generated.index_enabled(config):
        info("adrguard: index generation is off ([index] enabled = false)")
        return EXIT_OK
    if args.write:
        done = generated.write_indexes(root, config, corpus, init=args.init)
        for path in done.written:
            out(f"Fixing {path}")
        for note in done.left:
            info(f"note: {note}")
        for problem in done.problems:
            info(f"adrguard: {problem}")
        if done.problems:
            return EXIT_FINDINGS
        return EXIT_FINDINGS if done.written and args.exit_non_zero_on_fix else EXIT_OK
    states = generated.index_states(root, config, corpus)
    if args.check:
        return _check(states)
    for state in states:
        if state.expected is None:
            info(f"error: {state.message}")
            continue
        if len(states) > 1:
            write_stdout(f"==> {state.target.path} <==\n")
        write_stdout(state.expected)
    return EXIT_FINDINGS if any(s.expected is None for s in states) else EXIT_OK


def _check(states: list[IndexState]) -> int:
    """Only the indexes of logs that opted in are judged; the others get a note on how to opt
    in (the same rule as ADR401-ADR403 and ``index --write``)."""
    failed = False
    judged = [s for s in states if s.required]
    for state in states:
        if not state.required and state.kind in ("missing", "unmanaged") \
                and not state.target.archive:
            info(f"note: {state.target.path}: "
                 + ("no generated index here" if state.kind == "missing"
                    else "written by hand (no markers)")
                 + "; not checked. `adrguard index --write --init` opts this log in")
    for state in judged:
        if state.kind == "fresh":
            continue
        failed = True
        path = state.target.path
        if state.kind == "stale" and state.current is not None and state.expected is not None:
            write_stdout("".join(
                difflib.unified_diff(
                    state.current.splitlines(keepends=True),
                    state.expected.splitlines(keepends=True),
                    fromfile=f"a/{path}",
                    tofile=f"b/{path}",
                )
            ))
        elif state.kind == "missing":
            out(f"{path}: missing; run `adrguard index --write`")
        elif state.kind == "unmanaged":
            out(f"{path}: no generated-region markers; run `adrguard index --write --init`")
        else:
            out(f"{state.message}")
    if not failed:
        info(f"adrguard: {plural(len(judged), 'generated index file')} up to date")
    return EXIT_FINDINGS if failed else EXIT_OK


def run_current(args: argparse.Namespace) -> int:
    root, config = load_config_for(args)
    corpus = _corpus(args, root, config)
    if args.current_command == "stamp":
        for w in generated.stamp_current(root, config, corpus, args.adr_root):
            out(f"stamped {w.path}" if w.changed else f"{w.path} is up to date")
        return EXIT_OK
    if args.current_command == "init":
        for w in generated.init_current(root, config, corpus, args.adr_root):
            if w.changed:
                out(f"created {w.path} (a draft: review it, then run `adrguard current stamp`)")
            else:
                out(f"{w.path} exists; not overwritten")
        return EXIT_OK
    states = generated.current_states(root, config, corpus, args.adr_root)
    if args.format == "json":
        print_json(_status_json(states))
        return EXIT_OK if all(s.fresh for s in states) else EXIT_FINDINGS
    if not states:
        out(
            "no CURRENT.md or CURRENT.sources.json in the ADR roots; start with "
            "`adrguard current init`"
        )
        return EXIT_OK
    for state in states:
        out(f"{state.view}: {'fresh' if state.fresh else 'stale'}")
        for reason in state.reasons:
            out(f"  {reason.code} {reason.message}")
    return EXIT_OK if all(s.fresh for s in states) else EXIT_FINDINGS


def _status_json(states: list[CurrentState]) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "views": [
            {
                "root": s.root,
                "view": s.view,
                "manifest": s.manifest_path,
                "fresh": s.fresh,
                "reasons": [
                    {
                        "code": r.code,
                        "message": r.message,
                        "path": r.path,
                        "decisionId": r.decision_id,
                    }
                    for r in s.reasons
                ],
            }
            for s in states
        ],
    }
