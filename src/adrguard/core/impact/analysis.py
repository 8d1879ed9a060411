"""Which decisions govern what a change touches. Pure: no git, no files.

Decisions govern paths through their front matter (``affected-paths``, ``affected-components``,
``scope``), through the impact manifest, and through citations: a changed file that cites a
decision (``# per ADR-0004``, when the corpus was scanned for citations) is governed by it.
``analyse`` matches every changed path (and the old path of a rename) against every governing
glob list at once (:class:`GlobSet`) and says what it could not know. Impact means "review
this decision", never "this change violates it".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

import msgspec

from adrguard.core.citations.resolve import cited_by
from adrguard.core.errors import UserError
from adrguard.core.graph import graph
from adrguard.core.impact.globs import GlobSet, glob_problem, match_globs
from adrguard.core.impact.mapping import Manifest
from adrguard.core.lazyre import lazy
from adrguard.core.model import (
    INACTIVE_STATUSES,
    STATUS_CHOICES,
    ChangeSet,
    Corpus,
    Decision,
    Location,
    status_key,
)
from adrguard.core.options import Options

STATEMENT = (
    "Impact means: review these decisions against the change. "
    "It never means that the change violates them."
)
DEFAULT_STATUSES = frozenset({"accepted"})
_NUMBER = lazy(r"^(?:adr[-_ ]?)?#?0*(\d+)$", re.IGNORECASE)


class Governor(msgspec.Struct, frozen=True):
    """One source of governance: a record's front matter, or one manifest mapping."""

    decision: str  # as written (front matter: the record's own path)
    via: str  # "front-matter" | "manifest" (citations: see ``_cited``)
    globs: tuple[str, ...]
    location: Location
    note: str | None = None


class Affected(msgspec.Struct, frozen=True):
    """A decision that governs some of the changed files, and which ones."""

    decision: Decision
    files: tuple[str, ...]
    via: tuple[str, ...]
    notes: tuple[str, ...] = ()


class MappingIssue(msgspec.Struct, frozen=True):
    """A mapping entry naming an unknown, ambiguous or inactive decision."""

    decision: str  # as written in the mapping
    problem: str  # "unknown" | "ambiguous" | "inactive"
    location: Location
    files: tuple[str, ...]  # changed files the mapping matches
    target: Decision | None = None
    successor: Decision | None = None


class Coverage(msgspec.Struct, frozen=True):
    """How many changed files are decision records, governed by some decision, or by none."""

    changed: int  # changed files
    records: int  # of which decision records (not counted as governed or ungoverned)
    governed: int
    ungoverned: int


class Impact(msgspec.Struct, frozen=True):
    """What a change touches: the governing decisions, mapping problems and coverage."""

    changes: ChangeSet
    statuses: frozenset[str]
    affected: tuple[Affected, ...]
    issues: tuple[MappingIssue, ...]
    coverage: Coverage
    ungoverned: tuple[str, ...]
    uncertainty: tuple[str, ...]
    statement: str = STATEMENT
    repo_url: str | None = None  # web URL of the repository, for links in Markdown


def statuses_from(values: Iterable[str], where: str) -> frozenset[str]:
    """Validated governing statuses (empty = the default, accepted)."""
    chosen = {v.strip().lower() for v in values if v.strip()}
    unknown = sorted(chosen - set(STATUS_CHOICES))
    if unknown:
        raise UserError(f"{where}: unknown status {', '.join(unknown)}; choose from "
                        f"{', '.join(STATUS_CHOICES)}")
    return frozenset(chosen) or DEFAULT_STATUSES


def configured_statuses(options: Options) -> frozenset[str]:
    """The statuses that govern by config (``impact.statuses``), accepted by default."""
    return statuses_from(options.impact.statuses, "config impact.statuses")


def front_matter_line(d: Decision) -> int:
    """The line of the record's first mapping key (affected-paths, affected-components, scope)."""
    keys = ("affected-paths", "affected_paths", "affected-components", "affected_components",
            "scope")
    return min((n for k, n in d.front_matter_lines.items() if k in keys), default=1)


