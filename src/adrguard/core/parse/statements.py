"""The status a Status section states, read from the section's blocks.

A section may hold more than the status: template help (a quoted explanation of the
vocabulary, a legend line ``proposed / accepted / …``), a ``Date:`` line, a dated history
(``2017-11-22 Proposed`` … ``2017-11-26 Accepted``), a checklist, a table. The rules, in order:

1. Dates alone, help text and template text are not statements.
2. A history of two or more dated entries that name a status: the latest entry counts (the
   last one among entries of the same date).
3. Otherwise the first entry that starts with a status word (after a date, if any).
4. Otherwise template text (``{Deprecated | Proposed | Accepted}``, ``Accepted or Rejected``,
   a bare list of three or more statuses), if the section holds some: the status is that text,
   unknown, never the first word of it.
5. Otherwise the first remaining entry, as written (the status is then unknown).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from adrguard.core.model import Status, StatusStatement
from adrguard.core.parse import formats
from adrguard.core.parse import status as st
from adrguard.core.parse.document import Block
from adrguard.core.vocabulary import STATUS_HEADINGS

_LEGEND_ITEMS = 3  # a bare list naming this many different statuses is a template's legend
_HELP_MIN = 40  # help text explains three statuses: shorter text is a statement or a legend
_KEYS = frozenset(STATUS_HEADINGS)


_MARKUP_CHARS = frozenset("]~*_")  # each of _MARKUP holds one
_MARKUP = ("](", "~", "**", "__")  # markdown that says which part of a line is the status


class _Entry(msgspec.Struct, frozen=True):
    text: str  # plain text of one line (or table row)
    raw: str  # markdown as written
    line: int
    block: Block
    index: int  # line index inside its block (-1 for a table row)

    @property
    def value(self) -> str:
        """What the entry states: the markdown when its markup says which part counts (a link
        to a successor, struck-through history, an emphasised choice), else the plain text."""
        raw = self.raw
        if self.block.checked is None and may_have_markup(raw) and any(m in raw for m in _MARKUP):
            return st.choose(self.raw)
        return self.text


def may_have_markup(raw: str) -> bool:
    """False when ``raw`` holds none of :data:`_MARKUP` for certain: it holds none of the
    characters they are made of."""
    return not _MARKUP_CHARS.isdisjoint(raw)


def _entries(blocks: list[Block], keys: frozenset[str]) -> list[_Entry]:
    """Every line of the section's text blocks; the first line of each list item (only the
    ticked ones in a checklist, also an emoji checklist: ``⬜️ Proposed`` / ``✅ Accepted``); the
    rows of a table (a ``| Status | Accepted |`` row: its value)."""
    out: list[_Entry] = []
    checklist = any(b.kind == "item" and b.checked is not None for b in blocks)
    for b in blocks:
        if b.kind == "cell":
            continue
        if b.kind == "item":
            if checklist and not b.checked:
                continue
            out.append(_Entry(b.text.split("\n", 1)[0], b.raw.split("\n", 1)[0], b.line, b, 0))
        else:
            texts = b.text.split("\n")
            raws = b.raw.split("\n")
            same = len(raws) == len(texts)
            for i, t in enumerate(texts):
                out.append(_Entry(t, raws[i] if same else t, b.line + i, b, i))
    for row in rows(blocks):
        texts = [c.text.strip() for c in row]
        if len(row) >= 2 and formats.cell_label(texts[0]) in keys:
            texts = texts[1:]
        out.append(_Entry(" ".join(texts), " | ".join(texts), row[0].line, row[0], -1))
    marks = [st.ticked(e.text) for e in out]
    if any(m is False for m in marks) and any(marks):  # an emoji checklist: its ticked entries
        out = [e for e, m in zip(out, marks, strict=True) if m is None or m]
    return out


def rows(blocks: list[Block]) -> list[list[Block]]:
    """The table rows among ``blocks``: their cells grouped by line, in order."""
    grouped: dict[int, list[Block]] = {}
    for b in blocks:
        if b.kind == "cell":
            grouped.setdefault(b.line, []).append(b)
    return list(grouped.values())


def _is_date(text: str) -> bool:
    label = formats.label_line(text)
    return bool(label and formats.is_date_label(label[0])) or formats.bare_date(text) is not None


def _statement(entry: _Entry, status: Status, whole: bool) -> StatusStatement:
    raw = entry.block.raw.strip() if whole else entry.raw.strip()
    return StatusStatement(raw, status, entry.line, "section")


def section_statement(
    blocks: list[Block], synonyms: Mapping[str, str], keys: frozenset[str] = frozenset()
) -> StatusStatement | None:
    """The status stated by a Status section's blocks (see the module docstring); ``keys``:
    the labels that name the status (a table row's first cell)."""
    usable: list[_Entry] = []
    templates: list[_Entry] = []
    skipped: set[int] = set()  # blocks with a line that is not part of the statement
    for e in _entries(blocks, keys or _KEYS):
        folded = st.fold_for(st.compound(e.value), synonyms)
        if not folded or _is_date(e.text):
            skipped.add(id(e.block))
            continue
        if st.is_template_text(folded, synonyms, st.is_braced(e.value)):
            templates.append(e)
            skipped.add(id(e.block))
        elif len(folded) > _HELP_MIN and st.is_help_text(folded, synonyms):
            skipped.add(id(e.block))
        else:
            usable.append(e)
    # a dated history needs two dated entries: the dates are read only when two entries or more
    # may hold one (``Accepted`` above ``Supersedes ADR 749`` is one: the patterns stay unused)
    datable = [e for e in usable if st.may_hold_date(e.text)]
    dated = [e for e in datable if st.date_key(e.text) is not None] if len(datable) >= 2 else []
    latest = st.latest_entry([e.value for e in dated], synonyms) if len(dated) >= 2 else None
    if latest is not None:
        e = dated[latest]
        status = st.normalise(st.status_word(e.value, synonyms), synonyms)
        return _statement(e, status, False)
    first = _first_known(usable, synonyms)
    if first is not None and first[0].block.kind == "item" and first[0].block.checked is None:
        known = [(e, st.normalise(e.value, synonyms)) for e in usable]
        known = [(e, s) for e, s in known if s is not Status.UNKNOWN]
        if _is_legend(known):
            listed = " | ".join(x.text.strip() for x, _ in known)
            return StatusStatement(listed, Status.UNKNOWN, first[0].line, "section")
    if first is not None:
        e, status = first
        whole = e.index == 0 and e.block.kind == "paragraph" and id(e.block) not in skipped
        return _statement(e, status, whole)
    if templates:  # template text left in place, perhaps with a note on how to fill it in
        return _statement(templates[0], Status.UNKNOWN, False)
    if usable:
        e = usable[0]
        whole = e.block.kind == "paragraph" and id(e.block) not in skipped
        return _statement(e, Status.UNKNOWN, whole)
    return None


def _first_known(
    usable: list[_Entry], synonyms: Mapping[str, str]
) -> tuple[_Entry, Status] | None:
    for e in usable:
        status = st.normalise(e.value, synonyms)
        if status is not Status.UNKNOWN:
            return e, status
    return None


def _is_legend(known: list[tuple[_Entry, Status]]) -> bool:
    """A bare list of statuses, one per item and no dates: the template's list of choices."""
    items = [(e, s) for e, s in known if e.block.kind == "item" and e.block.checked is None]
    if len(items) < _LEGEND_ITEMS or len(items) != len(known):
        return False
    return len({s for _, s in items}) >= _LEGEND_ITEMS
