"""The fields the read guard (issue 32) adds to ``get_adr``'s answer, kept apart from the tool
contract (:mod:`adrguard.mcp.models`) like the citation fields: in ``guard`` mode an archived
record's markdown is withheld (``content`` is null) and a receipt names the bounded retrieval
to call instead, unless the call asks for the record as history (``history: true``); in
``warn`` mode the markdown comes with the same hint."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ReadGuardFields(BaseModel):
    model_config = ConfigDict(extra="allow")

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
