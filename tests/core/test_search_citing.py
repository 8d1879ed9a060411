"""``search`` with ``adr:ID`` terms over records only (no citation scan): the records that refer
to the named decision, in discovery order, bounded like any search."""

from __future__ import annotations

from adrguard.core.agent.search import search
from adrguard.core.model import Corpus, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

RECORD = """# {n}. {title}

Date: 2024-01-0{n}

## Status

Accepted

## Context

{body}
"""

FILES = {
    "docs/adr/0001-base.md": RECORD.format(n=1, title="Base", body="Nothing refers here."),
    "docs/adr/0002-queue.md": RECORD.format(
        n=2, title="Queue", body="Builds on [the base](0001-base.md) for its queue."
    ),
    "docs/adr/0003-cache.md": RECORD.format(
        n=3, title="Cache", body="Also see [the base](0001-base.md) and the queue."
    ),
    "docs/adr/0004-other.md": RECORD.format(n=4, title="Other", body="Unrelated queue text."),
}


def corpus_of(files: dict[str, str]) -> Corpus:
    opts = Options()
    decisions = [parse(SourceFile(p, "docs/adr", t.encode()), opts) for p, t in files.items()]
    return Corpus(tuple(sorted(decisions, key=lambda d: (d.id, d.path))), ("docs/adr",))


def test_adr_term_lists_the_referring_records_in_discovery_order() -> None:
    result = search(corpus_of(FILES), "adr:1")
    assert result.cites == ("1",)
    assert [d.id for d in result.cited] == ["ADR-0001"]
    assert [h.decision.id for h in result.hits] == ["ADR-0002", "ADR-0003"]
    first = result.hits[0]
    assert first.fields == ("markdown",) and first.excerpt is not None
    assert "0001-base.md" in first.excerpt and first.line > 1
    assert result.truncated is False and result.citations == () and result.citation_total == 0


def test_adr_term_is_bounded_by_the_limit_and_says_more_matched() -> None:
    result = search(corpus_of(FILES), "adr:ADR-0001", limit=1)
    assert [h.decision.id for h in result.hits] == ["ADR-0002"]
    assert result.truncated is True


def test_other_terms_must_occur_in_the_referring_record() -> None:
    result = search(corpus_of(FILES), "adr:docs/adr/0001-base.md builds")
    assert result.terms == ("builds",)
    assert [h.decision.id for h in result.hits] == ["ADR-0002"]
    assert result.hits[0].terms == {"builds": ("markdown",)}


def test_an_unknown_id_names_no_record_and_finds_none() -> None:
    result = search(corpus_of(FILES), "adr:42")
    assert result.cited == () and result.hits == () and result.truncated is False
