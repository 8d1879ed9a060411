"""The MCP tool ``verify_architecture`` (seed 004): fitness rules evaluated from bounded,
already-produced evidence. Registered by :func:`register` on the server of
:mod:`adrguard.mcp.server`.

Parameters use the seed's names (``rulesPath``, ``evidencePaths``, ``baselinePath``,
``policy``); paths are repository-relative. The result keeps pass, violation, unknown and
not-applicable results with their confidence, evidence and baseline state, plus
``inconclusive`` and ``policyFailed``; ``schemaVersion`` is ``"1.0"``. Enforcement is reported
in the result (``policyFailed``), never as an error, and nothing is written: the drift baseline
is only read. Nothing is built, tested or run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from adrguard.api import verify as api
from adrguard.api.workspace import Workspace

RepoPath = Annotated[str, Field(min_length=1, max_length=1024,
                                description="repository-relative path")]


class FitnessResult(BaseModel):
    rule: str
    kind: str
    description: str | None = None
    decision: str
    decisionTitle: str | None
    decisionPath: str
    decisionStatus: str | None
    status: Literal["pass", "violation", "unknown", "not-applicable"]
    confidence: Literal["high", "medium", "none"]
    evidence: list[dict[str, Any]] = Field(
        description="what the verdict rests on: {file, pointer, value} for evidence files, "
        "{file, line, location, text} for lines and imports, with each item's verdict")
    evidenceOmitted: int = 0
    baseline: Literal["new", "known", "fixed"] | None
    message: str
    line: int = Field(description="line of the rule in the manifest")
    successor: str | None = None
    fixed: int = 0


class VerifyResult(BaseModel):
    schemaVersion: str
    manifest: str
    policy: Literal["advisory", "enforce"]
    inconclusive: bool = Field(description="true when a rule has no verdict (unknown)")
    policyFailed: bool = Field(description="enforce only: a new violation or an inconclusive run")
    summary: dict[str, int] = Field(description="results by status (pass, violation, unknown, "
                                    "notApplicable) and newViolations: violations the drift "
                                    "baseline does not know (all of them without one)")
    coverage: dict[str, Any]
    results: list[FitnessResult]
    evidenceFiles: list[dict[str, Any]]
    drift: dict[str, Any] | None
    notes: list[str]
    statement: str


Call = Callable[..., Awaitable[Any]]


def register(server: MCPServer[Any], ws: Workspace, call: Call, annotations: ToolAnnotations
             ) -> None:
    """Add ``verify_architecture`` to ``server``; ``call`` runs a façade function on a worker
    thread and turns its errors into tool errors (the server's own ``_call``)."""

    @server.tool(annotations=annotations, title="Verify architecture")
    async def verify_architecture(
        rulesPath: Annotated[RepoPath, Field(description="the fitness manifest, e.g. "
                                                        ".adrguard-fitness.json")],
        evidencePaths: Annotated[
            list[RepoPath] | None,
            Field(max_length=20, description="evidence JSON files CI already produced (at most "
                  "20; default: every file the rules name)"),
        ] = None,
        baselinePath: Annotated[
            RepoPath | None,
            Field(description="an existing drift baseline, e.g. .adrguard-drift-baseline.json"),
        ] = None,
        policy: Literal["advisory", "enforce"] = "advisory",
    ) -> VerifyResult:
        """Evaluate the fitness rules of accepted decisions from evidence files that already
        exist (nothing is built, tested or run). Missing or contradictory evidence is unknown,
        never a pass; enforce reports policyFailed in the result. Read-only."""
        result: VerifyResult = await call(
            VerifyResult, api.verify_architecture, ws, rulesPath, evidencePaths,
            baselinePath, policy)
        return result
