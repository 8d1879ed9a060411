"""Record facts (ADR 44): what the rules compute from one record alone is kept in the record
cache beside the record, so a warm run, and a run after one record was edited, computes it for
no record, or for that record alone. The cache never changes a result: facts that were damaged,
or that would not come back exactly, are computed again, and every run reports what a run
without the cache reports."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import recordcache
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.api.check import check_result
from adrguard.cli import main
from adrguard.core.model import FactValues
from adrguard.rules.links import LINK_IDS, MENTIONS

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. Record {n}

Date: 2024-01-0{n}

## Status

Accepted

## Context

This follows ADR-0001 and ADR-0042, and [ADR-0002](0003-record-3.md) names another record.
See `ADR-0077` in code, and [ADR-0055](https://example.org/adr/55) elsewhere.

## Decision

Yes.

## Consequences

Some.
"""


def _log(root: Path, count: int = 4) -> Path:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    for n in range(1, count + 1):
        (adr / f"000{n}-record-{n}.md").write_text(RECORD.format(n=n), encoding="utf-8")
    return adr


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _fresh(root: Path) -> list[str]:
    """The records whose facts a run computed (the others came from the cache)."""
    facts = check_result(root, today="2026-01-01").corpus.facts
    assert facts is not None
    return sorted(facts.fresh)


def test_warm_and_edited_runs_compute_facts_only_for_the_edited_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adr = _log(tmp_path)
    (tmp_path / ".adrguard.toml").write_text(
        "filename-pattern = '^\\d{4}-record-[1-3]\\.md$'\n", encoding="utf-8")
    cold = _report(tmp_path, capsys, "--no-cache")
    for code in ("ADR107", "ADR204", "ADR205"):  # the facts decide findings here
        assert f'"{code}"' in cold
    assert _fresh(tmp_path) == [f"docs/adr/000{n}-record-{n}.md" for n in range(1, 5)]
    assert _fresh(tmp_path) == []  # warm: every fact from the cache
    assert _report(tmp_path, capsys) == cold
    edited = adr / "0003-record-3.md"
    edited.write_text(RECORD.format(n=3).replace("ADR-0042", "ADR-0043"), encoding="utf-8")
    assert _fresh(tmp_path) == ["docs/adr/0003-record-3.md"]
    assert _fresh(tmp_path) == []
    after = _report(tmp_path, capsys)
    assert after == _report(tmp_path, capsys, "--no-cache") != cold
    assert "ADR-0043" in after


def test_stored_facts_are_read_and_damaged_ones_are_computed_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _log(tmp_path, 3)
    cold = _report(tmp_path, capsys, "--no-cache")
    assert _report(tmp_path, capsys) == cold
    (pack,) = recordcache.facts_packs()
    entries = recordcache.read_pack(pack) or {}
    assert len(entries) == 3
    # A well-formed entry that says something else is served: the facts are read at all.
    forged = {}
    for entry, blob in entries.items():
        facts = msgspec.msgpack.decode(blob)
        (mentions,) = [k for k in facts if k.startswith(MENTIONS)]
        assert [k for k in facts if k.startswith(LINK_IDS)]
        facts[mentions] = [[1, 0, "ADR-0999", 999, False]]
        forged[entry] = msgspec.msgpack.encode(facts)
    recordcache.write_pack(pack, forged)
    assert "ADR-0999" in _report(tmp_path, capsys)
    # A fact of another shape than its rule's (a yes or no for a list of ids) is computed again.
    recordcache.write_pack(pack, dict.fromkeys(entries, msgspec.msgpack.encode({mentions: True})))
    assert _report(tmp_path, capsys) == cold
    for damage in (b"\xc1", msgspec.msgpack.encode({"x": "not a list"}), b""):
        recordcache.write_pack(pack, dict.fromkeys(entries, damage))
        assert _report(tmp_path, capsys) == cold  # a miss: computed again, and stored whole
        assert _report(tmp_path, capsys) == cold
    pack.write_bytes(b"damaged")
    assert _report(tmp_path, capsys) == cold


