"""The rule engine: pick rules, run them, adjust severities, drop suppressed findings, sort.

``run(corpus, config, changes=None) -> Report`` is pure: everything it needs is
in its arguments.

Selection (``select``/``ignore``, flake8 style, most specific wins):

* the profile gives the base set: ``legacy`` = the rules flagged ``legacy``; ``advisory``
  and ``standard`` = the rules that are on by default; ``strict`` = every rule;
* with a non-empty ``select`` a rule runs only when a ``select`` entry matches it. A prefix
  (``ADR1``) picks rules of the base set; an exact code or name also turns on a rule that is
  off in the profile (``select = ["ADR105"]``);
* an ``ignore`` entry at least as specific as the best ``select`` entry turns the rule off
  (exact code/name beats any prefix, a longer prefix beats a shorter one; ties go to ignore);
* change-aware rules (``needs_changes``) run only when a change set is given.

Severity: the profile's severity (``legacy`` all warnings, ``advisory`` capped at warning,
``strict`` warnings raised to errors), then the config's ``severity`` table by code, prefix or
name (most specific key wins).

Suppressions, in this order: ``per-file-ignores`` (gitignore-style globs → codes, prefixes or
names), then inline comments (:mod:`adrguard.core.gate.suppress`). Findings of the
``bookkeeping`` rules (about suppression comments themselves) and internal errors are never
silenced inline. A selector that suppressed nothing is reported by the rule flagged
``reports_unused_suppressions``, but only when a rule it names ran (a narrower ``--select`` must
not make suppressions look unused); selectors that name no rule at all are another bookkeeping
rule's business.

File-level and corpus-level findings (:func:`is_corpus_level`; the judging keeps, for
``adrguard check PATHS``, the corpus-level findings and the file-level ones below the paths): a
finding is corpus-level when its ``related`` is non-empty or its rule is flagged ``log_level``
(it judges the log as a whole: relationships, generated files, changes, records compared with
each other).

The rules are those of the :class:`~adrguard.rules.Catalogue` passed in (the registry's by
default); every flag the engine treats a rule by is on its :class:`~adrguard.rules.RuleMeta`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from adrguard.config import Config
from adrguard.core.cancel import Token, checkpoint
from adrguard.core.errors import UserError
from adrguard.core.findings import (
    INTERNAL_ERROR,
    Crash,
    Finding,
    Report,
    Severity,
    sort_findings,
)
from adrguard.core.gate import suppress
from adrguard.core.model import ChangeSet, Corpus, Decision, Location
from adrguard.engine.contain import run_contained
from adrguard.rules import CATALOGUE, BaseRule, Catalogue, RuleContext

if TYPE_CHECKING:  # read only with --against (ADR509)
    from adrguard.core.authoring.claims import Claims


class Unused(NamedTuple):
    """A suppression that silenced nothing: what the rule flagged
    ``reports_unused_suppressions`` reports."""

    message: str
    location: Location
    decision_id: str | None


def is_selected(rule: type[BaseRule], config: Config) -> bool:
    """Whether the rule runs under the config's profile, ``select`` and ``ignore``."""
    meta = rule.meta
    profile = config.profile
    if profile == "legacy":
        in_base = meta.legacy
    elif profile == "strict":
        in_base = True
    else:
        in_base = meta.enabled_by_default
    selected = in_base
    best_select = None
    if config.select:
        best_select = suppress.best_match(config.select, meta.code, meta.name)
        selected = best_select is not None and (in_base or best_select == suppress.EXACT)
    if not selected:
        return False
    best_ignore = suppress.best_match(config.ignore, meta.code, meta.name)
    return best_ignore is None or (best_select is not None and best_select > best_ignore)


def profile_severity(
    rule: type[BaseRule], profile: str, severity: Severity | None = None
) -> Severity:
    """A finding's severity under a profile, before the config's ``severity`` overrides.

    ``severity`` is what the rule reported (default: the rule's default severity); rules that
    grade their own findings keep that grading under ``standard``."""
    default = rule.meta.default_severity if severity is None else severity
    if profile == "legacy":
        return Severity.WARNING
    if profile == "advisory":
        return min(default, Severity.WARNING)
    if profile == "strict" and default == Severity.WARNING:
        return Severity.ERROR
    return default


