"""The read guard for agent runtimes (issue 32): one tool call judged allow / warn / deny.

:func:`judge` takes a :class:`~adrguard.core.guard.calls.Call` (what a runtime's adapter read
from the tool call), loads the mode and the log's layout (:mod:`adrguard.adapters.guard.setup`,
cached), makes the agent's paths repo-relative (:mod:`adrguard.adapters.guard.paths`), reads the
simple shell reads of a command (:mod:`adrguard.core.guard.shell`), applies the policy
(:mod:`adrguard.core.guard.policy`) and counts the session (:mod:`adrguard.adapters.guard.session`).

Failures inside the guard are never hidden: a configuration that cannot be used, a repository
git refuses, damaged counters or a bug are reported in :attr:`Outcome.degraded`. In ``guard``
mode a call the guard would have to judge and cannot is denied with the reason (it fails closed
for that call, not for every call); in ``warn`` mode it goes ahead with the reason; when even the
mode cannot be read the answer is ``ask`` — the person decides, the guard invents no policy.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from adrguard import __version__
from adrguard.adapters.guard.claude import answer as answer
from adrguard.adapters.guard.claude import read_payload as read_payload
from adrguard.adapters.guard.claude import render as render
from adrguard.adapters.guard.paths import Resolver
from adrguard.adapters.guard.session import Session, SessionError
from adrguard.adapters.guard.setup import SetupError, load_setup
from adrguard.core.guard import receipts
from adrguard.core.guard.calls import Asked as Asked
from adrguard.core.guard.calls import Call as Call
from adrguard.core.guard.calls import ContentSearch as ContentSearch
from adrguard.core.guard.calls import FileRead as FileRead
from adrguard.core.guard.calls import ShellCommand
from adrguard.core.guard.policy import (
    Answer,
    Mode,
    Notice,
    Read,
    Request,
    Search,
    Seen,
    Target,
    Verdict,
    decide,
)
from adrguard.core.guard.policy import (
    Output as Output,
)
from adrguard.core.guard.shell import ShellRead, ShellSearch, Unparsable, read_command
from adrguard.core.textsafe import neutralise

SCHEMA_VERSION = 1  # of the JSON line of `adrguard guard read|search` (schemas/guard.schema.json)


class Outcome(NamedTuple):
    """The guard's answer to one call."""

    mode: Mode | None  # None: the configuration could not even say the mode
    verdict: Verdict
    degraded: tuple[str, ...] = ()  # what went wrong inside the guard, in words
    not_judged: tuple[str, ...] = ()  # shell commands the guard does not recognise (allowed)
    session: dict[str, Any] | None = None  # the session's counters after this call
    source: str | None = None  # the configuration file

    @property
    def answer(self) -> Answer:
        return self.verdict.answer

    def to_json(self) -> dict[str, Any]:
        """The one JSON line of the generic command (``schemas/guard.schema.json``)."""
        return {
            "schemaVersion": SCHEMA_VERSION,
            "decision": self.answer.value,
            "mode": self.mode.value if self.mode is not None else None,
            "reason": self.verdict.reason or None,
            "notices": [n.to_json() for n in self.verdict.notices],
            "evidence": [
                {"path": e.path, "state": e.state.value} for e in self.verdict.evidence
            ],
            "degraded": list(self.degraded),
            "notJudged": list(self.not_judged),
            "session": self.session,
        }


def judge(call: Call, repo: Path | None = None, *, cache: bool = True) -> Outcome:
    """The answer to ``call`` in the repository ``repo`` (default: the git work tree around the
    call's working directory). ``cache``: False neither reads nor writes the cache folder."""
    cwd = os.path.abspath(call.cwd) if call.cwd else os.getcwd()
    top = _top(repo, cwd)

    try:
        setup, folder = load_setup(top, cache=cache)
    except SetupError as exc:
        return _cannot_judge(exc.mode, call, str(exc))
    except Exception as exc:  # a bug: reported, and judged as a call that cannot be judged
        return _cannot_judge(None, call, _bug(exc))
    mode = setup.mode
    if mode is Mode.OFF:
        return Outcome(mode, Verdict(Answer.ALLOW), source=setup.source)
    if call.problem is not None:
        return _cannot_judge(mode, call, call.problem, source=setup.source)
    degraded: list[str] = [call.note] if call.note else []
    try:
        resolver = Resolver(str(top), setup.layout)
        requests, not_judged = _requests(call, resolver, cwd)
        session = _session(folder, call.session, degraded)
        verdict = decide(setup.layout, mode, requests, session.seen() if session else Seen())
        summary = None
        if session is not None:
            session.record(verdict, _sizes(top, verdict))
            summary = _save(session, degraded)
    except Exception as exc:
        return _cannot_judge(mode, call, _bug(exc), source=setup.source)
    return Outcome(mode, verdict, tuple(degraded), not_judged, summary, setup.source)


def _top(repo: Path | None, cwd: str) -> Path:
    if repo is not None:
        return Path(repo).resolve()
    start = Path(cwd).resolve()
    return next((d for d in (start, *start.parents) if (d / ".git").exists()), start)


def _bug(exc: BaseException) -> str:
    return (f"internal error {type(exc).__name__}: {neutralise(str(exc))} (a bug in adrguard "
            f"{__version__}: please report it)")


# --- a call the guard cannot judge -------------------------------------------------------------


