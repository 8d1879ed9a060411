"""Link spans over the ids of a written line, for the relation-scan tests (tests/core)."""

from __future__ import annotations

import re

from adrguard.core.model import Link
from adrguard.core.parse.document import Span


def link_spans(text: str, n: int) -> list[Span]:
    """Up to ``n`` link spans over the ids in ``text``, in order."""
    out: list[Span] = []
    for m in re.finditer(r"ADR[- ]?\d+|\d{4}-x\.md", text):
        if len(out) == n:
            break
        out.append(Span(m.start(), m.end(), Link(f"{m.group()}.md", m.group(), 1, m.start() + 1)))
    return out
