"""The rule protocol. A rule is a small class: ``meta`` plus ``check(ctx)``.

Its docstring is its documentation page (sections **Why**, **Bad**, **Good**); rules never read
files, git or config: everything arrives in the :class:`RuleContext`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

import msgspec

from adrguard.core.conventions.log import Log, logs_of
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import ChangeSet, Corpus, Decision, Location
from adrguard.core.options import Options

if TYPE_CHECKING:  # read only with --against (ADR509)
    from adrguard.core.authoring.claims import Claims


class RuleMeta(msgspec.Struct, frozen=True):
    """What the catalogue says of a rule, and the flags the engine runs it by (the engine
    names no rule code: whatever it treats specially, it reads here)."""

    code: str
    name: str
    summary: str
    default_severity: Severity
    enabled_by_default: bool = True  # in the standard and advisory profiles
    needs_changes: bool = False  # judges a change: runs only with a change set (git history)
    log_level: bool = False  # judges the log as a whole: kept under `check PATHS` everywhere
    legacy: bool = False  # in the `legacy` profile (the first release's rules)
    bookkeeping: bool = False  # about suppression comments themselves: never silenced inline
    reports_unused_suppressions: bool = False  # its findings: the engine's unused suppressions


T = TypeVar("T")


class Catalogue(msgspec.Struct, frozen=True):
    """A set of rules and the codes retired from it: what a run may select and what a
    ``select``, ``ignore`` or suppression comment may name. The registry's is
    :data:`adrguard.rules.CATALOGUE`; the engine runs the catalogue it is given and hands it to
    the rules on the :class:`RuleContext`."""

    rules: tuple[type[BaseRule], ...] = ()
    retired: Mapping[str, str] = msgspec.field(default_factory=dict)

    def known(self) -> list[tuple[str, str]]:
        """(code, name) of every rule."""
        return [(r.meta.code, r.meta.name) for r in self.rules]


@dataclass(frozen=True)
class RuleContext:
    """What a rule may look at: the records, the options and, for change-aware rules, the
    change set; ``claims``: the records other refs add (``check --against``); ``catalogue``:
    the rules of the run and the retired codes (what a suppression may name). :meth:`log` gives
    the conventions learned from one ADR root's records."""

    corpus: Corpus
    options: Options
    changes: ChangeSet | None = None
    claims: Claims | None = None
    catalogue: Catalogue = field(default_factory=Catalogue)
    _derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def derived(self, name: str, compute: Callable[[], T]) -> T:
        """State several rules of one run share (an index comparison, learned conventions),
        computed by the first rule that asks and kept on this context."""
        if name not in self._derived:
            self._derived[name] = compute()
        return cast(T, self._derived[name])

    def log(self, root: str) -> Log:
        """The log (records and learned habits) of one ADR root; the logs of every root are
        built on first use, their habits when a rule first asks for them."""
        logs = self._derived.get("logs")  # asked once per record: no closure made each time
        if logs is None:
            logs = self.derived("logs", lambda: logs_of(self.corpus))
        found = logs.get(root)
        if found is None:
            found = logs[root] = Log(root, ())
        return found


class Rule(Protocol):
    meta: ClassVar[RuleMeta]

    def check(self, ctx: RuleContext) -> Iterable[Finding]: ...


class BaseRule:
    """Convenience base: ``self.finding(...)`` fills code, name and default severity."""

    meta: ClassVar[RuleMeta]

    def finding(
        self,
        message: str,
        location: Location,
        decision: Decision | str | None = None,
        related: Iterable[str] = (),
        severity: Severity | None = None,
    ) -> Finding:
        """A finding of this rule, at the rule's default severity unless ``severity`` grades
        it lower (a cosmetic deviation, an observation)."""
        decision_id = decision.id if isinstance(decision, Decision) else decision
        return Finding(
            code=self.meta.code,
            name=self.meta.name,
            severity=self.meta.default_severity if severity is None else severity,
            message=message,
            location=location,
            decision_id=decision_id,
            related=tuple(sorted(set(related))),
        )

    def check(self, ctx: RuleContext) -> Iterable[Finding]:  # pragma: no cover - protocol
        raise NotImplementedError
