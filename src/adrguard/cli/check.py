"""``check`` (its options, its run, what it says besides its report), ``list``, ``show``,
``rules`` and ``explain``."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard import api
from adrguard.api import normalise_status as normalise
from adrguard.api.pipeline.citation_scan import ASKED
from adrguard.api.pipeline.corpus import resolve_root
from adrguard.api.pipeline.sources import longest_first, root_of
from adrguard.cli import add_command
from adrguard.cli.common import (
    add_common,
    add_format,
    emit,
    given_date,
    info,
    load_config_for,
    print_json,
    quiet,
    report_formats,
    split_values,
    write_stdout,
)
from adrguard.cli.terminal import STATUS_STYLES, Segment, colour_wanted, markdown, page, styled
from adrguard.core.errors import UserError
from adrguard.core.model import STATUS_CHOICES, Status, status_key
from adrguard.core.outcome import (
    BASELINE_FILE,
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_OK,
    FAIL_ON,
    reaches,
)
from adrguard.core.settings import PROFILES
from adrguard.core.textsafe import neutralise as safe
from adrguard.core.wording import plural
from adrguard.pathguard import output_problem
from adrguard.reporters import NEEDS_CATALOGUE, REPORTERS, default_context
from adrguard.reporters import formats as output_formats
from adrguard.reporters.context import decisions_of, summary_line
from adrguard.reporters.text import render_statistics

if TYPE_CHECKING:
    from adrguard.api.check import CheckResult, Discovery
    from adrguard.api.claims import Claims
    from adrguard.core.findings import Report
    from adrguard.core.model import Corpus

def register(subparsers: Any) -> None:
    for add in _PARSERS.values():
        add(subparsers)


def register_one(subparsers: Any, name: str) -> None:
    """Only the parser of command ``name`` (a run of it that prints no list of commands needs
    no other: :func:`adrguard.cli.build_parser`)."""
    _PARSERS[name](subparsers)


def _add_check(subparsers: Any) -> None:
    p = add_command(
        subparsers, "check",
        description="Check the repository's ADRs: structure, status, links, relationships, "
        "generated files and, with --base, what a change does to them. Writes nothing into the "
        "repository (parsed records are cached in the user cache folder; --no-cache: not).",
        epilog="examples:\n"
        "  adrguard check\n"
        "  adrguard check --format json:report.json --format text\n"
        "  adrguard check --output-format concise     # path:line:col: CODE message\n"
        "  adrguard check --statistics                # how many findings of each rule\n"
        "  adrguard check docs/adr/0007-x.md --select ADR1 --ignore ADR107\n"
        "  adrguard check --base origin/main --fail-on warning\n"
        "  adrguard check --profile strict --format sarif:adrguard.sarif",
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
        choices=PROFILES,
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
        "--compaction",
        action="store_true",
        help="only the compaction blockers (the checks `adrguard compaction` lists before any "
        "compaction: unreadable records, ambiguous ids, dangling or ambiguous relations, "
        "cycles, contradictions, premature supersession, self-references, CURRENT views out "
        "of date); exit 1 on any warning or error (--fail-on changes that); not with "
        "--select, --ignore or --profile",
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
        "--output-format",
        dest="format",
        action="append",
        metavar="NAME[:PATH]",
        help=f"{output_formats.help_text('check')}; repeatable, PATH writes a file. "
        "--output-format is another name for it (ruff's)",
    )
    p.add_argument(
        "--statistics",
        action="store_true",
        help="count the findings per rule instead of listing them (like ruff); formats given "
        "a PATH are still written in full",
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
    p.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="REF",
        help="other refs or globs (refs/remotes/origin/pr/*) whose new records count: ADR509 "
        "reports a record of this change that takes a number one of them adds (read from what "
        "is fetched already; repeatable)",
    )
    p.add_argument(
        "--claims",
        type=Path,
        metavar="FILE",
        help="with --base: the files other open pull requests add, as `adrguard action prepare` "
        "lists them (schemas/claims.schema.json); ADR509 reports numbers they take too",
    )
    p.set_defaults(func=run_check)


def _add_list(subparsers: Any) -> None:
    lp = add_command(
        subparsers, "list",
        description="List every decision record with its id, status, title and path (coloured "
        "on a terminal; NO_COLOR turns that off).",
        epilog="examples:\n  adrguard list\n  adrguard list --status accepted,proposed\n"
        "  adrguard list --status superseded --format json\n"
        "  adrguard list --format markdown > decisions.md",
    )
    add_common(lp)
    add_format(lp, "list",
               help="text (default), json (schemas/list.schema.json) or markdown (a table)")
    lp.add_argument(
        "--status",
        action="append",
        default=[],
        metavar="STATUS[,STATUS]",
        help=f"only records with these statuses: {', '.join(STATUS_CHOICES)} (no status stated) "
        "or all; a word of the log's own language works too (angenommen); repeatable",
    )
    lp.set_defaults(func=run_list)


def _add_show(subparsers: Any) -> None:
    sp = add_command(
        subparsers, "show", rewrap=True,
        description="Show a decision's metadata and text. ID is an id "
        "(ADR-0007), a number (7) or a path. On a terminal the header is coloured (NO_COLOR "
        "turns that off) and a record taller than the screen goes through the pager ($PAGER, "
        "else less; never when piped).",
    )
    sp.add_argument("id", metavar="ID")
    add_common(sp)
    add_format(sp, "show")
    sp.add_argument("--no-pager", action="store_true",
                    help="never page: a long record on a terminal goes through $PAGER (less) "
                    "otherwise")
    sp.set_defaults(func=run_show)


def _add_rules(subparsers: Any) -> None:
    rp = add_command(
        subparsers, "rules", rewrap=True,
        description="The rule catalogue: code, name, default severity, summary.",
    )
    add_format(rp, "rules")
    rp.add_argument(
        "--write-docs",
        metavar="DIR",
        help="write one Markdown page per rule (docs/rules/) and an index",
    )
    rp.set_defaults(func=run_rules)


def _add_explain(subparsers: Any) -> None:
    ep = add_command(
        subparsers, "explain", rewrap=True,
        description="Print a rule's documentation: why, a bad and a good example. Rendered "
        "(headings, code blocks) on a terminal; Markdown as written when piped or with "
        "NO_COLOR.",
    )
    ep.add_argument("code", metavar="CODE", help="a code (ADR303) or a name (relationship-cycle)")
    ep.set_defaults(func=run_explain)


# command -> what adds its parser, in --help order (adrguard.cli.COMMANDS)
_PARSERS: dict[str, Callable[[Any], None]] = {
    "check": _add_check, "list": _add_list, "show": _add_show, "rules": _add_rules,
    "explain": _add_explain,
}


# --- what check says on stderr besides its report: what each other ref adds (``--against``),
# the roots it used and why (``-v``), the files it left out


def show_claims(claims: Claims) -> None:
    """What each other ref adds, on stderr: ``origin/pr/17 adds ADR-0042 (docs/adr/...)``."""
    from adrguard.api.claims import short_ref, summary

    for note in claims.notes:
        info(f"adrguard: note: {note}")
    for source, records in summary(claims):
        label = records[0].label if records else short_ref(source)
        if not records:
            info(f"adrguard: {label} adds no record")
            continue
        listed = ", ".join(f"{c.id} ({c.path})" for c in records[:20])
        more = f" and {len(records) - 20} more" if len(records) > 20 else ""
        info(f"adrguard: {label} adds {listed}{more}")


def no_decisions(found: Discovery) -> UserError:
    """The error of a run that found ADR folders but no record in them."""
    skipped = found.skipped
    detail = (f"{plural(len(skipped), 'markdown file')} skipped as indexes or templates"
              if skipped else "no markdown files")
    where = "; ".join(f"{r.path} ({r.why})" for r in found.search.roots)
    return UserError(
        f"no decision records found: looked in {where}, which hold {detail}; "
        "add records, or point `roots` in .adrguard.toml at the folder that holds them"
    )


def root_lines(found: Discovery) -> list[str]:
    """One line per ADR root: the folder, what it holds, and why it is a root."""
    ordered = longest_first(found.roots)
    records = Counter(src.root for src in found.sources)
    skipped = Counter(root_of(path, ordered) for path in found.skipped)
    lines = []
    for r in found.search.roots:
        held = f"{plural(records[r.path], 'record file')}, {skipped[r.path]} skipped"
        lines.append(f"adrguard: ADR root {r.path}: {held}; {r.why}")
    if found.search.examined:
        shown = ", ".join(found.search.examined[:8])
        more = " ..." if len(found.search.examined) > 8 else ""
        lines.append(f"adrguard: folders of numbered files examined by content: {shown}{more}")
    return lines


def after_check(result: CheckResult, *, verbose: int) -> None:
    found = result.found
    if found is None:
        return
    if verbose:
        for line in root_lines(found):
            info(line)
        if found.skipped and verbose > 1:
            info(f"adrguard: skipped {', '.join(found.skipped)}")
    if found.untracked and not found.untracked_checked:
        shown = ", ".join(found.untracked[:5])
        more = f" and {len(found.untracked) - 5} more" if len(found.untracked) > 5 else ""
        one = len(found.untracked) == 1
        info(
            f"note: {plural(len(found.untracked), 'record file')} under the ADR roots "
            f"{'is' if one else 'are'} not tracked by git and {'was' if one else 'were'} not "
            f"checked ({shown}{more}): `git add` {'it' if one else 'them'} to check "
            f"{'it' if one else 'them'}"
        )


def run_check(args: argparse.Namespace) -> int:
    import datetime as dt

    specs = report_formats(args.format, "check")
    if args.statistics and any(s.path is None and s.name != "text" for s in specs):
        raise UserError("--statistics prints its table on stdout in place of the text report: "
                        "give the other format a PATH (--format json:report.json)")
    if args.hook and (args.base or args.changed):
        raise UserError("--hook judges the staged change: give neither --base nor --changed")
    today = (given_date(args.today) or dt.date.today()).isoformat()
    select, ignore = split_values(args.select), split_values(args.ignore)
    if args.compaction:
        from adrguard.api.compaction import COMPACTION_CODES

        if select or ignore or args.profile:
            raise UserError("--compaction chooses the rules itself: give no --select, --ignore "
                            "or --profile with it")
        select, ignore = list(COMPACTION_CODES), []
    root, config = load_config_for(args)
    if args.compaction:
        config = config.with_overrides(select=tuple(select), ignore=())
    change = "staged" if args.hook else "worktree" if args.changed else None
    result = api.run_check(api.CheckRequest(
        root,
        config=config,
        paths=() if args.hook else args.paths,
        profile=args.profile,
        select=select,
        ignore=ignore,
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
        ahead=args.ahead,  # parse helpers started ahead (ADR 64), or None
    ))
    if result.claims is not None:
        show_claims(result.claims)
    if result.skipped_run is not None:
        info(f"adrguard: {result.skipped_run}")
        return EXIT_OK
    report = result.report
    if report.decisions == 0 and result.found is not None:
        raise no_decisions(result.found)  # nothing checked is not a pass
    after_check(result, verbose=args.verbose)
    for spec in specs:
        if args.statistics and spec.path is None:
            continue
        tty = spec.path is None and colour_wanted(spec.name)  # NO_COLOR, a pipe: plain
        emit(render(spec.name, report, result.corpus, to_terminal=tty, quiet=quiet()), spec,
             colour=tty, root=root)
    if args.statistics:
        write_stdout(render_statistics(report, quiet=quiet()))
    elif all(spec.path is not None or spec.name in SILENT for spec in specs):
        info(summary_line(report))
    crashed = report.crashed_rules
    if crashed:  # every report was written; the run is still incomplete: our bug
        info(f"internal error: rule {', '.join(crashed)} failed (ADR000 in the report); the "
             "other findings were reported. This is a bug in adrguard: please report it")
        return EXIT_INTERNAL
    if args.exit_zero:
        return EXIT_OK
    default = "warning" if args.compaction else config.fail_on  # a blocker blocks
    # 1 when a finding reaches --fail-on (never for ``none``)
    return EXIT_FINDINGS if reaches(report.worst(), args.fail_on or default) else EXIT_OK


# Formats that print no summary of their own: with one of them on stdout, the summary line
# goes to stderr (as when every format goes to a file).
SILENT = frozenset({"concise"})


def render(name: str, report: Report, corpus: Corpus, *, to_terminal: bool = False,
           quiet: bool = False) -> str:
    ctx = default_context(
        color=to_terminal,
        repo_url=corpus.repository.url if corpus.repository else None,
        decisions=decisions_of(corpus),
        catalogue=name in NEEDS_CATALOGUE,
        quiet=quiet,
    )
    return REPORTERS[name](report, ctx)


def wanted_statuses(values: list[str], synonyms: Any) -> frozenset[str] | None:
    """``--status`` values -> the status keys to keep (None: every record). A word of the
    log's language is read with the status vocabulary (``angenommen`` -> accepted)."""
    words = split_values(values)
    if not words or any(w.casefold() in ("all", "any") for w in words):
        return None
    keys = set()
    for word in words:
        folded = word.casefold()
        if folded in STATUS_CHOICES:
            keys.add(folded)
            continue
        status = normalise(word, synonyms)
        if status is Status.UNKNOWN:
            raise UserError(f"--status {word!r} is not a status: choose from "
                            f"{', '.join(STATUS_CHOICES)} or all (or a status word of the log)")
        keys.add(status.value)
    return frozenset(keys)


