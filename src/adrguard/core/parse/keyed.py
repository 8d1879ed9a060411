"""Relationship keys (``supersedes``, ``superseded-by``, ``amends`` ...) and the relationships a
line declares besides the English relation wording of :mod:`.relations`: supersession in other
languages (:mod:`.successors`) and relation keys written as body lines or table rows.

Some logs write their metadata as bare ``key: value`` lines under the title instead of front
matter (``superseded_by: 0007-new-way``), or as a metadata table (``| Superseded by | [ADR
5](…) |``). Such a line or row declares what the same key declares in front matter: its
targets are the links, ids and file stems of the value. A value that says there is none
(``N/A``, ``none``, ``—``) declares nothing, and a value about a part (``parts of ADR-3``) is an
amendment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from adrguard.core.lazyre import lazy
from adrguard.core.model import RelKind
from adrguard.core.parse import formats, successors
from adrguard.core.parse.document import Block, Span

FRONT_MATTER_KEYS: Mapping[str, RelKind] = {
    "supersedes": RelKind.SUPERSEDES,
    "superseded-by": RelKind.SUPERSEDED_BY,
    "supersededby": RelKind.SUPERSEDED_BY,
    "replaces": RelKind.SUPERSEDES,
    "replaced-by": RelKind.SUPERSEDED_BY,
    "depends-on": RelKind.DEPENDS_ON,
    "dependson": RelKind.DEPENDS_ON,
    "amends": RelKind.AMENDS,
    "amended-by": RelKind.AMENDED_BY,
    "enhances": RelKind.AMENDS,  # an addition to a record, in force beside it
    "enhanced-by": RelKind.AMENDED_BY,
    "updates": RelKind.AMENDS,  # IETF RFC header fields: Updates / Updated-By
    "updated-by": RelKind.AMENDED_BY,
    "obsoletes": RelKind.SUPERSEDES,  # IETF RFC header fields: Obsoletes / Obsoleted-By
    "obsoleted-by": RelKind.SUPERSEDED_BY,
    "relates-to": RelKind.RELATES_TO,
    "related-to": RelKind.RELATES_TO,
}
_LONGEST_KEY = max(map(len, FRONT_MATTER_KEYS))
# Keys a body line or table row may declare: supersession and amendment only (a dependency or a
# "related" line in prose is a reference, not a claim about which record is in force).
_LINE_KINDS = frozenset(
    {RelKind.SUPERSEDES, RelKind.SUPERSEDED_BY, RelKind.AMENDS, RelKind.AMENDED_BY}
)
_PARTIAL_KIND = {RelKind.SUPERSEDES: RelKind.AMENDS, RelKind.SUPERSEDED_BY: RelKind.AMENDED_BY}
_CAMEL = lazy(r"(?<=[a-z])(?=[A-Z])")
_NONE = lazy(
    r"^\W*(?:n/?a|none|nothing|no|nil|null|tbd|keine?|aucune?|ninguno|ninguna|nenhum|nenhuma"
    r"|nessuno|geen|нет|无|無|なし|없음)\b",
    re.I,
)
_PART = lazy(r"\b(?:parts?|portions?|aspects?|partially|partly|in\s+part|some\s+of)\b", re.I)

_NUMBER = lazy(r"(?<![\w.\-/])\d{1,6}(?![\w.\-/])")

Declared = tuple[RelKind, successors.Target]


def front_matter_key(key: str) -> RelKind | None:
    """The relationship a key names (``superseded_by``, ``Superseded-By``, ``supersededBy``)."""
    key = key.strip()
    if len(key) > _LONGEST_KEY:
        return None  # folding never shortens a key (dashes are added, letters fold to 1 or more)
    # a camel-case boundary needs a capital after the first character: none when the rest
    # of the key is lower case (``superseded_by``, ``Status``)
    camel = key if key[1:].islower() else _CAMEL.sub("-", key)
    folded = camel.replace("_", "-").replace(" ", "-").casefold()
    return FRONT_MATTER_KEYS.get(folded)


def declared(text: str, spans: list[Span], status: bool, successor: bool) -> list[Declared]:
    """What one line declares beyond English relation wording: a relation key line, and
    supersession phrases in any language (``status``: the line states the record's status;
    ``successor``: :func:`successors.has_keyword` of the line lowered)."""
    out: list[Declared] = []
    label = formats.label_line(text)
    kind = front_matter_key(label[0]) if label else None
    if kind in _LINE_KINDS and label is not None:
        at = text.find(label[1])
        value_spans = [
            Span(s.start - at, s.end - at, s.link) for s in spans if s.start >= at
        ]
        out.extend(_value(kind, label[1], value_spans))
    if successor:
        for phrase in successors.phrases(successors.mark(text, spans), status):
            out.extend((phrase.kind, t) for t in phrase.targets)
    return out


def _value(kind: RelKind | None, value: str, spans: list[Span]) -> Iterator[Declared]:
    """The targets of a relation key's value."""
    if kind is None or _NONE.match(value):
        return
    if _PART.search(value):
        kind = _PARTIAL_KIND.get(kind, kind)
    marked = successors.mark(value, spans)
    for names in marked.targets:
        for target in names:
            yield kind, target
    if not marked.targets:  # a key's value may be a bare number: ``Superseded-By: 0007``
        for number in _NUMBER.findall(value):
            yield kind, (number, "", 1)


def table_rows(cells: list[Block]) -> Iterator[tuple[RelKind, successors.Target, int]]:
    """Relation keys in metadata tables: ``| Supersedes | [ADR 3](0003-x.md) |``."""
    rows: dict[int, list[Block]] = {}
    for c in cells:
        rows.setdefault(c.line, []).append(c)
    for line, row in rows.items():
        if len(row) < 2:
            continue
        kind = front_matter_key(formats.cell_label(row[0].text))
        if kind not in _LINE_KINDS:
            continue
        for found, target in _value(kind, row[1].text, row[1].spans):
            yield found, target, line
