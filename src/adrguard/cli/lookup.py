"""Find one decision from what a user typed (id, number, path) and describe it."""

from __future__ import annotations

import re
from typing import Any

from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, Decision, RelKind

_NUMBER = re.compile(r"^(?:adr[-_ ]?)?#?0*(\d+)$", re.IGNORECASE)


def find_decision(corpus: Corpus, key: str) -> Decision:
    key = key.strip()
    hits = list(corpus.find(key))
    if not hits:
        hits = [d for d in corpus.decisions if d.path.endswith("/" + key) or d.path == key]
    if not hits:
        m = _NUMBER.match(key)
        if m:
            n = int(m.group(1))
            hits = [d for d in corpus.decisions if d.number == n]
    if not hits:
        raise UserError(f"no decision matches {key!r}: run `adrguard list` to see ids and paths")
    if len(hits) > 1:
        paths = ", ".join(d.path for d in hits)
        raise UserError(f"{key!r} matches several decisions ({paths}): give the path instead")
    return hits[0]


def describe(corpus: Corpus, d: Decision) -> dict[str, Any]:
    """Metadata plus relationships; resolved through the graph module when it is available."""
    rels: dict[str, list[str]] = {}
    keys = {
        RelKind.SUPERSEDES: "supersedes",
        RelKind.SUPERSEDED_BY: "supersededBy",
        RelKind.AMENDS: "amends",
        RelKind.AMENDED_BY: "amendedBy",
        RelKind.DEPENDS_ON: "dependsOn",
        RelKind.RELATES_TO: "relatesTo",
        RelKind.IN_FAVOUR_OF: "inFavourOf",
    }
    extra: dict[str, Any] = {}
    try:
        from adrguard.core import graph
    except ModuleNotFoundError:  # pragma: no cover - graph family not built
        graph = None  # type: ignore[assignment]
    for rel in d.relationships:
        rels.setdefault(keys[rel.kind], []).append(rel.target_raw)
    if graph is not None and hasattr(graph, "describe"):
        extra = graph.describe(corpus, d)
    data: dict[str, Any] = {
        "id": d.id,
        "number": d.number,
        "title": d.title,
        "status": d.status.value if d.status is not None else None,
        "statusRaw": d.status_raw,
        "date": d.date,
        "path": d.path,
        "format": d.format,
        "archived": d.archived,
    }
    data.update({k: sorted(set(v)) for k, v in rels.items()})
    data.update(extra)
    return data
