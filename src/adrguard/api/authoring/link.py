"""``adrguard link A RELATION B``: declare a relation between two existing records, in the
log's own form, on both sides where the log writes both (adr-tools' ``adr link``).

Built on the writer of ``supersede`` (:mod:`adrguard.api.authoring.write`,
:mod:`adrguard.core.authoring.compose`): the relation line or front-matter key goes where the
log writes relations, with the log's link text; ``supersedes`` marks B superseded by A in the
log's form once A is accepted (as ``supersede B --by A`` does), ``amends`` adds ``Amended by``
to B, ``relates-to`` is written in both records, and ``depends-on`` and ``in-favour-of`` in A
only (a record never says who depends on it). ``superseded-by`` and ``amended-by`` are the same
relations seen from the other side. Every edit is read back by the parser first: a relation
that adrguard would not read from the text written (``relates-to`` where a log has no front
matter, say) is refused and nothing is written. Both files are computed before either is
written; each is written atomically; nothing else in them changes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from adrguard.api.authoring.write import (
    Change,
    Outcome,
    Request,
    _choose_log,
    _finish,
    _read_text,
    _style,
)
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load_with
from adrguard.config import Config
from adrguard.core.authoring import compose
from adrguard.core.authoring.edit import EditError
from adrguard.core.authoring.style import Style
from adrguard.core.errors import UserError
from adrguard.core.graph import graph as core_graph
from adrguard.core.model import Corpus, Decision, RelKind, Status

# The relations `link` writes, by every name it accepts for them.
RELATIONS: dict[str, RelKind] = {
    "supersedes": RelKind.SUPERSEDES,
    "superseded-by": RelKind.SUPERSEDED_BY,
    "replaces": RelKind.SUPERSEDES,
    "replaced-by": RelKind.SUPERSEDED_BY,
    "amends": RelKind.AMENDS,
    "amended-by": RelKind.AMENDED_BY,
    "depends-on": RelKind.DEPENDS_ON,
    "relates-to": RelKind.RELATES_TO,
    "related-to": RelKind.RELATES_TO,
    "in-favour-of": RelKind.IN_FAVOUR_OF,
    "in-favor-of": RelKind.IN_FAVOUR_OF,
}
KINDS = ("supersedes", "superseded-by", "amends", "amended-by", "depends-on", "relates-to",
         "in-favour-of")
_ACTIVE = {RelKind.SUPERSEDED_BY: RelKind.SUPERSEDES, RelKind.AMENDED_BY: RelKind.AMENDS}


def relation_kind(word: str) -> RelKind:
    """``amends``, ``Superseded by``, ``superseded_by``, ``relatedTo`` -> the relation."""
    import re

    folded = re.sub(r"(?<=[a-z])(?=[A-Z])", "-", word.strip())
    folded = re.sub(r"[\s_]+", "-", folded).casefold()
    kind = RELATIONS.get(folded)
    if kind is None:
        raise UserError(f"unknown relation {word!r}: use one of {', '.join(KINDS)}")
    return kind


def _declares(corpus: Corpus, source: Decision, kind: RelKind, target: Decision) -> bool:
    """Whether ``source`` already declares ``kind`` to ``target`` (resolved as check does)."""
    graph = core_graph.build(corpus)
    return any(dec.source.path == source.path and dec.rel.kind is kind
               and dec.target is not None and dec.target.path == target.path
               for dec in graph.declared)


def _count(d: Decision, kind: RelKind) -> int:
    return sum(1 for r in d.relationships if r.kind is kind)


def _add(text: str, d: Decision, style: Style, kind: RelKind, target: Decision,
         config: Config) -> compose.Record:
    """``d`` with the relation added, read back: refused when the parser would not read it."""
    record = compose.with_relation(text, d, style, kind, target, config.options)
    if _count(record.decision, kind) <= _count(d, kind):
        raise UserError(
            f"{d.path}: adrguard would not read a {kind.value} relation written where this log "
            f"writes relations ({compose.VERBS[kind]} ...), so it writes none: "
            + ("declare it in the record's front matter (related-to: ...)"
               if kind is RelKind.RELATES_TO else "write it by hand")
            + "; nothing was written")
    return record


def link(repo_root: Path, config: Config, source_key: str, relation: str, target_key: str,
         request: Request) -> Outcome:
    """Declare ``source relation target`` in both records, in the log's form."""
    kind = relation_kind(relation)
    corpus = load_with(repo_root, config)
    a, b = find_decision(corpus, source_key), find_decision(corpus, target_key)
    if kind in _ACTIVE:  # "A superseded-by B" is "B supersedes A"
        a, b, kind = b, a, _ACTIVE[kind]
    if a.path == b.path:
        raise UserError(f"{a.id} cannot {kind.value.replace('-', ' ')} itself")
    if kind is RelKind.IN_FAVOUR_OF and a.status is not Status.REJECTED:
        raise UserError(f"{a.id} is {a.status or 'without a status'}: in-favour-of says a "
                        "rejected record was rejected in favour of another; reject it first")
    log = _choose_log(repo_root, config, a.root)
    style = _style(repo_root, log, config, None)
    day = request.today or dt.date.today()
    notes: list[str] = []
    changes: list[Change] = []
    amend = kind is RelKind.AMENDS
    try:
        successor = a
        forward = kind not in (RelKind.SUPERSEDES, RelKind.AMENDS) or style.writes(
            new_side=True, amend=amend)
        if forward and not _declares(corpus, a, kind, b):
            text = _read_text(repo_root, a.path)
            record = _add(text, a, style, kind, b, config)
            changes.append(Change(a.path, record.text, text))
            successor = record.decision
        if kind in (RelKind.SUPERSEDES, RelKind.AMENDS):
            changes += _mark_old(repo_root, config, corpus, successor, b, style, day, amend,
                                 notes)
        elif kind is RelKind.RELATES_TO and not _declares(corpus, b, kind, a):
            text = _read_text(repo_root, b.path)
            changes.append(Change(b.path, _add(text, b, style, kind, a, config).text, text))
        elif kind is not RelKind.RELATES_TO:
            notes.append(f"{b.id} is left as it is: a record does not say what "
                         f"{'depends on it' if kind is RelKind.DEPENDS_ON else 'won over it'}")
    except EditError as exc:
        raise UserError(f"cannot edit the record safely: {exc}; nothing was written") from None
    if not changes:
        notes.append(f"{a.id} {kind.value} {b.id} is declared already: nothing to write")
        return Outcome(notes=notes)
    return _finish(repo_root, config, log, changes, request, notes)


