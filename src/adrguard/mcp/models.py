"""Typed outputs of the MCP tools (clients get them as structured content and a schema).

Field names are the JSON names the façade (:mod:`adrguard.api.agent`) returns.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from adrguard.mcp.citing import CitingSearchFields, ReferencedByFields


class RecordSummary(BaseModel):
    """One record, as ``adrguard list --format json`` describes it."""

    id: str
    number: int | None = None
    title: str | None
    status: str | None = Field(
        description="accepted, proposed, ... (normalised), or null when no status is stated"
    )
    statusRaw: str | None = Field(default=None, description="the status as written")
    date: str | None = None
    path: str = Field(description="repository-relative path")
    format: str = "generic"
    archived: bool = False


class RecordList(BaseModel):
    total: int = Field(description="records matching the filters")
    offset: int
    records: list[RecordSummary]


class UntrustedContent(BaseModel):
    markdown: str
    contentIsUntrusted: bool = True
    note: str


class AdrDetail(RecordSummary, ReferencedByFields):
    governedPaths: list[str]
    governedComponents: list[str]
    relationships: dict[str, Any]
    problems: list[str]
    sha256: str
    content: UntrustedContent


class SearchItem(RecordSummary):
    fields: list[str]
    matches: dict[str, list[str]]
    excerpt: str
    line: int


class SearchResults(CitingSearchFields):
    query: str
    terms: list[str]
    total: int
    excerptsAreUntrusted: bool = True
    results: list[SearchItem]


class DeclaredRelationship(BaseModel):
    kind: str
    target: str = Field(description="the target as written in the record")
    resolved: str | None
    resolvedPath: str | None
    state: str = Field(
        description="resolved, unresolved, ambiguous, cyclic, inconsistent, inactive"
    )
    line: int


class Relationships(RecordSummary):
    declared: list[DeclaredRelationship]
    resolved: dict[str, Any]
    currentSuccessor: RecordSummary | None


class FindingItem(BaseModel):
    code: str
    name: str
    severity: str
    message: str
    path: str
    line: int
    column: int
    decision: str | None
    related: list[str]
    fingerprint: str


class Validation(BaseModel):
    valid: bool = Field(description="false when a finding is at or above fail-on")
    profile: str
    failOn: str
    summary: dict[str, int]
    total: int
    findings: list[FindingItem]
    truncated: bool


class Reason(BaseModel):
    kind: str = Field(description="record, glob, component, term, successor or dependency")
    detail: str
    path: str | None = None
    via: str | None = None


class FindItem(RecordSummary):
    score: float
    reasons: list[Reason]


class FindResults(BaseModel):
    paths: list[str]
    topic: str | None
    statuses: list[str]
    total: int
    results: list[FindItem]
    notes: list[str]
    heldBack: dict[str, int]


class ContextUnit(BaseModel):
    key: str = Field(description="ID, or ID#N for part N of a long record")
    id: str
    title: str | None
    status: str
    path: str
    part: int
    parts: int
    heading: str | None
    startLine: int
    endLine: int
    why: str
    hop: int
    archived: bool
    text: str


class Context(BaseModel):
    units: list[ContextUnit]
    contentIsUntrusted: bool = True
    note: str
    totalUnits: int
    leftOut: int = Field(description="units not in this response; pass cursor to get them")
    cursor: str | None
    corpusFingerprint: str
    warnings: list[str]
    codePoints: int
    bytes: int
    maxUnits: int
    maxChars: int


class ImpactResult(BaseModel):
    schemaVersion: int
    statement: str
    base: str
    head: str
    baseCommit: str | None
    headCommit: str | None
    mergeBase: str
    statuses: list[str]
    changes: list[dict[str, Any]]
    affected: list[dict[str, Any]]
    mappingIssues: list[dict[str, Any]]
    coverage: dict[str, int]
    ungoverned: list[str]
    uncertainty: list[str]
