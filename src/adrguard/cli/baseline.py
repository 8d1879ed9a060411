"""``adrguard baseline``: accept the findings a log has today, so ``check`` fails only on new
ones."""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.api.baseline import write_baseline
from adrguard.cli import add_command
from adrguard.cli.common import add_common, info, load_config_for
from adrguard.core.errors import UserError
from adrguard.core.outcome import BASELINE_FILE, EXIT_OK
from adrguard.core.wording import plural


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "baseline",
        description="Write the baseline file: one entry per current finding, matched by rule, "
        "file, decision and message (never by line), so `adrguard check` (the hook, the Action, "
        "SARIF, MCP) fails only on findings not in it and says how many it knows. Commit the "
        "file. Only this command writes or shrinks it.",
        epilog="examples:\n"
        "  adrguard baseline                  # accept every current finding\n"
        "  adrguard baseline --update         # drop the entries that were fixed\n"
        "  adrguard baseline --update --add   # ... and accept the new findings too\n"
        "  adrguard check --no-baseline       # every finding, as if there were no baseline",
    )
    add_common(p)
    p.add_argument(
        "--update",
        action="store_true",
        help="keep the file's entries that still occur (following files git reports renamed), "
        "drop the fixed ones; adds nothing unless --add",
    )
    p.add_argument("--add", action="store_true", help="with --update: also add the new findings")
    p.add_argument(
        "--baseline",
        metavar="FILE",
        default=None,
        help=f"the file, repo-relative (default: {BASELINE_FILE})",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.add and not args.update:
        raise UserError("--add goes with --update (without --update every finding is written)")
    root, config = load_config_for(args)
    w = write_baseline(root, config=config, path=args.baseline, update=args.update, add=args.add)
    parts = [f"{w.added} added", f"{w.dropped} dropped"]
    if w.renamed:
        parts.append(f"{w.renamed} moved with renamed files")
    what = "wrote" if w.changed else "unchanged:"
    entries = plural(w.entries, "entry", "entries")
    info(f"adrguard: {what} {w.path} with {entries} ({', '.join(parts)})")
    return EXIT_OK
