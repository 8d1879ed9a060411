"""``impact``: the decisions a change touches (informational; exit 0 unless adrguard fails)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from adrguard.api import STATUS_CHOICES, configured_statuses, statuses_from
from adrguard.api.impact import impact
from adrguard.cli import add_command
from adrguard.cli.common import add_common, emit, info, load_config_for, report_formats
from adrguard.core.errors import UserError
from adrguard.core.options import Options
from adrguard.core.outcome import EXIT_OK
from adrguard.reporters import formats as output_formats
from adrguard.reporters.impact import render

NULL_SHA = "0" * 40


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "impact",
        description="List the decisions that govern the files changed between the merge base of "
        "--base and --head, through front matter (affected-paths, affected-components, scope) "
        "and the impact manifest (.adrguard-impact.json). Impact means 'review this decision', "
        "never 'this change violates it'. Exit 0 unless adrguard itself fails.",
        epilog="examples:\n  adrguard impact --base origin/main\n"
        "  adrguard impact --base origin/main --format markdown:impact.md\n"
        "  adrguard impact --base main --head feature --status accepted,proposed --format json\n"
        "  adrguard impact --base origin/main --deepen      # shallow CI clone",
    )
    add_common(p)
    p.add_argument("--base", metavar="REF", help="compare against this ref (required unless "
                   "--from-env)")
    p.add_argument("--head", metavar="REF",
                   help="the change's tip (default: HEAD, with the work tree's records)")
    p.add_argument("--status", action="append", default=[], metavar="STATUS[,STATUS]",
                   help="statuses that govern (default: config impact.statuses, else accepted); "
                   f"any of {', '.join(STATUS_CHOICES)} ('none' = records stating no status)")
    p.add_argument("--format", action="append", metavar="NAME[:PATH]",
                   help=f"{output_formats.help_text('impact')}; repeatable, PATH writes a file")
    p.add_argument("--deepen", action="store_true",
                   help="in a shallow clone, fetch more history from the remote (bounded) until "
                   "the merge base is found")
    p.add_argument("--from-env", action="store_true",
                   help="pre-push hook mode: base and head from PRE_COMMIT_FROM_REF and "
                   "PRE_COMMIT_TO_REF; problems are printed, never fail the push")
    p.set_defaults(func=run)


def statuses(values: list[str], options: Options) -> frozenset[str]:
    """``--status`` values, else the config's ``impact.statuses``, else accepted."""
    chosen = [v for value in values for v in value.split(",")]
    if not chosen:
        return configured_statuses(options)
    return statuses_from(chosen, "--status")


def run(args: argparse.Namespace) -> int:
    if args.from_env:
        return _run_hook(args)
    if not args.base:
        raise UserError("impact needs --base REF (e.g. --base origin/main)")
    return _report(args, args.base, args.head)


def _report(args: argparse.Namespace, base: str, head: str | None) -> int:
    specs = report_formats(args.format, "impact")
    root, config = load_config_for(args)
    wanted = statuses(args.status, config.options)
    result = impact(root, base=base, head=head, config=config, statuses=wanted,
                    deepen=args.deepen)
    for spec in specs:
        emit(render(spec.name, result), spec, root=root)
    return EXIT_OK


def _run_hook(args: argparse.Namespace) -> int:
    """pre-commit's pre-push stage: print what the push touches, never block it."""
    base = args.base or os.environ.get("PRE_COMMIT_FROM_REF", "")
    head = args.head or os.environ.get("PRE_COMMIT_TO_REF") or None
    if not base or base == NULL_SHA:
        info("adrguard impact: no base to compare with (new branch, or not run by pre-commit's "
             "pre-push stage); nothing to report")
        return EXIT_OK
    if head == NULL_SHA:
        info("adrguard impact: the push deletes a ref; nothing to report")
        return EXIT_OK
    try:
        return _report(args, base, head)
    except UserError as exc:
        info(f"adrguard impact: {exc} (not blocking the push)")
        return EXIT_OK
