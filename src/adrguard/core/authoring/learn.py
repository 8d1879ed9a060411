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

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adrguard.core.authoring import names
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
from adrguard.core.conventions.sections import Requirement, fold
from adrguard.core.model import Decision, Status
from adrguard.core.parse import formats


def _age(d: Decision) -> tuple[bool, int, str, str]:
    """Oldest first: by number, else by date, then by path."""
    return (d.number is not None, d.number or 0, d.date or "", d.path)


def learn(log: Log, synonyms: Mapping[str, str], fmt: str | None = None,
          required: Mapping[str, tuple[str, ...]] | None = None) -> Style:
    """The style of ``log`` (in format ``fmt`` when given). ``required``: the required
    sections per format (a new record always carries the ones the log writes)."""
    vocabulary = by_status(synonyms)
    records = [d for d in log.substantive if d.format != "generic" or not fmt]
    naming = names.learn(
        log.scheme, (log.name_of(d) for d in sorted(log.all, key=_age)),
        [(d.path, d.root) for d in sorted(log.all, key=_age) if not d.archived],
    ) if log.all else None
    chosen = fmt or log.dominant_format or vote(d.format for d in records) or "nygard"
    if chosen not in BUILT_IN:
        chosen = "nygard"
    base = built_in(chosen)
    if naming is not None:
        base = replace(base, names=naming)
    same = [d for d in records if d.format == chosen] or ([] if fmt else records)
    if not same:
        return base
    style = replace(
        base,
        status=_status_line(same) or base.status,
        words=_words(log.substantive, vocabulary),
        casing=_casing(log.substantive, vocabulary),
        learned=True,
    )
    date = _date_line(same)
    habit = log.date_habit
    undated = len(same) >= MIN_LEARN and 4 * sum(bool(d.date) for d in same) < len(same)
    style = replace(
        style,
        date=None if undated else date or style.date,
        date_example=habit.example if habit.learned else "",
        day_first=habit.day_first,
    )
    style = replace(style, h1=_h1(same, base.h1), front_matter=_front_matter(same, style))
    style = replace(style, fm_title=_fm_title(same))
    style = replace(style, header=_header(same, style), header_gap=_gap(same, style))
    style = replace(style, sections=_sections(same, style, (required or {}).get(chosen, ()), log))
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
    return vote(found)  # type: ignore[no-any-return]


def _labelled(raw: str, value: str) -> Line | None:
    """``* Status: accepted`` -> Line("line", "* Status: "); None when the value is not on the
    line as written."""
    at = raw.rfind(value) if value else -1
    if at <= 0:
        return None
    return Line("line", raw[:at], raw[at + len(value) :] if raw[at + len(value):].isspace() else "")


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


def by_status(synonyms: Mapping[str, str]) -> dict[str, list[str]]:
    """The vocabulary's words of each status, longest first (sorted once per :func:`learn`)."""
    out: dict[str, list[str]] = {}
    for word, value in synonyms.items():
        out.setdefault(value, []).append(word)
    return {k: sorted(v, key=len, reverse=True) for k, v in out.items()}


def written_word(raw: str, status: Status, words: Mapping[str, list[str]]) -> str | None:
    """The status word as ``raw`` writes it (``Accepted``, ``✅ Accepted``, ``PROPOSED``), or
    None for a statement that does not open with its word (a dated entry, a sentence).
    ``words``: :func:`by_status` of the vocabulary."""
    text = raw.strip().strip("*_`").strip()
    start = next((i for i, c in enumerate(text) if c.isalpha()), None)
    if start is None or any(c.isalnum() or c in "[(<" for c in text[:start]):
        return None
    folded = text[start:].casefold()
    for word in words.get(status.value, ()):
        size = len(word)
        if folded.startswith(word) and not folded[size : size + 1].isalnum():
            written = text[start : start + size]
            if status is Status.SUPERSEDED:
                written = re.sub(r"\s+by$", "", written, flags=re.I)
            return text[:start] + written
    return None


def _plain(word: str) -> str:
    return "".join(c for c in word if c.isalpha() or c == " ").strip().casefold()


def _words(records: Sequence[Decision], synonyms: Mapping[str, list[str]]) -> dict[str, str]:
    """The log's word for each status: its spelling of the plain word (``Proposed``,
    ``🤔 Proposed``, ``PROPOSED``), else another word the log uses for it in two records or more
    (``Proposé``, ``Pending``); a word written once (``on hold``) is not a habit."""
    found: dict[str, list[str]] = {}
    for d in records:
        for stmt in d.statuses[:1]:
            word = None
            if stmt.status is not Status.UNKNOWN:
                word = written_word(stmt.raw, stmt.status, synonyms)
            if word is not None:
                found.setdefault(stmt.status.value, []).append(word)
    out: dict[str, str] = {}
    for status, words in found.items():
        plain = [w for w in words if _plain(w) == status]
        if plain:
            out[status] = str(vote(plain))
            continue
        best = vote(words)
        if best is not None and words.count(best) >= 2:
            out[status] = str(best)
    return out


