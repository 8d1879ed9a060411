"""Learn a log's :class:`~.style.Style` from its records: each habit is what most records of
the log's format do (ties go to the later record), on top of the format's built-in style for
whatever the log does not show. Pure.

What is learned: the naming scheme (:mod:`.names`), the front-matter keys most records carry
(title, status and date, keys whose value is the record's number such as ``nav_order``, and keys
with one value in every record such as ``parent: Decisions``), the H1's form (``1. Title``,
``ADR-001: Title``, ``Title``), where the status and the date are written and with which label,
the status words and their case, the date style, the sections most records have, in their usual
order, and where and how relations are written (``Supersedes`` in the Status section, a
``## Links`` bullet, a front-matter key) with which link text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adrguard.core.adrformat import DEFAULT_WRITTEN, GENERIC
from adrguard.core.authoring import edit, names, skeleton, tables, wording
from adrguard.core.authoring.habits import (
    HEADING,
    body_line,
    heading_line,
    number_template,
    section_of,
    vote,
)
from adrguard.core.authoring.linking import relations
from adrguard.core.authoring.style import BUILT_IN, Line, Style, built_in
from adrguard.core.conventions.log import MIN_LEARN, Log
from adrguard.core.conventions.naming import STRONG
from adrguard.core.model import Decision
from adrguard.core.parse import formats


def _age(d: Decision) -> tuple[bool, int, str, str]:
    """Oldest first: by number, else by date, then by path."""
    return (d.number is not None, d.number or 0, d.date or "", d.path)


def learn(log: Log, synonyms: Mapping[str, str], fmt: str | None = None,
          required: Mapping[str, tuple[str, ...]] | None = None,
          templates: Sequence[str] = ()) -> Style:
    """The style of ``log`` (in format ``fmt`` when given). ``required``: the required
    sections per format (a new record always carries the ones the log writes); ``templates``:
    the texts of the log's own template files (:mod:`.skeleton`)."""
    vocabulary = wording.by_status(synonyms)
    records = [d for d in log.substantive if d.format != GENERIC or not fmt]
    naming = names.learn(
        log.scheme, (log.name_of(d) for d in sorted(log.all, key=_age)),
        [(d.path, d.root) for d in sorted(log.all, key=_age) if not d.archived],
    ) if log.all else None
    chosen = fmt or log.dominant_format or vote(d.format for d in records) or DEFAULT_WRITTEN
    if chosen not in BUILT_IN:
        chosen = DEFAULT_WRITTEN
    base = built_in(chosen)
    if naming is not None:
        base = replace(base, names=naming)
    same = [d for d in records if d.format == chosen] or ([] if fmt else records)
    if not same:
        return base
    status = _status_line(same) or base.status
    table = tables.learn(sorted(same, key=_age)) if "|" in status.label else None
    if table is not None:
        status = Line("table", status.label, status.after)
    said = wording.learn(log.substantive, vocabulary, [status.label], base.casing)
    style = replace(base, status=status, words=said.words, casing=said.casing,
                    language=said.language, table=table, learned=True,
                    status_also=_status_also(same) if status.where != "section" else None,
                    status_dated=_status_dated(same, synonyms) if status.where == "section"
                    else ())
    date = _date_line(same)
    habit = log.date_habit
    undated = len(same) >= MIN_LEARN and 4 * sum(bool(d.date) for d in same) < len(same)
    if date is not None and table is not None and "|" in date.label:
        date = Line("table", date.label, date.after)
    style = replace(
        style,
        date=None if undated else date or style.date,
        date_example=habit.example if habit.learned else "",
        day_first=habit.day_first,
    )
    style = replace(style, h1=_h1(same, base.h1))
    style = replace(style, front_matter=_front_matter(same, style))
    style = replace(style, fm_title=_fm_title(same))
    style = replace(style, header=_header(same, style))
    style = replace(style, header_gap=_gap(same, style))  # the gap between the lines learned
    needed = (required or {}).get(chosen, ())
    style = replace(style, sections=skeleton.sections(same, style, needed, log, templates))
    return replace(style, **relations(log.substantive, log, style))


# --- status and date ----------------------------------------------------------------------


