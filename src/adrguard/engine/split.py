"""Running the rules, split between this process and a forked copy on large corpora.

From :data:`PARALLEL_RULES_MIN` records on, the link rules (ADR2xx, about half the rule time)
run in a forked copy of the process while this one runs the others. Nothing in the result
changes: rules are pure, findings go back in rule order, and a rule that failed in the copy runs
again here, so an error surfaces exactly as in a serial run. No fork while other threads run
(the MCP server), nor where the platform has none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adrguard.core.findings import Finding
from adrguard.rules import BaseRule, RuleContext

Check = Callable[[type[BaseRule], RuleContext], list[Finding]]

PARALLEL_RULES_MIN = 2000
_FORKED_FAMILY = "ADR2"


def run_rules(
    rules: Sequence[type[BaseRule]], ctx: RuleContext, check: Check
) -> list[list[Finding]]:
    """``check(rule, ctx)`` of each rule, in rule order; the first failing rule (in that order)
    raises, as in a serial loop."""
    away = [i for i, r in enumerate(rules) if r.meta.code.startswith(_FORKED_FAMILY)]
    forked: dict[int, list[Finding] | None] | None = None
    pending: tuple[int, int] | None = None
    if len(ctx.corpus) >= PARALLEL_RULES_MIN and 0 < len(away) < len(rules) and _can_fork():
        pending = _fork(away, rules, ctx, check)
    results: dict[int, list[Finding] | BaseException] = {}
    try:
        for i, rule in enumerate(rules):
            if pending is not None and i in away:
                continue
            try:
                results[i] = check(rule, ctx)
            except Exception as exc:  # raised below, in rule order
                results[i] = exc
    finally:
        if pending is not None:
            forked = _collect(*pending)
    out: list[list[Finding]] = []
    for i, rule in enumerate(rules):
        got = results.get(i)
        if got is None:  # ran in the copy: its findings, or run here when the copy failed
            copy = forked.get(i) if forked is not None else None
            got = copy if copy is not None else check(rule, ctx)
        if isinstance(got, BaseException):
            raise got
        out.append(got)
    return out


def _can_fork() -> bool:
    import os
    import threading

    return hasattr(os, "fork") and threading.active_count() == 1  # never fork with threads


def _fork(
    away: list[int], rules: Sequence[type[BaseRule]], ctx: RuleContext, check: Check
) -> tuple[int, int]:
    """Start the copy that runs the rules at ``away``; (pid, read end of its pipe)."""
    import os
    import pickle

    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    try:  # the copy: run, send, and leave without running any exit handler or flushing stdio
        os.close(read)
        done: dict[int, list[Finding] | None] = {}
        for i in away:
            try:
                done[i] = check(rules[i], ctx)
            except BaseException:
                done[i] = None  # run again in the parent, which reports it
        with os.fdopen(write, "wb") as pipe:
            pipe.write(pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        os._exit(0)


def _collect(pid: int, read: int) -> dict[int, list[Finding] | None] | None:
    """What the copy sent (None when it sent nothing usable: its rules then run here)."""
    import os
    import pickle

    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    try:
        got = pickle.loads(data)  # our own fork's output, never anything read from disk
    except Exception:
        got = None
    return got if isinstance(got, dict) else None
