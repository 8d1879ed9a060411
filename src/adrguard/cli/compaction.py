"""``compaction``: the read-only analysis of a long log (what to keep, summarize, consolidate,
decide or archive); ``--mode consolidate`` drafts one record that replaces several (as
``adrguard consolidate``); ``compaction status`` and ``--confirm PLAN-ID`` are the lifecycle of
kept archive plans (:mod:`adrguard.api.archive.lifecycle`). The seed's other drafting flags are
recognised and refused (``adrguard archive`` moves retired records, as a reviewed plan)."""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.api.archive.lifecycle import find, states
from adrguard.api.compaction import analyse_repository, parse_sources
from adrguard.cli import add_command
from adrguard.cli.common import (
    add_common,
    add_format,
    load_config_for,
    out,
    print_json,
    write_stdout,
)
from adrguard.cli.new import _report
from adrguard.core.errors import UserError
from adrguard.core.outcome import EXIT_OK
from adrguard.core.wording import plural

DESCRIPTION = """\
Analyse the decision log for compaction, read-only: per ADR root, the records by status, the
archived ones and what reading them costs (bytes, code points, an estimate of tokens); per
record a proposed disposition (keep, summarize, consolidate, open, archive-candidate: the
values of a CURRENT manifest's coverage) with its evidence; the blockers to fix first (cycles,
ambiguous ids, dangling relations, premature supersession, stale CURRENT views) and the
consolidation candidates (supersession chains, repeatedly amended records). It writes nothing
and calls no model; --mode consolidate drafts a record (below).

scope (one of):
  (default)        every unarchived record of every ADR root
  --sources IDS    these records (ids, numbers or paths, comma-separated); an unknown,
                   ambiguous or archived one is an error
  --domain SLUG    the records of one domain: front matter `domain:`/`domains:`/`tags:`, or a
                   sub-folder below the ADR root (docs/adr/security/...)
"""
EPILOG = """\
drafting and plans:
  --mode consolidate --sources IDS --title T
                   write one proposed record that replaces the sources (quoting each one's
                   decision and consequences, listing the open conflicts); accept it with
                   `adrguard consolidate --accept NEW` (the same as `adrguard consolidate`)
  status [PLAN-ID] the archive plans kept in the git folder: planned, applied, restored, failed
  --confirm PLAN-ID
                   apply a kept archive plan (`adrguard archive plan ID... --save` keeps one),
                   with every check of `archive apply`; no scope or mode with it

not available in this version (recognised, refused with exit 2): --mode summary, --archive,
--style, --baseline, --iteration; move retired records with `adrguard archive plan ID...`.
Not options at all: --all (every unarchived record is the default), --include-archived,
--force, --delete-history, --unlimited.

examples:
  adrguard compaction
  adrguard compaction --domain security --format json
  adrguard compaction --sources ADR-0003,ADR-0007
  adrguard compaction --mode consolidate --sources 3,5,7 --title "A versioned REST API"
  adrguard compaction status
"""
UNAVAILABLE = {
    "archive": "archiving as part of a consolidation (use `adrguard archive plan ID...`)",
    "style": "the style of a drafted record",
    "baseline": "numbering drafted records",
    "iteration": "numbering drafted records",
}
NOT_OPTIONS = {
    "--all": "every unarchived record is the default scope",
    "--include-archived": "archived records are history: compaction reads unarchived ones",
    "--force": "nothing is forced: fix the blockers the analysis names",
    "--delete-history": "adrguard never deletes a record",
    "--unlimited": "the analysis is not limited; it reads every record in scope",
}


class _NotAnOption(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option: str | None = None) -> None:
        raise UserError(f"{option} is not an option of adrguard compaction: "
                        f"{NOT_OPTIONS[str(option)]}")


