"""A record the cache misses is hashed once, not twice, on a cold run (issue 30): its key is
made from the hash of its bytes alone continued with its path, root, archive flag, length and
the parser's signature, and that first hash, handed to the parser, is the record's
``Decision.sha256`` when the bytes hold no carriage return. The old forms are the oracles: the
digest the parser took of the bytes itself, and a parse that is given no digest."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.adapters.cache.keys import record_key
from adrguard.adapters.cache.store import Store
from adrguard.api.pipeline.records import _hashed, parse_sources
from adrguard.config import Config
from adrguard.core.model import SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

SIGNATURE = hashlib.sha256(b"a parser").digest()
BODIES = st.one_of(
    st.lists(st.sampled_from(["# 1. Use X\n", "\n", "\r\n", "\r", "## Status\n", "Accepted",
                              "ADR-0002 ", "é", "---\nstatus: accepted\n---\n", "\x00"]),
             max_size=10).map("".join).map(lambda t: t.encode("utf-8")),
    st.binary(max_size=40),
)


def _old_sha(data: bytes) -> str:
    return hashlib.sha256(data.replace(b"\r\n", b"\n") if b"\r" in data else data).hexdigest()


@settings(max_examples=400, deadline=None)
@given(BODIES)
def test_a_parse_given_the_digest_is_the_parse_without_it(data: bytes) -> None:
    plain = SourceFile("docs/adr/0001-use-x.md", "docs/adr", data)
    _key, content = record_key(SIGNATURE, data, plain.path, plain.root, False)
    given_digest = _hashed(plain, content)
    assert given_digest.sha256 == ("" if b"\r" in data else hashlib.sha256(data).hexdigest())
    got = parse(given_digest, Options())
    assert got == parse(plain, Options())
    if got.sha256:
        assert got.sha256 == _old_sha(data)


@settings(max_examples=400, deadline=None)
@given(st.tuples(BODIES, st.sampled_from(["a.md", "b.md", "a.md\0", ""]),
                 st.sampled_from(["docs", "docs/adr", ""]), st.booleans()),
       st.tuples(BODIES, st.sampled_from(["a.md", "b.md", "a.md\0", ""]),
                 st.sampled_from(["docs", "docs/adr", ""]), st.booleans()))
def test_keys_differ_when_anything_keyed_differs(
    one: tuple[bytes, str, str, bool], other: tuple[bytes, str, str, bool]
) -> None:
    if "\0" in one[1] + other[1]:
        return  # paths hold no NUL
    a = record_key(SIGNATURE, *one)[0]
    b = record_key(SIGNATURE, *other)[0]
    assert (a == b) == (one == other)
    assert record_key(hashlib.sha256(b"another parser").digest(), *one)[0] != a
    data = one[0]
    assert record_key(SIGNATURE, *one)[1].hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_cold_run_and_a_warm_one_give_the_parse_of_each_record(tmp_path: Path) -> None:
    texts = [b"# 1. Use X\n\n## Status\n\nAccepted\n", b"# 2. Use Y\r\n\r\n## Status\r\n\r\n"
             b"Proposed\r\n", b"# 3. Use Z\n\nSee ADR-0001.\n"]
    sources = [SourceFile(f"docs/adr/000{i + 1}-x.md", "docs/adr", t)
               for i, t in enumerate(texts)]
    expected = [parse(s, Options()) for s in sources]
    assert [d.sha256 for d in expected] == [_old_sha(t) for t in texts]
    store = Store.open(tmp_path / "cache")
    assert store is not None
    keys: dict[str, bytes] = {}
    cold = parse_sources(sources, Config(), store, place=tmp_path, keys_out=keys)
    assert cold == expected
    assert set(keys) == {s.path for s in sources}
    store.close()
    store = Store.open(tmp_path / "cache")
    assert store is not None
    warm = parse_sources(sources, Config(), store, place=tmp_path)
    assert warm == expected
    store.close()