def test_a_fact_that_would_not_come_back_exactly_is_not_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A number beyond MessagePack's 64 bits cannot be stored: that record's facts are computed
    on every run, and the report stays the one without the cache."""
    adr = _log(tmp_path, 2)
    (tmp_path / ".adrguard.toml").write_text(
        "decision-id-pattern = '\\bADR-(\\d+)\\b'\n", encoding="utf-8")
    big = adr / "0002-record-2.md"
    big.write_text(RECORD.format(n=2).replace("ADR-0042", "ADR-" + "9" * 30), encoding="utf-8")
    cold = _report(tmp_path, capsys, "--no-cache")
    assert "9" * 30 in cold
    assert _report(tmp_path, capsys) == cold
    assert _fresh(tmp_path) == ["docs/adr/0002-record-2.md"]  # again: it was never stored
    assert _report(tmp_path, capsys) == cold


def test_a_run_takes_each_record_name_apart_once(tmp_path: Path) -> None:
    """The corpus the rules get (records from the cache, their facts, the citation scan) keeps
    the record names :func:`build_corpus` worked out while it told records from other files:
    the replaces that add facts and citations do not drop them."""
    from adrguard.api.pipeline.citation_scan import CHECK
    from adrguard.api.pipeline.corpus import load_with
    from adrguard.config import load_config
    from adrguard.core.parse import formats

    _log(tmp_path)
    (tmp_path / "app.py").write_text("# see ADR-0002\n", encoding="utf-8")
    config = load_config(tmp_path, None)
    for warm in (False, True):  # cold, then warm: records, facts and scheme from the cache
        corpus = load_with(tmp_path, config, citations=CHECK)
        assert corpus.facts is not None and corpus.citations is not None
        assert corpus.citations.files, "the code file's citation was scanned"
        assert "record names" in corpus._derived  # kept through the replaces
        names = formats.names_of(corpus)
        if not warm:
            # every record's name is already known: nothing but build_corpus (and the
            # citation scheme on the same Names) asked, and no rule ran; a warm run reads the
            # scheme from the cache and leaves the names to the rules that ask
            assert {(d.path, d.root) for d in corpus.decisions} <= set(names._names)
        for d in corpus.decisions:
            assert names.record_name(d.path, d.root) == formats.record_name(d.path, d.root)
            assert names.name_id(d.path, d.root) == formats.name_id(d.path, d.root)


def test_stored_facts_are_decoded_when_asked_for_exactly_their_record() -> None:
    """Facts a run reads from the cache stay encoded until a rule asks, and are decoded for
    each ask (never kept decoded for the run): the answer equals the stored one, for exactly
    the record object it was stored with. Another record of that path, or an entry that does
    not decode, is a miss: the fact is computed (and kept to be stored)."""
    from msgspec.structs import replace

    from adrguard.core.model import Decision, FactValues, RecordFacts

    d = Decision(id="ADR-0001", path="docs/adr/0001-a.md", root="docs/adr", number=1)
    other = Decision(id="ADR-0002", path="docs/adr/0002-b.md", root="docs/adr", number=2)
    stored: FactValues = {"mentions": [(3, 0, "ADR-0042", 42, False)], "flag": True}
    decoder = msgspec.msgpack.Decoder(FactValues)

    def decode(blob: bytes) -> FactValues | None:
        try:
            return decoder.decode(blob)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    facts = RecordFacts(
        keys={d.path: b"k1", other.path: b"k2"},
        records={d.path: d, other.path: other},
        blobs={d.path: msgspec.msgpack.encode(stored), other.path: b"\xc1 not msgpack"},
        decode=decode,
    )
    computed: list[str] = []

    def compute(what: str) -> list[object]:
        computed.append(what)
        return []

    first = facts.get(d, "mentions", list, lambda: compute("d"))
    again = facts.get(d, "mentions", list, lambda: compute("d again"))
    assert first == again == [(3, 0, "ADR-0042", 42, False)] and first is not again
    assert facts.get(d, "flag", bool, lambda: False) is True
    assert facts.known(d) == stored and not facts.fresh and not computed

    edited = replace(d, text="edited")  # the same path, another record: not its facts
    assert facts.get(edited, "mentions", list, lambda: compute("edited")) == []
    assert facts.known(edited) == {}
    assert facts.get(other, "mentions", list, lambda: compute("other")) == []
    assert facts.known(other) == {}
    assert computed == ["edited", "other"]
    assert set(facts.fresh) == {d.path, other.path}


_MENTIONS = st.lists(
    st.tuples(st.integers(0, 99), st.integers(0, 99), st.text(max_size=8),
              st.none() | st.integers(0, 9999), st.booleans()),
    max_size=3,
)
_FACTS = st.dictionaries(st.sampled_from(["mentions", "link ids", "named"]),
                         st.booleans() | _MENTIONS, max_size=3)


@given(stored=st.lists(_FACTS, min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_a_fact_read_alone_is_the_one_the_whole_entry_holds(stored: list[FactValues]) -> None:
    """A run reads each fact a rule asks for alone (the entry taken apart by name once, the
    other facts left encoded): for every record, name and kind, the answer is the one the whole
    entry decoded gives, a missing or damaged one is computed, and nothing more is stored."""
    import tempfile

    from adrguard.adapters.cache.store import Pack, Store
    from adrguard.api.pipeline.records import _facts_pack, load_facts
    from adrguard.config import Config
    from adrguard.core.model import Decision

    config = Config()
    records = [Decision(id=f"ADR-{n:04d}", path=f"docs/adr/{n:04d}-r.md", root="docs/adr",
                        number=n) for n in range(1, len(stored) + 2)]
    keys = {d.path: f"entry {d.path}".encode() for d in records}
    with tempfile.TemporaryDirectory() as top:
        place = Path(top) / "repo"
        store = Store.open(Path(top) / "cache")
        assert store is not None
        pack = Pack(store, _facts_pack(config, place))
        for d, facts in zip(records, stored, strict=False):
            pack.put(keys[d.path], msgspec.msgpack.encode(facts))
        pack.put(keys[records[-1].path], b"\xc1 damaged")
        pack.save()
        read = load_facts(store, config, place, records, keys)
        store.close()

    kinds: dict[str, type] = {"mentions": list, "link ids": list, "named": bool}
    computed: set[str] = set()
    for d, facts in zip(records, [*stored, {}], strict=True):
        for name, kind in kinds.items():
            value = facts.get(name)
            expected = value if isinstance(value, kind) else kind()
            assert read.get(d, name, kind, kind) == expected
            assert read.get(d, name, kind, kind) == expected  # asked again, the same answer
            if not isinstance(value, kind):
                computed.add(d.path)
        assert read.known(d) == facts
    assert set(read.fresh) == computed
