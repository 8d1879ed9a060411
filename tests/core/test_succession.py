"""Agent context never guesses: where a supersession chain ends (none, current, ambiguous,
cyclic), the token estimate, the overview's budget, and the evidence behind an impact."""

from __future__ import annotations

import pytest
from agentrepo import record
from test_search import corpus_of

from adrguard.core.agent.context import build, estimate_tokens, overview, plan
from adrguard.core.agent.succession import succession, to_json
from adrguard.core.errors import UserError
from adrguard.core.graph import graph
from adrguard.core.model import Corpus


def chain(**fronts: str) -> Corpus:
    """Records ADR-000N (status from the front matter) for N in 1..len(fronts)."""
    files = {}
    for i, (name, front) in enumerate(sorted(fronts.items()), 1):
        status = "superseded" if "superseded-by" in front else "accepted"
        files[f"docs/adr/000{i}-{name}.md"] = record(i, name.title(), status, "Text.", front)
    return corpus_of(files)


def of(corpus: Corpus, key: str):  # type: ignore[no-untyped-def]
    d = corpus.find(key)[0]
    return succession(graph.build(corpus), d), d


def test_a_record_nothing_supersedes_has_no_successor() -> None:
    corpus = chain(a="")
    s, d = of(corpus, "ADR-0001")
    assert s.state == "none" and s.successor is None and s.describe(d) is None


def test_a_chain_with_one_end_is_followed_to_it() -> None:
    corpus = chain(a="superseded-by: ADR-0002\n", b="superseded-by: ADR-0003\n", c="")
    s, _d = of(corpus, "ADR-0001")
    assert s.state == "current" and s.successor is not None and s.successor.id == "ADR-0003"
    assert [x.id for x in s.chain] == ["ADR-0002", "ADR-0003"]


def test_two_successors_are_ambiguous_and_none_is_chosen() -> None:
    corpus = chain(
        a="superseded-by: [ADR-0002, ADR-0003]\n",
        b="supersedes: ADR-0001\n",
        c="supersedes: ADR-0001\n",
    )
    s, d = of(corpus, "ADR-0001")
    assert s.state == "ambiguous" and s.successor is None
    assert [c.id for c in s.candidates] == ["ADR-0002", "ADR-0003"]
    note = s.describe(d)
    assert note is not None and "ambiguous" in note and "none was chosen" in note
    assert to_json(s)["candidates"][1]["identifier"] == "ADR-0003"
    # the context does not put either candidate first as "the current successor"
    order = plan(corpus, [(d, "requested")])
    assert order[0][0].id == "ADR-0001" and not any("current successor" in w for _, w, _ in order)


def test_a_fork_further_down_the_chain_is_ambiguous_too() -> None:
    corpus = chain(
        a="superseded-by: ADR-0002\n",
        b="superseded-by: [ADR-0003, ADR-0004]\n",
        c="supersedes: ADR-0002\n",
        d="supersedes: ADR-0002\n",
    )
    s, d = of(corpus, "ADR-0001")
    assert s.state == "ambiguous" and s.at is not None and s.at.id == "ADR-0002"
    assert "(via ADR-0002)" in (s.describe(d) or "")


def test_a_loop_has_no_current_successor() -> None:
    corpus = chain(a="superseded-by: ADR-0002\n", b="superseded-by: ADR-0001\n")
    s, d = of(corpus, "ADR-0001")
    assert s.state == "cyclic" and s.successor is None and "loops" in (s.describe(d) or "")


def test_token_estimate_is_reported_apart_from_code_points_and_bytes() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("决策记录") == 4  # one per non-ASCII code point
    corpus = chain(a="")
    res = build(corpus, [(corpus.decisions[0], "requested")], request="r")
    assert res.code_points == res.bytes  # all ASCII here
    assert res.tokens == -(-res.code_points // 4)


def test_overview_pages_the_index_within_the_budget() -> None:
    files = {
        f"docs/adr/{i:04d}-r.md": record(i, f"Record number {i} " + "x" * 60, "accepted", "T.")
        for i in range(1, 201)
    }
    corpus = corpus_of(files)
    first = overview(corpus, corpus.decisions, request="o", max_chars=2_000)
    assert 0 < len(first.rows) < 200 and first.code_points <= 2_000 and first.cursor
    assert first.left_out == 200 - len(first.rows) and first.total == 200
    second = overview(corpus, corpus.decisions, request="o", max_chars=2_000, cursor=first.cursor)
    assert second.rows[0].id == f"ADR-{len(first.rows) + 1:04d}"
    with pytest.raises(UserError, match="different request"):
        overview(corpus, corpus.decisions, request="other", max_chars=2_000, cursor=first.cursor)
    with pytest.raises(UserError, match="at least"):
        overview(corpus, corpus.decisions, request="o", max_chars=10)
