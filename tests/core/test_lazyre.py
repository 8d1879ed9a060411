"""Patterns compiled on first use (:mod:`adrguard.core.lazyre`) answer like compiled ones."""

from __future__ import annotations

import re

from adrguard.core.lazyre import lazy


def test_a_lazy_pattern_answers_like_the_compiled_one() -> None:
    source, flags = r"(?P<word>s\w+)\s+(\d+)", re.I
    eager = re.compile(source, flags)
    text = "ſome 12 and Some 34 and SOME x"
    pattern = lazy(source, flags)
    assert "compiled" not in vars(pattern) and "search" not in vars(pattern)  # not yet compiled
    m, n = pattern.search(text), eager.search(text)
    assert m is not None and n is not None and m.groupdict() == n.groupdict() == {"word": "ſome"}
    assert "search" in vars(pattern)  # compiled once; its methods are now the pattern's own
    assert [x.span() for x in pattern.finditer(text)] == [x.span() for x in eager.finditer(text)]
    assert pattern.sub("<\\1>", text) == eager.sub("<\\1>", text)
    assert pattern.split(text) == eager.split(text)
    assert pattern.findall(text) == eager.findall(text)
    assert pattern.fullmatch("some 1") is not None and pattern.match("x some 1") is None
    assert (pattern.pattern, pattern.flags, pattern.groups, dict(pattern.groupindex)) == (
        eager.pattern, eager.flags, eager.groups, dict(eager.groupindex))


def test_reading_the_source_compiles_nothing() -> None:
    for source, flags in ((r"(?P<w>\w+)-\d", re.I), (r"(unclosed", 0)):
        pattern = lazy(source, flags)
        assert pattern.pattern == source  # the compiled pattern's .pattern is its source
        assert "search" not in vars(pattern)  # nothing compiled: a bad one has not failed yet
        combined = lazy(pattern.pattern + "|x", flags)  # built from another's source
        assert "search" not in vars(pattern) and "search" not in vars(combined)
    raw = lazy(rb"\d+")
    assert raw.pattern == rb"\d+" and "search" not in vars(raw)
    good = lazy(r"(?P<w>\w+)-\d", re.I)
    assert good.search("a-1") is not None
    assert good.pattern == re.compile(r"(?P<w>\w+)-\d", re.I).pattern


def test_a_bytes_pattern_and_a_bad_one() -> None:
    assert lazy(rb"\d+").findall(b"a1b22") == [b"1", b"22"]
    bad = lazy(r"(unclosed")  # an error in a pattern we ship shows on first use
    try:
        bad.search("x")
    except re.error as exc:
        assert "missing )" in str(exc)
    else:
        raise AssertionError("a bad pattern compiled")


def test_every_pattern_we_ship_compiles() -> None:
    """A lazy pattern is compiled where it is first used: compile every one of ``core`` and
    ``rules`` here, so a bad one fails a test, not a user's run."""
    import importlib
    import pkgutil

    import adrguard.core
    import adrguard.rules
    from adrguard.core.lazyre import _Lazy

    def walk(value: object, depth: int = 0) -> list[_Lazy]:
        if isinstance(value, _Lazy):
            return [value]
        if depth < 3 and isinstance(value, (tuple, list)):
            return [p for v in value for p in walk(v, depth + 1)]
        if depth < 3 and isinstance(value, dict):
            return [p for v in value.values() for p in walk(v, depth + 1)]
        return []

    found = 0
    for package in (adrguard.core, adrguard.rules):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for value in list(vars(module).values()):
                for pattern in walk(value):
                    assert isinstance(pattern.groups, int)  # compiles it
                    found += 1
    assert found > 200
