"""A rule that raises is contained: its crash becomes a finding, every other rule still reports.

A crash is a bug in adrguard, never in the records, but one record that trips a rule must not
hide the findings of every other record and rule (in the advisory GitHub Action it used to
replace the whole report). :func:`run_contained` runs a rule; when it raises, the crash becomes
an ``ADR000 internal-error`` finding on the record being checked (found on the stack of the
exception), and the rule runs again without that record, so its findings on the others still
come out. The crash is also data on the report (``Report.crashes``: the rule and its finding);
the CLI exits 3 after writing its reports whenever a rule crashed.
"""

from __future__ import annotations

from dataclasses import replace
from types import TracebackType

import msgspec

from adrguard.core.errors import UserError
from adrguard.core.findings import INTERNAL_ERROR, Finding, Severity
from adrguard.core.model import Decision, Location
from adrguard.rules import BaseRule, RuleContext

MAX_RETRIES = 8  # records set aside for one rule before it is given up


def run_contained(rule: type[BaseRule], ctx: RuleContext) -> list[Finding]:
    """``rule().check(ctx)`` as a list; a crash is reported (see the module docstring).
    ``UserError`` (a problem in the configuration) still propagates: exit 2."""
    crashes: list[Finding] = []
    current = ctx
    for _attempt in range(MAX_RETRIES + 1):
        try:
            found = list(rule().check(current))
        except UserError:
            raise
        except Exception as exc:  # any bug in a rule is contained here
            culprit = culprit_of(exc.__traceback__, current.corpus.decisions)
            crashes.append(crash_finding(rule, exc, culprit))
            if culprit is None:
                return crashes
            rest = tuple(d for d in current.corpus.decisions if d is not culprit)
            corpus = msgspec.structs.replace(current.corpus, decisions=rest)
            current = replace(current, corpus=corpus)
            continue
        return crashes + found
    return crashes


def culprit_of(tb: TracebackType | None, decisions: tuple[Decision, ...]) -> Decision | None:
    """The record a rule was looking at when it raised: the innermost frame of the traceback
    that holds one of ``decisions`` in a local variable (None when no frame does)."""
    known = {id(d) for d in decisions}
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            if isinstance(value, Decision) and id(value) in known:
                return value
    return None


def crash_finding(rule: type[BaseRule], exc: BaseException, culprit: Decision | None) -> Finding:
    meta = rule.meta
    what = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    if culprit is not None:
        message = (f"rule {meta.code} ({meta.name}) failed on this record ({what}); its "
                   "findings on the other records come from a run without it. This is a bug "
                   "in adrguard: please report it with this message")
        where = Location(culprit.path, 1)
    else:
        message = (f"rule {meta.code} ({meta.name}) failed ({what}), so its findings are "
                   "missing. This is a bug in adrguard: please report it with this message")
        where = Location(".", 1)
    return Finding(
        code=INTERNAL_ERROR[0],
        name=INTERNAL_ERROR[1],
        severity=Severity.ERROR,
        message=message,
        location=where,
        decision_id=culprit.id if culprit is not None else None,
    )
