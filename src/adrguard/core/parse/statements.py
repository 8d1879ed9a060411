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
from dataclasses import dataclass

from adrguard.core.model import Status, StatusStatement
from adrguard.core.parse import formats
from adrguard.core.parse import status as st
from adrguard.core.parse.document import Block

_LEGEND_ITEMS = 3  # a bare list naming this many different statuses is a template's legend
_HELP_MIN = 40  # help text explains three statuses: shorter text is a statement or a legend


@dataclass(frozen=True, slots=True)
class _Entry:
    text: str  # plain text of one line (or table row)
    raw: str  # markdown as written
    line: int
    block: Block
    index: int  # line index inside its block (-1 for a table row)


def _entries(blocks: list[Block]) -> list[_Entry]:
    """Every line of the section's text blocks; the first line of each list item (only the
    ticked ones in a checklist); the rows of a table."""
    out: list[_Entry] = []
    checklist = any(b.kind == "item" and b.checked is not None for b in blocks)
    rows: dict[int, list[tuple[str, Block]]] = {}
    for b in blocks:
        if b.kind == "cell":
            rows.setdefault(b.line, []).append((b.text.strip(), b))
        elif b.kind == "item":
            if checklist and not b.checked:
                continue
            out.append(_Entry(b.text.split("\n", 1)[0], b.raw.split("\n", 1)[0], b.line, b, 0))
        else:
            texts = b.text.split("\n")
            raws = b.raw.split("\n")
            same = len(raws) == len(texts)
            for i, t in enumerate(texts):
                out.append(_Entry(t, raws[i] if same else t, b.line + i, b, i))
    for line, cells in rows.items():
        texts = [c for c, _ in cells]
        out.append(_Entry(" ".join(texts), " | ".join(texts), line, cells[0][1], -1))
    return out


def _is_date(text: str) -> bool:
    label = formats.label_line(text)
    return bool(label and formats.is_date_label(label[0])) or formats.bare_date(text) is not None


def _statement(entry: _Entry, status: Status, whole: bool) -> StatusStatement:
    raw = entry.block.raw.strip() if whole else entry.raw.strip()
    return StatusStatement(raw, status, entry.line, "section")


def section_statement(blocks: list[Block], synonyms: Mapping[str, str]) -> StatusStatement | None:
    """The status stated by a Status section's blocks (see the module docstring)."""
    usable: list[_Entry] = []
    templates: list[_Entry] = []
    skipped: set[int] = set()  # blocks with a line that is not part of the statement
    for e in _entries(blocks):
        folded = st.fold(e.text)
        if not folded or _is_date(e.text):
            skipped.add(id(e.block))
            continue
        if st.is_template_text(folded, synonyms, st.is_braced(e.text)):
            templates.append(e)
            skipped.add(id(e.block))
        elif len(folded) > _HELP_MIN and st.is_help_text(folded, synonyms):
            skipped.add(id(e.block))
        else:
            usable.append(e)
    dated = [e for e in usable if st.date_key(e.text) is not None]
    latest = st.latest_entry([e.text for e in dated], synonyms) if len(dated) >= 2 else None
    if latest is not None:
        e = dated[latest]
        status = st.normalise(st.status_word(e.text, synonyms), synonyms)
        return _statement(e, status, False)
    first = _first_known(usable, synonyms)
    if first is not None and first[0].block.kind == "item" and first[0].block.checked is None:
        known = [(e, st.normalise(e.text, synonyms)) for e in usable]
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
        status = st.normalise(e.text, synonyms)
        if status is not Status.UNKNOWN:
            return e, status
    return None


def _is_legend(known: list[tuple[_Entry, Status]]) -> bool:
    """A bare list of statuses, one per item and no dates: the template's list of choices."""
    items = [(e, s) for e, s in known if e.block.kind == "item" and e.block.checked is None]
    if len(items) < _LEGEND_ITEMS or len(items) != len(known):
        return False
    return len({s for _, s in items}) >= _LEGEND_ITEMS
