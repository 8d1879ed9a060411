"""The fields citations add to MCP tool outputs (issue 19), kept apart from the tool contract
(:mod:`adrguard.mcp.models`) so that each can change on its own: ``get_adr`` gains
``referencedBy``, ``search_adrs`` the files an ``adr:ID`` term finds."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ReferencedByFields(BaseModel):
    """``get_adr``: who relies on the record."""

    referencedBy: list[dict[str, Any]] = Field(
        default_factory=list,
        description="records that refer to this one (kind: decision, with id and path), then "
        "code and documents that cite it (kind: code | doc, with path, line, form, the "
        "citation as written and the cited line as an untrusted excerpt)",
    )


class CitingSearchFields(BaseModel):
    """``search_adrs``: the decisions ``adr:ID`` terms name and the files citing them."""

    cites: list[dict[str, Any]] = Field(
        default_factory=list, description="adr:ID terms: the decisions they name"
    )
    citationTotal: int = Field(0, description="adr:ID terms: citing places before the limit")
    citations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="adr:ID terms: code and documents citing the decision (path, line, column, "
        "kind, form, state, untrusted excerpt)",
    )