def selected_rules(
    config: Config, changes: ChangeSet | None = None, catalogue: Catalogue = CATALOGUE
) -> tuple[type[BaseRule], ...]:
    """The rules of ``catalogue`` that ``run`` would run, in code order."""
    return tuple(
        r
        for r in sorted(catalogue.rules, key=lambda r: r.meta.code)
        if is_selected(r, config) and (changes is not None or not r.meta.needs_changes)
    )


def is_corpus_level(finding: Finding, log_level: Collection[str]) -> bool:
    """Whether ``finding`` is about the log rather than one file: it names related records, or
    its rule (code in ``log_level``) judges the log as a whole."""
    return bool(finding.related) or finding.code in log_level


def run(
    corpus: Corpus,
    config: Config,
    changes: ChangeSet | None = None,
    claims: Claims | None = None,
    cancel: Token | None = None,
    catalogue: Catalogue = CATALOGUE,
) -> Report:
    """Run every selected rule of ``catalogue`` over the corpus and return the sorted report,
    suppressions applied. ``claims``: the records other refs add (``check --against``; ADR509).
    ``cancel``: a cancellation token, checked before each rule (:mod:`adrguard.core.cancel`).
    A rule that raised is on the report's ``crashes`` (and its ``ADR000`` finding among the
    findings). Which findings a request keeps (``check PATHS``, the baseline, a change) is the
    judging's business (:mod:`adrguard.api.gate`), not the engine's."""
    check_selectors(config, catalogue)
    rules = selected_rules(config, changes, catalogue)
    ctx = RuleContext(corpus, config.options, changes, claims, catalogue)
    overrides = _Overrides(config.severity)
    findings: list[Finding] = []
    crashes: list[Crash] = []
    for rule in rules:
        checkpoint(cancel)
        found = run_contained(rule, ctx)  # a crash becomes an ADR000 finding
        override = overrides.get(rule)
        start = len(findings)
        findings.extend(
            f.with_severity(override or profile_severity(rule, config.profile, f.severity))
            for f in found
        )
        crashes.extend(Crash(rule.meta.code, f) for f in findings[start:]
                       if f.code == INTERNAL_ERROR[0])
    findings = _drop_per_file_ignores(findings, config.per_file_ignores)
    findings, unused = _apply_inline(findings, corpus, rules)
    reporter = next((r for r in rules if r.meta.reports_unused_suppressions), None)
    if reporter is not None:
        severity = overrides.get(reporter) or profile_severity(reporter, config.profile)
        extra = [reporter().finding(u.message, u.location, u.decision_id, severity=severity)
                 for u in unused]
        findings.extend(_drop_per_file_ignores(extra, config.per_file_ignores))
    report = Report(
        findings=sort_findings(findings),
        decisions=len(corpus),
        files=len(corpus.by_path),
        profile=config.profile,
        crashes=tuple(crashes),
    )
    return report.keeping(report.findings) if crashes else report


