"""``adrguard consolidate``: draft one proposed record that replaces several, and accept it.

:func:`draft` writes the next record of the sources' log, in the log's own style (learned by
:mod:`adrguard.core.authoring.learn`, as ``new`` writes), whose decision section quotes and
links each source's decision and consequences and lists the open conflicts between them
(:mod:`adrguard.core.authoring.consolidation`), with a ``Supersedes`` relation to each source
in the log's form. The sources are not touched: a proposal changes nothing in force.

:func:`accept` is the step a person takes once the draft says what holds: the draft's status
becomes accepted and every source it supersedes is marked superseded by it, each in its log's
form (the edit ``supersede OLD --by NEW`` makes). Every file is prepared and read back before
the first is written; a write that fails puts back the files written before it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from adrguard.api.authoring.write import (
    Change,
    Outcome,
    Request,
    _choose_log,
    _draft,
    _finish,
    _read_text,
    _status,
    _style,
)
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load_with
from adrguard.config import Config
from adrguard.core.authoring import compose, consolidation
from adrguard.core.authoring.edit import EditError, set_status
from adrguard.core.authoring.style import Style
from adrguard.core.compaction.analysis import unstated_records
from adrguard.core.errors import UserError
from adrguard.core.graph.graph import build
from adrguard.core.model import Decision, RelKind, Status
from adrguard.core.options import Options


def _sources(repo_root: Path, config: Config, keys: Sequence[str]) -> list[Decision]:
    corpus = load_with(repo_root, config)
    found: list[Decision] = []
    for key in keys:
        d = find_decision(corpus, key)
        if d.archived:
            raise UserError(f"{d.id} ({d.path}) is archived: a consolidation replaces records "
                            "in force; leave archived ones as history")
        if any(d.path == o.path for o in found):
            raise UserError(f"{d.id} is named twice: give each source once")
        found.append(d)
    if len(found) < 2:
        raise UserError("a consolidation replaces two or more records: give their ids (one "
                        "record is replaced with `adrguard supersede`)")
    return found


def draft(repo_root: Path, config: Config, keys: Sequence[str], title: str,
          request: Request) -> Outcome:
    """Write the consolidation draft of the records ``keys`` (see the module docstring)."""
    sources = _sources(repo_root, config, keys)
    roots = sorted({d.root for d in sources})
    if request.root is None and len(roots) > 1:
        raise UserError(f"the sources live in several logs ({', '.join(roots)}): say which one "
                        "the new record goes to with --root DIR")
    status = _draft_status(config, request.status)
    log = _choose_log(repo_root, config, request.root or roots[0])
    record = _draft(repo_root, config, log, title, request, status, None)
    style = _style(repo_root, log, config, request.fmt)
    graph = build(log.corpus)
    by_path = {d.path: d for d in log.corpus.decisions}
    sources = [by_path.get(d.path, d) for d in sources]
    names = {d.path: compose.link_text(style, d) for d in sources}

    unstated = unstated_records(log.corpus, config.options.require_status)
    found = consolidation.conflicts(graph, sources, unstated)
    content = consolidation.section_text(record.decision, sources, found, config.options,
                                         names)
    text = consolidation.fill(record.text, record.decision, content)
    options = config.options
    try:
        start = compose.read(record.path, log.root, text, options)
        linked, decision = _with_sources(text, start, style, sources, options)
        if _order(decision, sources) != sorted(_order(decision, sources)):
            # a place that inserts each line above the last (after the status): the other way
            linked, decision = _with_sources(text, start, style, sources[::-1], options)
        text = linked
    except EditError as exc:
        raise UserError(f"cannot write the draft safely: {exc}; nothing was written") from None
    _read_back(decision, sources)
    notes = [f"{len(found)} open conflict(s) listed in the draft" if found else
             "no open conflict found between the sources",
             f"review {record.path}, write the decision that holds now, then `adrguard "
             f"consolidate --accept {decision.id}` marks {', '.join(d.id for d in sources)} "
             "superseded by it"]
    return _finish(repo_root, config, log, [Change(record.path, text)], request, notes)


def _with_sources(text: str, decision: Decision, style: Style, sources: Sequence[Decision],
                  options: Options) -> tuple[str, Decision]:
    """The draft with one ``Supersedes`` relation per source, in the log's place and form
    (whichever side the log writes: the draft must name what it replaces)."""
    for d in sources:
        linked = compose.with_relation(text, decision, style, RelKind.SUPERSEDES, d, options)
        text, decision = linked.text, linked.decision
    return text, decision


def _order(draft: Decision, sources: Sequence[Decision]) -> list[int]:
    """The position in ``sources`` of each source the draft's relations name, in file order."""
    rels = sorted((r for r in draft.relationships if r.kind is RelKind.SUPERSEDES),
                  key=lambda r: (r.location.line, r.location.column))
    out: list[int] = []
    for r in rels:
        out.extend(i for i, d in enumerate(sources) if compose.points_at(r.target_raw, d))
    return out