def governors(corpus: Corpus, manifest: Manifest | None) -> tuple[list[Governor], list[str]]:
    """Every governor, plus problems found while building them (unknown components, bad globs)."""
    out: list[Governor] = []
    problems: list[str] = []
    components = manifest.components if manifest is not None else {}
    for d in corpus.decisions:
        if not d.governed_paths and not d.governed_components:
            continue
        globs: list[str] = []
        for name in d.governed_components:
            if name in components:
                globs.extend(components[name])
            else:
                where = f"declare it in {manifest.path}" if manifest else "add an impact manifest"
                problems.append(
                    f"{d.id} names component {name!r}, which no manifest declares "
                    f"({where}); it governs nothing through it"
                )
        for glob in d.governed_paths:
            why = glob_problem(glob)
            if why is None:
                globs.append(glob)
            else:
                problems.append(f"{d.id}: affected path {glob!r} is ignored: {why}")
        location = Location(d.path, front_matter_line(d))
        out.append(Governor(d.path, "front-matter", tuple(globs), location))
    if manifest is not None:
        for m in manifest.mappings:
            out.append(
                Governor(
                    m.decision,
                    "manifest",
                    manifest.globs(m),
                    Location(manifest.path, m.line, m.column),
                    m.note,
                )
            )
    return out, problems


def resolve(corpus: Corpus, key: str) -> tuple[Decision, ...]:
    """Records a mapping names: an id, a path, or a bare number (``7``, ``ADR-7``)."""
    hits = corpus.find(key)
    if not hits:
        m = _NUMBER.match(key.strip())
        if m:
            n = int(m.group(1))
            hits = tuple(d for d in corpus.decisions if d.number == n and not d.archived)
    return hits


def successor(corpus: Corpus, d: Decision) -> Decision | None:
    return graph.build(corpus).current_successor(d)


def record_paths(changes: ChangeSet, corpus: Corpus) -> frozenset[str]:
    base = changes.base_corpus
    known = set(corpus.by_path)
    if base is not None:
        known.update(base.by_path)
    return frozenset(known)


def analyse(
    corpus: Corpus,
    changes: ChangeSet,
    manifest: Manifest | None,
    statuses: Collection[str] = DEFAULT_STATUSES,
) -> Impact:
    """Affected decisions, mapping issues, coverage and uncertainty for one change set."""
    wanted = frozenset(statuses)
    govs, problems = governors(corpus, manifest)
    touched = {c.path for c in changes.changes} | {
        c.old_path for c in changes.changes if c.old_path
    }
    globset = GlobSet([g.globs for g in govs])
    matched = globset.match(touched)

    by_decision: dict[str, tuple[Decision, list[tuple[str, ...]], set[str], list[str]]] = {}
    issues: list[MappingIssue] = []
    held_back: dict[str, set[str]] = {}  # status -> decision ids with matches but not governing
    for gov, files in zip(govs, matched, strict=True):
        if gov.via == "front-matter":
            targets: tuple[Decision, ...] = (corpus.by_path[gov.decision],)
        else:
            targets = resolve(corpus, gov.decision)
            issue = _issue(corpus, gov, targets, files)
            if issue is not None:
                issues.append(issue)
                continue
        target = targets[0]
        if status_key(target) not in wanted:
            if files:
                held_back.setdefault(status_key(target), set()).add(target.id)
            continue
        if not files:
            continue
        entry = by_decision.setdefault(target.path, (target, [], set(), []))
        entry[1].append(files)
        entry[2].add(gov.via)
        if gov.note and gov.note not in entry[3]:
            entry[3].append(gov.note)
    cited_back: dict[str, set[str]] = {}  # status -> ids cited by changed files, not governing
    present = [c.path for c in changes.changes if c.status != "D"]
    for target, files in cited_by(corpus, present):
        if status_key(target) not in wanted:
            cited_back.setdefault(status_key(target), set()).add(target.id)
            continue
        entry = by_decision.setdefault(target.path, (target, [], set(), []))
        entry[1].append(files)
        entry[2].add("citation")

    affected = tuple(
        Affected(d, _merged(files), tuple(sorted(via)), tuple(notes))
        for d, files, via, notes in sorted(by_decision.values(), key=lambda e: (e[0].id, e[0].path))
    )
    governed_paths = set().union(*(a.files for a in affected))
    records = record_paths(changes, corpus)
    counted = [c for c in changes.changes if c.path not in records and c.old_path not in records]
    ungoverned = tuple(
        sorted(
            c.path
            for c in counted
            if c.path not in governed_paths and c.old_path not in governed_paths
        )
    )
    coverage = Coverage(
        changed=len(changes.changes),
        records=len(changes.changes) - len(counted),
        governed=len(counted) - len(ungoverned),
        ungoverned=len(ungoverned),
    )
    lines = list(changes.notes)
    lines += _uncertainty(corpus, govs, globset, coverage, held_back, wanted)
    lines += [
        f"{', '.join(sorted(ids))} ({status}) cited by changed files, but only "
        f"{'/'.join(sorted(wanted))} decisions govern here; --status {status} includes them"
        for status, ids in sorted(cited_back.items())
    ]
    lines += problems
    return Impact(
        changes=changes,
        statuses=wanted,
        affected=affected,
        issues=tuple(issues),
        coverage=coverage,
        ungoverned=ungoverned,
        uncertainty=tuple(lines),
        repo_url=corpus.repository.url if corpus.repository else None,
    )


