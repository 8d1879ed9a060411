"""``context`` intents (current, rationale, history) and the domain and iteration selectors:
what each reads, in which order, and how history pages through the archive."""

from __future__ import annotations

import pytest
from agentrepo import record

from adrguard.core.agent import selectors
from adrguard.core.agent.context import CURRENT, HISTORY, RATIONALE, build, plan
from adrguard.core.model import Corpus, Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse


def corpus_of(files: dict[str, str]) -> Corpus:
    decisions = [
        parse(SourceFile(p, "docs/adr", t.encode(), archived="/archive/" in p), Options())
        for p, t in files.items()
    ]
    return Corpus(tuple(sorted(decisions, key=lambda d: (d.id, d.path))), ("docs/adr",))


CHAIN = {
    "docs/adr/archive/0001-first.md": record(
        1, "First", "superseded", "Text one.", "superseded-by: ADR-0002\n"),
    "docs/adr/archive/0002-second.md": record(
        2, "Second", "superseded", "Text two.", "supersedes: ADR-0001\nsuperseded-by: ADR-0003\n"),
    "docs/adr/0003-third.md": record(
        3, "Third", "superseded", "Text three.", "supersedes: ADR-0002\nsuperseded-by: ADR-0004\n"),
    "docs/adr/0004-fourth.md": record(
        4, "Fourth", "accepted", "Text four.", "supersedes: ADR-0003\ndepends-on: ADR-0005\n"),
    "docs/adr/0005-fifth.md": record(5, "Fifth", "accepted", "Text five."),
    "docs/adr/0006-sixth.md": record(6, "Sixth", "proposed", "Text six.", "amends: ADR-0004\n"),
}


@pytest.fixture(scope="module")
def chain() -> Corpus:
    return corpus_of(CHAIN)


def ids(order: list[tuple[Decision, str, int]]) -> list[str]:
    return [d.id for d, _why, _hop in order]


def test_current_never_follows_to_a_superseded_or_archived_record(chain: Corpus) -> None:
    fourth = chain.find("ADR-0004")[0]
    assert ids(plan(chain, [(fourth, "requested")], CURRENT, {"accepted"})) == [
        "ADR-0004", "ADR-0005"]
    # asked for by status, a superseded ancestor is followed to (never an archived one)
    widened = plan(chain, [(fourth, "requested")], CURRENT, {"accepted", "superseded"})
    assert ids(widened) == ["ADR-0004", "ADR-0003", "ADR-0005"]
    # without a status filter: everything related, archived records one hop (the old default)
    assert "ADR-0003" in ids(plan(chain, [(fourth, "requested")]))


def test_current_asked_for_a_superseded_record_brings_its_successor_first(chain: Corpus) -> None:
    second = chain.find("ADR-0002")[0]
    order = plan(chain, [(second, "requested")], CURRENT, {"accepted"})
    assert ids(order)[:2] == ["ADR-0004", "ADR-0002"]  # named: returned, after its successor
    assert order[0][1] == "current successor of ADR-0002"


def test_rationale_is_one_hop_of_why(chain: Corpus) -> None:
    fourth = chain.find("ADR-0004")[0]
    order = plan(chain, [(fourth, "requested")], RATIONALE, {"accepted"})
    assert ids(order) == ["ADR-0004", "ADR-0003", "ADR-0005", "ADR-0006"]
    assert [why for _d, why, _h in order][1:] == [
        "supersedes from ADR-0004", "depends-on from ADR-0004", "amends ADR-0004"]


def test_history_walks_back_the_whole_chain(chain: Corpus) -> None:
    fourth = chain.find("ADR-0004")[0]
    order = plan(chain, [(fourth, "requested")], HISTORY)
    assert ids(order) == ["ADR-0004", "ADR-0003", "ADR-0002", "ADR-0001"]
    assert order[3][1] == "superseded by ADR-0002 (history, 3 steps back)"
    assert [h for _d, _w, h in order] == [0, 1, 2, 3]


def test_history_opens_one_hop_of_the_archive_per_page(chain: Corpus) -> None:
    fourth = chain.find("ADR-0004")[0]
    kw = {"request": "r", "max_units": 8, "max_chars": 12_000, "intent": HISTORY}
    first = build(chain, [(fourth, "requested")], **kw)  # type: ignore[arg-type]
    assert [u.key for u in first.units] == ["ADR-0004", "ADR-0003", "ADR-0002"]
    assert first.left_out == 1 and first.cursor is not None
    second = build(chain, [(fourth, "requested")], cursor=first.cursor, **kw)  # type: ignore[arg-type]
    assert [u.key for u in second.units] == ["ADR-0001"] and second.cursor is None


def test_a_cursor_of_another_intent_is_refused(chain: Corpus) -> None:
    from adrguard.core.errors import UserError

    fourth = chain.find("ADR-0004")[0]
    page = build(chain, [(fourth, "x")], request="history", max_units=1, intent=HISTORY)
    with pytest.raises(UserError, match="different request"):
        build(chain, [(fourth, "x")], request="current", max_units=1, cursor=page.cursor)


# --- domains and iterations ----------------------------------------------------------------


SELECTED = {
    "docs/adr/payments/0001-cards.md": record(1, "Cards", "accepted", "T."),
    "docs/adr/payments/archive/0002-old-cards.md": record(2, "Old cards", "superseded", "T."),
    "docs/adr/0003-tagged.md": record(
        3, "Tagged", "accepted", "T.", "domain: Payments\niteration: 7\n"),
    "docs/adr/0004-many.md": record(
        4, "Many", "accepted", "T.", "categories: [Search API, ops]\nmilestone: 2026 Q1\n"),
    "docs/adr/0005-own-folder/README.md": record(5, "Own folder", "accepted", "T."),
    "docs/adr/0006-plain.md": record(6, "Plain", "accepted", "T.", "tags: [payments]\n"),
}


def test_domains_from_front_matter_and_folders() -> None:
    corpus = corpus_of(SELECTED)
    by_id = {d.id: d for d in corpus.decisions}
    assert selectors.domains(by_id["ADR-0001"]) == ("payments",)
    assert selectors.domains(by_id["ADR-0002"]) == ("payments",)  # not "archive"
    assert selectors.domains(by_id["ADR-0003"]) == ("payments",)
    assert selectors.domains(by_id["ADR-0004"]) == ("search-api", "ops")
    assert selectors.domains(by_id["ADR-0005"]) == ()  # a record's own folder is no domain
    assert selectors.domains(by_id["ADR-0006"]) == ()  # tags are not read
    picked = selectors.select(corpus, domain="PAYMENTS")
    assert [d.id for d in picked] == ["ADR-0001", "ADR-0002", "ADR-0003"]
    assert selectors.known(corpus, "domain") == ["ops", "payments", "search-api"]


def test_iterations_from_front_matter() -> None:
    corpus = corpus_of(SELECTED)
    assert [d.id for d in selectors.select(corpus, iteration="7")] == ["ADR-0003"]
    assert [d.id for d in selectors.select(corpus, iteration="2026-q1")] == ["ADR-0004"]
    assert selectors.select(corpus, domain="payments", iteration="2026 Q1") == []
    assert selectors.known(corpus, "iteration") == ["2026-q1", "7"]
