from __future__ import annotations

import pytest
from agentrepo import RECORDS

from adrguard.core.agent.search import MAX_LIMIT, excerpt_at, search, terms_of
from adrguard.core.model import Corpus, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse


def corpus_of(files: dict[str, str]) -> Corpus:
    opts = Options()
    decisions = [parse(SourceFile(p, "docs/adr", t.encode()), opts) for p, t in files.items()]
    return Corpus(tuple(sorted(decisions, key=lambda d: (d.id, d.path))), ("docs/adr",))


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return corpus_of(RECORDS)


def test_terms_are_casefolded_and_distinct() -> None:
    assert terms_of("  Redis  redis CACHE ") == ("redis", "cache")


def test_and_of_terms_over_identifier_title_markdown(corpus: Corpus) -> None:
    result = search(corpus, "storage MySQL")
    assert [h.decision.id for h in result.hits] == ["ADR-0002", "ADR-0005"]
    first = result.hits[0]
    assert first.terms == {"storage": ("title", "markdown"), "mysql": ("title", "markdown")}
    assert first.fields == ("title", "markdown")
    assert first.excerpt is not None and "MySQL" in first.excerpt
    assert result.truncated is False


def test_order_is_discovery_order_not_a_ranking(corpus: Corpus) -> None:
    # ADR-0002 holds "postgresql" nowhere; ADR-0005 in its title: still id order for "storage"
    assert [h.decision.id for h in search(corpus, "storage").hits] == ["ADR-0002", "ADR-0005"]
    assert [h.decision.id for h in search(corpus, "postgresql").hits] == ["ADR-0005"]
    only_id = search(corpus, "adr-0003").hits[0]
    assert only_id.fields == ("identifier",) and only_id.excerpt is None


def test_no_match_when_one_term_is_missing(corpus: Corpus) -> None:
    assert search(corpus, "redis oracle").hits == ()
    assert search(corpus, "   ").hits == ()


def test_search_stops_at_the_limit_and_says_more_matched(corpus: Corpus) -> None:
    result = search(corpus, "decision", limit=2)
    assert [h.decision.id for h in result.hits] == ["ADR-0001", "ADR-0002"]
    assert result.truncated is True
    assert search(corpus, "decision", limit=MAX_LIMIT).truncated is False
    with pytest.raises(ValueError):
        search(corpus, "x", limit=0)
    with pytest.raises(ValueError):
        search(corpus, "x", limit=MAX_LIMIT + 1)


def test_excerpt_marks_cuts_and_line_is_a_file_line(corpus: Corpus) -> None:
    text = "a" * 500 + " needle " + "b" * 500
    piece = excerpt_at(text, 500)
    assert piece.startswith("…") and piece.endswith("…") and "needle" in piece
    hit = search(corpus, "openapi").hits[0]
    path = hit.decision.path
    assert RECORDS[path].splitlines()[hit.line - 1].find("OpenAPI") >= 0


def test_deterministic(corpus: Corpus) -> None:
    assert search(corpus, "the") == search(corpus, "the")
