"""Learn where and how a log writes relations (``Supersedes`` in the Status section, a
``## Links`` bullet, a front-matter key), with which link text, and on which side of a pair.
Part of :mod:`.learn`. Pure."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from adrguard.core.authoring.habits import (
    BULLET,
    DIGITS,
    body_line,
    heading_line,
    number_template,
    section_of,
    vote,
)
from adrguard.core.authoring.style import Place, Style
from adrguard.core.conventions.log import Log
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, RelKind, Status
from adrguard.core.parse import formats, ids
from adrguard.core.parse.keyed import front_matter_key

ONE_SIDED = 2  # relations of one kind, none of the other, before a log writes only one side
_LINK = lazy(r"\[[^\]]*\]\(")


def _target(d: Decision, raw: str, log: Log) -> Decision | None:
    path = raw.split("#", 1)[0]
    if not path or "://" in path:
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(d.path), path))
    return next((x for x in log.records if x.path == joined), None)


def _link_kind(text: str, t: Decision) -> str | None:
    clean = text.strip()
    if t.title and t.number is not None and clean.startswith(f"{t.number}.") and t.title in clean:
        return "numbered-title"
    if t.title and clean == t.title:
        return "title"
    if clean == formats.record_name(t.path, t.root):
        return "stem"
    token = ids.id_token(clean)
    if token is not None and token[1] == t.number:
        return "id"
    return None


def _place_of(d: Decision, rel_line: int, origin: str) -> Place | None:
    if origin == "status":
        return None if d.statuses and d.statuses[0].line == rel_line else Place("status")
    index = section_of(d, rel_line)
    raw = body_line(d, rel_line)
    bullet = BULLET.match(raw)
    lead = bullet.group(0) if bullet else ""
    if index is None or d.sections[index].level == 1:
        return Place("header", bullet=lead)
    return Place("section", heading_line(d, index), lead)


def relations(records: Sequence[Decision], log: Log, style: Style) -> dict[str, Any]:
    places: list[Place | None] = []
    links: list[str | None] = []
    id_forms: list[str | None] = []
    keys: dict[str, str] = {}
    values: list[str] = []
    inline: list[bool] = []
    kinds: Counter[RelKind] = Counter()
    for d in records:
        for name, value in d.front_matter.items():  # a relation key kept empty until it applies
            empty = front_matter_key(name) if value in (None, "", []) else None
            if empty is not None:
                keys.setdefault(empty.value, name)
                places.append(Place("front-matter"))
        if d.status is Status.SUPERSEDED and d.status_raw:
            inline.append(bool(_LINK.search(d.status_raw) or DIGITS.search(d.status_raw)))
        for rel in d.relationships:
            kinds[rel.kind] += 1
            if rel.origin == "front-matter":
                key = next((k for k in d.front_matter if front_matter_key(k) is rel.kind), None)
                if key is not None:
                    keys.setdefault(rel.kind.value, key)
                    places.append(Place("front-matter"))
                    values.append(_value_kind(rel.target_raw, rel.text))
                continue
            places.append(_place_of(d, rel.location.line, rel.origin))
            t = _target(d, rel.target_raw, log)
            if t is not None and rel.text:
                kind = _link_kind(rel.text, t)
                links.append(kind)
                if kind == "id":
                    id_forms.append(number_template(rel.text.strip(), t.number))
    place = vote(places, style.place)
    if place.where == "front-matter":
        place = Place("front-matter", keys=tuple(sorted(_all_keys(keys).items())),
                      value=vote(values, "id"))
    out: dict[str, Any] = {"place": place, "link": vote(links, style.link)}
    out["id_text"] = vote(id_forms, style.id_text)
    if inline:
        out["inline_successor"] = 2 * sum(inline) >= len(inline)
    sides = _sides(kinds[RelKind.SUPERSEDES], kinds[RelKind.SUPERSEDED_BY], "both")
    amend = _sides(kinds[RelKind.AMENDS], kinds[RelKind.AMENDED_BY], sides)
    if kinds and "both" in (sides, amend) and (min(kinds[RelKind.SUPERSEDES],
            kinds[RelKind.SUPERSEDED_BY]) or min(kinds[RelKind.AMENDS], kinds[RelKind.AMENDED_BY])):
        sides = amend = "both"  # a log that writes one kind of pair on both sides writes both
    out["sides"], out["amend_sides"] = sides, amend
    return out


def _sides(forward: int, backward: int, default: str) -> str:
    """Which records of a pair the log writes the relation in: both, only the old one
    (``Superseded by``), or only the new one (``Supersedes``). One relation is no habit (it
    may be the first one adrguard wrote): one side needs :data:`ONE_SIDED` of them."""
    if forward >= ONE_SIDED and not backward:
        return "new"
    if backward >= ONE_SIDED and not forward:
        return "old"
    return "both" if forward or backward else default


def _value_kind(raw: str, text: str) -> str:
    if text and raw:
        return "link"
    if raw.isdigit():
        return "number"
    return "path" if raw.lower().endswith((".md", ".markdown")) else "id"


def _all_keys(keys: Mapping[str, str]) -> dict[str, str]:
    """A key for every relation kind, in the style of the keys the log writes."""
    sample = next((k for k in keys.values() if re.search(r"[-_ ]|[a-z][A-Z]", k)), "")
    out = dict(keys)
    for kind in RelKind:
        if kind.value in out:
            continue
        words = kind.value.split("-")
        if "_" in sample:
            out[kind.value] = "_".join(words)
        elif re.search(r"[a-z][A-Z]", sample):
            out[kind.value] = words[0] + "".join(w.title() for w in words[1:])
        else:
            out[kind.value] = kind.value
    return out
