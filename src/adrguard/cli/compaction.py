"""``compaction``: the read-only analysis of a long log (what to keep, summarize, consolidate,
decide or archive). The seed's drafting flags are recognised and refused: this version drafts
nothing and moves nothing (``adrguard archive`` moves retired records, as a reviewed plan)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from adrguard.cli.common import add_common, load_config_for, write_stdout
from adrguard.core.errors import UserError
from adrguard.core.wording import plural

HELP = "read-only analysis: what to keep, summarize, consolidate, decide or archive"
DESCRIPTION = """\
Analyse the decision log for compaction, read-only: per ADR root, the records by status, the
archived ones and what reading them costs (bytes, code points, an estimate of tokens); per
record a proposed disposition (keep, summarize, consolidate, open, archive-candidate: the
values of a CURRENT manifest's coverage) with its evidence; the blockers to fix first (cycles,
ambiguous ids, dangling relations, premature supersession, stale CURRENT views) and the
consolidation candidates (supersession chains, repeatedly amended records). It writes nothing,
calls no model and drafts nothing.

scope (one of):
  (default)        every unarchived record of every ADR root
  --sources IDS    these records (ids, numbers or paths, comma-separated); an unknown,
                   ambiguous or archived one is an error
  --domain SLUG    the records of one domain: front matter `domain:`/`domains:`/`tags:`, or a
                   sub-folder below the ADR root (docs/adr/security/...)
"""
EPILOG = """\
not available in this version (recognised, refused with exit 2): --mode summary|consolidate,
--archive, --style, --baseline, --iteration, --confirm and `compaction status`; move retired
records with `adrguard archive plan ID...` instead. Not options at all: --all (every
unarchived record is the default), --include-archived, --force, --delete-history, --unlimited.

examples:
  adrguard compaction
  adrguard compaction --domain security --format json
  adrguard compaction --sources ADR-0003,ADR-0007
"""
UNAVAILABLE = {
    "mode": "drafting a summary or a consolidated record",
    "archive": "archiving as part of a consolidation (use `adrguard archive plan ID...`)",
    "style": "the style of a drafted record",
    "baseline": "numbering drafted records",
    "iteration": "numbering drafted records",
    "confirm": "confirming a drafted plan (use `adrguard archive apply PLAN` for archive plans)",
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
    p = subparsers.add_parser(
        "compaction",
        help=HELP,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    add_common(p)
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--sources", metavar="IDS", help="only these records (comma-separated)")
    scope.add_argument("--domain", metavar="SLUG", help="only the records of this domain")
    p.add_argument("--dry-run", action="store_true",
                   help="analyse only (the default: accepted for the seed's command line)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: schemas/compaction.schema.json")
    later = p.add_argument_group("not available in this version (refused, exit 2)")
    later.add_argument("--mode", choices=("summary", "consolidate"), help=argparse.SUPPRESS)
    later.add_argument("--archive", action="store_true", help=argparse.SUPPRESS)
    for name in ("style", "baseline", "iteration", "confirm"):
        later.add_argument(f"--{name}", metavar="VALUE", help=argparse.SUPPRESS)
    for flag in NOT_OPTIONS:
        p.add_argument(flag, nargs=0, action=_NotAnOption, help=argparse.SUPPRESS)
    p.add_argument("action", nargs="?", help=argparse.SUPPRESS)
    p.set_defaults(func=run_compaction)


def _refuse_unavailable(args: argparse.Namespace) -> None:
    if args.action is not None:
        if args.action == "status":
            raise UserError("`adrguard compaction status` is not available in this version: "
                            "there are no drafted plans; `adrguard compaction` analyses")
        raise UserError(f"adrguard compaction takes no argument {args.action!r}; use --sources "
                        "or --domain to choose records (see adrguard compaction --help)")
    for name, what in UNAVAILABLE.items():
        value = getattr(args, name)
        if value not in (None, False):
            raise UserError(f"--{name} is not available in this version ({what}): adrguard "
                            "compaction only analyses, read-only; drop the option")


def run_compaction(args: argparse.Namespace) -> int:
    from adrguard.api.compaction import analyse_repository

    _refuse_unavailable(args)
    root, config = load_config_for(args)
    analysis = analyse_repository(root, config, sources=args.sources, domain=args.domain)
    data = analysis.as_json()
    if args.format == "json":
        write_stdout(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", "json")
    else:
        write_stdout(render_text(data))
    return 0


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


__all__ = ["register", "render_text", "run_compaction"]