def _merged(parts: list[tuple[str, ...]]) -> tuple[str, ...]:
    return parts[0] if len(parts) == 1 else tuple(sorted(set().union(*parts)))


def _issue(
    corpus: Corpus, gov: Governor, targets: tuple[Decision, ...], files: tuple[str, ...]
) -> MappingIssue | None:
    if not targets:
        return MappingIssue(gov.decision, "unknown", gov.location, files)
    if len(targets) > 1:
        return MappingIssue(gov.decision, "ambiguous", gov.location, files)
    target = targets[0]
    if target.status in INACTIVE_STATUSES:
        return MappingIssue(
            gov.decision, "inactive", gov.location, files, target, successor(corpus, target)
        )
    return None


def _uncertainty(
    corpus: Corpus,
    govs: list[Governor],
    globset: GlobSet,
    coverage: Coverage,
    held_back: dict[str, set[str]],
    wanted: frozenset[str],
) -> list[str]:
    lines: list[str] = []
    if not govs and corpus.citations is None:
        lines.append(
            "no decision maps any paths (front matter affected-paths, or an impact "
            "manifest): the governed decisions cannot be named"
        )
    elif not govs:
        lines.append(
            "no decision maps any paths (front matter affected-paths, or an impact "
            "manifest): only the changed files' own citations name governing decisions"
        )
    if coverage.ungoverned:
        noun = "file is" if coverage.ungoverned == 1 else "files are"
        lines.append(
            f"{coverage.ungoverned} changed {noun} outside any mapping of a governing decision"
        )
    for status in sorted(held_back):
        ids = ", ".join(sorted(held_back[status]))
        lines.append(
            f"{ids} ({status}) map changed files but only "
            f"{'/'.join(sorted(wanted))} decisions govern here; --status {status} "
            "includes them"
        )
    if corpus.repo_files:
        at_head = globset.matches_any(corpus.repo_files)
        for gov, found in zip(govs, at_head, strict=True):
            if not found:
                lines.append(f"mapping for {_label(corpus, gov)} matches no file at head")
    return lines


def _label(corpus: Corpus, gov: Governor) -> str:
    if gov.via == "front-matter":
        return f"{corpus.by_path[gov.decision].id} (front matter)"
    return f"{gov.decision} ({gov.location})"


def to_json(impact: Impact) -> dict[str, Any]:
    """The impact as plain data (schemas/impact.schema.json)."""
    ch = impact.changes

    def ref(d: Decision | None) -> dict[str, Any] | None:
        if d is None:
            return None
        return {"id": d.id, "title": d.title, "status": status_key(d), "path": d.path}

    return {
        "schemaVersion": 1,
        "statement": impact.statement,
        "base": ch.base,
        "head": ch.head,
        "baseCommit": ch.base_commit or None,
        "headCommit": ch.head_commit or None,
        "mergeBase": ch.merge_base,
        "statuses": sorted(impact.statuses),
        "changes": [
            {"status": c.status, "path": c.path, "oldPath": c.old_path} for c in ch.changes
        ],
        "affected": [
            {
                **(ref(a.decision) or {}),
                "files": list(a.files),
                "via": list(a.via),
                "notes": list(a.notes),
            }
            for a in impact.affected
        ],
        "mappingIssues": [
            {
                "decision": i.decision,
                "problem": i.problem,
                "location": str(i.location),
                "files": list(i.files),
                "target": ref(i.target),
                "successor": ref(i.successor),
            }
            for i in impact.issues
        ],
        "coverage": {
            "changed": impact.coverage.changed,
            "records": impact.coverage.records,
            "governed": impact.coverage.governed,
            "ungoverned": impact.coverage.ungoverned,
        },
        "ungoverned": list(impact.ungoverned),
        "uncertainty": list(impact.uncertainty),
    }


def mapping_evidence(
    corpus: Corpus, manifest: Manifest | None, impact: Impact
) -> list[dict[str, Any]]:
    """Why each decision an impact names is affected: one entry per (affected decision,
    governor naming it that matches some changed file), with the glob list the governor
    declares (its own front matter, or a manifest mapping), where it is declared, and which of
    the changed files that list matches. Only declared mappings count: nothing is inferred."""
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
