"""Claude Code's ``PreToolUse`` hook protocol (https://code.claude.com/docs/en/hooks): the JSON a
hook command reads on standard input, and the JSON it answers on standard output.

Input (the fields read here): ``session_id``, ``cwd``, ``hook_event_name`` (``PreToolUse``),
``tool_name`` and ``tool_input`` — for ``Read`` ``file_path`` (absolute) with optional
``offset``/``limit``; for ``Grep`` ``pattern`` with optional ``path``, ``glob``, ``type`` and
``output_mode`` (``files_with_matches`` by default, ``content``, ``count``); for ``Glob``
``pattern`` and ``path`` (file names only: never judged); for ``Bash`` ``command``. Other tools
are not judged.

Output, always with exit status 0 (the JSON is read only then):

* allowed: nothing at all, so Claude Code's own permission rules apply unchanged (a hook's
  ``"allow"`` would skip them, so the guard never answers it);
* a hint (``warn``): ``hookSpecificOutput.additionalContext``, text added to Claude's context
  before the tool runs;
* denied: ``hookSpecificOutput.permissionDecision: "deny"`` with the receipt in
  ``permissionDecisionReason`` (shown to Claude);
* the guard cannot know its mode: ``permissionDecision: "ask"`` (the person decides);
* a degradation (the guard could not fully work): ``systemMessage``, shown to the person.
"""

from __future__ import annotations

import json
from typing import Any

from adrguard.core.guard.calls import Asked, Call, ContentSearch, FileRead, ShellCommand
from adrguard.core.guard.policy import Answer, Output
from adrguard.core.schemas import load_json  # bounded depth, like every JSON input
from adrguard.core.textsafe import json_safe

EVENT = "PreToolUse"
MAX_PAYLOAD = 16 * 1024 * 1024  # bytes of standard input read; a larger payload is malformed
PREFIX = "adrguard read guard: "
_OUTPUTS = {"content": Output.CONTENT, "files_with_matches": Output.NAMES, "count": Output.COUNT}


def read_payload(data: bytes) -> Call:
    """The call a payload describes. A payload that cannot be read gives a call with
    ``problem`` set (and the working directory and session when those could still be read)."""
    if len(data) > MAX_PAYLOAD:
        return Call(problem=f"malformed hook payload: more than {MAX_PAYLOAD:,} bytes")
    try:
        payload = load_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return Call(problem=f"malformed hook payload: not JSON ({_short(exc)})")
    if not isinstance(payload, dict):
        return Call(problem="malformed hook payload: not a JSON object")
    cwd = payload.get("cwd")
    cwd = cwd if isinstance(cwd, str) and cwd.startswith("/") and "\x00" not in cwd else None
    session = payload.get("session_id")
    session = session if isinstance(session, str) and session else None
    event = payload.get("hook_event_name", EVENT)
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    problem: str | None = None
    asked: tuple[Asked, ...] = ()
    if event != EVENT:
        return Call((), cwd, session, tool if isinstance(tool, str) else "", note=(
            f"`adrguard guard` answers {EVENT} hooks; it was run for {_quoted(event)}, so "
            "nothing was checked: register it under PreToolUse"))
    if not isinstance(tool, str) or not tool:
        problem = "malformed hook payload: no tool_name"
    elif not isinstance(tool_input, dict):
        problem = f"malformed hook payload: tool_input of {_quoted(tool)} is not an object"
    else:
        try:
            asked = _asked(tool, tool_input)
        except ValueError as exc:
            problem = f"malformed hook payload: {exc}"
    return Call(asked, cwd, session, tool if isinstance(tool, str) else "", problem)


def _asked(tool: str, tool_input: dict[str, Any]) -> tuple[Asked, ...]:
    if tool == "Read":
        path = _text(tool_input, "file_path", tool)
        offset, limit = tool_input.get("offset"), tool_input.get("limit")
        part = "" if offset is None and limit is None else f"lines {offset or 1}+{limit or ''}"
        return (FileRead((path,), part, "Read"),)
    if tool == "Grep":
        pattern = _text(tool_input, "pattern", tool)
        scope = _optional(tool_input, "path", tool)
        glob = _optional(tool_input, "glob", tool)
        kind = _optional(tool_input, "type", tool)
        mode: str = _optional(tool_input, "output_mode", tool) or "files_with_matches"
        if mode not in _OUTPUTS:
            raise ValueError(f"Grep output_mode {_quoted(mode)} is none of {sorted(_OUTPUTS)}")
        return (ContentSearch(pattern, (scope,) if scope else (), (glob,) if glob else (),
                              (kind,) if kind else (), (), _OUTPUTS[mode], "Grep"),)
    if tool == "Bash":
        return (ShellCommand(_text(tool_input, "command", tool)),)
    return ()  # Glob (file names only) and every other tool: nothing to judge


def _text(data: dict[str, Any], key: str, tool: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or "\x00" in value:
        raise ValueError(f"{tool} without a usable {key}")
    return value


def _optional(data: dict[str, Any], key: str, tool: str) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or "\x00" in value:
        raise ValueError(f"{tool} {key} is not a string")
    return value


def _quoted(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def answer(decision: Answer, reason: str, degraded: tuple[str, ...]) -> dict[str, Any] | None:
    """The JSON to print for a decision (None: print nothing and let the call go ahead)."""
    out: dict[str, Any] = {}
    if decision is Answer.DENY or decision is Answer.ASK:
        out["hookSpecificOutput"] = {
            "hookEventName": EVENT,
            "permissionDecision": decision.value,
            "permissionDecisionReason": PREFIX + reason,
        }
    elif decision is Answer.WARN:
        out["hookSpecificOutput"] = {"hookEventName": EVENT, "additionalContext": PREFIX + reason}
    if degraded:
        out["systemMessage"] = PREFIX + "; ".join(degraded)
    return out or None


def render(data: dict[str, Any]) -> str:
    """One line of JSON, every character outside ASCII escaped, workflow commands defused."""
    return json_safe(json.dumps(data, ensure_ascii=True, sort_keys=True))
