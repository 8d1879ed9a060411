from __future__ import annotations

import json

import pytest
from agentrepo import MANIFEST, RECORDS
from test_search import corpus_of

from adrguard.api.agent.context import hit_row
from adrguard.core.agent.retrieval import Bm25, find, path_terms, tokens
from adrguard.core.impact.mapping import Manifest, parse_manifest
from adrguard.core.model import Corpus


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return corpus_of(RECORDS)


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return parse_manifest(".adrguard-impact.json", json.dumps(MANIFEST).encode())


def ids(result: object) -> list[str]:
    return [h.decision.id for h in result.hits]  # type: ignore[attr-defined]


def test_tokens_drop_stopwords_numbers_and_plurals() -> None:
    assert tokens("The Databases of 2024 and caches") == ["database", "cache"]
    assert path_terms(["src/api/cache/redis_client.py"]) == ["api", "cache", "redis", "client"]


def test_path_match_front_matter_component_and_manifest(corpus: Corpus, manifest: Manifest) -> None:
    result = find(corpus, manifest, paths=["src/api/routes.py"])
    assert ids(result) == ["ADR-0003", "ADR-0006", "ADR-0001"]  # tie: by id
    by_id = {h.decision.id: h for h in result.hits}
    assert [r.to_json() for r in by_id["ADR-0003"].reasons] == [
        {
            "kind": "component",
            "detail": "api: src/api/**",
            "path": "src/api/routes.py",
            "via": "front-matter",
        }
    ]
    assert by_id["ADR-0006"].reasons[0].via == "manifest"
    assert by_id["ADR-0006"].reasons[0].detail == "src/**/*.py"
    # what the match depends on comes along, ranked below it
    assert [r.kind for r in by_id["ADR-0001"].reasons] == ["dependency"]
    assert by_id["ADR-0001"].score < by_id["ADR-0003"].score


def test_negated_component_glob_leaves_the_path_out(corpus: Corpus, manifest: Manifest) -> None:
    result = find(
        corpus, manifest, paths=["src/api/cache/redis.py"], statuses={"accepted", "proposed"}
    )
    assert ids(result) == ["ADR-0004", "ADR-0006"]  # ADR-0003's component excludes cache/


def test_status_filter_holds_back_and_says_so(corpus: Corpus, manifest: Manifest) -> None:
    result = find(corpus, manifest, paths=["src/api/cache/redis.py"])
    assert "ADR-0004" not in ids(result)
    assert result.held_back == {"proposed": 1}
    assert any("widen with --status" in n for n in result.notes)


def test_superseded_match_brings_its_current_successor(corpus: Corpus, manifest: Manifest) -> None:
    result = find(corpus, manifest, paths=["src/db/schema.py"])
    assert ids(result) == ["ADR-0005", "ADR-0006"]
    succ = result.hits[0]
    assert succ.reasons[0].kind == "successor" and succ.reasons[0].detail == "ADR-0002"
    assert any(r.detail == "src/db/**" for r in succ.reasons)  # why the predecessor matched
    everything = find(
        corpus, manifest, paths=["src/db/schema.py"], statuses={"accepted", "superseded"}
    )
    assert "ADR-0002" in ids(everything)


def test_a_record_path_matches_its_record(corpus: Corpus) -> None:
    result = find(corpus, None, paths=["docs/adr/0003-rest-api.md"])
    assert result.hits[0].decision.id == "ADR-0003"
    assert result.hits[0].reasons[0].kind == "record"


def test_topic_bm25_with_reasons_and_deterministic_ties(corpus: Corpus) -> None:
    result = find(corpus, None, topic="relational database storage")
    assert ids(result)[0] == "ADR-0005"
    assert {r.detail for r in result.hits[0].reasons} >= {"database", "storage"}
    assert all(r.kind in ("term", "successor") for h in result.hits for r in h.reasons)
    assert find(corpus, None, topic="relational database storage") == result
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)


def test_no_mappings_falls_back_to_path_words() -> None:
    unmapped = corpus_of({p: t for p, t in RECORDS.items() if "affected" not in t})
    result = find(unmapped, None, paths=["src/logging/structured.py"])
    assert ids(result)[0] == "ADR-0006"
    assert any("no decision maps any paths" in n for n in result.notes)


def test_unmapped_path_with_mappings_falls_back_too(corpus: Corpus, manifest: Manifest) -> None:
    result = find(corpus, manifest, paths=["docs/logging.md"])
    assert ids(result)[:1] == ["ADR-0006"]
    assert any("no mapping covers these paths" in n for n in result.notes)


def test_limit_and_total(corpus: Corpus, manifest: Manifest) -> None:
    result = find(corpus, manifest, paths=["src/api/routes.py"], limit=1)
    assert len(result.hits) == 1 and result.total == 3


def test_empty_corpus_and_hit_json(corpus: Corpus) -> None:
    assert find(Corpus(()), None, topic="anything").hits == ()
    assert Bm25([]).avg == 1.0
    data = hit_row(find(corpus, None, topic="redis", statuses={"proposed"}).hits[0])
    assert data["identifier"] == "ADR-0004" and data["status"] == "proposed"
    assert data["reasons"] == [{"kind": "term", "detail": "redis"}]
