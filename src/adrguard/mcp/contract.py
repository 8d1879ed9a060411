"""The shape of a tool: its parameters (a strict model: unknown names and wrong types are
refused), the model of its answer, the function that answers, and the advice given when an
answer is too large.

A tool is one :class:`Tool` value listed in :mod:`adrguard.mcp.registry`. The server publishes
its input schema (from ``params``, ``additionalProperties: false``) and output schema (from
``result``), checks every call against ``params`` before anything runs (a violation is a
JSON-RPC invalid-params error, never a tool result), renames the documented ``aliases`` (old
parameter names) first, and checks every answer against ``result``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from adrguard.api.agent.workspace import MAX_IDENTIFIER, MAX_PATHS, MAX_QUERY, Workspace


class Params(BaseModel):
    """Tool arguments: unknown names are refused, and so are values of the wrong JSON type."""

    model_config = ConfigDict(extra="forbid", strict=True)


Identifier = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_IDENTIFIER,
        description="a stable ADR id (ADR-0007), a numeric id (7) or a repository-relative "
        "path of a record inside the configured ADR folders; at most 1,024 characters, no "
        "control characters",
    ),
]
Query = Annotated[
    str, Field(min_length=1, max_length=MAX_QUERY, description="1-256 printable characters")
]
Paths = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=MAX_IDENTIFIER)]],
    Field(max_length=MAX_PATHS, description="repository-relative paths (at most 200)"),
]
Statuses = Annotated[
    list[str],
    Field(
        max_length=16,
        description="statuses to include: accepted, proposed, draft, deprecated, superseded, "
        "rejected, unknown, none, or all",
    ),
]


@dataclass(frozen=True)
class Tool:
    """One MCP tool: its name and descriptions, its parameters and answer, and what runs it."""

    name: str
    title: str
    description: str
    params: type[Params]
    result: type[BaseModel]
    run: Callable[[Workspace, Any], dict[str, Any]]  # (workspace, validated params) -> answer
    narrow: str  # how to ask for less when the answer is too large
    aliases: Mapping[str, str] = field(default_factory=dict)  # old parameter name -> new

    def input_schema(self) -> dict[str, Any]:
        schema = self.params.model_json_schema()
        schema.setdefault("properties", {})
        schema["additionalProperties"] = False
        return schema

    def output_schema(self) -> dict[str, Any]:
        return self.result.model_json_schema()


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the arguments of a call."""

    parameter: str
    problem: str


def rename_aliases(
    tool: Tool, arguments: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Problem]]:
    """The arguments with old names renamed; giving an old and its new name is a problem."""
    out: dict[str, Any] = {}
    problems: list[Problem] = []
    for name, value in arguments.items():
        new = tool.aliases.get(name)
        if new is None:
            out.setdefault(name, value)
            continue
        if new in arguments:
            problems.append(Problem(name, f"{name!r} is an old name of {new!r}: give only {new!r}"))
            continue
        out[new] = value
    return out, problems


def problems_of(tool: Tool, exc: ValidationError) -> list[Problem]:
    """What pydantic found, said in the tool's terms (the values given are not repeated)."""
    known = ", ".join(sorted(tool.params.model_fields)) or "no arguments"
    out: list[Problem] = []
    for err in exc.errors(include_input=False, include_url=False):
        name = ".".join(str(p) for p in err["loc"]) or "(arguments)"
        kind = err["type"]
        if kind == "extra_forbidden":
            out.append(Problem(name, f"unknown argument {name[:80]!r}: {tool.name} takes {known}"))
        elif kind == "missing":
            out.append(Problem(name, f"{name} is required"))
        else:
            out.append(Problem(name, f"{name}: {err['msg']}"))
    return out


def validate(tool: Tool, arguments: Mapping[str, Any]) -> tuple[Params | None, list[Problem]]:
    """The validated parameters, or the problems that make the call invalid."""
    renamed, problems = rename_aliases(tool, arguments)
    if problems:
        return None, problems
    try:
        return tool.params.model_validate(renamed), []
    except ValidationError as exc:
        return None, problems_of(tool, exc)