def _cannot_judge(
    mode: Mode | None, call: Call, why: str, source: str | None = None
) -> Outcome:
    """``why`` kept the guard from judging ``call``: denied in ``guard`` mode when the call reads
    something the guard would have judged, asked when the mode itself is unknown, let through
    (and reported) otherwise."""
    if mode is Mode.OFF:
        return Outcome(mode, Verdict(Answer.ALLOW), source=source)
    if not _needs_judging(call) or mode not in (None, Mode.GUARD):
        return Outcome(mode, Verdict(Answer.ALLOW), (f"{why}; this call was not checked",),
                       source=source)
    if mode is None:
        text = (f"adrguard's read guard cannot read its own configuration ({why}), so it does "
                "not know whether this read is allowed: fix the configuration (`adrguard check` "
                "names the problem).")
        return Outcome(None, Verdict(Answer.ASK, (Notice("degraded", "degraded", text, None),)),
                       (why,), source=source)
    text = (f"adrguard's read guard could not judge this call ({why}); in guard mode it "
            "does not let through a read it cannot judge. Fix the cause, or read the "
            "decisions through `adrguard context` (MCP adr_context).")
    return Outcome(mode, Verdict(Answer.DENY, (Notice("degraded", "degraded", text, None),)),
                   (why,), source=source)


def _needs_judging(call: Call) -> bool:
    """Whether the call reads file contents the guard would judge (a malformed call might)."""
    if call.problem is not None:
        return True
    for asked in call.asked:
        if isinstance(asked, FileRead):
            return True
        if isinstance(asked, ContentSearch) and asked.output is Output.CONTENT:
            return True
        if isinstance(asked, ShellCommand):
            try:
                reading = read_command(asked.command)
            except Unparsable:
                continue
            if any(not isinstance(c, ShellSearch) or c.output is Output.CONTENT
                   for c in reading.calls):
                return True
    return False


# --- requests --------------------------------------------------------------------------------


def _requests(
    call: Call, resolver: Any, cwd: str
) -> tuple[list[Request], tuple[str, ...]]:
    requests: list[Request] = []
    not_judged: list[str] = []
    here = resolver.relative(cwd)
    for asked in call.asked:
        if isinstance(asked, FileRead):
            targets = tuple(resolver.target(p, cwd) for p in asked.paths)
            requests.append(Read(targets, asked.part, asked.tool))
        elif isinstance(asked, ContentSearch):
            scopes = tuple(resolver.target(p, cwd) for p in asked.paths) or (Target(here),)
            requests.append(Search(scopes, here, asked.globs, asked.types, asked.types_not,
                                   asked.output, asked.pattern, asked.tool))
        else:
            try:
                reading = read_command(asked.command)
            except Unparsable as exc:
                not_judged.append(f"the command could not be read ({exc})")
                continue
            not_judged.extend(reading.unrecognised)
            for shell_call in reading.calls:
                wd = resolver.working(cwd, shell_call.cd)
                if isinstance(shell_call, ShellRead):
                    targets = tuple(resolver.target(w.text, wd, w.wildcard)
                                    for w in shell_call.paths)
                    requests.append(Read(targets, shell_call.part, shell_call.tool))
                else:
                    where = resolver.relative(wd)
                    scopes = tuple(resolver.target(w.text, wd, w.wildcard)
                                   for w in shell_call.paths) or (Target(where),)
                    requests.append(Search(
                        scopes, where, shell_call.globs, shell_call.types, shell_call.types_not,
                        shell_call.output, shell_call.pattern, shell_call.tool,
                        shell_call.recursive,
                    ))
    return requests, tuple(dict.fromkeys(not_judged))


def _sizes(top: Path, verdict: Verdict) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for item in verdict.evidence:
        try:
            sizes[item.path] = os.stat(top / item.path).st_size
        except OSError:
            sizes[item.path] = 0
    return sizes


# --- the session -------------------------------------------------------------------------------


def _session(folder: Path | None, session_id: str | None, degraded: list[str]) -> Any:
    """The session's counters, or None (no session id, the cache is off, or they cannot be
    used: then said in ``degraded``)."""
    if not session_id:
        return None
    if folder is None:
        return None  # the cache is off (a choice, not a failure): no counters, hints repeat

    try:
        session = Session.open(folder, session_id)
    except SessionError as exc:
        degraded.append(f"{exc}: this session's reads are not counted")
        return None
    if session.problem:
        degraded.append(session.problem)
    return session


def _save(session: Any, degraded: list[str]) -> dict[str, Any] | None:
    try:
        session.save()
    except SessionError as exc:
        degraded.append(f"{exc}: this call was not counted")
    summary: dict[str, Any] = session.summary()
    return summary


# --- the MCP side -----------------------------------------------------------------------------


def archived_read(mode: str, path: str, archived: bool, history: bool) -> dict[str, Any]:
    """What ``get_adr`` changes in its answer for the read guard: in ``guard`` mode an archived
    record's ``content`` is withheld (null) with a receipt, unless the call names it as
    ``history``; in ``warn`` mode the receipt comes with the content. Empty otherwise."""
    if not archived or mode == Mode.OFF.value:
        return {}

    receipt = receipts.for_record(path)
    message = (f"{path} is an archived decision record (history, not what holds now): "
               f"{receipt.text()}.")
    if mode == Mode.GUARD.value and not history:
        return {"content": None, "contentWithheld": True, "receipt": receipt.to_json(),
                "readGuard": message}
    if mode == Mode.WARN.value:
        return {"receipt": receipt.to_json(), "readGuard": message}
    return {}