def run_list(args: argparse.Namespace) -> int:
    from adrguard.api.lookup import decision_row

    root, config = load_config_for(args)
    wanted = wanted_statuses(args.status, config.options.status_synonyms)
    asked = "asked" if args.format == "json" else None  # the counts of who refers to a record
    corpus = api.load_with(root, config, citations=asked)
    kept = [d for d in corpus.decisions if wanted is None or status_key(d) in wanted]
    rows = [decision_row(d) for d in kept]
    if args.format == "json":
        from adrguard.api.citation_answers import counts

        referenced = counts(corpus)
        for row in rows:
            row["referencedBy"] = referenced[row["path"]]
        print_json({"schemaVersion": 1, "decisions": rows})
        return EXIT_OK
    if not rows:
        info("no decision records found" if wanted is None or not corpus.decisions else
             f"none of the {len(corpus.decisions)} decision records has the status "
             f"{' or '.join(sorted(wanted))}")
        return EXIT_OK
    if args.format == "markdown":
        write_stdout(_markdown_table(rows))
        return EXIT_OK

    width = max(len(safe(r["id"])) for r in rows)
    lines: list[list[Segment]] = []
    for r in rows:
        status = r["status"] or "-"
        line: list[Segment] = [
            (f"{safe(r['id']):<{width}}", "bold"), ("  ", None),
            (f"{status:<10}", STATUS_STYLES.get(status)), ("  ", None),
            (safe(r["title"] or "(untitled)"), None),
        ]
        if r["archived"]:
            line.append((" (archived)", "dim"))
        line += [("  ", None), (safe(r["path"]), "dim")]
        lines.append(line)
    if colour_wanted():
        write_stdout(styled(lines), "raw")
    else:
        write_stdout("".join("".join(text for text, _style in line).rstrip() + "\n"
                             for line in lines))
    return EXIT_OK


