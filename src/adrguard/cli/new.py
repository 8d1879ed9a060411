"""``new`` and ``supersede``: write a decision record in its log's own style."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.cli import add_command
from adrguard.cli.common import (
    add_quiet,
    add_repository,
    given_date,
    info,
    load_config_for,
    out,
    split_values,
    write_stdout,
)
from adrguard.core.adrformat import WRITTEN
from adrguard.core.errors import UserError
from adrguard.core.outcome import EXIT_OK

if TYPE_CHECKING:
    from adrguard.api.authoring.write import Outcome, Request


def _talk(p: argparse.ArgumentParser) -> None:
    """-v or -q, and --no-cache."""
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("-v", "--verbose", action="count", default=0,
                      help="say which config is used")
    add_quiet(talk)
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the record "
                   "cache")


def _common(p: argparse.ArgumentParser) -> None:
    add_repository(p, "root_dir")
    p.add_argument("--status", metavar="WORD",
                   help="the new record's status (default: config new-status, else proposed); "
                   "written in the log's own word for it")
    p.add_argument("--format", choices=WRITTEN, dest="record_format",
                   help="write this format instead of the one the log uses (an empty log: "
                   "adr-tools' Nygard layout)")
    p.add_argument("--today", metavar="YYYY-MM-DD", help="the date to write (default: today)")
    p.add_argument("--against", action="append", default=[], metavar="REF",
                   help="also skip the numbers these refs or globs add (refs/remotes/origin/pr/*"
                   "; read from what is fetched already; repeatable)")
    p.add_argument("--dry-run", action="store_true",
                   help="print what would be written; write nothing")
    _talk(p)


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "new",
        description="Write the next record of an ADR log: the next free number (archived "
        "records and --against refs included), named, laid out and worded like the log's own "
        "records (or from the configured template), with status proposed and today's date. "
        "Never overwrites a file; refreshes the log's generated INDEX; prints the path.",
        epilog="examples:\n  adrguard new \"Use PostgreSQL for payments\"\n"
        "  adrguard new --root services/api/docs/adr --status accepted \"Cache search results\"\n"
        "  adrguard new --against 'refs/remotes/origin/pr/*' \"Use Kafka\"",
    )
    p.add_argument("title", metavar="TITLE")
    p.add_argument("--root", "--adr-root", dest="adr_root", metavar="DIR",
                   help="the ADR folder to write in, when the repository has several (a folder "
                   "without records starts a new log)")
    _common(p)
    p.set_defaults(func=run_new)

    s = add_command(
        subparsers, "supersede",
        description="Write a record that supersedes OLD, with its Supersedes line in the log's "
        "form, and mark OLD: its status becomes superseded by the new record (status section, "
        "bullet or front matter, as the log writes it); nothing else in OLD changes. OLD is "
        "marked only once its successor is accepted: write it with --status accepted, or run "
        "`supersede OLD --by NEW` once NEW is accepted. --amend writes Amends / Amended by "
        "instead, and OLD keeps its status.",
        epilog="examples:\n  adrguard supersede 7 \"Use PostgreSQL 16\"\n"
        "  adrguard supersede ADR-0007 \"Use PostgreSQL 16\" --status accepted\n"
        "  adrguard supersede 7 --by 12          # once ADR-0012 is accepted\n"
        "  adrguard supersede 7 \"Also cache reads\" --amend\n"
        "OLD and TITLE go together: options before OLD or after TITLE.",
    )
    s.add_argument("old", metavar="OLD", help="the record superseded: an id, number or path")
    s.add_argument("title", metavar="TITLE", nargs="?", help="the new record's title")
    s.add_argument("--by", metavar="NEW", help="an existing, accepted record that supersedes OLD "
                   "(instead of TITLE)")
    s.add_argument("--amend", action="store_true",
                   help="the new record amends OLD (Amends / Amended by); OLD stays in force")
    _common(s)
    s.set_defaults(func=run_supersede, adr_root=None)

    from adrguard.api.authoring.link import KINDS

    k = add_command(
        subparsers, "link",
        description="Declare that record A has a relation to record B, like adr-tools' `adr "
        "link`: the relation line (or front-matter key) goes where the log writes relations, "
        "in its form and link style, in A and, where the log writes both sides, in B "
        "(Superseded by / Amended by / relates-to both ways). `A supersedes B` marks B "
        "superseded once A is accepted, exactly as `supersede B --by A`. Both files are "
        "prepared before either is written; each is written atomically; a relation adrguard "
        "could not read back is refused and nothing is written.",
        epilog="examples:\n  adrguard link 12 amends 7\n"
        "  adrguard link ADR-0012 supersedes ADR-0007 --dry-run\n"
        "  adrguard link 9 depends-on 4\n"
        "  adrguard link docs/adr/0009-x.md relates-to 0004",
    )
    k.add_argument("source", metavar="A", help="the record that declares the relation: an id, "
                   "number or path")
    k.add_argument("relation", metavar="RELATION", help=f"one of {', '.join(KINDS)}")
    k.add_argument("target", metavar="B", help="the record it points at: an id, number or path")
    add_repository(k, "root_dir")
    k.add_argument("--today", metavar="YYYY-MM-DD",
                   help="the date of a new entry in a dated status history (default: today)")
    k.add_argument("--dry-run", action="store_true",
                   help="print the change as a diff; write nothing")
    _talk(k)
    k.set_defaults(func=run_link, adr_root=None, record_format=None, status=None, against=[])

    c = add_command(
        subparsers, "consolidate",
        description="Write one proposed record, in the log's own style, that replaces the "
        "records ID...: its decision section quotes and links each one's decision and "
        "consequences and lists the open conflicts between them (statuses not in force, "
        "successors and amendments outside the sources, unresolved relations, records that "
        "lean on a source); a Supersedes line names each source. The sources are not touched "
        "while the draft is a proposal. Once a person has written the decision that holds "
        "now, `consolidate --accept NEW` sets NEW accepted and marks every source superseded "
        "by it, in the log's form, in one step (every file prepared and read back before the "
        "first is written). Deterministic: the same log and --today give the same bytes. "
        "Several drafts over overlapping sources (N records into M) are several runs.",
        epilog="examples:\n  adrguard consolidate 3 5 7 --title \"Expose a versioned, paginated "
        "REST API\"\n  adrguard consolidate ADR-0003,ADR-0005 --title \"REST API\" --dry-run\n"
        "  adrguard consolidate --accept 12",
    )
    c.add_argument("sources", nargs="*", metavar="ID",
                   help="the records to replace: ids, numbers or paths (commas also separate)")
    c.add_argument("--title", metavar="TITLE", help="the new record's title")
    c.add_argument("--accept", metavar="NEW",
                   help="accept the consolidation NEW (instead of drafting one)")
    c.add_argument("--root", "--adr-root", dest="adr_root", metavar="DIR",
                   help="the log to write in, when the sources live in several")
    _common(c)
    c.set_defaults(func=run_consolidate)


def _request(args: argparse.Namespace) -> Request:
    from adrguard.api.authoring.write import Request

    today = given_date(args.today)
    return Request(root=args.adr_root, fmt=args.record_format, status=args.status, today=today,
                   against=tuple(args.against), dry_run=args.dry_run)


def _config(args: argparse.Namespace) -> tuple[Path, Any]:
    args.root = args.root_dir
    return load_config_for(args)


def run_new(args: argparse.Namespace) -> int:
    from adrguard.api.authoring import write as authoring

    root, config = _config(args)
    return _report(authoring.new(root, config, args.title, _request(args)), args.dry_run)


def run_supersede(args: argparse.Namespace) -> int:
    from adrguard.api.authoring import write as authoring

    if (args.title is None) == (args.by is None):
        raise UserError("give the new record's TITLE, or --by NEW for an existing record "
                        "(not both)")
    root, config = _config(args)
    outcome = authoring.supersede(root, config, args.old, args.title, _request(args),
                                  by=args.by, amend=args.amend)
    return _report(outcome, args.dry_run)


def run_link(args: argparse.Namespace) -> int:
    from adrguard.api.authoring.link import link

    root, config = _config(args)
    outcome = link(root, config, args.source, args.relation, args.target, _request(args))
    return _report(outcome, args.dry_run)


def run_consolidate(args: argparse.Namespace) -> int:
    from adrguard.api.authoring import consolidate

    keys = split_values(args.sources)
    root, config = _config(args)
    if args.accept is not None:
        if keys or args.title:
            raise UserError("--accept takes the consolidation to accept alone: give no ID or "
                            "--title with it")
        return _report(consolidate.accept(root, config, args.accept, _request(args)),
                       args.dry_run)
    if not args.title:
        raise UserError("give the new record's title: adrguard consolidate 3 5 --title "
                        "\"Expose a REST API\"")
    return _report(consolidate.draft(root, config, keys, args.title, _request(args)),
                   args.dry_run)


def _ended(text: str) -> str:
    """``text`` ending its last line, as diff does: a line that had no line ending is followed
    by ``\\ No newline at end of file``."""
    if text.endswith("\n"):
        return text
    return text + "\n\\ No newline at end of file\n"


def _report(outcome: Outcome, dry_run: bool) -> int:
    import difflib

    for change in outcome.changes:
        if dry_run:
            if change.before is None:
                write_stdout(_ended(f"==> {change.path} (new) <==\n{change.text}"))
            else:
                write_stdout("".join(_ended(line) for line in difflib.unified_diff(
                    change.before.splitlines(keepends=True), change.text.splitlines(keepends=True),
                    fromfile=f"a/{change.path}", tofile=f"b/{change.path}")))
        else:
            out(change.path)
            if change.before is not None:
                info(f"adrguard: updated {change.path}")
    for path in outcome.indexes:
        info(f"adrguard: refreshed {path}")
    for note in outcome.notes:
        info(f"note: {note}")
    for f in outcome.findings:
        info(f"warning: adrguard check reports {f.code} on {f.location}: {f.message}")
    if dry_run:
        info("adrguard: dry run: nothing was written")
    return EXIT_OK
