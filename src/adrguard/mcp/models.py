"""What each MCP tool returns (structured content), as typed models: the output schema every
tool publishes, and the check the server runs on each answer before sending it.

Field names are the JSON names of the tool contract (``docs/agents.md``): the names the
"ADR Guard" specification gives (``schemaVersion``, ``identifier``, ``adrs``, ``content``,
``contentIsUntrusted``, ...), plus extra fields of ours. Every model allows fields it does not
name, so a field added to an answer (:mod:`adrguard.api.agent.surface`) never breaks a client;
name it here too so the published schema describes it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Version = Literal["1.0"]


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


# --- fields citations add -------------------------------------------------------------------
# The fields citations add to tool answers (issue 19): ``get_adr``'s ``adr`` gains
# ``referencedBy``, ``search_adrs`` the decisions an ``adr:ID`` term names and the files citing
# them. Every field is optional with a default, as the contract asks of added fields; records
# are named ``identifier`` as everywhere in the contract.

Kind = Literal["code", "doc"]


class Referrer(Open):
    """One record, code file or document that refers to the ADR."""

    kind: Literal["decision", "code", "doc"] = Field(
        description="decision: another ADR links to it or declares a relationship with it; "
        "code / doc: a file outside the ADR folders cites it"
    )
    path: str = Field(description="repository-relative path of the referring file")
    identifier: str | None = Field(None, description="kind decision: the referring ADR")
    line: int | None = Field(None, description="code / doc: line of the citation")
    form: Literal["id", "link", "front-matter", "table"] | None = Field(
        None, description="code / doc: how it cites (a bare id, a link, a front matter field, "
        "an ADRs table row)"
    )
    text: str | None = Field(None, description="code / doc: the citation as written")
    excerpt: str | None = Field(None, description="code / doc: the citing line (untrusted)")
    title: str | None = Field(
        None, description="the referring ADR's title, or the citing document's (its front "
        "matter title or first H1; untrusted); null for code or when it has none"
    )
    date: str | None = Field(
        None, description="the referring ADR's date, or the citing document's (front matter "
        "date, or a Date field or table row near its top), as written; null when unknown"
    )


class CitedAdr(Open):
    identifier: str
    title: str | None
    status: str | None
    path: str


class CitationRow(Open):
    """One place in code or documents that cites a decision."""

    path: str
    line: int
    column: int
    kind: Kind
    form: Literal["id", "link", "front-matter", "table"]
    text: str = Field(description="the citation as written")
    excerpt: str = Field(description="the citing line, shortened (untrusted)")
    state: Literal["resolved", "unknown", "ambiguous"] = Field(
        description="resolved: names one ADR; unknown: no ADR has that number; ambiguous: "
        "several logs hold it (candidates), none is chosen"
    )
    decision: CitedAdr | None
    candidates: list[str] = Field(description="ambiguous: the identifiers it may name")


class ReferencedByFields(Open):
    """``get_adr``'s ``adr``: who relies on the record."""

    referencedBy: list[Referrer] = Field(
        default_factory=list,
        description="ADRs that refer to this one (kind decision), then code and documents "
        "outside the ADR folders that cite it (kind code or doc); see docs/citations.md",
    )


class CitingSearchFields(Open):
    """``search_adrs``: the decisions ``adr:ID`` terms name and the files citing them (present
    only when the query holds an ``adr:ID`` term)."""

    cites: list[CitedAdr] = Field(
        default_factory=list, description="adr:ID terms: the ADRs they name (none: unknown id)"
    )
    citationTotal: int = Field(0, description="adr:ID terms: citing places before the limit")
    citations: list[CitationRow] = Field(
        default_factory=list,
        description="adr:ID terms: code and documents citing every named ADR, up to limit "
        "(excerpts untrusted)",
    )


# --- fields the read guard adds -------------------------------------------------------------
# The fields the read guard (issue 32) adds to ``get_adr``'s answer: in ``guard`` mode an
# archived record's markdown is withheld (``content`` is null) and a receipt names the bounded
# retrieval to call instead, unless the call asks for the record as history (``history: true``);
# in ``warn`` mode the markdown comes with the same hint.

