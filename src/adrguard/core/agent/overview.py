"""``adrguard context`` with no selector: the log's index, within the same budget. Pure.

One row per record (identifier, title, status, path) in discovery order, as many as fit in
``max_chars`` code points together with the warnings; the rest is counted and a cursor (bound
to the corpus fingerprint and the request, like every context cursor) resumes after the last
row returned. The first row always fits, so a page is never empty while rows are left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adrguard.core.agent.context import (
    MAX_WARNINGS,
    MIN_CHARS,
    clip,
    estimate_tokens,
    fingerprint,
    make_cursor,
    read_cursor,
    shown_title,
)
from adrguard.core.errors import UserError
from adrguard.core.impact.analysis import status_key
from adrguard.core.model import Corpus, Decision


@dataclass(frozen=True)
class Overview:
    """One page of the index."""

    rows: tuple[Decision, ...]
    total: int  # rows in the whole index
    left_out: int  # rows after this page
    cursor: str | None
    fingerprint: str
    warnings: tuple[str, ...]
    code_points: int
    bytes: int
    tokens: int
    max_chars: int


def row_fields(d: Decision) -> tuple[str, str, str, str]:
    """The strings a row shows (and the budget counts)."""
    return d.id, shown_title(d), status_key(d), d.path


def overview(
    corpus: Corpus,
    records: Sequence[Decision],
    *,
    request: str,
    max_chars: int,
    cursor: str | None = None,
    warnings: Sequence[str] = (),
) -> Overview:
    """The page of ``records`` (already filtered, in discovery order) that fits the budget."""
    if max_chars < MIN_CHARS:
        raise UserError(f"max-chars must be at least {MIN_CHARS:,}")
    fp = fingerprint(corpus)
    start = read_cursor(cursor, fp, request) if cursor else 0
    notes = [clip(w) for w in warnings[:MAX_WARNINGS]]
    content = list(notes)
    used = sum(len(n) for n in notes)
    page: list[Decision] = []
    for d in records[start:]:
        fields = row_fields(d)
        cost = sum(len(f) for f in fields)
        if page and used + cost > max_chars:
            break
        page.append(d)
        content.extend(fields)
        used += cost
    end = start + len(page)
    left = max(0, len(records) - end)
    joined = "".join(content)
    return Overview(
        rows=tuple(page),
        total=len(records),
        left_out=left,
        cursor=make_cursor(fp, request, end) if left else None,
        fingerprint=fp,
        warnings=tuple(notes),
        code_points=len(joined),
        bytes=len(joined.encode("utf-8", "surrogatepass")),
        tokens=estimate_tokens(joined),
        max_chars=max_chars,
    )