def register(subparsers: Any) -> None:
    p = add_command(subparsers, "compaction", description=DESCRIPTION, epilog=EPILOG,
                    allow_abbrev=False)
    add_common(p)
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--sources", metavar="IDS", help="only these records (comma-separated)")
    scope.add_argument("--domain", metavar="SLUG", help="only the records of this domain")
    p.add_argument("--dry-run", action="store_true",
                   help="analyse only (the default: accepted for the seed's command line)")
    add_format(p, "compaction",
               help="json: schemas/compaction.schema.json")
    later = p.add_argument_group("not available in this version (refused, exit 2)")
    p.add_argument("--mode", choices=("summary", "consolidate"),
                   help="consolidate: write one proposed record that replaces the --sources "
                   "(as `adrguard consolidate IDS --title T`); summary is not available")
    p.add_argument("--title", metavar="TITLE", help="with --mode consolidate: the new record's "
                   "title")
    p.add_argument("--today", metavar="YYYY-MM-DD", help="with --mode consolidate: the date to "
                   "write (default: today)")
    later.add_argument("--archive", action="store_true", help=argparse.SUPPRESS)
    for name in ("style", "baseline", "iteration"):
        later.add_argument(f"--{name}", metavar="VALUE", help=argparse.SUPPRESS)
    for flag in NOT_OPTIONS:
        p.add_argument(flag, nargs=0, action=_NotAnOption, help=argparse.SUPPRESS)
    p.add_argument("--confirm", metavar="PLAN-ID",
                   help="apply a kept archive plan (its id or the first digits of it, as "
                   "`compaction status` lists it), with the checks of `archive apply`")
    p.add_argument("action", nargs="*", help=argparse.SUPPRESS)
    p.set_defaults(func=run_compaction)


def _refuse_unavailable(args: argparse.Namespace) -> None:
    if args.action and args.action[0] != "status":
        raise UserError(f"adrguard compaction takes no argument {args.action[0]!r}; use "
                        "--sources or --domain to choose records, `adrguard compaction status` "
                        "for the plans (see adrguard compaction --help)")
    if len(args.action) > 2:
        raise UserError("`adrguard compaction status` takes at most one PLAN-ID")
    if args.mode == "summary":
        raise UserError("--mode summary is not available in this version (drafting a summary "
                        "is a person's work: `adrguard current init` lists what the summary "
                        "covers); drop the option")
    for name, what in UNAVAILABLE.items():
        value = getattr(args, name)
        if value not in (None, False):
            raise UserError(f"--{name} is not available in this version ({what}): adrguard "
                            "compaction only analyses, read-only; drop the option")


def run_compaction(args: argparse.Namespace) -> int:
    _refuse_unavailable(args)
    if args.action:
        return run_status(args)
    if args.confirm is not None:
        return run_confirm(args)
    if args.mode == "consolidate":
        return run_consolidate(args)
    if args.title is not None or args.today is not None:
        raise UserError("--title and --today go with --mode consolidate")
    root, config = load_config_for(args)
    analysis = analyse_repository(root, config, sources=args.sources, domain=args.domain)
    data = analysis.as_json()
    if args.format == "json":
        print_json(data)
    else:
        write_stdout(render_text(data))
    return EXIT_OK


def run_status(args: argparse.Namespace) -> int:
    """``compaction status [PLAN-ID]``: the kept plans and what became of each."""
    if args.sources or args.domain or args.confirm or args.mode or args.dry_run:
        raise UserError("`adrguard compaction status` takes no scope, mode or --confirm: it "
                        "lists the plans")
    root, _config = load_config_for(args)
    found = states(root)
    if len(args.action) == 2:
        pid = find(root, args.action[1]).stem if args.action[1] else ""
        found = [s for s in found if s.plan_id == pid]
    data = {"schemaVersion": 1, "plans": [s.as_json() for s in found]}
    if args.format == "json":
        print_json(data)
        return EXIT_OK
    if not found:
        write_stdout("no plans kept in this repository: `adrguard archive plan ID... --save` "
                     "keeps one\n")
        return EXIT_OK
    lines = []
    for s in found:
        what = f"{plural(s.moves, 'move')}, {plural(s.rewrites, 'file')} with links rewritten" \
            if s.kept else "the plan file is gone; its recovery log is left"
        lines.append(f"{s.plan_id[:12]}  {s.state:<8}  {what}")
        lines.extend(f"    {r}" for r in s.records)
        lines.append(f"    {s.detail}")
    write_stdout("\n".join(lines) + "\n")
    return EXIT_OK