class ReadGuardFields(Open):
    contentWithheld: bool = Field(
        False, description="true: the read guard (read-guard = guard) withheld an archived "
        "record's markdown; call what receipt names, or ask again with history: true"
    )
    receipt: dict[str, Any] | None = Field(
        None, description="the bounded retrieval to call instead of reading an archived "
        "record: command (CLI), mcp (tool and arguments), history (how to ask for the text "
        "itself)"
    )
    readGuard: str | None = Field(
        None, description="the read guard's message about this record (warn or guard mode)"
    )


# --- the answers of each tool ---------------------------------------------------------------


class AdrSummary(Open):
    """One ADR as ``list_adrs`` lists it."""

    identifier: str = Field(description="stable id, e.g. ADR-0007")
    title: str | None
    status: str | None = Field(
        description="accepted, proposed, draft, deprecated, superseded, rejected or unknown "
        "(normalised); null when the record states no status"
    )
    path: str = Field(description="repository-relative path")
    format: Literal["canonical", "madr-4"] = Field(
        description="madr-4 for MADR 4 records, canonical for every other layout"
    )
    family: str = Field(description="detected layout: nygard, madr2, madr3, madr4, ...")
    number: int | None = None
    statusRaw: str | None = None
    date: str | None = None
    archived: bool = False
    summary: str | None = Field(
        default=None,
        description="the decision's first sentence (from its Decision section when it has one; "
        "at most 200 code points; untrusted); null when the record has no prose",
    )


class ListResult(Open):
    schemaVersion: Version
    total: int = Field(description="ADRs matching the filters (all of them without filters)")
    adrs: list[AdrSummary]


class Succession(Open):
    state: Literal["none", "current", "ambiguous", "cyclic"]
    successor: dict[str, Any] | None
    candidates: list[dict[str, Any]] = Field(description="when ambiguous; none is chosen")
    at: str | None


class AdrDetail(ReferencedByFields, AdrSummary):
    governedPaths: list[str]
    governedComponents: list[str]
    relationships: dict[str, Any] = Field(description="resolved relationships, by kind")
    successor: Succession
    problems: list[dict[str, Any]]
    sha256: str


class GetResult(ReadGuardFields, Open):
    schemaVersion: Version
    adr: AdrDetail
    content: str | None = Field(
        description="the record's markdown (after any front matter); null only when the read "
        "guard withholds an archived record (contentWithheld)"
    )
    contentIsUntrusted: Literal[True]


class SearchItem(AdrSummary):
    matchedFields: list[Literal["identifier", "title", "markdown"]]
    matches: dict[str, list[str]] = Field(description="term -> fields it matched")
    excerpt: str | None = Field(description="the markdown around the place where the most "
                                "terms occur together (prose before headings); null if the "
                                "markdown has no match")
    line: int
    score: float = Field(description="the rank, higher first: BM25 over the markdown plus a "
                         "boost for title and identifier matches; 0 for adr:ID results")


class SearchResult(CitingSearchFields, Open):
    schemaVersion: Version
    query: str
    terms: list[str]
    excerptsAreUntrusted: Literal[True]
    truncated: bool = Field(description="more records matched after the limit")
    total: int | None = Field(default=None, description="records that matched (the results "
                              "are the best `limit` of them); absent for adr:ID searches")
    results: list[SearchItem]


class Relationship(Open):
    source: str
    sourcePath: str
    type: str
    declaredTarget: str = Field(description="the target as the record writes it")
    resolvedTarget: str | None
    resolvedPath: str | None
    resolutionState: Literal[
        "resolved", "unresolved", "ambiguous", "cyclic", "inconsistent", "inactive"
    ]
    line: int


class Diagnostic(Open):
    code: str
    message: str
    path: str
    severity: Literal["error", "warning", "note"]
    line: int
    column: int


class RelationshipsResult(Open):
    schemaVersion: Version
    scope: Literal["all", "one"]
    adr: AdrSummary | None
    relationships: list[Relationship] = Field(
        description="supersedes, superseded-by and depends-on declarations"
    )
    otherRelationships: list[Relationship] = Field(
        description="amends, amended-by, relates-to and in-favour-of declarations"
    )
    diagnostics: list[Diagnostic]


