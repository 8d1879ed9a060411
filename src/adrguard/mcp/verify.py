"""The MCP tool ``verify_architecture`` (issue 18, seed 004): fitness rules evaluated from
bounded, already-produced evidence. :data:`TOOLS` is listed in :mod:`adrguard.mcp.registry`.

Parameters use the contract's names (``rulesPath``, ``evidencePaths``, ``baselinePath``,
``policy``); paths are repository-relative. The answer keeps pass, violation, unknown and
not-applicable results with their confidence, evidence and baseline state, plus
``inconclusive`` and ``policyFailed``; ``schemaVersion`` is ``"1.0"``. Enforcement is reported
in the answer (``policyFailed``), never as an error; a request that cannot be answered (a
missing manifest, an invalid one, a missing baseline) is a JSON-RPC error of its class. Nothing
is written (the drift baseline is only read) and nothing is built, tested or run.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from adrguard.api import verify as api
from adrguard.api.agent.workspace import MAX_IDENTIFIER, Workspace
from adrguard.core.fitness.manifest import MAX_EVIDENCE_FILES
from adrguard.mcp.contract import Params, Tool
from adrguard.mcp.models import Open, Version

RepoPath = Annotated[
    str,
    Field(min_length=1, max_length=MAX_IDENTIFIER, description="repository-relative path"),
]


class VerifyParams(Params):
    rulesPath: Annotated[
        RepoPath, Field(description="the fitness manifest, e.g. .adrguard-fitness.json")
    ]
    evidencePaths: Annotated[
        list[RepoPath] | None,
        Field(
            max_length=MAX_EVIDENCE_FILES,
            description=f"evidence JSON files CI already produced (at most "
            f"{MAX_EVIDENCE_FILES}; default: every file the rules of accepted decisions name)",
        ),
    ] = None
    baselinePath: Annotated[
        RepoPath | None,
        Field(
            description="an existing drift baseline, e.g. .adrguard-drift-baseline.json "
            "(default: the configured one, else .adrguard-drift-baseline.json when it exists)"
        ),
    ] = None
    policy: Literal["advisory", "enforce"] = "advisory"


class FitnessResult(Open):
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
        "{file, line, location, text} for lines and imports, with each item's verdict"
    )
    evidenceOmitted: int = 0
    baseline: Literal["new", "known", "fixed"] | None
    message: str
    line: int = Field(description="line of the rule in the manifest")
    successor: str | None = None
    fixed: int = 0


class VerifyResult(Open):
    schemaVersion: Version
    manifest: str
    policy: Literal["advisory", "enforce"]
    inconclusive: bool = Field(description="true when a rule has no verdict (unknown)")
    policyFailed: bool = Field(description="enforce only: a new violation or an inconclusive run")
    summary: dict[str, int] = Field(
        description="results by status (pass, violation, unknown, notApplicable) and "
        "newViolations: violations the drift baseline does not know (all of them without one)"
    )
    coverage: dict[str, Any]
    results: list[FitnessResult]
    evidenceFiles: list[dict[str, Any]]
    drift: dict[str, Any] | None
    notes: list[str]
    statement: str


def _run(ws: Workspace, p: Any) -> dict[str, Any]:
    return api.verify_architecture(ws, p.rulesPath, p.evidencePaths, p.baselinePath, p.policy)


TOOLS: tuple[Tool, ...] = (
    Tool(
        "verify_architecture",
        "Verify architecture",
        "Evaluate the fitness rules of accepted decisions from evidence files that already "
        "exist (nothing is built, tested or run). Missing or contradictory evidence is unknown, "
        "never a pass; enforce reports policyFailed in the answer, not as an error. Read-only: "
        "the drift baseline is only read.",
        VerifyParams,
        VerifyResult,
        _run,
        "verify fewer rules (a smaller manifest in rulesPath) or name fewer evidencePaths",
    ),
)
