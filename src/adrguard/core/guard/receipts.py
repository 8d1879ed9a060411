"""Receipts: the bounded retrieval an agent calls instead of a read the guard stops or hints at,
as a command (``adrguard context ...``) and as the MCP call (``adr_context`` with its
arguments) that answer the same question. Every argument is quoted for a POSIX shell."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from adrguard.core.lazyre import lazy
from adrguard.core.textsafe import neutralise

MAX_TOPIC = 256  # the MCP contract's limit on a topic
_ESCAPE = lazy(r"\\.")  # a regex escape (\b, \s, \.) is syntax, not a word
_WORD = lazy(r"[^\W_]{2,}")


class Receipt(NamedTuple):
    """What to call instead: ``command`` on the command line, ``tool`` with ``arguments`` over
    MCP; ``history`` is the explicit way to the text itself when it is needed as history."""

    command: str
    tool: str
    arguments: Mapping[str, Any] = {}
    history_command: str | None = None
    history_arguments: Mapping[str, Any] | None = None

    def text(self) -> str:
        """One sentence an agent can act on."""
        text = f"run `{self.command}` (MCP: {self.tool} {_json(dict(self.arguments))})"
        if self.history_command is not None and self.history_arguments is not None:
            text += (
                f"; only if you need the retired text itself, as history, ask for it by name: "
                f"`{self.history_command}` (MCP: get_adr {_json(dict(self.history_arguments))})"
            )
        return neutralise(text)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "command": self.command,
            "mcp": {"tool": self.tool, "arguments": dict(self.arguments)},
        }
        if self.history_command is not None and self.history_arguments is not None:
            data["history"] = {
                "command": self.history_command,
                "mcp": {"tool": "get_adr", "arguments": dict(self.history_arguments)},
            }
        return data


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def for_record(path: str) -> Receipt:
    """For one record (archived, usually): its bounded context, which puts the record's current
    successor first when it has been superseded."""
    return Receipt(
        command=f"adrguard context {shlex.quote(path)}",
        tool="adr_context",
        arguments={"identifier": path},
        history_command=f"adrguard show {shlex.quote(path)}",
        history_arguments={"identifier": path, "history": True},
    )


def for_search(pattern: str) -> Receipt:
    """For a search over many records' text: the bounded context on the pattern's words (the
    log's index when the pattern holds no word)."""
    topic = topic_of(pattern)
    if topic is None:
        return Receipt(command="adrguard context", tool="adr_context", arguments={})
    return Receipt(
        command=f"adrguard context --topic {shlex.quote(topic)}",
        tool="adr_context",
        arguments={"topic": topic},
    )


def topic_of(pattern: str) -> str | None:
    """The words of a search pattern (regex syntax dropped), as a topic of at most 256
    printable characters, or None when it has no word of two letters or more."""
    words = _WORD.findall(_ESCAPE.sub(" ", pattern[: MAX_TOPIC * 8]))
    topic = ""
    for word in dict.fromkeys(words):
        nxt = f"{topic} {word}" if topic else word
        if len(nxt) > MAX_TOPIC:
            break
        topic = nxt
    return topic or None


def exclusion_glob(roots: Sequence[str]) -> str:
    """One gitignore-style glob (as ripgrep and the Grep tool take it) that leaves every ADR
    root out of a search."""
    named = [r for r in roots if r != "."]
    if len(named) < len(roots) or not named:
        return "!**/*.md"  # the log is the repository root: leave out its markdown
    if len(named) == 1:
        return f"!{named[0]}/**"
    return "!{" + ",".join(named) + "}/**"


def exclusion_hint(roots: Sequence[str], tool: str) -> str:
    """How to keep a code search away from the ADR folders, in the searching tool's syntax."""
    glob = exclusion_glob(roots)
    if tool == "Grep":
        return f"set glob to {_json(glob)}, or give a path outside the ADR folders"
    if tool == "grep":
        names = sorted({r.rsplit("/", 1)[-1] for r in roots if r != "."})
        flags = " ".join(f"--exclude-dir={shlex.quote(n)}" for n in names) or "--exclude='*.md'"
        return f"add {flags}, or name the code folders to search"
    return f"add --glob {shlex.quote(glob)}, or name the code folders to search"