def _casing(records: Sequence[Decision], synonyms: Mapping[str, list[str]]) -> str:
    def kind(word: str) -> str:
        letters = "".join(c for c in word if c.isalpha())
        if len(letters) > 1 and letters.isupper():
            return "upper"
        return "lower" if letters[:1].islower() else "title"

    words = [w for d in records for s in d.statuses[:1]
             if s.status is not Status.UNKNOWN and (w := written_word(s.raw, s.status, synonyms))]
    return str(vote((kind(w) for w in words), "title"))


# --- title, front matter, header ----------------------------------------------------------


def _template(raw: str | None, d: Decision) -> str | None:
    title = d.title
    if not raw or not title:
        return None
    raw = raw.strip()
    if not raw.endswith(title):
        return "{title}" if raw == title else None
    prefix = number_template(raw[: len(raw) - len(title)], d.number)
    return None if prefix is None else prefix + "{title}"


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
    with_fm = [d for d in records if d.front_matter]
    wanted = style.status.where == "front-matter" or (
        style.date is not None and style.date.where == "front-matter"
    )
    if not with_fm or (2 * len(with_fm) < len(records) and not wanted):
        return ()
    seen: dict[str, list[tuple[str | None, object, int]]] = {}
    for d in with_fm:
        for key, value in d.front_matter.items():
            role = _role(key, value, d, style)
            seen.setdefault(key, []).append((role, value, d.front_matter_lines.get(key, 99)))
    keep: list[tuple[float, str, str, object]] = []
    for key, uses in seen.items():
        role = vote(r for r, _, _ in uses)
        values = [v for _, v, _ in uses]
        constant = all(v == values[0] for v in values) and len(uses) >= min(len(with_fm), 2)
        if role is None and constant and not isinstance(values[0], dict):
            role = "constant"
        essential = role in ("status", "date")
        if role is None or (len(uses) < STRONG * len(with_fm) and not essential):
            continue
        sample = values[-1] if role in ("constant", "number") else None
        keep.append((sum(line for _, _, line in uses) / len(uses), key, str(role), sample))
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


def _sections(records: Sequence[Decision], style: Style, required: Sequence[str],
              log: Log) -> tuple[tuple[int, str], ...]:
    count: Counter[tuple[int, str]] = Counter()
    spelled: dict[tuple[int, str], list[str]] = {}
    place: dict[tuple[int, str], list[float]] = {}
    for d in records:
        heads = [s for s in d.sections if s.level in (2, 3)]
        seen: set[tuple[int, str]] = set()
        for rank, s in enumerate(heads):
            key = (s.level, fold(s.title))
            if key in seen:
                continue  # the same heading twice in one record counts once
            seen.add(key)
            count[key] += 1
            m = HEADING.match(body_line(d, s.line))
            spelled.setdefault(key, []).append(m.group(2) if m else s.title)
            place.setdefault(key, []).append(rank / max(len(heads), 1))
    if len(records) < MIN_LEARN:  # too few records for a majority: the latest one's headings
        latest = {(s.level, fold(s.title)) for s in records[-1].sections if s.level in (2, 3)}
        count = Counter({k: n for k, n in count.items() if k in latest})
        kept = [k for k in count if k[1]]
    else:
        kept = [k for k, n in count.items() if 2 * n >= len(records) and k[1]]
    kept.sort(key=lambda k: sum(place[k]) / len(place[k]))
    out = [(level, str(vote(spelled[(level, name)]))) for level, name in kept]
    if style.status.where == "section":
        label = style.status.label.lstrip("#").strip()
        if not any(fold(h) == fold(label) for _, h in out):
            out.insert(0, (style.status.label.count("#") or 2, label))
    for entry in required:
        requirement = Requirement.parse(entry)
        counted, total = log.share(requirement)
        if total >= MIN_LEARN and 2 * counted < total:
            continue  # the log does not write this section
        if not any(requirement.carried_by(h) for _, h in out):
            default = next((h for _, h in built_in(style.format).sections
                            if requirement.carried_by(h)), entry.split("|")[0].title())
            out.append((2, default))
    return tuple(out)


__all__ = ["by_status", "learn", "written_word"]
