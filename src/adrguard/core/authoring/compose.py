"""A new record and the edits a supersession makes, put together from a :class:`Style`. Pure.

:func:`new_record` names and renders the record and reads it back with the parser, so what is
written is what adrguard itself reads (its status, number and title); :func:`with_relation`
adds a ``Supersedes``/``Amends`` line where the log writes relations; :func:`successor_edit`
marks the old record superseded (or amended) by the new one, in the log's form: the status
statement ``Superseded by [5. Title](0005-title.md)`` (adr-tools, MADR's ``status:``), or the
status word plus a relation line or a front-matter key.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass

from adrguard.core.authoring import dating, edit, names
from adrguard.core.authoring.render import Fields, date_text, fill_template, render
from adrguard.core.authoring.style import Style, cased
from adrguard.core.model import Decision, RelKind, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import formats
from adrguard.core.parse.record import parse

VERBS = {
    RelKind.SUPERSEDES: "Supersedes",
    RelKind.SUPERSEDED_BY: "Superseded by",
    RelKind.AMENDS: "Amends",
    RelKind.AMENDED_BY: "Amended by",
    # `adrguard link`: the wording the parser reads (relates-to only as a front-matter key)
    RelKind.DEPENDS_ON: "Depends on",
    RelKind.RELATES_TO: "Relates to",
    RelKind.IN_FAVOUR_OF: "Rejected in favour of",
}


@dataclass(frozen=True)
class Record:
    """A record to write: its path, text and what the parser reads from it."""

    path: str
    text: str
    decision: Decision


def status_word(style: Style, status: Status, written: str | None) -> str:
    """The word to write for ``status``: as the user wrote it when that is not the plain
    English word, else the log's own word, else the English word in the log's casing."""
    if written and written.strip().casefold() != status.value:
        return written.strip()
    return style.word(status.value)


def read(path: str, root: str, text: str, options: Options) -> Decision:
    return parse(SourceFile(path, root, text.encode("utf-8")), options)


def new_record(style: Style, root: str, title: str, number: int | None, status: Status,
               written: str | None, day: dt.date, options: Options,
               template: str | None = None) -> Record:
    """The new record: named in the log's scheme, written from ``template`` or the style, and
    read back. A status word the parser would not read as ``status`` falls back to English."""
    stem = names.stem(style.names, title, number, day)
    path = names.record_path(root, style.names, stem)
    rid = formats.identity(path, root)[0]
    when = date_text(style, day, options.date_format)
    word = status_word(style, status, written)
    if style.status_dated and style.status.where == "section" and template is None:
        before, example, gap = style.status_dated
        word = f"{before}{dating.write_like(example, day, style.day_first)}{gap}{word}"
    for attempt in (word, cased(status.value, style.casing)):
        fields = Fields(title, number, rid, day, attempt)
        text = (fill_template(template, style, fields, when) if template is not None
                else render(style, fields, when))
        decision = read(path, root, text, options)
        if decision.status is status or template is not None:
            break
    return Record(path, text, decision)


def link(style: Style, source: str, target: Decision) -> str:
    """``[5. Use X](0005-use-x.md)`` from ``source``'s folder, with the log's link text."""
    rel = posixpath.relpath(target.path, posixpath.dirname(source) or ".")
    return f"[{link_text(style, target)}]({rel})"


def link_text(style: Style, target: Decision) -> str:
    title = target.title or formats.record_name(target.path, target.root)
    if style.link == "id":
        return _id_text(style, target)
    if style.link == "stem":
        return formats.record_name(target.path, target.root)
    if style.link == "numbered-title" and target.number is not None:
        return f"{target.number}. {title}"
    return title


def _id_text(style: Style, target: Decision) -> str:
    if target.number is None:
        return target.id
    try:
        return style.id_text.format(number=target.number)
    except (ValueError, KeyError, IndexError):
        return target.id


def _front_value(style: Style, source: str, target: Decision) -> str:
    kind = style.place.value
    if kind == "path":
        return posixpath.relpath(target.path, posixpath.dirname(source) or ".")
    if kind == "link":
        return link(style, source, target)
    if kind == "number" and target.number is not None:
        return str(target.number)
    return _id_text(style, target)


def with_relation(text: str, d: Decision, style: Style, kind: RelKind, target: Decision,
                  options: Options) -> Record:
    """``d`` (whose text is ``text``) with one relation to ``target`` added."""
    line = f"{VERBS[kind]} {link(style, d.path, target)}"
    changed = edit.add_relation(text, d, style, kind.value, line,
                                _front_value(style, d.path, target))
    return Record(d.path, changed, read(d.path, d.root, changed, options))


def points_at(raw: str, d: Decision) -> bool:
    """Whether a relation target as written (a path, a link, an id or a number) names ``d``."""
    target = raw.strip().split("#", 1)[0].strip("<> ")
    if not target:
        return False
    name = posixpath.basename(d.path)
    folded = target.casefold()
    return (posixpath.basename(target) == name or folded == d.id.casefold()
            or (d.number is not None and target.lstrip("0") == str(d.number)))


def successor_edit(text: str, old: Decision, new: Decision, style: Style, day: dt.date,
                   options: Options, amend: bool) -> Record:
    """The old record once ``new`` supersedes (or, with ``amend``, amends) it: its status and
    the relation back to ``new``, in the log's form. A log that writes relations only in the
    new record gets the status word alone (``Superseded``); an amended record keeps its
    status and, in such a log, is left as it is."""
    back = style.writes(new_side=False, amend=amend)
    if amend:
        if not back:
            return Record(old.path, text, old)
        return with_relation(text, old, style, RelKind.AMENDED_BY, new, options)
    if old.status is Status.SUPERSEDED and any(
        r.kind is RelKind.SUPERSEDED_BY for r in old.relationships
    ):  # split between several successors: the status stays, one more relation
        if any(r.kind is RelKind.SUPERSEDED_BY and points_at(r.target_raw, new)
               for r in old.relationships):
            return Record(old.path, text, old)
        return with_relation(text, old, style, RelKind.SUPERSEDED_BY, new, options) if back \
            else Record(old.path, text, old)
    if not old.statuses:  # nothing to mark: say it with a relation line
        return with_relation(text, old, style, RelKind.SUPERSEDED_BY, new, options)
    syn: Mapping[str, str] = options.status_synonyms
    keys = style.place.where == "front-matter" and bool(old.front_matter)
    if not back:
        changed = edit.set_status(text, old, style.word(Status.SUPERSEDED.value), day, syn)
        return Record(old.path, changed, read(old.path, old.root, changed, options))
    inline = style.superseded_by(link(style, old.path, new)) if style.inline_successor else None
    if edit.unfilled_line(edit.Text.of(text), old, RelKind.SUPERSEDED_BY.value) is not None:
        inline = None  # the record's own ``Superseded by: n/a`` line takes the successor
    if inline is not None and not keys:
        changed = edit.set_status(text, old, inline, day, syn)
        return Record(old.path, changed, read(old.path, old.root, changed, options))
    changed = edit.set_status(text, old, style.word(Status.SUPERSEDED.value), day, syn)
    marked = read(old.path, old.root, changed, options)
    return with_relation(changed, marked, style, RelKind.SUPERSEDED_BY, new, options)