def _markdown_table(rows: list[dict[str, Any]]) -> str:
    from adrguard.reporters.markdown import escape

    out = ["| Record | Status | Title | File |", "|---|---|---|---|"]
    for r in rows:
        title = escape(r["title"] or "(untitled)") + (" (archived)" if r["archived"] else "")
        out.append(f"| {escape(r['id'])} | {r['status'] or '-'} | {title} | "
                   f"{escape(r['path'])} |")
    return "\n".join(out) + "\n"


def run_show(args: argparse.Namespace) -> int:
    from adrguard.api.lookup import describe, find_decision

    root, config = load_config_for(args)
    corpus = api.load_with(root, config, citations=ASKED)
    decision = find_decision(corpus, args.id)
    data = describe(corpus, decision)
    if args.format == "json":
        print_json(data)
        return EXIT_OK

    def field(label: str, value: str, style: str | None = None) -> list[Segment]:
        return [(f"  {label + ':':<9}", "dim"), (value, style)]

    status_style = STATUS_STYLES.get(data["status"] or "")
    head: list[list[Segment]] = [
        [(safe(decision.id), "bold cyan"), (": ", None),
         (safe(decision.title or "(untitled)"), "bold")],
        field("path", safe(decision.path)),
        field("status", data["status"] or "(none stated)", status_style)
        + ([(f"  ({safe(decision.status_raw)})", None)] if decision.status_raw else []),
    ]
    if decision.date:
        head.append(field("date", safe(decision.date)))
    head.append(field("format", decision.format)
                + ([("  (archived)", "dim")] if decision.archived else []))
    for key, label in (
        ("supersedes", "supersedes"),
        ("supersededBy", "superseded by"),
        ("amends", "amends"),
        ("amendedBy", "amended by"),
        ("dependsOn", "depends on"),
    ):
        if data.get(key):
            head.append([(f"  {label + ':':<14} ", "dim"), (safe(", ".join(data[key])), None)])
    if data.get("currentSuccessor"):
        head.append([("  current successor: ", "dim"), (safe(data["currentSuccessor"]), None)])
    head += [[(line, None)] for line in _referenced_by(data["referencedBy"])]
    plain_head = "".join("".join(text for text, _style in line) + "\n" for line in head)
    body = "\n" + decision.text.rstrip("\n") + "\n"
    plain = plain_head + body
    coloured = styled(head) + safe(body, multiline=True) if colour_wanted() else None
    if not args.no_pager:
        page(plain, coloured)
    elif coloured is not None:
        write_stdout(coloured, "raw")
    else:
        write_stdout(plain)
    return EXIT_OK


