"""Why each decision an impact names is affected: the mapping behind it. Pure.

For every affected decision, each governor that names it (its own front matter, or a manifest
mapping) with the glob list it declares, where it is declared, and which of the changed files
that list matches. Only declared mappings count: nothing is inferred.
"""

from __future__ import annotations

from typing import Any

from adrguard.core.impact.analysis import Impact, governors, resolve
from adrguard.core.impact.globs import match_globs
from adrguard.core.impact.mapping import Manifest
from adrguard.core.model import Corpus


def mapping_evidence(
    corpus: Corpus, manifest: Manifest | None, impact: Impact
) -> list[dict[str, Any]]:
    """One entry per (affected decision, governor matching some changed file)."""
    affected = {a.decision.path: a for a in impact.affected}
    if not affected:
        return []
    touched = sorted(
        {c.path for c in impact.changes.changes}
        | {c.old_path for c in impact.changes.changes if c.old_path}
    )
    govs, _problems = governors(corpus, manifest)
    out: list[dict[str, Any]] = []
    for gov in govs:
        if gov.via == "front-matter":
            path = gov.decision
        else:
            targets = resolve(corpus, gov.decision)
            if len(targets) != 1:
                continue  # an unknown or ambiguous mapping: reported as an unknown decision
            path = targets[0].path
        entry = affected.get(path)
        if entry is None:
            continue
        files = match_globs(gov.globs, touched) if gov.globs else ()
        if not files:
            continue
        out.append(
            {
                "identifier": entry.decision.id,
                "decisionPath": path,
                "via": gov.via,
                "declaredAt": str(gov.location),
                "declaredAs": gov.decision if gov.via == "manifest" else None,
                "globs": list(gov.globs),
                "files": list(files),
                "note": gov.note,
            }
        )
    out.sort(key=lambda e: (e["identifier"], e["decisionPath"], e["declaredAt"]))
    return out
