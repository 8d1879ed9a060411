"""ADR7xx: the fitness manifest of ``adrguard verify`` (``.adrguard-fitness.json``).

These rules judge the manifest, never the rules' results: whether a rule passes or is violated
is ``verify``'s own output. The manifest reaches them as raw bytes in ``Corpus.other_texts``
under its repo-relative path (config ``verify.rules``); when the repository has none, they
find nothing. A rule's decision is resolved as every front end resolves a record
(:func:`adrguard.core.graph.resolve.lookup`, behind ``api.lookup.find_decision``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from adrguard.core.findings import Finding, Severity
from adrguard.core.graph.resolve import lookup
from adrguard.core.model import Decision, Location
from adrguard.core.options import fitness_path
from adrguard.core.wording import decision_name
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta
from adrguard.rules.changes import inactive_named, naming_problem

if TYPE_CHECKING:  # the manifest module loads only when a manifest is there
    from adrguard.core.fitness.manifest import (
        FitnessManifest,
        FitnessManifestError,
        FitnessRule,
    )


def _manifest(ctx: RuleContext) -> FitnessManifest | FitnessManifestError | None:
    """The parsed manifest, the error that stops it being used, or None when there is none."""

    def parse() -> FitnessManifest | FitnessManifestError | None:
        path = fitness_path(ctx.options)
        data = ctx.corpus.other_texts.get(path)
        if data is None:
            return None
        from adrguard.core.fitness.manifest import FitnessManifestError, parse_manifest

        try:
            return parse_manifest(path, bytes(data))
        except FitnessManifestError as exc:
            return exc

    return ctx.derived("fitness-manifest", parse)


def _valid(ctx: RuleContext) -> FitnessManifest | None:
    found = _manifest(ctx)
    if found is None:
        return None
    from adrguard.core.fitness.manifest import FitnessManifest

    return found if isinstance(found, FitnessManifest) else None


def _resolved(ctx: RuleContext) -> list[tuple[str, FitnessRule, tuple[Decision, ...]]]:
    """(manifest path, rule, the records its decision names) for each rule of a valid
    manifest; looked up once per run and shared by ADR702 and ADR703."""

    def resolve() -> list[tuple[str, FitnessRule, tuple[Decision, ...]]]:
        manifest = _valid(ctx)
        if manifest is None:
            return []
        return [(manifest.path, r, lookup(ctx.corpus, r.decision)) for r in manifest.rules]

    return ctx.derived("fitness-decisions", resolve)


class FitnessManifestInvalid(BaseRule):
    """The fitness manifest is not valid, so `adrguard verify` cannot run.

    **Why**: `.adrguard-fitness.json` ties accepted decisions to fitness rules; a manifest that
    is not JSON, breaks `schemas/fitness.schema.json`, has an unknown key, a glob or regular
    expression that cannot be used, a malformed JSON Pointer, a comparison that cannot hold
    (`<` with a string) or two rules with one id checks nothing at all. The finding points at
    the first problem and says what to change.

    **Bad**: `{"schemaVersion": 1, "rules": [{"id": "cov", "decision": "ADR-0004", "kind":
    "evidence", "evidence": "coverage.json", "pointer": "totals/percent_covered", "op": ">=",
    "value": 80}]}` (a pointer starts with `/`).

    **Good**: the same rule with `"pointer": "/totals/percent_covered"`.
    """

    meta = RuleMeta(
        code="ADR701",
        name="fitness-manifest-invalid",
        summary="the fitness manifest is not valid: verify cannot run",
        default_severity=Severity.ERROR,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        found = _manifest(ctx)
        if found is None:
            return
        from adrguard.core.fitness.manifest import FitnessManifestError

        if isinstance(found, FitnessManifestError):
            yield self.finding(found.detail, Location(found.path, found.line, found.column))


class FitnessUnknownDecision(BaseRule):
    """A fitness rule names a decision that no record has (or that several records match).

    **Why**: a rule enforces one decision; when the name matches no record, `verify` refuses
    the manifest, and the rule's checks tie to nothing. Decisions are named as everywhere in
    adrguard: an id (`ADR-0007`), a number (`7`), a path or a file name.

    **Bad**: `{"id": "no-orm", "decision": "ADR-0042", ...}` when no record has id 42.

    **Good**: `{"id": "no-orm", "decision": "ADR-0012", ...}` naming an existing record.
    """

    meta = RuleMeta(
        code="ADR702",
        name="fitness-unknown-decision",
        summary="a fitness rule names a decision that no record has",
        default_severity=Severity.ERROR,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for path, rule, hits in _resolved(ctx):
            problem = naming_problem(f"rule {rule.id!r} names decision {rule.decision!r}", hits,
                                     "fix the id (`adrguard list` shows them) or remove the rule")
            if problem is not None:
                yield self.finding(problem, Location(path, rule.decision_line,
                                                     rule.decision_column), rule.decision)


class FitnessInactiveDecision(BaseRule):
    """A fitness rule enforces a superseded, deprecated or rejected decision.

    **Why**: only accepted decisions are verified, so the rule is `not-applicable` on every
    run and checks nothing. The message names the decision in force at the end of the
    supersession chain, where the rule probably belongs now. Rules on proposed decisions are
    fine: they start to count when the decision is accepted.

    **Bad**: `{"id": "one-db", "decision": "ADR-0003", ...}` when 0003 is superseded by 0009.

    **Good**: `{"id": "one-db", "decision": "ADR-0009", ...}`.
    """

    meta = RuleMeta(
        code="ADR703",
        name="fitness-inactive-decision",
        summary="a fitness rule enforces a superseded, deprecated or rejected decision",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for path, rule, hits in _resolved(ctx):
            inactive = inactive_named(ctx.corpus, hits)
            if inactive is None:
                continue
            target, status, after = inactive
            fix = (f"move it to the successor {decision_name(after)}" if after is not None
                   else "move it to the decision now in force, or remove it")
            yield self.finding(
                f"rule {rule.id!r} enforces {target.id}, which is {status}: verify skips it "
                f"(not-applicable); {fix}",
                Location(path, rule.decision_line, rule.decision_column),
                target,
                related=[after.id] if after is not None else (),
            )


class FitnessEvidenceOutside(BaseRule):
    """A fitness rule names an evidence file outside the repository.

    **Why**: `verify` reads evidence only inside the repository (a pull request must not make
    it read files elsewhere on the runner), so an absolute path or one that climbs out with
    `..` can never be read and `verify` refuses the manifest. Symlinks that lead out are
    refused when `verify` reads the file, and the rule is then `unknown`.

    **Bad**: `"evidence": "/tmp/coverage.json"` or `"evidence": "../reports/coverage.json"`.

    **Good**: `"evidence": "artifacts/coverage.json"`, written there by the CI step that ran
    the tests.
    """

    meta = RuleMeta(
        code="ADR704",
        name="fitness-evidence-outside-repository",
        summary="a fitness rule names an evidence file outside the repository",
        default_severity=Severity.ERROR,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        manifest = _valid(ctx)
        if manifest is None:
            return
        from adrguard.core.fitness.manifest import evidence_outside

        for rule in manifest.rules:
            for line, column, message in evidence_outside(rule):
                yield self.finding(message, Location(manifest.path, line, column), rule.decision)


RULES = (FitnessManifestInvalid, FitnessUnknownDecision, FitnessInactiveDecision,
         FitnessEvidenceOutside)