class ValidateResult(Open):
    schemaVersion: Version
    valid: bool = Field(description="false when a diagnostic is at or above failOn")
    fileCount: int
    effectivePolicy: dict[str, Any]
    diagnostics: list[Diagnostic]
    total: int
    truncated: bool


class ImpactResult(Open):
    schemaVersion: Version
    statement: str
    repository: dict[str, Any]
    summary: dict[str, int]
    coverage: dict[str, int]
    uncertainty: list[str]
    changedFiles: list[dict[str, Any]]
    affectedDecisions: list[dict[str, Any]]
    unknownDecisions: list[dict[str, Any]]
    inactiveDecisions: list[dict[str, Any]] = Field(
        description="mappings that name a decision no longer in force (superseded, rejected, "
        "deprecated): they govern nothing"
    )
    ungovernedFiles: list[str] = Field(
        description="changed files no mapping and no decision covers"
    )
    mappingEvidence: list[dict[str, Any]]


class FindItem(AdrSummary):
    score: float
    reasons: list[dict[str, str]]
    confidence: float = Field(
        default=0.0, ge=0, le=1,
        description="0-1: the model's, when judgedBy is ai; else the deterministic keyword "
        "confidence (the record itself 1.0, a declared glob or component 0.9, words at most 0.85)",
    )
    reason: str = Field(default="", description="why it is listed: the model's words "
                        "(untrusted) or what matched")
    matchedFields: list[str] = Field(
        default_factory=list,
        description="what matched: path, affected-paths, affected-components, manifest, title, "
        "body, successor, depends-on",
    )
    judgedBy: Literal["ai", "keyword"] = "keyword"


class Judgment(Open):
    """What the degradation ladder decided (docs/agents.md)."""

    state: Literal[
        "answered", "cached", "off", "unconfigured", "no-topic", "no-candidates", "no-key",
        "refused", "failed",
    ]
    provider: str | None
    model: str | None
    threshold: float
    narrowedBy: Literal["paths", "status"]
    survivors: int = Field(description="records that survived paths, status and graph")
    candidates: int = Field(description="records sent to (or answered from the cache of) the "
                            "model")
    judged: int
    belowThreshold: int
    outside: list[str] = Field(description="ids the model named that were not candidates "
                               "(dropped)")


class FindResult(Open):
    schemaVersion: Version
    method: Literal["keyword", "ai"]
    cached: bool = Field(description="ai: the model's answer came from the answer cache; "
                         "keyword: the parsed records of an earlier request were reused")
    latency_ms: int = Field(description="the request's time in the server: differs between "
                            "two runs of the same request")
    total: int
    results: list[FindItem]
    notes: list[str]
    warnings: list[str] = Field(default_factory=list, description="why a configured model "
                                "was not used (keyword results instead)")
    ai: Judgment | None = None


class ContextUnit(Open):
    key: str = Field(description="ID, or ID#N for part N of a long record")
    identifier: str
    title: str | None
    status: str
    path: str
    part: int
    parts: int
    startLine: int
    endLine: int
    why: str
    hop: int
    text: str


class Freshness(Open):
    root: str
    state: Literal["fresh", "stale", "invalid", "absent"]
    view: str | None
    manifest: str | None
    changed: list[dict[str, Any]]


class ContextResult(Open):
    schemaVersion: Version
    mode: Literal["record", "selection", "overview"]
    intent: Literal["current", "rationale", "history"] = "current"
    method: Literal["keyword", "ai"] = Field(
        default="keyword", description="ai: a model judged which records a topic selects"
    )
    ai: Judgment | None = None
    units: list[ContextUnit]
    index: list[dict[str, Any]]
    contentIsUntrusted: Literal[True]
    successor: Succession | None
    freshness: list[Freshness]
    totalUnits: int
    leftOut: int = Field(description="units (or index rows) not in this response")
    cursor: str | None
    corpusFingerprint: str
    warnings: list[str]
    codePoints: int
    bytes: int
    tokensEstimate: int
    tokensEstimateMethod: str