def _status_line(records: Sequence[Decision]) -> Line | None:
    found: list[Line | None] = []
    for d in records:
        if not d.statuses:
            continue
        stmt = d.statuses[0]
        if stmt.source == "front-matter":
            key = next((k for k, n in d.front_matter_lines.items() if n == stmt.line), "status")
            found.append(Line("front-matter", key))
        elif stmt.source == "section":
            index = section_of(d, stmt.line)
            found.append(Line("section", heading_line(d, index)) if index is not None else None)
        else:
            found.append(_labelled(body_line(d, stmt.line), stmt.raw))
    best: Line | None = vote(found)
    if best is not None and found.count(best) < 2 and len(records) >= MIN_LEARN:
        return None  # one record's way is no habit of a log (a "State:" line deep in a body)
    return best


def _status_also(records: Sequence[Decision]) -> Line | None:
    """The Status section of a log whose records state their status twice, in front matter
    (or a header line) and again in a Status section: at least three quarters of them."""
    stated = [d for d in records if d.statuses]
    found: list[Line | None] = []
    for d in stated:
        first, *rest = d.statuses
        second = rest[0] if rest else None
        if second is None or first.source == "section" or second.source != "section":
            continue
        index = section_of(d, second.line)
        found.append(Line("section", heading_line(d, index)) if index is not None else None)
    if not stated or len(found) < STRONG * len(stated):
        return None
    return vote(found)  # type: ignore[no-any-return]


def _status_dated(records: Sequence[Decision], synonyms: Mapping[str, str]) -> tuple[str, ...]:
    """A log whose Status sections are dated entries (``2017-11-22 Proposed``, ``- 2024-03-31:
    Accepted``), at least three quarters of them: (the markup before an entry, a date as it
    writes them, the text between the date and the word); () otherwise."""
    leads: list[tuple[str, str, str] | None] = []
    for d in records:
        if d.statuses and d.statuses[0].source == "section":
            before, body, _after = edit.split_markup(body_line(d, d.statuses[0].line))
            lead = edit.dated_lead(body, synonyms)
            leads.append((before, *lead) if lead is not None else None)
    dated = [lead for lead in leads if lead is not None]
    if not leads or len(dated) < STRONG * len(leads):
        return ()
    return (str(vote(b for b, _, _ in dated)), dated[-1][1], str(vote(g for _, _, g in dated)))


def _labelled(raw: str, value: str) -> Line | None:
    """``* Status: accepted`` -> Line("line", "* Status: "); None when the value is not on the
    line as written."""
    value = value.strip().strip("*_").strip()  # emphasis that closes the label (``**S:** x``)
    at = raw.rfind(value) if value else -1
    if at <= 0:
        return None
    after = raw[at + len(value) :]
    # a new record's header line starts the line (the record's was nested in a list)
    label = raw[:at].lstrip()
    return Line("line", label, "" if any(c.isalnum() for c in after) else after.rstrip())


def _date_line(records: Sequence[Decision]) -> Line | None:
    found: list[Line | None] = []
    for d in records:
        if not d.date:
            continue
        key = next((k for k, n in d.front_matter_lines.items()
                    if n == d.date_line and formats.is_date_label(k.casefold())), None)
        if key is not None:
            found.append(Line("front-matter", key))
            continue
        line = _labelled(body_line(d, d.date_line), d.date)
        index = section_of(d, d.date_line)
        in_status = (
            index is not None and d.statuses and d.statuses[0].source == "section"
            and section_of(d, d.statuses[0].line) == index
        )
        if line is not None and in_status:
            line = Line("status", line.label, line.after)
        found.append(line)
    return vote(found)  # type: ignore[no-any-return]


# --- title, front matter, header ----------------------------------------------------------


def _template(raw: str | None, d: Decision) -> str | None:
    """How a record's title line writes its title: ``{number}. {title}``, ``ADR-{number:03d}:
    {title}``, ``[{title}]`` (a template's brackets kept); None when it is not the title with
    an id before it and markup around it."""
    title = d.title
    if not raw or not title:
        return None
    raw = raw.strip()
    at = raw.rfind(title)
    suffix = raw[at + len(title) :] if at >= 0 else ""
    if at < 0 or any(c.isalnum() for c in suffix):
        return None
    prefix = number_template(raw[:at], d.number)
    if prefix is None:
        return None
    return prefix + "{title}" + suffix.replace("{", "{{").replace("}", "}}")


