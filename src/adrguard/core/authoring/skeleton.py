"""The sections of a new record: the headings of the log's own template when it has one, else
the headings the log's records share. Part of :mod:`.learn`. Pure.

Records share a heading when at least half of them write it, counted over the whole log and
over its latest records (:data:`~.names.RECENT`): a log that adopted a richer layout at some
point writes its new records in that layout, and a heading most of its records carry is kept.
A log's template (a file of the log named as one: ``template.md``, ``0000-TEMPLATE.md``) is
what its authors start from: its level-2 and level-3 headings, in order, are the skeleton when
they share a heading with the latest records (a template nobody follows is left aside); its
placeholders (``### [option 1]``, ``## {Title}``) and its prose are left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from adrguard.core.authoring.habits import HEADING, body_line, vote
from adrguard.core.authoring.names import RECENT
from adrguard.core.authoring.style import Style, built_in
from adrguard.core.conventions.log import MIN_LEARN, Log
from adrguard.core.conventions.sections import Requirement, fold
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision
from adrguard.core.parse import formats
from adrguard.core.parse.front_matter import split
from adrguard.core.parse.markdown import walk

Heading = tuple[int, str]  # (level, title as written)


def from_template(text: str) -> tuple[Heading, ...]:
    """The level-2 and level-3 headings of a template, in order, without placeholders."""
    body = split(text)[2]
    out: list[Heading] = []
    for h in walk(body).headings:
        title = " ".join(h.text.split())
        if h.level not in (2, 3) or not title or _placeholder(title):
            continue
        if (h.level, fold(title)) not in {(lv, fold(t)) for lv, t in out}:
            out.append((h.level, title))
    return tuple(out)


_COMMENT = lazy(r"\s*<!--.*?-->\s*")  # a template's note kept in a heading: <!-- optional -->
_VARIABLE = lazy(r"\$\{?[A-Z][A-Z0-9_]*\}?")  # Option 1 - $TITLE, ${NAME}


def _placeholder(title: str) -> bool:
    """``[option 1]``, ``{Title}``, ``<name>``, ``Option 1 - $TITRE``, ``Title of the ADR``:
    the author's to fill."""
    stripped = title.strip()
    return (stripped[:1] in "[{<" or bool(_VARIABLE.search(stripped))
            or formats.is_placeholder_title(stripped))


Key = tuple[int, str]  # (level, folded title)


@dataclass
class _Seen:
    """What the records say of their headings: how each is spelled, where in the record it
    stands (0 first, 1 last) and, for a level-3 heading, the level-2 heading it is under."""

    spelled: dict[Key, list[str]] = field(default_factory=dict)
    place: dict[Key, list[float]] = field(default_factory=dict)
    parent: dict[Key, list[Key]] = field(default_factory=dict)


def _shared(records: Sequence[Decision]) -> tuple[list[Key], _Seen]:
    """The (level, folded title) of the headings at least half of ``records`` carry (the
    latest one's headings when they are fewer than :data:`MIN_LEARN`), and what is seen of
    them."""
    count: Counter[Key] = Counter()
    seen_all = _Seen()
    for d in records:
        heads = [s for s in d.sections if s.level in (2, 3)]
        seen: set[Key] = set()
        above: Key | None = None
        for rank, s in enumerate(heads):
            key = (s.level, fold(s.title))
            if s.level == 2:
                above = key
            if key in seen:
                continue  # the same heading twice in one record counts once
            seen.add(key)
            count[key] += 1
            m = HEADING.match(body_line(d, s.line))
            written = _COMMENT.sub(" ", m.group(2)).strip() if m else ""
            seen_all.spelled.setdefault(key, []).append(written or s.title)
            seen_all.place.setdefault(key, []).append(rank / max(len(heads), 1))
            if s.level == 3 and above is not None:
                seen_all.parent.setdefault(key, []).append(above)
    if len(records) < MIN_LEARN:
        latest = {(s.level, fold(s.title)) for s in records[-1].sections if s.level in (2, 3)}
        kept = [k for k in count if k in latest and k[1]]
    else:
        kept = [k for k, n in count.items() if 2 * n >= len(records) and k[1]]
    return kept, seen_all


def _ordered(kept: list[Key], seen: _Seen) -> list[Key]:
    """``kept`` in the order the records write them: by where they stand, a level-3 heading
    right after the level-2 heading it is most often under (when that one is kept)."""
    def where(k: Key) -> float:
        return sum(seen.place[k]) / len(seen.place[k])

    under = {k: vote(seen.parent.get(k, ())) for k in kept if k[0] == 3}
    top = sorted((k for k in kept if under.get(k) not in kept), key=where)
    out: list[Key] = []
    for k in top:
        out.append(k)
        out += sorted((c for c in kept if under.get(c) == k and c not in top), key=where)
    return out


def sections(records: Sequence[Decision], style: Style, required: Sequence[str], log: Log,
             templates: Sequence[str] = ()) -> tuple[Heading, ...]:
    """The sections of a new record of ``log`` (``records``: those of its format, oldest
    first; ``templates``: the texts of the log's template files)."""
    latest = list(records[-RECENT:])
    every, seen = _shared(records)
    recent = _shared(latest)[0]
    kept = _ordered(every + [k for k in recent if k not in every], seen)
    spelled = seen.spelled
    out = [(level, str(vote(spelled[(level, name)]))) for level, name in kept]
    template = _template(templates, {name for _, name in recent} or {n for _, n in every})
    if template:  # spelled as the records spell the headings they share with it
        out = [(lv, str(vote(spelled[(lv, fold(t))])) if (lv, fold(t)) in spelled else t)
               for lv, t in template]
    for line in (style.status, style.status_also):
        if line is None or line.where != "section":
            continue
        label = line.label.lstrip("#").strip()
        if not any(fold(h) == fold(label) for _, h in out):
            out.insert(0, (line.label.count("#") or 2, label))
    if style.table is not None and style.table.section:
        m = HEADING.match(style.table.section)
        label = m.group(2) if m else style.table.section
        if not any(fold(h) == fold(label) for _, h in out):
            out.insert(0, (len(m.group(1)) if m else 2, label))
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


def _template(templates: Sequence[str], headings: set[str]) -> tuple[Heading, ...]:
    """The skeleton of the template that shares the most headings with ``headings`` (the
    latest records' folded headings); () when none shares one (a log whose records carry no
    heading follows any template)."""
    best: tuple[int, tuple[Heading, ...]] = (0, ())
    for text in templates:
        skeleton = from_template(text)
        shared = sum(fold(t) in headings for _, t in skeleton)
        if skeleton and (shared > best[0] or (not headings and not best[1])):
            best = (shared, skeleton)
    return best[1]
