"""``archive plan | apply | restore``: move fully retired records into their root's archive
folder as a reviewed, reversible plan. ``plan`` writes nothing into the work tree; ``apply``
and ``restore`` are the only commands that move files."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from adrguard.api import write_atomic
from adrguard.api.archive.lifecycle import check_plan_target, keep
from adrguard.cli import add_command
from adrguard.cli.common import add_common, add_format, info, load_config_for, out, write_stdout
from adrguard.core.errors import UserError
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_OK

DESCRIPTION = """\
Move records that are fully retired (superseded by an accepted successor, deprecated or
rejected, and not leaned on by any accepted record) into their ADR root's archive folder,
keeping their ids and every link working. Three steps, each its own command:

  plan ID...    read-only: the moves, every relative link to rewrite (both directions, to the
                byte), the INDEX and CURRENT changes, conflicts, risks and the hashes it was
                made from; printed as JSON, or written with --out to a file git ignores
  apply PLAN    re-checks the plan against the repository, moves the files with git mv
                (staged), rewrites exactly the planned links, regenerates the INDEX; writes a
                recovery log in the git folder; resumes when interrupted; a no-op when done
  restore PLAN  undoes an applied plan to the byte from its recovery log
"""


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "archive",
        description=DESCRIPTION,
        epilog="examples:\n  adrguard archive plan ADR-0002 ADR-0004 --out .git/adrguard/p.json\n"
        "  adrguard archive apply .git/adrguard/p.json\n"
        "  adrguard archive restore .git/adrguard/p.json",
    )
    sub = p.add_subparsers(dest="archive_command", metavar="ACTION", required=True)
    plan = sub.add_parser("plan", help="read-only: plan moving these records into the archive",
                          allow_abbrev=False)
    add_common(plan)
    plan.add_argument("records", nargs="+", metavar="ID", help="ids, numbers or paths")
    plan.add_argument("--out", type=Path, metavar="FILE",
                      help="write the plan to FILE (outside the work tree, or a path git "
                      "ignores); default: print it")
    plan.add_argument("--save", action="store_true",
                      help="keep the plan in the git folder (.git/adrguard/archive/plans/; "
                      "--out keeps it too): `adrguard compaction status` lists it and "
                      "`adrguard compaction --confirm PLAN-ID` applies it")
    add_format(plan, "archive-plan",
               help="json (schemas/archive-plan.schema.json) or a summary for people")
    plan.set_defaults(func=run_plan)
    for name, text in (("apply", "carry out a plan (git mv, link rewrites, INDEX)"),
                       ("restore", "undo an applied plan to the byte")):
        sp = sub.add_parser(name, help=text, allow_abbrev=False)
        add_common(sp)
        sp.add_argument("plan", type=Path, metavar="PLAN", help="the plan file")
        sp.set_defaults(func=run_apply if name == "apply" else run_restore)


def run_plan(args: argparse.Namespace) -> int:
    from adrguard.api.archive.plan import blocking, dump, make_plan

    root, config = load_config_for(args)
    if args.out is not None:
        check_plan_target(root, args.out)
    result = make_plan(root, config, args.records)
    if result.plan is None:
        for d, reasons in result.refused:
            out(f"{d.id} ({d.path}) cannot be archived:")
            for reason in reasons:
                out(f"  - {reason}")
        return EXIT_FINDINGS
    plan = result.plan
    text = dump(plan)
    if args.out is not None:
        try:
            write_atomic(args.out, text)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        info(f"adrguard: wrote plan {plan['planId'][:12]} to {args.out}")
    if (args.out is not None or args.save) and not blocking(plan):
        kept = keep(root, plan)
        where = os.path.relpath(kept.parent, root) if kept.is_absolute() else kept.parent
        info(f"adrguard: kept plan {plan['planId'][:12]} in {where}: apply it with "
             f"`adrguard compaction --confirm {plan['planId'][:12]}`")
    if args.format == "text":
        write_stdout(summary(plan))
    elif args.out is None and not args.save:
        write_stdout(text, "json")
    return EXIT_FINDINGS if blocking(plan) else EXIT_OK


def summary(plan: dict[str, Any]) -> str:
    """A plan for people: what moves, which links change, what else happens."""
    lines = [f"archive plan {plan['planId'][:12]}"]
    mirror_of = {m: r["id"] for r in plan["records"] for m in r.get("mirrors", [])}
    lines += [f"  move {m['from']} -> {m['to']}"
              + (f" (translation of {mirror_of[m['from']]})" if m["from"] in mirror_of else "")
              for m in plan["moves"]]
    for rw in plan["rewrites"]:
        for e in rw["edits"]:
            lines.append(f"  link {rw['source']}:{e['line']} ({e['direction']}) "
                         f"{e['old']} -> {e['new']}")
    lines += [f"  {c['action']} {c['path']}" for c in plan["index"]]
    for view in plan["current"]:
        lines.append(f"  {view['view']} changes under its review (a view fresh before a "
                     "pure move is kept fresh; else it becomes stale):")
        lines += [f"    {r['code']} {r['message']}" for r in view["reasons"]]
    for c in plan["conflicts"]:
        tag = "conflict" if c["blocking"] else "note"
        lines.append(f"  {tag}: {c['path']}:{c['line']} {c['message']}")
    lines += [f"  risk: {r['path']}:{r['line']} {r['message']}" for r in plan["risks"]]
    return "\n".join(lines) + "\n"


def run_apply(args: argparse.Namespace) -> int:
    from adrguard.api.archive.apply import apply

    root, config = load_config_for(args)
    outcome = apply(root, config, args.plan)
    for line in outcome.lines:
        out(line)
    return EXIT_OK


def run_restore(args: argparse.Namespace) -> int:
    from adrguard.api.archive.apply import restore

    root, _config = load_config_for(args)
    outcome = restore(root, args.plan)
    for line in outcome.lines:
        out(line)
    return EXIT_OK


__all__ = ["register", "run_apply", "run_plan", "run_restore", "summary"]
