"""What every reporter needs besides the report: tool version, rule catalogue, URLs.

Reporters are pure ``(Report, ReportContext) -> str`` functions. The context is built once by
the front end (:func:`default_context`); tests build one by hand so golden files do not change
when rules are added.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from adrguard import __version__
from adrguard.core.findings import Finding, Report, Severity, Summary, fingerprint
from adrguard.core.wording import plural
from adrguard.rules import ALL_RULES

if TYPE_CHECKING:
    from adrguard.core.model import Corpus
    from adrguard.rules.base import BaseRule, RuleMeta

INFORMATION_URI = "https://github.com/adrguard/adrguard"
HELP_BASE = "https://github.com/adrguard/adrguard/blob/main/docs/rules/"


class DecisionInfo(msgspec.Struct, frozen=True):
    """A one-line view of a decision, for reporters that name decisions (markdown)."""

    id: str
    path: str
    title: str | None = None
    status: str | None = None  # normalised status value, None when no status is stated


class ReportContext(msgspec.Struct, frozen=True):
    """Everything a reporter needs besides the report (see the module docstring)."""

    version: str
    rules: tuple[RuleMeta, ...] = ()  # the catalogue, in code order (SARIF driver.rules)
    # code -> full description
    descriptions: Mapping[str, str] = msgspec.field(default_factory=dict)
    help_base: str = HELP_BASE  # rule docs: <help_base><CODE>.md
    information_uri: str = INFORMATION_URI
    repo_url: str | None = None  # web URL of the checked repository (markdown links files)
    # id -> info, optional
    decisions: Mapping[str, DecisionInfo] = msgspec.field(default_factory=dict)
    color: bool = False  # text: render with rich colours (the output is a terminal)
    quiet: bool = False  # text: the findings only, without the summary lines (-q)
    tool_name: str = "adrguard"

    def help_uri(self, code: str) -> str:
        return f"{self.help_base.rstrip('/')}/{code}.md"

    def description(self, meta: RuleMeta) -> str:
        return self.descriptions.get(meta.code) or meta.summary


def describe(rule: type[BaseRule]) -> str:
    """A rule's full description: the docstring's opening paragraph and its **Why** section,
    as one plain paragraph (markdown emphasis removed)."""
    doc = inspect.cleandoc(rule.__doc__ or "")
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", doc) if p.strip()]
    if not paragraphs:
        return rule.meta.summary
    picked = [paragraphs[0]] if not paragraphs[0].startswith("**") else []
    picked += [p for p in paragraphs if p.startswith("**Why**")][:1]
    text = " ".join(picked) or paragraphs[0]
    return re.sub(r"\*\*(\w+)\*\*", r"\1", text)


def context_for(
    rules: Iterable[type[BaseRule]],
    version: str,
    *,
    color: bool = False,
    repo_url: str | None = None,
    decisions: Mapping[str, DecisionInfo] | None = None,
) -> ReportContext:
    ordered = sorted(rules, key=lambda r: r.meta.code)
    return ReportContext(
        version=version,
        rules=tuple(r.meta for r in ordered),
        descriptions={r.meta.code: describe(r) for r in ordered},
        repo_url=repo_url,
        decisions=dict(decisions or {}),
        color=color,
    )


def default_context(
    *,
    color: bool = False,
    repo_url: str | None = None,
    decisions: Mapping[str, DecisionInfo] | None = None,
    catalogue: bool = True,
    quiet: bool = False,
) -> ReportContext:
    """The context for this build of adrguard: every registered rule, the package version.
    ``catalogue=False`` leaves the rule catalogue out (and the rules unimported): enough for
    every format but those in ``adrguard.reporters.NEEDS_CATALOGUE``."""
    rules: tuple[type[BaseRule], ...] = ()
    if catalogue:
        rules = tuple(ALL_RULES)
    ctx = context_for(rules, __version__, color=color, repo_url=repo_url, decisions=decisions)
    return replace(ctx, quiet=True) if quiet else ctx


def decisions_of(corpus: Corpus) -> dict[str, DecisionInfo]:
    """``ReportContext.decisions`` from a corpus (the first record wins on a duplicate id)."""
    out: dict[str, DecisionInfo] = {}
    for d in corpus.decisions:
        status = d.status.value if d.status is not None else None
        out.setdefault(d.id, DecisionInfo(id=d.id, path=d.path, title=d.title, status=status))
    return out


# Shared wording -------------------------------------------------------------------------------

LEVELS: tuple[Severity, ...] = (Severity.ERROR, Severity.WARNING, Severity.NOTE)


def counts(summary: Summary) -> str:
    """``2 errors, 1 warning, 0 notes``."""
    return ", ".join(
        (
            plural(summary.errors, "error"),
            plural(summary.warnings, "warning"),
            plural(summary.notes, "note"),
        )
    )


def scope(summary: Summary) -> str:
    """``in 12 decisions (14 files)``."""
    return f"in {plural(summary.decisions, 'decision')} ({plural(summary.files, 'file')})"


def position(finding: Finding) -> tuple[int, int]:
    """1-based (line, column) of a finding, never below 1."""
    return max(1, finding.location.line), max(1, finding.location.column)


def clean(text: str) -> str:
    """Replace lone surrogates (undecodable input) so every output encodes as UTF-8."""
    if text.isascii():  # the usual case, without the regex
        return text
    return re.sub(r"[\ud800-\udfff]", "\ufffd", text)


def finding_fingerprint(finding: Finding) -> str:
    """:func:`adrguard.core.findings.fingerprint`, also for text holding lone surrogates."""
    text = "".join((finding.code, finding.message, finding.location.path,
                    finding.decision_id or "", *finding.related))
    if text.isascii():  # the usual case: nothing to clean, nothing to copy
        return fingerprint(finding)
    safe = replace(
        finding,
        code=clean(finding.code),
        message=clean(finding.message),
        location=replace(finding.location, path=clean(finding.location.path)),
        decision_id=clean(finding.decision_id) if finding.decision_id is not None else None,
        related=tuple(clean(r) for r in finding.related),
    )
    return fingerprint(safe)


# The judging of a run (baseline file, change scope): see adrguard.core.findings.Gate ------------

_FIXED_SHOWN = 3


def _outside(scope: str) -> str:
    if scope == "this commit":
        return "files this commit does not touch"
    return f"files outside {scope}"


def gate_lines(report: Report) -> list[str]:
    """The lines that say what a run held back: ``3 new, 41 known``, the older findings outside
    the change, the baseline entries that can be removed."""
    gate = report.gate
    if gate is None:
        return []
    lines: list[str] = []
    if gate.baseline is not None:
        lines.append(
            f"{len(report.findings)} new, {len(gate.known)} known (listed in "
            f"{clean(gate.baseline)}; --no-baseline shows them)"
        )
    if gate.older:
        lines.append(
            f"{plural(len(gate.older), 'older finding')} in {_outside(gate.scope or '')}; "
            "run adrguard check"
        )
    if gate.fixed:
        n = len(gate.fixed)
        entries = "1 baseline entry no longer occurs" if n == 1 else (
            f"{n} baseline entries no longer occur"
        )
        shown = "; ".join(clean(f) for f in gate.fixed[:_FIXED_SHOWN])
        more = f"; and {n - _FIXED_SHOWN} more" if n > _FIXED_SHOWN else ""
        lines.append(
            f"note: {entries} and can be removed with `adrguard baseline --update` "
            f"({shown}{more})"
        )
    return lines


def rule_counts(report: Report) -> list[tuple[int, str, str, Severity]]:
    """``--statistics``: (count, code, name, worst severity) per rule, most frequent first
    (then by code)."""
    seen: dict[str, tuple[int, str, Severity]] = {}
    for f in report.findings:
        count, _name, worst = seen.get(f.code, (0, f.name, f.severity))
        seen[f.code] = (count + 1, f.name, max(worst, f.severity))
    rows = [(count, code, name, sev) for code, (count, name, sev) in seen.items()]
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def summary_line(report: Report) -> str:
    """One line for stderr when every format went to a file: counts, and what was held back."""
    s = report.summary
    gate = report.gate
    held: list[str] = []
    if gate is not None:
        if gate.baseline is not None:
            held.append(f"{len(report.findings)} new, {len(gate.known)} known")
        if gate.older:
            held.append(f"{len(gate.older)} older outside the change")
    head = f"adrguard: {counts(s)} {scope(s)}"
    return head + (f" ({'; '.join(held)})" if held else "")
