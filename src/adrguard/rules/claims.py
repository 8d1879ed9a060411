"""ADR509: a record of this change takes a number another ref also adds.

Registered through :mod:`adrguard.rules.changes` (its ``RULES`` tuple lists this class).
"""

from __future__ import annotations

from collections.abc import Iterator

from adrguard.core.findings import Finding, Severity
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta


class NumberClaimedElsewhere(BaseRule):
    """A record this change adds takes a number (or id) that another ref, such as another
    open pull request, also adds.

    **Why**: two branches that both add `0042-*.md` each pass alone and collide once both are
    merged: two records share a number, and every citation of "ADR 42" means either. Caught
    while both are open, the second one to merge renumbers before anyone cites it.

    **Learns**: what the other refs add. `adrguard check --against REF...` (refs or globs such
    as `refs/remotes/origin/pr/*`, read from what is already fetched) compares each ref with
    this change from the point where they parted; the GitHub Action's `open-pull-requests`
    input does the same for the open pull requests, through the API. Without `--against` this
    rule finds nothing. A branch that holds this change's very file (stacked on it) is not a
    collision.

    **Bad**: this branch adds `docs/adr/0042-use-kafka.md` while `origin/pr/17` adds
    `docs/adr/0042-use-pulsar.md`.

    **Good**: this branch renumbers its record to `0043-use-kafka.md`, the next number neither
    side has taken (`adrguard new --against 'refs/remotes/origin/pr/*'` picks it).
    """

    meta = RuleMeta(
        code="ADR509",
        name="number-claimed-elsewhere",
        summary="a new record takes a number or id that another given ref also adds",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.claims is None:
            return
        from adrguard.core.authoring.claims import collisions  # with --against only

        for hit in collisions(ctx.corpus, ctx.claims):
            d, c = hit.decision, hit.claimed
            what = f"number {d.number}" if d.number is not None else f"id {d.id}"
            title = f"{c.title!r}, " if c.title else ""
            fix = (f"renumber this record to {hit.next_free}, the next number free on both "
                   "sides" if hit.next_free is not None else "give this record another name")
            yield self.finding(
                f"{c.label} also adds {what} ({title}{c.path}): whichever of the two merges "
                f"second collides; {fix}",
                d.location,
                d,
            )
