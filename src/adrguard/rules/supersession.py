"""ADR304: one-sided supersession, asked for only where the log writes both sides.

Registered through :mod:`adrguard.rules.relationships` (its ``RULES`` tuple lists this class).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from adrguard.core.findings import Finding, Severity
from adrguard.core.graph import graph
from adrguard.core.graph.graph import link_line, short
from adrguard.core.model import RelKind, Status
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

_NOT_YET = graph.NOT_YET_ACTIVE


class OneSidedSupersession(BaseRule):
    """A supersedes B, but B does not say it is superseded by A (or the reverse), in a log that
    writes both sides.

    **Why**: readers land on the old record from search and links; if only the new record
    says so, they follow a decision that is no longer in force.

    **Learns**: whether the log writes both sides. Many logs write only one side by habit (only
    `Superseded by` in the old record, or only `Supersedes` in the new one), so adrguard asks for
    the other side only where the log shows it writes both:

    * at least half of the log's other supersessions and amendments, and at least one, write
      the missing side (`Supersedes`/`Amends` in the newer record, `Superseded by`/`Amended
      by` in the older): a habit, not one record's exception; or
    * a record of the log states the missing kind in its front matter: a field of the log's
      metadata (explicit metadata outranks the count); or
    * the repository uses adr-tools (a `.adr-dir` file), which writes both sides itself.

    It is also quiet while the successor is not in force (proposed, draft or rejected): many
    processes add the back-link only once the successor is accepted.

    **Override**: `supersession-both-sides = true` asks every log for both sides, `false` never.

    **Bad**: 0005 (accepted) says `Supersedes [2. Use MySQL](0002-use-mysql.md)`; 0002 still
    reads `Accepted` with no `Superseded by` line, in a log where 0004 and 0001 both say so.

    **Good**: 0002 also says `Superseded by [5. Use Postgres](0005-use-postgres.md)`.
    """

    meta = RuleMeta(
        code="ADR304",
        name="one-sided-supersession",
        summary="A supersedes B but B does not say superseded-by A, or the reverse",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        wanted = ctx.options.supersession_both_sides
        if wanted is False:
            return
        g = graph.build(ctx.corpus)
        evidence = None if wanted else _both_sides(g, ctx.corpus.repo_files)
        for dec in g.declared:
            t = dec.target
            if t is None or not g.counterpart_missing(dec):
                continue
            s = dec.source
            supersedes = dec.rel.kind is RelKind.SUPERSEDES
            successor = s if supersedes else t
            if successor.status in _NOT_YET or successor.status is Status.UNKNOWN:
                continue
            missing = RelKind.SUPERSEDED_BY if supersedes else RelKind.SUPERSEDES
            pair = _pair(dec.rel.kind, short(s), short(t))
            why = "" if evidence is None else evidence.why(t.root, missing, pair)
            if why is None:
                continue
            if supersedes:
                message = (
                    f"{short(s)} says it supersedes {short(t)}, but {short(t)} does not say it is "
                    f"superseded by {short(s)}{why}: add {link_line(t, s, 'Superseded by')} to "
                    f"{t.path}"
                )
            else:
                message = (
                    f"{short(s)} says it is superseded by {short(t)}, but {short(t)} does not list "
                    f"{short(s)} in supersedes{why}: add {link_line(t, s, 'Supersedes')} to "
                    f"{t.path}"
                )
            yield self.finding(message, dec.rel.location, s, related=[t.id])


_PAIRS = {
    RelKind.SUPERSEDES: RelKind.SUPERSEDED_BY,
    RelKind.SUPERSEDED_BY: RelKind.SUPERSEDES,
    RelKind.AMENDS: RelKind.AMENDED_BY,
    RelKind.AMENDED_BY: RelKind.AMENDS,
}
_NEW_SIDE = frozenset({RelKind.SUPERSEDES, RelKind.AMENDS})  # written in the newer record
_OLD_SIDE = frozenset({RelKind.SUPERSEDED_BY, RelKind.AMENDED_BY})  # in the older one
# The share of a log's other supersessions (and amendments) that must write the missing kind
# before the log counts as one that writes it: a habit, not one record's exception.
BOTH_SIDES_SHARE = 0.5

_Pair = tuple[str, str, str]  # (family: the new side's kind, older record, newer record)


def _pair(kind: RelKind, source: str, target: str) -> _Pair:
    if kind in _NEW_SIDE:
        return (kind.value, target, source)
    return (_PAIRS[kind].value, source, target)


class _Evidence(msgspec.Struct):
    """Per log (root): the kinds written for each of its supersession and amendment pairs."""

    tooling: bool
    pairs: dict[str, dict[_Pair, set[RelKind]]]  # root -> pair -> the kinds written for it
    fields: dict[tuple[str, RelKind], str]  # (root, kind) -> a record stating it in front matter

    def why(self, root: str, missing: RelKind, pair: _Pair) -> str | None:
        """A clause saying why this log is asked for the missing side, or None when it is
        not: :data:`BOTH_SIDES_SHARE` of its other pairs (at least one) write that kind, or
        the repository uses adr-tools."""
        side = _NEW_SIDE if missing in _NEW_SIDE else _OLD_SIDE
        others = [kinds for p, kinds in self.pairs.get(root, {}).items() if p != pair]
        writing = sum(1 for kinds in others if kinds & side)
        if writing and writing >= BOTH_SIDES_SHARE * len(others):
            return (f" ({writing} of this log's {len(others)} other supersessions and "
                    f"amendments write the {'newer' if side is _NEW_SIDE else 'older'} "
                    "record's side)")
        field = self.fields.get((root, missing))
        if field is not None:
            return (f" (the log's front matter has a {missing.value} field: {field} fills it "
                    "in)")
        if self.tooling:
            return " (adr-tools, which this repository uses, writes both sides)"
        return None


def _both_sides(g: graph.Graph, repo_files: frozenset[str]) -> _Evidence:
    pairs: dict[str, dict[_Pair, set[RelKind]]] = {}
    fields: dict[tuple[str, RelKind], str] = {}
    for dec in g.declared:
        s, t = dec.source, dec.target
        if dec.rel.origin == "front-matter":
            fields.setdefault((s.root, dec.rel.kind), short(s))
        if t is None or dec.rel.kind not in _PAIRS or t.path == s.path or s.root != t.root:
            continue
        key = _pair(dec.rel.kind, short(s), short(t))
        pairs.setdefault(s.root, {}).setdefault(key, set()).add(dec.rel.kind)
    return _Evidence(".adr-dir" in repo_files, pairs, fields)