def _referenced_by(rows: list[dict[str, Any]]) -> list[str]:
    """``show``'s lines for the records that refer to a record and the files that cite it."""
    records = [r["id"] for r in rows if r["kind"] == "decision"]
    lines = [f"  {'referenced by:':<14} {safe(', '.join(records))}"] if records else []
    cited = [r for r in rows if r["kind"] != "decision"]
    if cited:
        files = len({r["path"] for r in cited})
        lines.append(f"  cited by:      {plural(len(cited), 'citation')} "
                     f"in {plural(files, 'file')}")
        lines += [f"    {safe(r['path'])}:{r['line']} ({r['kind']})" for r in cited]
    return lines


def run_rules(args: argparse.Namespace) -> int:
    from adrguard.reporters import catalogue

    if args.write_docs:
        from adrguard.api import write_atomic

        pages = catalogue.expected_docs()
        for name, text in pages.items():
            target = Path(args.write_docs) / name
            if (problem := output_problem(target, resolve_root(None))) is not None:
                raise UserError(f"cannot write {target}: {problem}")
            write_atomic(target, text)
        info(f"wrote {len(pages)} rule pages to {args.write_docs}")
        return EXIT_OK
    write_stdout(catalogue.render(args.format), "json" if args.format == "json" else "text")
    return EXIT_OK


def run_explain(args: argparse.Namespace) -> int:
    from adrguard.reporters import catalogue

    page = catalogue.explain(args.code)
    if page is None:
        raise UserError(f"unknown rule {args.code!r}: run `adrguard rules` for the catalogue")
    if colour_wanted():  # a terminal: rendered; piped, or NO_COLOR: the Markdown as written
        write_stdout(markdown(page), "raw")
    else:
        write_stdout(page)
    return EXIT_OK
