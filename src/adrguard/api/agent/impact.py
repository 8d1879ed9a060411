"""``analyze_impact``: the decisions a local change should be reviewed against.

The change is what git already holds locally: the files changed from the merge base of
``baseReference`` and the head (``HEAD`` unless ``headReference`` names another commit) to the
head; nothing is fetched, checked out or written. The decisions come from the records' front
matter and from the mapping file the request names (``manifestPath``, read from the work tree).
Impact means "review this decision", never "this change violates it".
"""

from __future__ import annotations

import os
import re
from typing import Any

from msgspec import structs

from adrguard.adapters import git
from adrguard.adapters.reading import read_bytes
from adrguard.api.agent.workspace import (
    SCHEMA_VERSION,
    ConfigurationError,
    InvalidRequest,
    Workspace,
    check_identifier,
    check_relative,
    governing_statuses,
)
from adrguard.core.impact.analysis import analyse, mapping_evidence, to_json
from adrguard.core.impact.mapping import Manifest, ManifestError, parse_manifest

_REVISION = re.compile(r"[\w./@^~{}+-]+")


def _revision(value: str, what: str) -> str:
    ref = check_identifier(value, what)
    if ref.startswith("-") or not _REVISION.fullmatch(ref):
        raise InvalidRequest(
            f"{what} {ref[:80]!r} is not a git revision: give a branch, tag or commit"
        )
    return ref


def read_manifest(ws: Workspace, manifest_path: str, max_size: int) -> Manifest:
    """The mapping file ``manifest_path`` names, read safely from the work tree and validated."""
    rel = check_relative(manifest_path, "manifestPath")
    got = read_bytes(os.path.realpath(ws.root), rel, max_size)
    if got is None:
        raise InvalidRequest(
            f"manifestPath {rel[:200]!r} names no file in the repository: give the path of the "
            "impact mapping file (for example .adrguard-impact.json)"
        )
    data, why = got
    if data is None:
        raise InvalidRequest(f"manifestPath {rel[:200]!r} cannot be read: {why}")
    try:
        return parse_manifest(rel, data)
    except ManifestError as exc:
        raise ConfigurationError(str(exc)) from None


def analyze_impact(
    ws: Workspace,
    base_reference: str,
    manifest_path: str,
    head_reference: str | None = None,
) -> dict[str, Any]:
    """What changed since the merge base, the decisions it touches (with the mapping behind
    each), the mappings that name no usable decision, coverage and what could not be known."""
    from adrguard.api.pipeline.sources import build_changes, head_corpus, resolve_head

    base = _revision(base_reference, "baseReference")
    head = _revision(head_reference, "headReference") if head_reference is not None else None
    config = ws.config()
    manifest = read_manifest(ws, manifest_path, config.options.max_file_size)
    options = config.options
    table = structs.replace(options.impact, manifest=manifest.path)
    config = structs.replace(config, options=structs.replace(options, impact=table))
    statuses = governing_statuses(config)
    with ws.locked():
        git.require_repo(ws.root)
        resolved = resolve_head(ws.root, head)  # once: the corpus and the change share it
        corpus = head_corpus(ws.root, config, resolved, ws.cancel)
        changes = build_changes(ws.root, config, base, resolved, corpus=corpus)
    impact = analyse(corpus, changes, manifest, statuses)
    plain = to_json(impact)
    issues = plain["mappingIssues"]
    unknown = [i for i in issues if i["problem"] in ("unknown", "ambiguous")]
    inactive = [i for i in issues if i["problem"] == "inactive"]
    affected = [
        {
            "identifier": a.pop("id"),
            **a,
        }
        for a in plain["affected"]
    ]
    return {
        "schemaVersion": SCHEMA_VERSION,
        "statement": plain["statement"],
        "repository": {
            "baseReference": base,
            "headReference": plain["head"],
            "baseCommit": plain["baseCommit"],
            "headCommit": plain["headCommit"],
            "mergeBase": plain["mergeBase"],
            "manifestPath": manifest.path,
            "adrRoots": list(corpus.roots),
            "governingStatuses": plain["statuses"],
        },
        "summary": {
            "changedFiles": len(plain["changes"]),
            "affectedDecisions": len(affected),
            "unknownDecisions": len(unknown),
            "inactiveDecisions": len(inactive),
            "ungovernedFiles": len(plain["ungoverned"]),
        },
        "coverage": plain["coverage"],
        "uncertainty": plain["uncertainty"],
        "changedFiles": plain["changes"],
        "affectedDecisions": affected,
        "unknownDecisions": unknown,
        "inactiveDecisions": inactive,
        "ungovernedFiles": plain["ungoverned"],
        "mappingEvidence": mapping_evidence(corpus, manifest, impact),
    }
