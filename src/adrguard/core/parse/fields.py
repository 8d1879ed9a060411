"""What a record says, read from its front matter and its one markdown pass: the title, every
status statement (front matter, a status section, a heading or a ``Status:`` line), the date,
the relationships it declares and its sections. :func:`adrguard.core.parse.record.parse`
builds a :class:`Fields` per record and asks it for the :class:`~adrguard.core.model.Decision`.
"""

from __future__ import annotations

import re
from typing import Any

from adrguard.core.lazyre import lazy
from adrguard.core.model import (
    Decision,
    Location,
    Problem,
    Relationship,
    RelKind,
    Section,
    SourceFile,
    Status,
    StatusStatement,
)
from adrguard.core.options import Options
from adrguard.core.parse import formats, ids, relations
from adrguard.core.parse import status as st
from adrguard.core.parse.document import Block, Document, Heading
from adrguard.core.parse.statements import may_have_markup, rows, section_statement

_HEADING_MARKS = lazy(r"^\s{0,3}#{1,6}[ \t]*|[ \t]+#+[ \t]*$")
_PARTLY = lazy(r"^(?:partly|partially|in part)\s+supers", re.I)
# A label written as code (`` `status`: ``) names a field the record documents, not its own.
_CODE_LABEL = lazy(r"`[^`\n]{1,40}`[*_ \t]*$")
_COLON = lazy(r"[:：]")
_DIGIT = lazy(r"\d")
_DATE_KEYS = ("date", "created", "decision-date", "decision_date")
_MARKUP = ("](", "~", "**", "__")  # markdown that says which part of a status line counts
_STATED_ID = lazy(r"^\s*([A-Za-z]{2,10})-0*(\d{1,6})\s*$")  # ``ST-0001``
# A status as the title's prefix: ``Accepted: Use X``, ``[Draft] Use X``.
_TITLE_STATUS = lazy(r"^\s*(?:\[([^\]\n]{2,30})\]\s*|([^\W\d_][\w ]{1,24}?)\s*:\s+)(?=\S)")
# A front-matter key giving the reason a record was retired (``deprecated-reason``,
# ``deprecation_note``, ``superseded-reason``, ``withdrawal-reason``).
_REASON_KEY = lazy(
    r"^(?:deprecat|supersed|supercede|replac|withdraw|retir|obsolet)\w*[-_ ]?(?:reason|note)s?$",
    re.I,
)


def _status_keys(
    headings: tuple[str, ...],
) -> tuple[tuple[str, ...], re.Pattern[str], frozenset[str]]:
    """Status heading words (casefolded, in order), a pattern that finds any of them, and the
    words as a set."""
    keys = tuple(dict.fromkeys(h.casefold().strip() for h in headings if h.strip()))
    probe = re.compile("|".join(re.escape(k) for k in keys) or "(?!)")
    return keys, probe, frozenset(keys)


def _probe(options: Options) -> tuple[tuple[str, ...], re.Pattern[str], frozenset[str]]:
    """:func:`_status_keys` of the options' status headings, kept on the options (per run)."""
    return options.derived("status keys", lambda: _status_keys(tuple(options.status_headings)))


def _names_status(text: str, keys: frozenset[str], probe: re.Pattern[str]) -> bool:
    """Whether a heading names the status section (``keys`` and ``probe``: :func:`_probe`'s)."""
    folded = text.casefold()
    return folded in keys or (
        probe.search(folded) is not None and st.is_status_heading(text, keys)
    )


def _status_heading_texts(options: Options) -> dict[str, bool]:
    """Heading text -> :func:`_names_status` of it, for the run (kept on the options)."""
    return options.derived("status heading texts", dict)


def _without_marks(line: str) -> str:
    """``_HEADING_MARKS.sub("", line).strip()`` of one line (no line break): the closing
    alternative needs the line to end in ``#`` (and spaces or tabs), so a line that does not
    loses only what the opening alternative matches at its start, without a search along it."""
    if line.rstrip(" \t").endswith("#"):
        return _HEADING_MARKS.sub("", line).strip()
    m = _HEADING_MARKS.match(line)
    return (line[m.end() :] if m else line).strip()