def _draft_status(config: Config, given: str | None) -> Status:
    status, _written = _status(config, given if given is not None else "proposed")
    if status not in (Status.PROPOSED, Status.DRAFT):
        raise UserError(f"a consolidation is written as a proposal (--status {given!r} is "
                        f"{status.value}): accept it, once reviewed, with `adrguard consolidate "
                        "--accept ID`")
    return status


def _read_back(draft: Decision, sources: Sequence[Decision]) -> None:
    """The draft declares exactly one ``supersedes`` per source, and nothing else."""
    declared = [r for r in draft.relationships]
    wanted = {d.path for d in sources}
    hit = {d.path for d in sources
           if any(r.kind is RelKind.SUPERSEDES and compose.points_at(r.target_raw, d)
                  for r in declared)}
    other = [r for r in declared if r.kind is not RelKind.SUPERSEDES]
    if hit != wanted or other:
        raise UserError(f"the draft {draft.path} would not read back as superseding exactly its "
                        "sources; nothing was written (please report this)")


def accept(repo_root: Path, config: Config, key: str, request: Request) -> Outcome:
    """Accept the consolidation ``key``: its status becomes accepted and every record it
    supersedes is marked superseded by it, in one step (see the module docstring)."""
    corpus = load_with(repo_root, config)
    new = find_decision(corpus, key)
    graph = build(corpus)
    sources = sorted((d for d in graph.predecessors(new)), key=lambda d: d.path)
    if not sources:
        raise UserError(f"{new.id} supersedes no record: a consolidation names its sources "
                        "with Supersedes lines (`adrguard consolidate ID... --title T` writes "
                        "them)")
    if new.archived:
        raise UserError(f"{new.id} is archived: it cannot be accepted")
    log = _choose_log(repo_root, config, new.root)
    style = _style(repo_root, log, config, request.fmt)
    day = request.today or dt.date.today()
    options = config.options
    changes: list[Change] = []
    problems: list[str] = []
    try:
        new_text = before = _read_text(repo_root, new.path)
        if new.status is not Status.ACCEPTED:
            if new.status not in (Status.PROPOSED, Status.DRAFT):
                raise UserError(f"{new.id} is {new.status or 'without a status'}: only a "
                                "proposal (or a draft) is accepted")
            if consolidation.MARK in new_text:
                raise UserError(f"{new.id} still holds the draft marker "
                                f"({consolidation.MARK}): write the decision that holds now, "
                                "settle the open conflicts, delete the marker, then accept it")
            word = compose.status_word(style, Status.ACCEPTED, None)
            new_text = set_status(new_text, new, word, day, options.status_synonyms)
        accepted = compose.read(new.path, new.root, new_text, options)
        if accepted.status is not Status.ACCEPTED:
            raise UserError(f"{new.id}'s status could not be set to accepted safely: edit it by "
                            "hand, then run this again")
        if new_text != before:
            changes.append(Change(new.path, new_text, before))
        for old in sources:
            if old.status is Status.SUPERSEDED and any(
                r.kind is RelKind.SUPERSEDED_BY and compose.points_at(r.target_raw, new)
                for r in old.relationships
            ):
                continue  # marked already
            if old.status not in (Status.ACCEPTED, Status.SUPERSEDED, None):
                problems.append(f"{old.id} is {old.status.value}: left as it is")
                continue
            text = _read_text(repo_root, old.path)
            edited = compose.successor_edit(text, old, accepted, style, day, options, False)
            if edited.decision.status is not Status.SUPERSEDED and old.statuses:
                raise UserError(f"{old.id} would not read back as superseded: mark it by hand")
            if edited.text != text:
                changes.append(Change(old.path, edited.text, text))
    except EditError as exc:
        raise UserError(f"cannot edit the records safely: {exc}; nothing was written") from None
    if not changes:
        return Outcome(notes=[f"{new.id} is accepted and its sources are marked: nothing to do"])
    ids = ", ".join(d.id for d in sources)
    notes = [*problems, f"{new.id} accepted; {len(sources)} source(s) superseded by it: {ids}"]
    return _finish(repo_root, config, log, changes, request, notes)


__all__ = ["accept", "draft"]
