from __future__ import annotations

import pytest
from agentrepo import RECORDS, record
from test_search import corpus_of

from adrguard.core.agent.context import (
    DEFAULT_MAX_CHARS,
    MIN_CHARS,
    build,
    fingerprint,
    make_cursor,
    plan,
    read_cursor,
    unit_json,
)
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return corpus_of(RECORDS)


def one(corpus: Corpus, key: str):  # type: ignore[no-untyped-def]
    return corpus.find(key)[0]


def long_record(sections: int = 12, para: int = 1500) -> str:
    body = "".join(f"## Part {i}\n\n" + ("word " * (para // 5)) + "\n\n" for i in range(sections))
    return record(7, "A very long record", "accepted", body)


def test_fingerprint_changes_with_content(corpus: Corpus) -> None:
    changed = dict(RECORDS)
    changed["docs/adr/0006-logging.md"] += "more\n"
    assert fingerprint(corpus) == fingerprint(corpus_of(RECORDS))
    assert fingerprint(corpus) != fingerprint(corpus_of(changed))


def test_superseded_record_brings_successor_first_then_relations(corpus: Corpus) -> None:
    order = plan(corpus, [(one(corpus, "ADR-0002"), "requested")])
    assert [(d.id, why, hop) for d, why, hop in order] == [
        ("ADR-0005", "current successor of ADR-0002", 0),
        ("ADR-0002", "requested", 0),
    ]


def test_relations_followed_at_most_three_hops() -> None:
    chain = {
        f"docs/adr/000{i}-r.md": record(
            i, f"R{i}", "accepted", "Text.", f"depends-on: ADR-000{i + 1}\n"
        )
        for i in range(1, 7)
    }
    corpus = corpus_of(chain)
    order = plan(corpus, [(corpus.find("ADR-0001")[0], "requested")])
    assert [d.id for d, _w, _h in order] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]
    assert [h for _d, _w, h in order] == [0, 1, 2, 3]


def test_archived_records_at_most_one_hop() -> None:
    from msgspec.structs import replace

    chain = {
        f"docs/adr/000{i}-r.md": record(
            i, f"R{i}", "accepted", "Text.", f"depends-on: ADR-000{i + 1}\n"
        )
        for i in range(1, 4)
    }
    corpus = corpus_of(chain)
    archived = tuple(replace(d, archived=d.id != "ADR-0001") for d in corpus.decisions)
    corpus = Corpus(archived)
    order = plan(corpus, [(corpus.find("ADR-0001")[0], "requested")])
    assert [d.id for d, _w, _h in order] == ["ADR-0001", "ADR-0002"]


def test_whole_record_is_one_unit_with_counts(corpus: Corpus) -> None:
    res = build(corpus, [(one(corpus, "ADR-0003"), "requested")], request="r")
    assert [u.key for u in res.units] == ["ADR-0003", "ADR-0001"]
    assert res.left_out == 0 and res.cursor is None
    assert res.code_points <= DEFAULT_MAX_CHARS
    assert res.bytes == res.code_points  # ASCII only
    data = unit_json(res.units[0])
    assert str(data["text"]).startswith("# 3. Expose a REST API")
    assert data["startLine"] == 6 and data["why"] == "requested"


def test_long_record_split_at_headings_never_silently() -> None:
    corpus = corpus_of({"docs/adr/0007-long.md": long_record()})
    d = corpus.decisions[0]
    res = build(corpus, [(d, "requested")], request="r", max_chars=4_000)
    assert res.code_points <= 4_000
    assert res.units[0].key == "ADR-0007#1" and res.units[0].parts == res.total_units
    assert res.left_out == res.total_units - len(res.units) > 0
    pages = list(res.units)
    cursor = res.cursor
    while cursor:
        nxt = build(corpus, [(d, "requested")], request="r", max_chars=4_000, cursor=cursor)
        assert nxt.code_points <= 4_000 and len(nxt.units) <= 8
        pages.extend(nxt.units)
        cursor = nxt.cursor
    assert [u.part for u in pages] == list(range(1, res.total_units + 1))
    # every line of the record is in exactly one unit, in order
    assert "\n".join(u.text for u in pages) == d.text
    assert all(u.heading and u.heading.startswith("Part") for u in pages[1:])


def test_huge_paragraph_is_split_inside_lines_with_part_labels() -> None:
    corpus = corpus_of({"docs/adr/0008-big.md": record(8, "Big", "accepted", "x" * 30_000)})
    d = corpus.decisions[0]
    res = build(corpus, [(d, "requested")], request="r", max_units=100)
    assert res.total_units >= 3 and res.code_points <= DEFAULT_MAX_CHARS
    assert all(u.parts == res.total_units for u in res.units)


def test_part_request_and_bad_part() -> None:
    corpus = corpus_of({"docs/adr/0007-long.md": long_record()})
    d = corpus.decisions[0]
    res = build(corpus, [(d, "requested")], request="p", part=2)
    assert [u.key for u in res.units] == ["ADR-0007#2"]
    with pytest.raises(UserError, match="part"):
        build(corpus, [(d, "requested")], request="p", part=99)


def test_max_units(corpus: Corpus) -> None:
    seeds = [(d, "requested") for d in corpus.decisions]
    res = build(corpus, seeds, request="all", max_units=2)
    assert len(res.units) == 2 and res.left_out == len(corpus) - 2 and res.cursor


def test_cursor_from_older_corpus_or_other_request_is_refused(corpus: Corpus) -> None:
    seeds = [(d, "requested") for d in corpus.decisions]
    res = build(corpus, seeds, request="all", max_units=2)
    assert res.cursor is not None
    changed = dict(RECORDS)
    changed["docs/adr/0001-record-architecture-decisions.md"] += "edit\n"
    newer = corpus_of(changed)
    with pytest.raises(UserError, match="older version"):
        build(newer, [(d, "requested") for d in newer.decisions], request="all", cursor=res.cursor)
    with pytest.raises(UserError, match="different request"):
        build(corpus, seeds, request="other", cursor=res.cursor)
    with pytest.raises(UserError, match="not one adrguard made"):
        build(corpus, seeds, request="all", cursor="garbage!")
    assert read_cursor(make_cursor(fingerprint(corpus), "q", 5), fingerprint(corpus), "q") == 5


def test_budget_settings_are_checked(corpus: Corpus) -> None:
    d = corpus.decisions[0]
    with pytest.raises(UserError, match="max-units"):
        build(corpus, [(d, "r")], request="r", max_units=0)
    with pytest.raises(UserError, match="max-chars"):
        build(corpus, [(d, "r")], request="r", max_chars=MIN_CHARS - 1)


def test_non_ascii_bytes_and_code_points_differ() -> None:
    corpus = corpus_of({"docs/adr/0009-u.md": record(9, "Décision", "accepted", "é" * 100 + " 😀")})
    res = build(corpus, [(corpus.decisions[0], "requested")], request="u")
    assert res.bytes > res.code_points


def test_unreadable_record_warns() -> None:
    from msgspec.structs import replace

    from adrguard.core.model import Problem

    corpus = corpus_of({"docs/adr/0009-u.md": record(9, "U", "accepted", "x")})
    d = replace(corpus.decisions[0], text="", problems=(Problem("ADR001", "file is too large"),))
    corpus = Corpus((d,))
    res = build(corpus, [(d, "requested")], request="u")
    assert any("content unavailable" in w for w in res.warnings)


def test_budget_holds_with_an_absurdly_long_title() -> None:
    corpus = corpus_of({"docs/adr/0010-t.md": record(10, "T" * 50_000, "accepted", "Body.")})
    res = build(corpus, [(corpus.decisions[0], "requested")], request="t", max_chars=1_000)
    assert res.code_points <= 1_000
    assert res.units[0].heading is not None and res.units[0].heading.endswith("…")