class Fields:
    """What one parsed record says (its front matter and its markdown document): title,
    statuses, date, relationships and sections, assembled into a :class:`Decision`."""

    def __init__(
        self,
        source: SourceFile,
        options: Options,
        fm: dict[str, Any],
        fm_lines: dict[str, int],
        doc: Document,
        body: str,
        name: tuple[str, ids.NameId],
    ) -> None:
        self.body = body
        self.source, self.options = source, options
        self.name, self.own = name  # the record's name and the id parts of it
        self.fm, self.fm_lines, self.doc = fm, fm_lines, doc
        self.fm_folded = {k.casefold(): k for k in fm}
        keys, probe, self.status_keys = _probe(options)
        self.probe = probe
        self.fm_statuses: list[tuple[str, int]] = []
        # fm_value of each status key, in the keys' order: only the keys the front matter
        # holds (one, mostly) are looked at
        held = self.status_keys.intersection(self.fm_folded) if fm else ()
        for key in held if len(held) < 2 else [k for k in keys if k in held]:
            real = self.fm_folded[key]
            value = fm[real]
            raw = (formats.scalar(value) or formats.flow_text(value)) if value is not None else None
            if raw:
                self.fm_statuses.append((raw, fm_lines.get(real, 1)))
        self.status_sections = set()
        # whether a heading text names the status section, kept per text for the run (a run's
        # records repeat their headings; the answer depends on the options' keys alone)
        named = _status_heading_texts(options)
        for i, h in enumerate(doc.headings):
            said = named.get(h.text)
            if said is None:
                said = named[h.text] = _names_status(h.text, self.status_keys, probe)
            if said:
                self.status_sections.add(i)
        first_h2 = next((i for i, h in enumerate(doc.headings) if h.level >= 2), len(doc.headings))
        self.header_limit = first_h2
        self._labels: list[tuple[Block, int, str, str]] | None = None
        self._parents: list[int] | None = None  # index of each heading's parent heading, or -1
        self.by_section: dict[int, list[Block]] = {}
        self.has_cells = False  # whether the body holds a table cell
        for b in doc.blocks:
            if b.kind != "heading":
                self.by_section.setdefault(b.section, []).append(b)
                if b.kind == "cell":
                    self.has_cells = True

    def is_status_label(self, label: str) -> bool:
        """``Status``, ``Statut``, ``상태 (Status)``: a label that introduces the status."""
        if label in self.status_keys:
            return True
        several = "(" in label or "/" in label or " " in label
        return (
            several
            and self.probe.search(label) is not None
            and st.is_status_heading(label, self.status_keys)
        )

    def salvage_statuses(self, lines: dict[str, tuple[str, int]]) -> None:
        """Statuses from front matter YAML could not load, read from its lines as written."""
        keys = _probe(self.options)[0]
        self.fm_statuses = [lines[k] for k in keys if k in lines]

    def fm_value(self, *keys: str) -> tuple[str, Any] | None:
        if not self.fm:
            return None
        for key in keys:
            real = self.fm_folded.get(key)
            if real is not None and self.fm[real] is not None:
                return real, self.fm[real]
        return None

    def in_header(self, block: Block) -> bool:
        return block.section < self.header_limit or block.section in self.status_sections

    # -- title --------------------------------------------------------------------------
    def title(self) -> tuple[str | None, str | None, int, int | None]:
        own = self.own
        found = self.fm_value("title")
        raw = formats.scalar(found[1]) if found else None
        if found and raw:
            cleaned = formats.clean_title(formats.render_inline(raw), own)
            return cleaned.text, raw, self.fm_lines.get(found[0], 1), cleaned.number
        for h in self.doc.headings:
            if h.level == 1:
                return self._heading_title(h)
        for b, _i, label, value in self.label_lines():  # a metadata block's ``Title:`` field
            if label == "title" and self.in_header(b) and b.kind != "heading":
                cleaned = formats.clean_title(formats.render_inline(value), own)
                return cleaned.text, value, b.line + _i, cleaned.number
        for row in self.table_rows():  # a metadata table's ``| **Title** | X |`` row
            label = formats.cell_label(row[0].text) if len(row) >= 2 else ""
            if label == "title" and self.in_header(row[0]):
                value = row[1].text.strip()
                cleaned = formats.clean_title(value, own)
                return cleaned.text, value, row[0].line, cleaned.number
        first = self.doc.headings[0] if self.doc.headings else None
        if first is not None and first.block == 0 and formats.may_be_title(first.text):
            return self._heading_title(first)  # the first thing in the body, not a section
        return None, None, 1, None

    def _heading_title(self, h: Heading) -> tuple[str | None, str | None, int, int | None]:
        first = h.raw.split("\n", 1)[0]
        raw_h = _without_marks(first) if first.lstrip().startswith("#") else first.strip()
        text = h.text
        m = _TITLE_STATUS.match(text) if h.level == 1 else None
        syn = self.options.status_synonyms
        if m is not None and st.match(st.fold_for(m.group(1) or m.group(2), syn),
                                      syn) is not None:
            text = text[m.end() :]  # ``Accepted: Use X``: the status is not part of the title
        cleaned = formats.clean_title(text, self.own)
        return cleaned.text, raw_h, h.line, cleaned.number

    # -- status -------------------------------------------------------------------------
    def statements(self) -> list[StatusStatement]:
        syn = self.options.status_synonyms
        out: list[StatusStatement] = []
        for raw, line in self.fm_statuses:
            out.append(StatusStatement(raw, st.normalise(raw, syn), line, "front-matter"))
        lines = list(self.status_lines())
        header = [s for s, in_header in lines if in_header]
        stated = bool(out or header)  # the record's metadata states a status
        qualified: list[StatusStatement] = []  # ``## Current state``: after the metadata
        for idx in sorted(self.status_sections):
            stmt = self.section_statement(idx)
            if not stmt:
                continue
            nested = self._nested(idx)
            plain = st.is_plain_status_heading(self.doc.headings[idx].text, self.status_keys)
            if stmt.status is Status.UNKNOWN and (
                nested or not plain or (stated and idx >= self.header_limit)
            ):
                continue  # the body's subject (a ``Status`` type, ``## Current status`` prose)
            (out if plain and not nested else qualified).append(stmt)
        for idx, h in enumerate(self.doc.headings):
            if ":" not in h.text and "：" not in h.text:
                continue
            label = formats.label_line(h.text)
            if label and self.is_status_label(label[0]):
                status = st.normalise(label[1], syn)
                if idx >= self.header_limit and (
                    (status is Status.UNKNOWN and (stated or self._nested(idx)))
                    or (stated and self._nested(idx))
                ):
                    continue  # ``#### State: `Ready` `` of a described resource, and
                    # ``##### Status: Proposed`` of a process a record with metadata describes
                out.append(StatusStatement(label[1], status, h.line, "heading"))
        out.extend(header)
        out.extend(qualified)
        if not out:  # a ``Status:`` line further down, when it opens its block or names a status
            opening = self._opening_lines() if lines else frozenset()
            out.extend(
                [s for s, _ in lines if s.line in opening or s.status is not Status.UNKNOWN][:1]
            )
        if not out:
            titled = self._title_status()
            if titled is not None:
                word, h = titled
                out.append(StatusStatement(word, st.normalise(word, syn), h.line, "title"))
        return out

    def _nested(self, idx: int) -> bool:
        """Whether the status heading ``idx`` lies below the record's first H2, under a heading
        of a higher level that is not a status heading (``## Reference`` > ``#### status``)."""
        if self._parents is None:
            parents: list[int] = []
            stack: list[int] = []  # one pass: each heading is pushed and popped once
            for i, h in enumerate(self.doc.headings):
                while stack and self.doc.headings[stack[-1]].level >= h.level:
                    stack.pop()
                parents.append(stack[-1] if stack else -1)
                stack.append(i)
            self._parents = parents
        parent = self._parents[idx]
        if idx < self.header_limit or parent < 0:
            return False
        return self.doc.headings[parent].level >= 2 and parent not in self.status_sections

    def _opening_lines(self) -> frozenset[int]:
        """Lines that open their block (a ``Status:`` line there is not inside a sentence)."""
        return frozenset(b.line for b in self.doc.blocks if b.kind != "heading")

    def _stated_id(self, number: int | None) -> str | None:
        """The id a header bullet states for the record (``* Proposal: [ST-0001](..)``): a
        prefixed id whose number is the file's. Its prefix is the record's series."""
        if number is None:
            return None
        for b, _i, _label, value in self.label_lines():
            if not self.in_header(b) or b.kind == "heading":
                continue
            m = _STATED_ID.match(formats.render_inline(value))
            if m is not None and int(m.group(2)) == number:
                return f"{m.group(1).upper()}-{number:04d}"
        return None

    def _title_status(self) -> tuple[str, Heading] | None:
        """A status written as the title's prefix (``# Accepted: Use X``, ``# [Draft] Use X``):
        (the status word, the H1). Read only when nothing else states one."""
        h1 = next((h for h in self.doc.headings if h.level == 1), None)
        if h1 is None:
            return None
        m = _TITLE_STATUS.match(h1.text)
        if m is None:
            return None
        word = m.group(1) or m.group(2)
        syn = self.options.status_synonyms
        if st.match(st.fold_for(word, syn), syn) is None:
            return None
        return word, h1

    def section_statement(self, idx: int) -> StatusStatement | None:
        blocks = self.by_section.get(idx, [])
        syn = self.options.status_synonyms
        return section_statement(blocks, syn, self.status_keys) if blocks else None

    def label_lines(self) -> list[tuple[Block, int, str, str]]:
        """Every ``Label: value`` line of the body: (block, line index, label, value)."""
        if self._labels is None:
            out: list[tuple[Block, int, str, str]] = []
            for b in self.doc.blocks:
                if b.kind in ("heading", "cell") or (":" not in b.text and "：" not in b.text):
                    continue
                for i, t in enumerate(b.text.split("\n")):
                    label = formats.label_line(t)
                    if label:
                        out.append((b, i, label[0], label[1]))
            self._labels = out
        return self._labels

    def status_lines(self) -> list[tuple[StatusStatement, bool]]:
        syn = self.options.status_synonyms
        out: list[tuple[StatusStatement, bool]] = []
        raw_lines: dict[int, list[str]] = {}
        for b, i, label, value in self.label_lines():
            if not self.is_status_label(label) or b.section in self.status_sections:
                continue
            raw = value
            raws = raw_lines.get(b.start)
            if raws is None:
                raws = b.raw.split("\n")
                raw_lines[b.start] = raws if len(raws) == b.text.count("\n") + 1 else []
                raws = raw_lines[b.start]
            if raws:
                parts = _COLON.split(raws[i], maxsplit=1)
                if len(parts) == 2 and _CODE_LABEL.search(parts[0]) and not self.in_header(b):
                    continue  # ``- `status`: Export status``: a field the record documents
                if len(parts) == 2:
                    raw = formats.unwrap_emphasis(parts[0], parts[1].strip()) or raw
            said = raw if may_have_markup(raw) and any(m in raw for m in _MARKUP) else value
            stmt = StatusStatement(raw, st.normalise(said, syn), b.line + i, "line")
            out.append((stmt, self.in_header(b)))
        table = self.table_rows()
        lines = {row[0].line for row in table}
        for row in table:  # a metadata table: | Status | Accepted |
            label = formats.cell_label(row[0].text)
            if len(row) < 2 or row[0].section in self.status_sections:
                continue
            if self.is_status_label(label):
                raw = row[1].raw.strip().strip("|").strip() or row[1].text.strip()
                status = st.normalise(raw, syn)
                # a header row (| Status | Owner |) names columns unless its value is a status
                header = row[0].line - 1 not in lines and row[0].line - 2 not in lines
                if header and status is Status.UNKNOWN:
                    continue
                stmt = StatusStatement(raw, status, row[0].line, "line")
                out.append((stmt, self.in_header(row[0])))
        out.sort(key=lambda pair: pair[0].line)
        return out

    def table_rows(self) -> list[list[Block]]:
        """The body's table rows (cells grouped by line)."""
        return rows(self.doc.blocks) if self.has_cells else []

    # -- date ---------------------------------------------------------------------------
    def date(self) -> tuple[str | None, int]:
        found = self.fm_value(*_DATE_KEYS)
        raw = formats.scalar(found[1]) if found else None
        if found and raw and not formats.date_placeholder(raw):
            return raw, self.fm_lines.get(found[0], 1)
        fallback: tuple[str | None, int] = (None, 1)
        for b, i, label, value in self.label_lines():  # a template's help text is no date
            if formats.is_date_label(label) and not formats.date_placeholder(value):
                if self.in_header(b):
                    return value, b.line + i
                if fallback[0] is None and _DIGIT.search(value):  # else prose about a field
                    fallback = (value, b.line + i)
        if fallback[0] is None:
            for b in self.doc.blocks:
                if b.section >= self.header_limit:
                    break
                if b.kind == "paragraph":
                    found_date = formats.bare_date(b.text)
                    if found_date:
                        return found_date, b.line
        return fallback

    # -- relationships ------------------------------------------------------------------
    def relationships(self, rid: str, primary: StatusStatement | None) -> tuple[Relationship, ...]:
        syn = self.options.status_synonyms
        partly = bool(primary and _PARTLY.match(st.fold_for(primary.raw, syn)))
        found = relations.collect(
            relations.Where(
                self.source.path, rid, self.fm_lines, self.status_sections, self.is_status_label
            ),
            self.fm,
            self.fm_statuses,
            self.doc.blocks,
            partly,
            self.body,  # its blocks count only when it may declare a relationship
        )
        if (
            primary is not None
            and primary.status in (Status.DEPRECATED, Status.SUPERSEDED)
            and not any(r.kind is RelKind.SUPERSEDED_BY for r in found)
        ):
            found += self._successor_in_reason(rid)
        if (
            primary is None
            or primary.status is not Status.SUPERSEDED
            or any(r.kind is RelKind.SUPERSEDED_BY for r in found)
        ):
            return found
        # "Superseded" without "by": the records its status statement names are the successors.
        loc = Location(self.source.path, primary.line)
        named = relations.named_targets(primary.raw)
        kind = RelKind.SUPERSEDED_BY
        return found + tuple(Relationship(kind, rid, t, loc, text, "status") for t, text in named)

    def _successor_in_reason(self, rid: str) -> tuple[Relationship, ...]:
        """A retired record's front-matter reason (``deprecated-reason: … See ADR-291.``) that
        names exactly one record: that record took over."""
        for key, value in self.fm.items():
            text = formats.scalar(value)
            if text is None or not _REASON_KEY.search(str(key)):
                continue
            named = list(dict.fromkeys(ids.in_text(text)))
            if len(named) == 1:
                loc = Location(self.source.path, self.fm_lines.get(key, 1))
                kind = RelKind.SUPERSEDED_BY
                return (Relationship(kind, rid, named[0], loc, "", "front-matter"),)
        return ()

    # -- assembly -----------------------------------------------------------------------
    def sections(self) -> tuple[Section, ...]:
        grouped = self.by_section
        out = []
        for i, h in enumerate(self.doc.headings):
            blocks = grouped.get(i, [])
            end = blocks[-1].end_line if blocks else h.line
            text = "\n".join([b.text for b in blocks])
            out.append(Section(h.text, h.level, h.line, end, text, h.anchor))
        return tuple(out)

    def build(
        self,
        fallback_id: str,
        number: int | None,
        sha: str,
        text: str,
        offset: int,
        fm_problem: Problem | None,
    ) -> Decision:
        found = self.fm_value("id")
        rid = (
            (formats.scalar(found[1]) if found else None) or self._stated_id(number) or fallback_id
        )
        title, title_raw, title_line, title_number = self.title()
        statements = self.statements()
        primary = statements[0] if statements else None
        date, date_line = self.date()
        header_labels = [
            label for b, i, label, _ in self.label_lines() if b.kind == "item" and self.in_header(b)
        ]
        name = self.name
        fmt = formats.detect(name, self.fm, (h.text for h in self.doc.headings), header_labels)
        paths, comps = formats.governed(self.fm)
        return Decision(
            id=rid,
            path=self.source.path,
            root=self.source.root,
            number=number,
            archived=self.source.archived,
            sha256=sha,
            title=title,
            title_raw=title_raw,
            title_line=title_line,
            title_number=title_number,
            status=primary.status if primary else None,
            status_raw=primary.raw if primary else None,
            status_line=primary.line if primary else 1,
            statuses=tuple(statements),
            date=date,
            date_line=date_line,
            format=fmt,
            front_matter=self.fm,
            front_matter_lines=self.fm_lines,
            sections=self.sections(),
            links=tuple(self.doc.links),
            relationships=self.relationships(rid, primary),
            comments=tuple(self.doc.comments),
            governed_paths=paths,
            governed_components=comps,
            text=text,
            body_line_offset=offset,
            problems=(fm_problem,) if fm_problem else (),
        )
