"""Findings and reports: the tiny immutable values every reporter renders."""

from __future__ import annotations

import enum

import msgspec
from msgspec.structs import replace

from adrguard.core.lazyre import lazy
from adrguard.core.model import Location

# adrguard's own failure, reported as a finding (a rule that crashed): code and name
INTERNAL_ERROR = ("ADR000", "internal-error")

class Severity(enum.IntEnum):
    NOTE = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str) -> Severity:
        try:
            return cls[value.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown severity {value!r}: use one of note, warning, error"
            ) from None


class Finding(msgspec.Struct, frozen=True):
    """One problem a rule found, at a location."""

    code: str
    name: str
    severity: Severity
    message: str
    location: Location
    decision_id: str | None = None
    related: tuple[str, ...] = ()

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.code, self.message)

    def with_severity(self, severity: Severity) -> Finding:
        return self if severity is self.severity else replace(self, severity=severity)


_LEARNED_COUNT = lazy(r"\b\d+ of \d+\b")


def fingerprint(finding: Finding) -> str:
    """A stable identity for a finding that survives unrelated edits (line numbers excluded)."""
    import hashlib

    parts = [
        finding.code,
        finding.location.path,
        finding.decision_id or "",
        "\x1f".join(finding.related),
        _LEARNED_COUNT.sub("N of M", finding.message),  # "27 of 49 records" grows with the log
    ]
    return hashlib.sha256("\x1e".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def sort_findings(findings: list[Finding] | tuple[Finding, ...]) -> tuple[Finding, ...]:
    unique = {(f.sort_key, f.decision_id, f.related, f.severity): f for f in findings}
    return tuple(sorted(unique.values(), key=lambda f: (f.sort_key, f.decision_id or "")))


class Crash(msgspec.Struct, frozen=True):
    """A rule that raised while it ran (a bug in adrguard, contained by the engine): the rule's
    code, and the ``ADR000`` finding that reports it. Front ends read crashes from
    :attr:`Report.crashes`, never from the finding's message."""

    rule: str
    finding: Finding


class Summary(msgspec.Struct, frozen=True):
    """Counts for a report's summary line."""

    decisions: int
    files: int
    errors: int
    warnings: int
    notes: int


class Gate(msgspec.Struct, frozen=True):
    """How a run was judged, beyond its findings (see :mod:`adrguard.core.gate.baseline`).

    ``Report.findings`` holds only the findings that count (they can fail the run); the ones a
    baseline file already lists (``known``) and, when a change is judged, the ones that were
    there before it in files it does not touch (``older``) are kept here, shown by the formats
    that record everything (JSON, SARIF) and counted by the others."""

    known: tuple[Finding, ...] = ()
    older: tuple[Finding, ...] = ()
    fixed: tuple[str, ...] = ()  # baseline entries that no longer occur ("CODE path: message")
    baseline: str | None = None  # the baseline file used, repo-relative (None: none)
    scope: str | None = None  # the change judged ("this commit"), None for the whole log
    untracked: tuple[str, ...] = ()  # records checked that git does not track yet


class Report(msgspec.Struct, frozen=True):
    """The findings of one run, with how many decisions and files were checked."""

    findings: tuple[Finding, ...]
    decisions: int
    files: int
    profile: str = "standard"
    extra: dict[str, object] = msgspec.field(default_factory=dict)  # e.g. impact data for reporters
    gate: Gate | None = None  # baseline and change scope (None: every finding counts)
    crashes: tuple[Crash, ...] = ()  # the rules that raised, each with its finding above

    @property
    def crashed_rules(self) -> tuple[str, ...]:
        """The codes of the rules that raised, sorted (the run is incomplete: exit 3)."""
        return tuple(sorted({c.rule for c in self.crashes}))

    def keeping(self, findings: tuple[Finding, ...]) -> Report:
        """This report with ``findings`` (a filtered set of its own), and the crashes whose
        finding is still among them."""
        kept = set(findings)
        crashes = tuple(c for c in self.crashes if c.finding in kept)
        return replace(self, findings=findings, crashes=crashes)

    @property
    def summary(self) -> Summary:
        counts = {s: 0 for s in Severity}
        for f in self.findings:
            counts[f.severity] += 1
        return Summary(
            decisions=self.decisions,
            files=self.files,
            errors=counts[Severity.ERROR],
            warnings=counts[Severity.WARNING],
            notes=counts[Severity.NOTE],
        )

    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)
