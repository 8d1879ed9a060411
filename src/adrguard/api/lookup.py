"""One record lookup and one decision row, for every front end.

``show``, ``graph --focus``, ``relationships``, ``context`` and the MCP tools all name a record
the same ways (:func:`find_decision`), and ``list``, ``show`` and the agent tools describe it with
the same row (:func:`decision_row`).
"""

from __future__ import annotations

from typing import Any

from adrguard.core.citations.resolve import index
from adrguard.core.errors import UserError
from adrguard.core.graph import graph
from adrguard.core.graph.resolve import lookup
from adrguard.core.model import Corpus, Decision


def find_decision(corpus: Corpus, key: str) -> Decision:
    """The one record ``key`` names, tried in this order: an id (any case) or a repo-relative
    path; the tail of a path (``0007-x.md``, ``adr/0007-x.md``); a number (``7``, ``0007``,
    ``ADR-7``, ``#7``); a file stem (``0007-x``, or the folder of a one-folder-per-record
    README). No match, or several, is a :class:`UserError` that says what to do. (The matching
    itself is :func:`adrguard.core.graph.resolve.lookup`, which rules use too.)"""
    key = key.strip()
    hits = lookup(corpus, key)
    if not hits:
        raise UserError(f"no decision matches {key!r}: run `adrguard list` to see ids and paths")
    if len(hits) > 1:
        paths = ", ".join(d.path for d in hits)
        raise UserError(f"{key!r} matches several decisions ({paths}): give the path instead")
    return hits[0]


def find_part(corpus: Corpus, key: str) -> tuple[Decision, int | None]:
    """:func:`find_decision`, where ``KEY#N`` names part N of a long record."""
    base, sep, tail = key.partition("#")
    if sep and base and tail.isdigit():
        return find_decision(corpus, base), int(tail)
    return find_decision(corpus, key), None


def decision_row(d: Decision) -> dict[str, Any]:
    """What ``list --format json`` says of a record (``schemas/list.schema.json``); ``show``
    and the agent tools start from the same row. ``summary``: the decision's first sentence
    (:func:`adrguard.core.agent.summary.summary`)."""
    from adrguard.core.agent.summary import summary

    return {
        "id": d.id,
        "number": d.number,
        "title": d.title,
        "status": d.status.value if d.status is not None else None,
        "statusRaw": d.status_raw,
        "date": d.date,
        "path": d.path,
        "format": d.format,
        "archived": d.archived,
        "summary": summary(d),
    }


def describe(corpus: Corpus, d: Decision) -> dict[str, Any]:
    """``show --format json``: the row, the relationships as written (by kind), how they
    resolved (supersedes, superseded by, current successor, ...), and who relies on the record
    (``referencedBy``: the records that refer to it, then the code and documents that cite
    it, when the corpus was scanned for citations)."""
    written: dict[str, list[str]] = {}
    for rel in d.relationships:
        written.setdefault(_WRITTEN[rel.kind.value], []).append(rel.target_raw)
    data = decision_row(d)
    data.update({k: sorted(set(v)) for k, v in written.items()})
    data.update(graph.describe(corpus, d))
    data["referencedBy"] = referenced_by(corpus, d)
    return data


_WRITTEN = {
    "supersedes": "supersedes",
    "superseded-by": "supersededBy",
    "amends": "amends",
    "amended-by": "amendedBy",
    "depends-on": "dependsOn",
    "relates-to": "relatesTo",
    "in-favour-of": "inFavourOf",
}


def referenced_by(corpus: Corpus, d: Decision, ident: str = "id") -> list[dict[str, Any]]:
    """Who relies on ``d``: the records that link to it or declare a relationship with it
    (``kind: decision``, its id named ``ident``), then the code and documents that cite it
    (``kind: code|doc``); each with the referring document's ``title`` and ``date`` where it
    states them (a record's own; a markdown document's front matter, first heading or Date
    field: :mod:`adrguard.core.citations.document`; null for code)."""
    g = graph.build(corpus)
    out: list[dict[str, Any]] = []
    for path in g.referenced_by.get(d.path, ()):
        other = corpus.by_path[path]
        out.append({"kind": "decision", ident: other.id, "path": path, "title": other.title,
                    "date": other.date})
    for cited in index(corpus).by_decision.get(d.path, ()):
        c = cited.citation
        out.append({
            "kind": cited.file.kind,
            "path": cited.path,
            "line": c.line,
            "form": c.form,
            "text": c.text,
            "excerpt": c.excerpt,
            "title": cited.file.title,
            "date": cited.file.date,
        })
    return out
