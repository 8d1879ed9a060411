"""``verify``: accepted decisions checked against their fitness rules and evidence.

Exit codes: 0 (advisory, or enforce with nothing new and a verdict for every rule), 1 (enforce:
a new violation, or a rule without a verdict), 2 (the manifest, an option or the baseline
cannot be used), 3 (a bug).
"""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.api import verify as api
from adrguard.cli import add_command
from adrguard.cli.common import add_common, emit, info, load_config_for, report_formats
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_OK
from adrguard.core.wording import plural
from adrguard.reporters import formats as output_formats
from adrguard.reporters import verify as reporter


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "verify",
        description="Evaluate the fitness rules of .adrguard-fitness.json for every accepted "
        "decision: values in evidence files CI already produced (coverage, dependency or "
        "duplication reports), and text, paths and Python imports of the tracked files. "
        "Nothing is built, tested or run. Missing, unreadable or contradictory evidence is "
        "'unknown', never a pass, and makes the run inconclusive. Rules on superseded, "
        "deprecated or rejected decisions are not applicable. Read-only, except "
        "--write-baseline.",
        epilog="examples:\n"
        "  adrguard verify\n"
        "  adrguard verify --evidence artifacts/coverage.json --format json\n"
        "  adrguard verify --policy enforce          # exit 1 on a new violation or unknown\n"
        "  adrguard verify --write-baseline          # accept today's violations\n"
        "  adrguard verify --audit                   # which decisions have rules\n"
        "docs: docs/verify.md",
    )
    add_common(p)
    p.add_argument("--rules", metavar="PATH",
                   help="the fitness manifest, repo-relative (default: config verify.rules, else "
                   ".adrguard-fitness.json)")
    p.add_argument("--evidence", action="append", metavar="PATH",
                   help="an evidence file of this run, repo-relative; repeatable, at most 20 "
                   "(default: every file the rules name)")
    p.add_argument("--baseline", metavar="PATH",
                   help="the drift baseline, repo-relative (default: config verify.baseline, "
                   "else .adrguard-drift-baseline.json when it exists)")
    p.add_argument("--policy", choices=("advisory", "enforce"), default=None,
                   help="advisory (default: report, exit 0) or enforce (exit 1 on a new "
                   "violation or an inconclusive run)")
    p.add_argument("--format", action="append", metavar="NAME[:PATH]",
                   help=f"{output_formats.help_text('verify')}; repeatable, PATH writes a "
                   f"file (--audit: {', '.join(output_formats.names('verify-audit'))})")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--write-baseline", action="store_true",
                      help="record today's violations in the drift baseline (the only write)")
    what.add_argument("--audit", action="store_true",
                      help="list accepted decisions with and without rules, and rules on "
                      "decisions not in force (reads no evidence)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root, config = load_config_for(args)
    if args.audit:
        specs = report_formats(args.format, "verify-audit")
        found = api.audit_of(root, config=config, rules=args.rules)
        for spec in specs:
            emit(reporter.render_audit(spec.name, found), spec, root=root)
        return EXIT_OK
    specs = report_formats(args.format, "verify")
    if args.write_baseline:
        result, written = api.write_baseline(root, config=config, rules=args.rules,
                                             evidence=args.evidence, baseline=args.baseline,
                                             policy=args.policy)
        state = "wrote" if written.changed else "unchanged:"
        info(f"adrguard: {state} {written.path} with {plural(written.violations, 'violation')}")
    else:
        result = api.verify(root, config=config, rules=args.rules, evidence=args.evidence,
                            baseline=args.baseline, policy=args.policy)
    for spec in specs:
        emit(reporter.render(spec.name, result), spec, root=root)
    return EXIT_FINDINGS if result.policy_failed else EXIT_OK
