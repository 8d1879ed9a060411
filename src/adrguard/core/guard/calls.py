"""What an agent asked for, as a runtime's adapter read it from the tool call: paths and
patterns exactly as the agent wrote them (the caller makes them repo-relative).

Like the policy's values these are named tuples, not dataclasses: the guard runs in a new
process before every tool call, and a named tuple costs a fifth of a frozen dataclass to define
(see ADR 27)."""

from __future__ import annotations

from typing import NamedTuple

from adrguard.core.guard.policy import Output


class FileRead(NamedTuple):
    """Files read directly (Claude Code's Read tool; ``adrguard guard read``)."""

    paths: tuple[str, ...]
    part: str = ""  # which lines: the same part of a record read twice is a repeat
    tool: str = "Read"


class ContentSearch(NamedTuple):
    """A search of file contents (the Grep tool; ``adrguard guard search``). No ``paths``:
    the working directory."""

    pattern: str
    paths: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    types_not: tuple[str, ...] = ()
    output: Output = Output.CONTENT
    tool: str = "Grep"


class ShellCommand(NamedTuple):
    """A shell command (the Bash tool): only its simple reads and searches are judged."""

    command: str


Asked = FileRead | ContentSearch | ShellCommand


class Call(NamedTuple):
    """One tool call. ``cwd``: the agent's working directory (absolute; None: this process's);
    ``session``: the runtime's session id (None: no counters); ``problem``: why the call could
    not be read at all (a malformed payload) — it is then judged as a call the guard cannot
    judge; ``note``: something to report that stops nothing (the hook wired to another
    event)."""

    asked: tuple[Asked, ...] = ()
    cwd: str | None = None
    session: str | None = None
    tool: str = ""
    problem: str | None = None
    note: str | None = None
