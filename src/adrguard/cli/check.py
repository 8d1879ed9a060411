"""``check``, ``list``, ``show``, ``rules`` and ``explain``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.cli.common import (
    add_common,
    emit,
    info,
    load_config_for,
    parse_formats,
    write_stdout,
)
from adrguard.core.errors import UserError

if TYPE_CHECKING:
    from adrguard.core.findings import Report
    from adrguard.core.model import Corpus

FAIL_ON = ("none", "note", "warning", "error")
BASELINE_FILE = ".adrguard-baseline.json"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "check",
        help="check every decision record (read-only)",
        description="Check the repository's ADRs: structure, status, links, relationships, "
        "generated files and, with --base, what a change does to them. Writes nothing into the "
        "repository (parsed records are cached in the user cache folder; --no-cache: not).",
        epilog="examples:\n"
        "  adrguard check\n"
        "  adrguard check --format json:report.json --format text\n"
        "  adrguard check docs/adr/0007-x.md --select ADR1 --ignore ADR107\n"
        "  adrguard check --base origin/main --fail-on warning\n"
        "  adrguard check --profile strict --format sarif:adrguard.sarif",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="report file-level findings only for these files or folders (corpus-level findings "
        "always); a folder outside every ADR root is checked as a root for this run. With "
        "--hook: the files pre-commit passes",
    )
    add_common(p)
    p.add_argument(
        "--profile",
        choices=("legacy", "advisory", "standard", "strict"),
        help="rule set and severities (default: config, else standard)",
    )
    p.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="CODES",
        help="only these rules: codes, prefixes (ADR3) or names, comma separated; repeatable",
    )
    p.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="CODES",
        help="skip these rules (codes, prefixes or names); repeatable",
    )
    p.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default=None,
        help="exit 1 when a finding is at least this severe (default: config, else error)",
    )
    p.add_argument(
        "--exit-zero", action="store_true", help="always exit 0 unless adrguard itself fails"
    )
    p.add_argument(
        "--format",
        action="append",
        metavar="NAME[:PATH]",
        help="text (default), json, markdown, github, sarif; repeatable, PATH writes a file",
    )
    p.add_argument(
        "--base",
        metavar="REF",
        help="judge the changes since REF: change-aware rules (ADR5xx) run, and older findings "
        "in files the change does not touch do not fail the run",
    )
    p.add_argument(
        "--changed",
        action="store_true",
        help="judge the uncommitted changes (against HEAD) the same way",
    )
    p.add_argument(
        "--hook",
        action="store_true",
        help="run as the pre-commit hook: judge what the next commit holds (the index against "
        "HEAD); PATHs are the files pre-commit passes; nothing relevant changed: exit 0 at once",
    )
    p.add_argument(
        "--no-baseline",
        action="store_true",
        help="ignore the baseline file: every finding counts",
    )
    p.add_argument(
        "--baseline",
        metavar="FILE",
        default=None,
        help=f"the baseline file, repo-relative (default: {BASELINE_FILE})",
    )
    p.add_argument(
        "--head", metavar="REF", help="head revision for --base (default: the work tree HEAD)"
    )
    p.add_argument(
        "--deepen",
        action="store_true",
        help="with --base in a shallow clone: fetch more history until the merge base appears",
    )
    p.add_argument(
        "--today",
        metavar="YYYY-MM-DD",
        help="date used to flag future dates (ADR109; default: today)",
    )
    from adrguard.cli.against import add_against

    add_against(p)
    p.add_argument(
        "--claims",
        type=Path,
        metavar="FILE",
        help="with --base: the files other open pull requests add, as `adrguard action prepare` "
        "lists them (schemas/claims.schema.json); ADR509 reports numbers they take too",
    )
    p.set_defaults(func=run_check)

    lp = subparsers.add_parser(
        "list",
        help="list decision records",
        description="List every decision record with its number, status and title.",
    )
    add_common(lp)
    lp.add_argument("--format", choices=("text", "json"), default="text")
    lp.set_defaults(func=run_list)

    sp = subparsers.add_parser(
        "show",
        help="show one decision record",
        description="Show a decision's metadata and text. ID is an id "
        "(ADR-0007), a number (7) or a path.",
    )
    sp.add_argument("id", metavar="ID")
    add_common(sp)
    sp.add_argument("--format", choices=("text", "json"), default="text")
    sp.set_defaults(func=run_show)

    rp = subparsers.add_parser(
        "rules",
        help="list every rule",
        description="The rule catalogue: code, name, default severity, summary.",
    )
    rp.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    rp.add_argument(
        "--write-docs",
        metavar="DIR",
        help="write one Markdown page per rule (docs/rules/) and an index",
    )
    rp.set_defaults(func=run_rules)

    ep = subparsers.add_parser(
        "explain",
        help="explain one rule",
        description="Print a rule's documentation: why, a bad and a good example.",
    )
    ep.add_argument("code", metavar="CODE", help="a code (ADR303) or a name (relationship-cycle)")
    ep.set_defaults(func=run_explain)


def _split(values: list[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def run_check(args: argparse.Namespace) -> int:
    import datetime as dt

    from adrguard import api
    from adrguard.cli.feedback import after_check
    from adrguard.reporters import REPORTERS

    specs = parse_formats(args.format, REPORTERS, "text")
    if args.hook and (args.base or args.changed):
        raise UserError("--hook judges the staged change: give neither --base nor --changed")
    if args.today:
        try:
            today = dt.date.fromisoformat(args.today).isoformat()
        except ValueError:
            raise UserError(f"--today {args.today!r} is not a date: write it as YYYY-MM-DD, "
                            "e.g. --today 2024-05-31") from None
    else:
        today = dt.date.today().isoformat()
    root, config = load_config_for(args)
    change = "staged" if args.hook else "worktree" if args.changed else None
    result = api.check_result(
        root,
        config=config,
        paths=() if args.hook else args.paths,
        profile=args.profile,
        select=_split(args.select),
        ignore=_split(args.ignore),
        base=args.base,
        head=args.head,
        today=today,
        deepen=args.deepen,
        change=change,
        changed_files=args.paths if args.hook else (),
        baseline=not args.no_baseline,
        baseline_path=args.baseline,
        against=args.against,
        claims_file=args.claims,
    )
    if result.claims is not None:
        from adrguard.cli.against import show_claims

        show_claims(result.claims)
    if result.skipped_run is not None:
        info(f"adrguard: {result.skipped_run}")
        return 0
    report = result.report
    if report.decisions == 0 and result.found is not None:
        from adrguard.api.targets import no_decisions

        raise no_decisions(result.found)  # nothing checked is not a pass
    after_check(result, verbose=args.verbose)
    for spec in specs:
        tty = spec.path is None and sys.stdout.isatty()
        emit(render(spec.name, report, result.corpus, to_terminal=tty), spec, colour=tty)
    if all(spec.path is not None for spec in specs):
        from adrguard.reporters.context import summary_line

        info(summary_line(report))
    crashed = sorted({f.message.split(" ", 2)[1] for f in report.findings
                      if f.code == "ADR000" and f.message.startswith("rule ")})
    if crashed:  # every report was written; the run is still incomplete: our bug
        info(f"internal error: rule {', '.join(crashed)} failed (ADR000 in the report); the "
             "other findings were reported. This is a bug in adrguard: please report it")
        return 3
    if args.exit_zero:
        return 0
    return exit_code(report, args.fail_on or config.fail_on)


def render(name: str, report: Report, corpus: Corpus, *, to_terminal: bool = False) -> str:
    from adrguard.reporters import NEEDS_CATALOGUE, REPORTERS, default_context
    from adrguard.reporters.context import decisions_of

    ctx = default_context(
        color=to_terminal,
        repo_url=corpus.repository.url if corpus.repository else None,
        decisions=decisions_of(corpus),
        catalogue=name in NEEDS_CATALOGUE,
    )
    return REPORTERS[name](report, ctx)


def exit_code(report: Report, fail_on: str) -> int:
    from adrguard.core.findings import Severity

    if fail_on == "none":
        return 0
    threshold = Severity.parse(fail_on)
    worst = report.worst()
    return 1 if worst is not None and worst >= threshold else 0


def run_list(args: argparse.Namespace) -> int:
    import json

    from adrguard import api
    from adrguard.api.lookup import decision_row

    root, config = load_config_for(args)
    asked = "asked" if args.format == "json" else None  # the counts of who refers to a record
    corpus = api.load_with(root, config, citations=asked)
    rows = [decision_row(d) for d in corpus.decisions]
    if args.format == "json":
        from adrguard.api.citations import counts

        referenced = counts(corpus)
        for row in rows:
            row["referencedBy"] = referenced[row["path"]]
        write_stdout(
            json.dumps(
                {"schemaVersion": 1, "decisions": rows},
                indent=2,
                sort_keys=True,
                ensure_ascii=False,
            )
            + "\n",
            "json",
        )
        return 0
    if not rows:
        info("no decision records found")
        return 0
    from adrguard.core.textsafe import neutralise as safe

    width = max(len(safe(r["id"])) for r in rows)
    lines = []
    for r in rows:
        status = r["status"] or "-"
        flag = " (archived)" if r["archived"] else ""
        title = safe(r["title"] or "(untitled)")
        lines.append(f"{safe(r['id']):<{width}}  {status:<10}  {title}{flag}  {safe(r['path'])}\n")
    write_stdout("".join(lines))
    return 0


def run_show(args: argparse.Namespace) -> int:
    import json

    from adrguard import api
    from adrguard.api.citations import ASKED
    from adrguard.api.lookup import describe, find_decision

    root, config = load_config_for(args)
    corpus = api.load_with(root, config, citations=ASKED)
    decision = find_decision(corpus, args.id)
    data = describe(corpus, decision)
    if args.format == "json":
        write_stdout(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", "json")
        return 0
    from adrguard.core.textsafe import neutralise as safe

    lines = [f"{safe(decision.id)}: {safe(decision.title or '(untitled)')}",
             f"  path:    {safe(decision.path)}"]
    lines.append(
        f"  status:  {data['status'] or '(none stated)'}"
        + (f"  ({safe(decision.status_raw)})" if decision.status_raw else "")
    )
    if decision.date:
        lines.append(f"  date:    {safe(decision.date)}")
    lines.append(f"  format:  {decision.format}{'  (archived)' if decision.archived else ''}")
    for key, label in (
        ("supersedes", "supersedes"),
        ("supersededBy", "superseded by"),
        ("amends", "amends"),
        ("amendedBy", "amended by"),
        ("dependsOn", "depends on"),
    ):
        if data.get(key):
            lines.append(f"  {label + ':':<14} {safe(', '.join(data[key]))}")
    if data.get("currentSuccessor"):
        lines.append(f"  current successor: {data['currentSuccessor']}")
    lines += _referenced_by(data["referencedBy"])
    write_stdout("\n".join(lines) + "\n\n" + decision.text.rstrip("\n") + "\n")
    return 0


def _referenced_by(rows: list[dict[str, Any]]) -> list[str]:
    """``show``'s lines for the records that refer to a record and the files that cite it."""
    from adrguard.core.textsafe import neutralise as safe

    records = [r["id"] for r in rows if r["kind"] == "decision"]
    lines = [f"  {'referenced by:':<14} {safe(', '.join(records))}"] if records else []
    cited = [r for r in rows if r["kind"] != "decision"]
    if cited:
        files = len({r["path"] for r in cited})
        lines.append(f"  cited by:      {len(cited)} citation{'s' if len(cited) != 1 else ''} "
                     f"in {files} file{'s' if files != 1 else ''}")
        lines += [f"    {safe(r['path'])}:{r['line']} ({r['kind']})" for r in cited]
    return lines


def run_rules(args: argparse.Namespace) -> int:
    from adrguard.reporters import catalogue

    if args.write_docs:
        from pathlib import Path

        from adrguard.adapters.write import write_atomic

        pages = catalogue.expected_docs()
        for name, text in pages.items():
            write_atomic(Path(args.write_docs) / name, text)
        info(f"wrote {len(pages)} rule pages to {args.write_docs}")
        return 0
    write_stdout(catalogue.render(args.format), "json" if args.format == "json" else "text")
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from adrguard.reporters import catalogue

    page = catalogue.explain(args.code)
    if page is None:
        raise UserError(f"unknown rule {args.code!r}: run `adrguard rules` for the catalogue")
    write_stdout(page)
    return 0