def _h1(records: Sequence[Decision], default: str | None) -> str | None:
    forms: list[str | None] = []
    for d in records:
        h1 = next((s for s in d.sections if s.level == 1), None)
        if h1 is None:
            forms.append("" if d.front_matter.get("title") else None)
            continue
        m = HEADING.match(body_line(d, h1.line))
        forms.append(_template(m.group(2) if m else h1.title, d))
    form = vote(forms, default)
    return None if form == "" else form


def _fm_title(records: Sequence[Decision]) -> str:
    forms = [_template(formats.scalar(d.front_matter.get("title")), d) for d in records]
    return str(vote(forms, "{title}"))


def _role(key: str, value: Any, d: Decision, style: Style) -> str | None:
    folded = key.casefold()
    if folded == "title":
        return "title"
    if style.status.where == "front-matter" and folded == style.status.label.casefold():
        return "status"
    if style.date is not None and style.date.where == "front-matter" and (
        folded == style.date.label.casefold()
    ):
        return "date"
    text = formats.scalar(value)
    if d.number is not None and text is not None and text.isdigit() and int(text) == d.number:
        return "number"
    return None


def _front_matter(records: Sequence[Decision], style: Style) -> tuple[tuple[str, str, object], ...]:
    """The front-matter keys of a new record: those at least three quarters of the records
    with front matter carry, or of the latest of them (a log whose early records are stubs, or
    that added keys at some point); the title, status and date keys always."""
    with_fm = [d for d in records if d.front_matter]
    wanted = style.status.where == "front-matter" or (
        style.date is not None and style.date.where == "front-matter"
    )
    if not wanted and (not with_fm or 2 * len(with_fm) < len(records)):
        return ()
    latest = {d.path for d in with_fm[-names.RECENT :]}
    seen: dict[str, list[tuple[str | None, object, int, bool]]] = {}
    for d in with_fm:
        for key, value in d.front_matter.items():
            role = _role(key, value, d, style)
            at = d.front_matter_lines.get(key, 99)
            seen.setdefault(key, []).append((role, value, at, d.path in latest))
    keep: list[tuple[float, str, str, object]] = []
    for key, uses in seen.items():
        recent = [u for u in uses if u[3]]
        shared = len(uses) >= STRONG * len(with_fm) or len(recent) >= STRONG * len(latest)
        role = vote(r for r, _, _, _ in uses)
        values = [v for _, v, _, _ in uses]
        constant = all(v == values[0] for v in values) and len(uses) >= min(len(with_fm), 2)
        if role is None and constant and not isinstance(values[0], dict):
            role = "constant"
        essential = role in ("status", "date") or (role == "title" and style.h1 is None)
        if role is None or not (shared or essential):
            continue
        sample = values[-1] if role in ("constant", "number") else None
        keep.append((sum(at for _, _, at, _ in uses) / len(uses), key, str(role), sample))
    for role, line in (("status", style.status), ("date", style.date)):
        if line is not None and line.where == "front-matter" and not any(
            r == role for _, _, r, _ in keep
        ):
            keep.append((99.0, line.label, role, None))
    return tuple((key, role, sample) for _, key, role, sample in sorted(keep))


def _header(records: Sequence[Decision], style: Style) -> tuple[str, ...]:
    fields = [f for f, line in (("status", style.status), ("date", style.date))
              if line is not None and line.where == "line"]
    if len(fields) < 2:
        return tuple(fields)
    orders = [("status", "date") if d.statuses[0].line < d.date_line else ("date", "status")
              for d in records if d.statuses and d.date]
    return tuple(vote(orders, ("status", "date")))


def _gap(records: Sequence[Decision], style: Style) -> bool:
    """Whether the log leaves a blank line between its header lines (the status and the date
    lines, with or without other lines between them)."""
    if len(style.header) < 2:
        return style.header_gap
    gaps = []
    for d in records:
        if d.statuses and d.date and d.statuses[0].source == "line":
            first, last = sorted((d.statuses[0].line, d.date_line))
            gaps.append(any(not body_line(d, n).strip() for n in range(first + 1, last)))
    return bool(vote(gaps, style.header_gap))


__all__ = ["learn"]
