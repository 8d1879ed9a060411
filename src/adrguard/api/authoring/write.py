"""``adrguard new`` and ``adrguard supersede``: write a record in its log's own style, and
mark the record it supersedes or amends, atomically; then refresh the log's generated INDEX
and check what was written.

The log's style is learned from its records (:mod:`adrguard.core.authoring.learn`), or the
project's ``template`` is filled in; the number is the next one free in the log (archived
records and the numbers other refs claim included). An existing file is never overwritten, a
record is never renamed, renumbered or deleted, and an edit of an existing record changes only
its status statement and adds one relation line.

A successor that is not accepted yet leaves the old record as it is: marking it superseded
while its successor is only proposed would leave no decision in force (ADR307). The old record
is marked when the successor is written as accepted (``--status accepted``), or later with
``adrguard supersede OLD --by NEW`` once NEW is accepted.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adrguard.adapters.reading import read_bytes
from adrguard.adapters.write import write_in_repo
from adrguard.api import generated
from adrguard.api.check import check_result
from adrguard.api.claims import from_refs
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load_with, search_roots
from adrguard.config import Config, read_config_file
from adrguard.core import relpath
from adrguard.core.authoring import compose, names
from adrguard.core.authoring.claims import Claims, next_number
from adrguard.core.authoring.edit import EditError
from adrguard.core.authoring.learn import learn
from adrguard.core.authoring.style import Style
from adrguard.core.conventions.log import Log
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding
from adrguard.core.model import Corpus, RelKind, Status
from adrguard.core.parse.formats import template_name
from adrguard.core.parse.status import normalise
from adrguard.pathguard import write_problem

DEFAULT_ROOT = "docs/adr"


@dataclass(frozen=True)
class Change:
    """One file written: a new record (``before`` None) or an edited one."""

    path: str
    text: str
    before: str | None = None


@dataclass
class Outcome:
    changes: list[Change] = field(default_factory=list)
    indexes: list[str] = field(default_factory=list)  # generated indexes refreshed
    notes: list[str] = field(default_factory=list)  # what the author should know
    findings: list[Finding] = field(default_factory=list)  # findings on what was written


@dataclass(frozen=True)
class Request:
    """What ``new`` and ``supersede`` share: where, in which format, with which status."""

    root: str | None = None  # the ADR root (log) to write in
    fmt: str | None = None  # nygard | madr2 | madr3 | madr4 | log4brains
    status: str | None = None  # as given (--status), else the config's new-status
    today: dt.date | None = None
    against: Sequence[str] = ()
    dry_run: bool = False


@dataclass(frozen=True)
class _Log:
    root: str
    corpus: Corpus
    extra: tuple[str, ...]  # the root, when discovery does not find it by itself


def _choose_log(repo_root: Path, config: Config, wanted: str | None) -> _Log:
    found = [r.path for r in search_roots(repo_root, config).roots]
    if wanted is not None:
        root = _root_folder(repo_root, wanted)
    elif len(found) == 1:
        root = found[0]
    elif found:
        raise UserError(f"this repository has several ADR folders ({', '.join(found)}): say "
                        "which one with --root DIR")
    else:
        root = DEFAULT_ROOT
    extra = () if root in found else (root,)
    if not (repo_root / root).is_dir():
        corpus = load_with(repo_root, config) if found else Corpus((), roots=(root,))
        return _Log(root, Corpus(corpus.decisions, roots=(*corpus.roots, root)), extra)
    return _Log(root, load_with(repo_root, config, extra_roots=extra), extra)


def _root_folder(repo_root: Path, wanted: str) -> str:
    """``--root`` as a repo-relative folder: an absolute path must lie inside the repository;
    a relative one passes the lexical half of the path guard (:mod:`adrguard.core.relpath`)."""
    import os

    text = wanted.strip()
    if os.path.isabs(text):
        try:
            text = Path(text).resolve().relative_to(Path(repo_root).resolve()).as_posix()
        except ValueError:
            raise UserError(f"--root {wanted!r} is outside the repository {repo_root}: give a "
                            "folder inside it") from None
    if text in ("", "."):
        return "."
    problem = relpath.problem(text)
    if problem is not None:
        raise UserError(f"--root {problem}")
    return relpath.normalise(text) or "."


def _status(config: Config, given: str | None) -> tuple[Status, str | None]:
    written = given if given is not None else config.new_status
    if written is None:
        return Status.PROPOSED, None
    status = normalise(written, config.options.status_synonyms)
    if status is Status.UNKNOWN:
        raise UserError(f"--status {written!r} is not a status adrguard knows: use proposed, "
                        "accepted, draft, or a word of the `statuses` table")
    return status, written


def _template(repo_root: Path, config: Config) -> str | None:
    if config.template is None:
        return None

    raw = read_config_file(repo_root / config.template, (repo_root,),
                           f"template {config.template!r}")
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError:
        raise UserError(f"template {config.template!r} is not UTF-8 text") from None


def _style(repo_root: Path, log: _Log, config: Config, fmt: str | None) -> Style:
    members = [d for d in log.corpus.decisions if d.root == log.root]
    options = config.options
    return learn(Log(log.root, members), options.status_synonyms, fmt, options.required_sections,
                 _log_templates(repo_root, log))


def _log_templates(repo_root: Path, log: _Log, limit: int = 8) -> list[str]:
    """The texts of the log's own template files (files of its folder named as a template,
    which discovery leaves out of the records); one that cannot be read is left aside."""
    import os

    inside = "" if log.root in ("", ".") else log.root + "/"
    out: list[str] = []
    for path in sorted(log.corpus.skipped):
        if not path.startswith(inside) or not template_name(path) or len(out) >= limit:
            continue
        got = read_bytes(os.path.realpath(repo_root), path, 1024 * 1024)
        if got is None or got[0] is None:
            continue
        try:
            out.append(got[0].decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n"))
        except UnicodeDecodeError:
            continue
    return out


def _claims(repo_root: Path, config: Config, corpus: Corpus, refs: Sequence[str]) -> Claims | None:
    if not refs:
        return None

    return from_refs(repo_root, config, corpus, refs)


def _draft(repo_root: Path, config: Config, log: _Log, title: str, request: Request,
           status: Status, written: str | None) -> compose.Record:
    style = _style(repo_root, log, config, request.fmt)
    claims = _claims(repo_root, config, log.corpus, request.against)
    number = None
    if style.names.kind == "numbered" or style.names.sequence:
        members = Log(log.root, [d for d in log.corpus.decisions if d.root == log.root])
        after_date = (names.sequence(members.name_of(d)) for d in members.all)
        number = next_number(log.corpus, log.root, claims, (n for n in after_date if n))
    day = request.today or dt.date.today()
    template = _template(repo_root, config)
    return compose.new_record(style, log.root, _clean_title(title), number, status, written, day,
                              config.options, template)


def _clean_title(title: str) -> str:
    text = " ".join(title.split())
    if not text:
        raise UserError("give the new record a title: adrguard new \"Use PostgreSQL\"")
    if any(not c.isprintable() for c in text):
        raise UserError("the title holds control characters; write it as plain text")
    return text


def new(repo_root: Path, config: Config, title: str, request: Request) -> Outcome:
    """Write the next record of a log (``adrguard new``)."""
    status, written = _status(config, request.status)
    log = _choose_log(repo_root, config, request.root)
    record = _draft(repo_root, config, log, title, request, status, written)
    return _finish(repo_root, config, log, [Change(record.path, record.text)], request, [])


def supersede(repo_root: Path, config: Config, old_key: str, title: str | None,
              request: Request, *, by: str | None = None, amend: bool = False) -> Outcome:
    """Write a record that supersedes (or amends) ``old_key``, or, with ``by``, mark
    ``old_key`` superseded by an existing accepted record (``adrguard supersede``)."""
    status, written = _status(config, request.status)
    old = find_decision(load_with(repo_root, config), old_key)
    log = _choose_log(repo_root, config, old.root)
    if old.status is Status.SUPERSEDED and not amend and by is None:
        raise UserError(f"{old.id} is superseded already: supersede its successor instead (a "
                        "second successor leaves two decisions in force), or, when it is split "
                        f"between several records, name each accepted one: `adrguard supersede "
                        f"{old.id} --by NEW`")
    style = _style(repo_root, log, config, request.fmt)
    day = request.today or dt.date.today()
    notes: list[str] = []
    old_text = _read_text(repo_root, old.path)
    kind = RelKind.AMENDS if amend else RelKind.SUPERSEDES
    changes: list[Change] = []
    try:
        if by is None:
            assert title is not None
            record = _draft(repo_root, config, log, title, request, status, written)
            if style.writes(new_side=True, amend=amend):
                record = compose.with_relation(record.text, record.decision, style, kind, old,
                                               config.options)
            changes.append(Change(record.path, record.text))
            successor = record.decision
        else:
            successor = find_decision(log.corpus, by)
            if successor.path == old.path:
                raise UserError(f"{old.id} cannot supersede itself")
            if successor.status is not Status.ACCEPTED:
                raise UserError(
                    f"{successor.id} is {successor.status or 'without a status'}: accept it "
                    f"first; {old.id} is marked once its successor is in force (ADR307)")
            if style.writes(new_side=True, amend=amend) and not any(
                r.kind is kind for r in successor.relationships
            ):
                text = _read_text(repo_root, successor.path)
                linked = compose.with_relation(text, successor, style, kind, old, config.options)
                changes.append(Change(successor.path, linked.text, text))
                successor = linked.decision
        if successor.status is Status.ACCEPTED:
            edited = compose.successor_edit(old_text, old, successor, style, day,
                                            config.options, amend)
            if edited.text != old_text:
                changes.append(Change(old.path, edited.text, old_text))
        else:
            what = "amended" if amend else "superseded"
            notes.append(
                f"{old.id} keeps its status while {successor.id} is "
                f"{successor.status or 'not accepted'}: once {successor.id} is accepted, run "
                f"`adrguard supersede {old.id} --by {successor.id}"
                f"{' --amend' if amend else ''}` to mark it {what}")
    except EditError as exc:
        raise UserError(f"cannot edit the record safely: {exc}; nothing was written") from None
    return _finish(repo_root, config, log, changes, request, notes)


def _read_text(repo_root: Path, path: str) -> str:
    import os

    got = read_bytes(os.path.realpath(repo_root), path, 16 * 1024 * 1024)
    if got is None or got[0] is None:
        raise UserError(f"cannot read {path}: {got[1] if got else 'it is gone'}")
    try:
        text = got[0].decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text: edit it by hand") from None
    return text.removeprefix("\ufeff")


def _finish(repo_root: Path, config: Config, log: _Log, changes: list[Change],
            request: Request, notes: list[str]) -> Outcome:
    outcome = Outcome(changes=changes, notes=notes)
    for change in changes:
        target = repo_root / change.path
        if change.before is None and (target.exists() or target.is_symlink()):
            raise UserError(f"{change.path} exists already: adrguard never overwrites a record; "
                            "give another title, or remove the file first")
        if (why := write_problem(repo_root, change.path)) is not None:
            raise UserError(f"refusing to write {change.path}: {why}")
    if request.dry_run:
        return outcome
    written = {c.path for c in changes}
    fresh = not (repo_root / log.root).is_dir()  # a new log: nothing to check before
    before = Counter() if fresh else _counts(_check(repo_root, config, log), written)
    crlf = _crlf(repo_root, log)
    done: list[tuple[str, bytes | None]] = []  # what was written, with its bytes before
    for change in changes:  # the new record first: an edit never points at a missing file
        text = change.text.replace("\n", "\r\n") if crlf and change.before is None else change.text
        data = text.encode("utf-8")
        if change.before is not None and _had_bom(repo_root, change.path):
            data = b"\xef\xbb\xbf" + data
        try:
            old = (repo_root / change.path).read_bytes() if change.before is not None else None
            write_in_repo(repo_root, change.path, data)
        except OSError as exc:
            _undo(repo_root, done)
            raise UserError(f"cannot write {change.path}: {exc.strerror or exc}; the files "
                            "written before it were put back") from None
        done.append((change.path, old))
    outcome.indexes = _refresh_index(repo_root, config, log)
    outcome.findings = _new_findings(_check(repo_root, config, log), written, before)
    return outcome


def _undo(repo_root: Path, done: list[tuple[str, bytes | None]]) -> None:
    """Put back the files a failed write left behind: an edited file gets its bytes again, a
    new one is removed (one step writes every side, or none)."""
    for path, old in reversed(done):
        try:
            if old is None:
                (repo_root / path).unlink()
            else:
                write_in_repo(repo_root, path, old)
        except OSError:
            continue  # best effort: the error that stopped the step is what is reported


def _crlf(repo_root: Path, log: _Log) -> bool:
    """Whether most records of the log end their lines with CRLF (a new record then does too;
    an edited record keeps its own line ends). The 50 latest records are read."""
    import os

    members = sorted((d for d in log.corpus.decisions if d.root == log.root),
                     key=lambda d: (d.number or 0, d.path))[-50:]
    real = os.path.realpath(repo_root)
    votes = [data.partition(b"\n")[0].endswith(b"\r") for d in members
             if (got := read_bytes(real, d.path, 1 << 20)) and (data := got[0])
             and b"\n" in data]
    return sum(votes) * 2 > len(votes)


def _had_bom(repo_root: Path, path: str) -> bool:
    with open(repo_root / path, "rb") as fh:
        return fh.read(3) == b"\xef\xbb\xbf"


def _refresh_index(repo_root: Path, config: Config, log: _Log) -> list[str]:
    if not generated.index_enabled(config):
        return []
    corpus = load_with(repo_root, config, extra_roots=log.extra)
    return list(generated.write_indexes(repo_root, config, corpus).written)


def _check(repo_root: Path, config: Config, log: _Log) -> list[Finding]:
    return list(check_result(repo_root, config=config, baseline=False,
                             paths=[str(repo_root / p) for p in log.extra]).report.findings)


def _ours(f: Finding, written: set[str]) -> bool:
    """A finding on a file written, or on a generated index (which a new record may leave
    behind: an index written by hand)."""
    return f.location.path in written or f.code.startswith("ADR4")


def _counts(findings: list[Finding], written: set[str]) -> Counter[str]:
    return Counter(f"{f.code} {f.location.path}" for f in findings if _ours(f, written))


def _new_findings(after: list[Finding], written: set[str], before: Counter[str]) -> list[Finding]:
    """The findings on what was written (and on generated files) that were not there before."""
    seen: Counter[str] = Counter()
    out = []
    for f in after:
        if not _ours(f, written):
            continue
        key = f"{f.code} {f.location.path}"
        seen[key] += 1
        if seen[key] > before.get(key, 0):
            out.append(f)
    return out


__all__ = ["Change", "Outcome", "Request", "new", "supersede"]
