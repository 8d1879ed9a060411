"""The fields citations add to MCP tool answers (issue 19), kept apart from the tool contract
(:mod:`adrguard.mcp.models`) so that each can change on its own: ``get_adr``'s ``adr`` gains
``referencedBy``, ``search_adrs`` the decisions an ``adr:ID`` term names and the files citing
them. Every field is optional with a default, as the contract asks of added fields; records
are named ``identifier`` as everywhere in the contract. Like the contract's models, these allow
fields they do not name (a field added later never breaks a client)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["code", "doc"]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Referrer(_Open):
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


class CitedAdr(_Open):
    identifier: str
    title: str | None
    status: str | None
    path: str


class CitationRow(_Open):
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


class ReferencedByFields(_Open):
    """``get_adr``'s ``adr``: who relies on the record."""

    referencedBy: list[Referrer] = Field(
        default_factory=list,
        description="ADRs that refer to this one (kind decision), then code and documents "
        "outside the ADR folders that cite it (kind code or doc); see docs/citations.md",
    )


class CitingSearchFields(_Open):
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