def run_consolidate(args: argparse.Namespace) -> int:
    """``compaction --mode consolidate --sources IDS --title T``: ``adrguard consolidate``."""
    import datetime as dt

    from adrguard.api.authoring.consolidate import draft
    from adrguard.api.authoring.write import Request

    if args.sources is None or args.domain is not None:
        raise UserError("--mode consolidate takes the records it replaces with --sources "
                        "ID,ID,... (a domain is analysed first: `adrguard compaction --domain "
                        "SLUG` names the consolidation candidates)")
    if not args.title:
        raise UserError("--mode consolidate needs the new record's --title")
    if args.format != "text":
        raise UserError("--mode consolidate writes a record; --format json is for the analysis")
    try:
        today = dt.date.fromisoformat(args.today) if args.today else None
    except ValueError:
        raise UserError(f"--today {args.today!r} is not a date: write it as YYYY-MM-DD") from None
    root, config = load_config_for(args)
    request = Request(today=today, dry_run=args.dry_run)
    return _report(draft(root, config, parse_sources(args.sources), args.title, request),
                   args.dry_run)


def run_confirm(args: argparse.Namespace) -> int:
    """``compaction --confirm PLAN-ID``: apply a kept plan, as ``archive apply`` does."""
    from adrguard.api.archive.apply import apply

    if args.sources or args.domain or args.mode or args.dry_run or args.format != "text":
        raise UserError("--confirm applies the kept plan as it was made: give no scope, mode, "
                        "--dry-run or --format with it (to change it, make the plan again)")
    root, config = load_config_for(args)
    outcome = apply(root, config, find(root, args.confirm))
    for line in outcome.lines:
        out(line)
    return EXIT_OK


def _size(s: dict[str, int]) -> str:
    return f"{s['bytes']:,} bytes, {s['codePoints']:,} code points, ~{s['tokens']:,} tokens"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "none"


def render_text(data: dict[str, Any]) -> str:
    """The analysis as text for people (the JSON holds the same, and the evidence in full)."""
    scope = data["scope"]
    label = scope["kind"] if scope["value"] is None else f"{scope['kind']} {scope['value']}"
    records = plural(scope["records"], "record")
    lines = [f"compaction analysis (read-only); scope: {label}, {records}", ""]
    for r in data["roots"]:
        lines.append(f"{r['root']}: {r['records']} unarchived, {r['archived']} archived; "
                     f"{_counts(r['statuses'])}")
        lines.append(f"  reading size: {_size(r['size'])}")
        if r["sizeAfterArchiving"] != r["size"]:
            lines.append(f"  after archiving the candidates: {_size(r['sizeAfterArchiving'])}")
        cur = r["current"]
        if cur is not None:
            state = "fresh" if cur["fresh"] else f"stale ({plural(cur['reasons'], 'reason')})"
            size = f"; {_size(cur['size'])}" if cur["size"] else ""
            lines.append(f"  {cur['view']}: {state}{size}")
        lines.append(f"  dispositions ({r['inScope']} in scope): {_counts(r['dispositions'])}")
        lines.append("")
    if data["records"]:
        lines.append("records")
        width = max(len(x["id"]) for x in data["records"])
        for x in data["records"]:
            title = f"{x['title']} ({x['path']})" if x["title"] else x["path"]
            lines.append(f"  {x['id']:<{width}}  {x['disposition']:<17}  {title}")
            lines.extend(f"  {'':<{width}}    {reason}" for reason in x["reasons"])
        lines.append("")
    if data["blockers"]:
        lines.append("blockers (fix these before any compaction)")
        for b in data["blockers"]:
            lines.append(f"  {b['kind']}: {b['path']}:{b['line']} {b['code']} {b['message']}")
        lines.append("")
    if data["candidates"]:
        lines.append("consolidation candidates")
        lines.extend(f"  {c['kind']}: {c['message']}" for c in data["candidates"])
        lines.append("")
    lines.extend(f"note: {n}" for n in data["notes"])
    return "\n".join(lines) + "\n"


__all__ = ["register", "render_text", "run_compaction", "run_confirm", "run_status"]

