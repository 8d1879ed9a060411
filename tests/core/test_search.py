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


def test_equal_matches_keep_discovery_order(corpus: Corpus) -> None:
    # "storage" is in both titles and bodies: ties keep id order
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


def _nygard(n: int, title: str, body: str) -> tuple[str, str]:
    return (f"docs/adr/{n:04d}-r.md",
            f"# {n}. {title}\n\n## Status\n\nAccepted\n\n## Context\n\n{body}\n")


FILLER = "We weighed many options over several weeks and wrote them all down here. " * 6


def test_ranked_best_first_title_then_frequency() -> None:
    """Issue 28: before, results came in discovery order (0001, 0002, 0003)."""
    records = dict([
        _nygard(1, "Logging", f"{FILLER}Kafka is mentioned once. {FILLER}"),
        _nygard(2, "Use Kafka for events", "Events go through it."),
        _nygard(3, "Retention", "Kafka keeps data; kafka topics; Kafka again; kafka, kafka."),
        _nygard(4, "Unrelated", "Nothing here."),
    ])
    result = search(corpus_of(records), "kafka")
    assert [h.decision.id for h in result.hits] == ["ADR-0002", "ADR-0003", "ADR-0001"]
    assert [h.score for h in result.hits] == sorted((h.score for h in result.hits), reverse=True)
    assert result.total == 3 and result.truncated is False
    best = search(corpus_of(records), "kafka", limit=1)
    assert [h.decision.id for h in best.hits] == ["ADR-0002"]
    assert best.truncated is True and best.total == 3


def test_excerpt_is_around_the_match_in_the_prose_not_the_title_line() -> None:
    """Issue 28: before, a term in the title gave the file's opening (``# 2. Use Kafka ...
    ## Status Accepted``) as the excerpt."""
    records = dict([_nygard(2, "Use Kafka for events", f"{FILLER}We chose Kafka because "
                            f"replay matters. {FILLER}")])
    hit = search(corpus_of(records), "kafka").hits[0]
    assert hit.excerpt is not None and "We chose Kafka because replay matters." in hit.excerpt
    assert "# 2. Use Kafka" not in hit.excerpt and hit.excerpt.startswith("…")
    _path, text = next(iter(records.items()))
    assert "We chose Kafka" in text.splitlines()[hit.line - 1]


def test_excerpt_is_where_the_terms_meet() -> None:
    body = f"Kafka first, alone. {FILLER}{FILLER}Later: Kafka retention is seven days. {FILLER}"
    records = dict([_nygard(1, "Events", body)])
    hit = search(corpus_of(records), "kafka retention").hits[0]
    assert hit.excerpt is not None and "Kafka retention is seven days" in hit.excerpt
    assert "first, alone" not in hit.excerpt