def check_selectors(config: Config, catalogue: Catalogue = CATALOGUE) -> None:
    """Reject ``select``/``ignore``/``severity``/``per-file-ignores`` entries that name no rule
    of ``catalogue`` (a typo would otherwise silently select nothing). Retired codes stay
    accepted."""
    import difflib

    known = catalogue.known()
    groups: list[tuple[str, tuple[str, ...]]] = [
        ("select", config.select),
        ("ignore", config.ignore),
        ("severity", tuple(config.severity)),
    ]
    groups += [(f"per-file-ignores {g!r}", tuple(v)) for g, v in config.per_file_ignores.items()]
    for where, selectors in groups:
        for selector in selectors:
            normal = suppress.normalise_selector(selector)
            if suppress.is_known(selector, known) or normal in catalogue.retired:
                continue
            words = [w for pair in known for w in pair]
            close = difflib.get_close_matches(normal, words, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UserError(
                f"{where}: {selector!r} names no rule{hint}; use a code (ADR104), a prefix (ADR1) "
                "or a name (missing-section): `adrguard rules` lists them"
            )


class _Overrides(msgspec.Struct):
    """``severity`` overrides keyed by code, prefix or name; the most specific key wins."""

    table: Mapping[str, Severity]
    cache: dict[str, Severity | None] = msgspec.field(default_factory=dict)

    def get(self, rule: type[BaseRule]) -> Severity | None:
        code, name = rule.meta.code, rule.meta.name
        if code not in self.cache:
            best: tuple[int, Severity] | None = None
            for key, value in self.table.items():
                spec = suppress.specificity(key, code, name)
                if spec is not None and (best is None or spec > best[0]):
                    best = (spec, value)
            self.cache[code] = best[1] if best else None
        return self.cache[code]


def _drop_per_file_ignores(
    findings: list[Finding], table: Mapping[str, tuple[str, ...]]
) -> list[Finding]:
    if not table or not findings:
        return findings
    import pathspec

    specs = [
        (pathspec.GitIgnoreSpec.from_lines([glob]), selectors)
        for glob, selectors in table.items()
    ]
    kept: list[Finding] = []
    for f in findings:
        drop = any(
            suppress.best_match(selectors, f.code, f.name) is not None
            and spec.match_file(f.location.path)
            for spec, selectors in specs
        )
        if not drop:
            kept.append(f)
    return kept


def _apply_inline(
    findings: list[Finding], corpus: Corpus, rules: tuple[type[BaseRule], ...]
) -> tuple[list[Finding], list[Unused]]:
    """Drop findings silenced by inline comments (``rules``: those that ran); return (kept,
    the suppressions that silenced nothing)."""
    directives: dict[str, tuple[Decision | str, suppress.Index]] = {}
    for d in corpus.decisions:
        found = suppress.suppressions(d)
        if found:
            directives[d.path] = (d, suppress.Index(found))
    for path, waived in suppress.citing_suppressions(corpus).items():
        directives.setdefault(path, (path, suppress.Index(waived)))
    if not directives:
        return findings, []
    never = {INTERNAL_ERROR[0]} | {r.meta.code for r in rules if r.meta.bookkeeping}
    kept: list[Finding] = []
    for f in findings:
        entry = directives.get(f.location.path)
        if (
            entry is None
            or f.code in never
            or not entry[1].silences(f.location.line, f.code, f.name)
        ):
            kept.append(f)
    ran_any = _RanCache(tuple(r for r in rules if not r.meta.bookkeeping))
    unused = [u for d, index in directives.values() for u in _unused(d, index, ran_any)]
    return kept, unused


class _RanCache(msgspec.Struct):
    """Whether a selector names at least one rule that ran (memoised per selector)."""

    ran: tuple[type[BaseRule], ...]
    cache: dict[str, bool] = msgspec.field(default_factory=dict)

    def __call__(self, selector: str) -> bool:
        if selector not in self.cache:
            self.cache[selector] = any(
                selector == "*" or suppress.specificity(selector, r.meta.code, r.meta.name)
                for r in self.ran
            )
        return self.cache[selector]


def _unused(d: Decision | str, index: suppress.Index, ran_any: _RanCache) -> list[Unused]:
    """The selectors of a record's (or a citing file's) comments that silenced nothing."""
    path, decision_id = (d, None) if isinstance(d, str) else (d.path, d.id)
    out: list[Unused] = []
    for s in index.all:
        for selector in s.selectors or ("*",):
            if (s.line, selector) in index.used:
                continue
            # Unknown selectors are another rule's business; rules that did not run prove nothing.
            if not ran_any(selector):
                continue
            what = "every rule" if selector == "*" else selector
            scope = (
                "this file"
                if s.kind == suppress.FILE
                else f"line {s.target_line}" if s.target_line else "the next line (there is none)"
            )
            out.append(
                Unused(
                    f"suppression of {what} silences nothing on {scope}: "
                    "remove it from the comment (the problem it hid is gone)",
                    Location(path, s.line),
                    decision_id,
                )
            )
    return out