def _mark_old(repo_root: Path, config: Config, corpus: Corpus, new: Decision, old: Decision,
              style: Style, day: dt.date, amend: bool, notes: list[str]) -> list[Change]:
    """The old side of a supersession or an amendment, as ``supersede OLD --by NEW`` writes
    it: only once NEW is accepted (a proposed successor leaves OLD in force)."""
    back = RelKind.AMENDED_BY if amend else RelKind.SUPERSEDED_BY
    if _declares(corpus, old, back, new) and (amend or old.status is Status.SUPERSEDED):
        return []
    if not amend and old.status is Status.SUPERSEDED:
        if _declares(corpus, new, RelKind.SUPERSEDES, old) and not style.writes(new_side=False):
            return []  # a log that writes only "Supersedes": marked already
        if new.status is not Status.ACCEPTED:
            raise UserError(f"{old.id} is superseded already: link its successor instead (a "
                            "second successor leaves two decisions in force); a record split "
                            "between several accepted records takes each of them")
    if new.status is not Status.ACCEPTED:
        what = "amended" if amend else "superseded"
        notes.append(f"{old.id} keeps its status while {new.id} is "
                     f"{new.status or 'not accepted'}: once {new.id} is accepted, run "
                     f"`adrguard link {new.id} {'amends' if amend else 'supersedes'} {old.id}` "
                     f"again to mark it {what}")
        return []
    text = _read_text(repo_root, old.path)
    edited = compose.successor_edit(text, old, new, style, day, config.options, amend)
    return [Change(old.path, edited.text, text)] if edited.text != text else []


__all__ = ["KINDS", "RELATIONS", "link", "relation_kind"]
