"""The record cache never changes a result: a changed file, config or tool version, and a
damaged, foreign or planted entry each give exactly the report of a run without the cache. It
lives in the user cache folder (here a temporary ``ADRGUARD_CACHE_DIR``), never in the work tree."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
import recordcache
from hypothesis import given, settings
from hypothesis import strategies as st

import adrguard
from adrguard.adapters.cache import keys as cache_mod
from adrguard.adapters.cache import store as store_mod
from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

{status}

## Context

See [the first](0001-first.md), as ADR-1 says (a mention: the rules keep facts of it).

## Decision

Yes.

## Consequences

Some.
"""


def _corpus(root: Path) -> None:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, title, status in [
        (1, "First", "Accepted"),
        (2, "Second", "Proposed"),
        (3, "Third", "Bogus"),
    ]:
        (adr / f"000{n}-{title.lower()}.md").write_text(
            RECORD.format(n=n, title=title, status=status), encoding="utf-8"
        )


def _report(
    root: Path, capsys: pytest.CaptureFixture[str], *extra: str, fmt: str = "json"
) -> str:
    main(["check", "--repo", str(root), "--format", fmt, "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(
    root: Path, capsys: pytest.CaptureFixture[str], *extra: str, fmt: str = "json"
) -> str:
    return _report(root, capsys, "--no-cache", *extra, fmt=fmt)


def _record_paths() -> set[str]:
    return set(recordcache.records())


def test_warm_equals_cold_and_the_cache_is_outside_the_work_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    _corpus(repo)
    before = sorted(p.relative_to(repo) for p in repo.rglob("*"))
    first = _report(repo, capsys)
    assert (recordcache.store_dir() / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55"
    )
    assert _record_paths() == {
        "docs/adr/0001-first.md",
        "docs/adr/0002-second.md",
        "docs/adr/0003-third.md",
    }
    assert _report(repo, capsys) == first == _cold(repo, capsys)
    assert sorted(p.relative_to(repo) for p in repo.rglob("*")) == before


def test_the_cache_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The damage tests below prove something only if entries are read at all: a well-formed
    entry that says something else is served."""
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    recordcache.forge(*recordcache.records()["docs/adr/0002-second.md"], title="Forged")
    main(["list", "--repo", str(tmp_path)])
    assert "Forged" in capsys.readouterr().out


def test_changed_file_is_parsed_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    before = _report(tmp_path, capsys)
    path = tmp_path / "docs/adr/0003-third.md"
    path.write_text(path.read_text().replace("Bogus", "Accepted"), encoding="utf-8")
    after = _report(tmp_path, capsys)
    assert after != before
    assert after == _cold(tmp_path, capsys)


def test_changed_config_is_a_new_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    (tmp_path / ".adrguard.toml").write_text('[statuses]\nbogus = "accepted"\n', encoding="utf-8")
    warm = _report(tmp_path, capsys)
    assert "ADR103" not in warm
    assert warm == _cold(tmp_path, capsys)


def test_new_tool_version_is_a_new_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    old = set(recordcache.files())
    monkeypatch.setattr(cache_mod, "__version__", adrguard.__version__ + ".post1")
    cache_mod.parser_signature.cache_clear()
    try:
        assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
        (new,) = set(recordcache.record_packs()) - old
        assert len(recordcache.read_pack(new) or {}) == 3
        (facts,) = set(recordcache.facts_packs()) - old  # the rules' facts: a new key too
        assert len(recordcache.read_pack(facts) or {}) == 3
    finally:
        cache_mod.parser_signature.cache_clear()


@pytest.mark.parametrize("damage", [b"", b"not msgpack", b"\x93\x01\x02\x03", b"\xc1"])
def test_damaged_entries_and_packs_are_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    (pack,) = {pack for pack, _ in recordcache.records().values()}
    entries = recordcache.read_pack(pack) or {}
    recordcache.write_pack(pack, dict.fromkeys(entries, damage))  # every record damaged
    assert _report(tmp_path, capsys) == cold
    assert len(_record_paths()) == 3  # damaged entries were parsed again and stored whole
    for path in recordcache.files():
        path.write_bytes(recordcache.header(path) + damage)  # whole files damaged
    assert _report(tmp_path, capsys) == cold
    for path in recordcache.files():
        path.write_bytes(damage)  # not even the header
    assert _report(tmp_path, capsys) == cold


def test_entry_of_another_record_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Keys are hashes anyone can compute; an entry must also name the record it was asked for."""
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    found = recordcache.records()
    (pack, first), (_, third) = found["docs/adr/0001-first.md"], found["docs/adr/0003-third.md"]
    entries = recordcache.read_pack(pack) or {}
    entries[first], entries[third] = entries[third], entries[first]
    recordcache.write_pack(pack, entries)
    assert _report(tmp_path, capsys) == cold


def test_symlinked_pack_is_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    pack, entry = recordcache.records()["docs/adr/0003-third.md"]
    recordcache.forge(pack, entry, title="Forged")  # well-formed: served if it were followed
    forged = tmp_path.parent / f"{tmp_path.name}-forged-pack"
    pack.rename(forged)
    pack.symlink_to(forged)
    assert _report(tmp_path, capsys) == cold
    main(["list", "--repo", str(tmp_path)])
    assert "Forged" not in capsys.readouterr().out


def test_an_edit_writes_a_small_delta_and_the_pack_stays_the_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n in range(1, 21):
        (adr / f"{n:04d}-r{n}.md").write_text(
            RECORD.format(n=n, title=f"R{n}", status="Accepted"), encoding="utf-8"
        )
    _report(tmp_path, capsys)
    (base,) = [p for p in recordcache.record_packs()
               if len(recordcache.read_pack(p) or {}) == 20]
    inode = base.stat().st_ino
    edited = adr / "0007-r7.md"
    for text in ("Bogus", "Accepted", "Proposed"):
        edited.write_text(RECORD.format(n=7, title="R7", status=text), encoding="utf-8")
        assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
        assert base.stat().st_ino == inode  # the base was not rewritten: only the delta
    assert len(recordcache.records()) == 20
    for path in sorted(adr.glob("*.md"))[:10]:  # many changes: the base is written again
        path.write_text(path.read_text() + "\nMore.\n", encoding="utf-8")
    assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
    assert base.stat().st_ino != inode
    sizes = sorted(len(recordcache.read_pack(p) or {}) for p in recordcache.record_packs())
    assert sizes[-1] == 20 and sum(sizes) == 20  # exactly the corpus, delta emptied


YAML_TAGS = """---
status: accepted
date: 2024-01-01
blob: !!binary aGVsbG8=
tags: !!set {a, b}
when: !!timestamp 2024-01-02
ordered: !!omap [{a: 1}, {b: 2}]
big: 123456789012345678901234567890
---
# Tagged front matter

## Context and Problem Statement

See [the missing one](0404-missing.md).

## Decision Outcome

Yes.
"""


def test_yaml_tags_report_the_same_cold_warm_and_without_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``!!binary`` gives bytes and ``!!set`` a set: a record whose front matter would not come
    back from the cache exactly as parsed is not cached at all."""
    _corpus(tmp_path)
    (tmp_path / "docs/adr/0004-tagged.md").write_text(YAML_TAGS, encoding="utf-8")
    for fmt in ("json", "text", "sarif"):
        cold = _report(tmp_path, capsys, fmt=fmt)
        warm = _report(tmp_path, capsys, fmt=fmt)
        plain = _cold(tmp_path, capsys, fmt=fmt)
        assert cold == warm == plain != "", fmt
    assert "0404-missing.md" in plain
    assert "docs/adr/0004-tagged.md" not in _record_paths()
    assert "docs/adr/0001-first.md" in _record_paths()
    for command in (["list", "--format", "json"], ["show", "0004", "--format", "json"]):
        outputs = []
        for extra in ([], [], ["--no-cache"]):
            main([*command, "--repo", str(tmp_path), *extra])
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1] == outputs[2]


def test_no_cache_reads_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus(tmp_path)
    for command in (["check"], ["list"], ["show", "1"], ["graph"], ["index", "--check"]):
        main([*command, "--repo", str(tmp_path), "--no-cache"])
    capsys.readouterr()
    assert not recordcache.store_dir().exists() or not recordcache.files()


def test_records_outlive_the_date_and_are_shared_with_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``today`` matters to ADR109 only: a new day (or ``list``, which has no date) reuses the
    parsed records."""
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    before = {p: p.stat().st_ino for p in recordcache.files()}
    tomorrow = _report(tmp_path, capsys, "--today", "2026-01-02")
    main(["list", "--repo", str(tmp_path), "--format", "json"])
    capsys.readouterr()
    assert {p: p.stat().st_ino for p in recordcache.files()} == before  # nothing rewritten
    assert tomorrow == _cold(tmp_path, capsys, "--today", "2026-01-02")


def test_cache_dir_setting_and_its_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path)
    chosen = tmp_path.parent / f"{tmp_path.name}-chosen-cache"
    monkeypatch.delenv("ADRGUARD_CACHE_DIR")
    # a repository's cache-dir must lie in the user's cache folder (tests/security: elsewhere)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path.parent))
    (tmp_path / ".adrguard.toml").write_text(f'cache-dir = "{chosen}"\n', encoding="utf-8")
    assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
    assert (chosen / "CACHEDIR.TAG").is_file()

    (tmp_path / ".adrguard.toml").write_text('cache-dir = "relative/cache"\n', encoding="utf-8")
    assert main(["check", "--repo", str(tmp_path)]) == 2
    assert "cache-dir 'relative/cache' is not an absolute path" in capsys.readouterr().err

    inside = tmp_path / "docs" / "cache"
    (tmp_path / ".adrguard.toml").write_text(f'cache-dir = "{inside}"\n', encoding="utf-8")
    assert main(["check", "--repo", str(tmp_path)]) == 2
    assert "is inside the repository" in capsys.readouterr().err
    assert not inside.exists()
    assert main(["check", "--repo", str(tmp_path), "--no-cache"]) == 0  # ADR103: a warning


def test_default_cache_folder_inside_the_repository_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository of the home folder (dotfiles) holds ~/.cache: the run goes without a cache."""
    _corpus(tmp_path)
    monkeypatch.delenv("ADRGUARD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
    assert not (tmp_path / ".cache").exists()
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / ".cache"))  # chosen: an error
    assert main(["check", "--repo", str(tmp_path)]) == 2
    assert "is inside the repository" in capsys.readouterr().err


def test_unusable_cache_folder_only_costs_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path)
    blocker = tmp_path.parent / f"{tmp_path.name}-a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(blocker))
    assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)


def test_the_edit_loop_parses_only_the_edited_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a warm cache and one record changed, the parser sees that record alone (the
    others come from the cache), and the report is the one a run without the cache gives."""
    from adrguard.api.pipeline import parsing

    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n in range(1, 13):
        (adr / f"{n:04d}-r{n}.md").write_text(
            RECORD.format(n=n, title=f"R{n}", status="Accepted"), encoding="utf-8"
        )
    parsed: list[list[str]] = []
    real = parsing.parse_all

    def spy(sources, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append([s.path for s in sources])
        return real(sources, *args, **kwargs)

    monkeypatch.setattr(parsing, "parse_all", spy)
    _report(tmp_path, capsys)
    assert [len(p) for p in parsed] == [12]  # cold: every record
    parsed.clear()
    _report(tmp_path, capsys)
    assert parsed == []  # warm: none
    edited = adr / "0005-r5.md"
    for status in ("Proposed", "Bogus"):
        edited.write_text(RECORD.format(n=5, title="R5", status=status), encoding="utf-8")
        warm = _report(tmp_path, capsys)
        assert parsed == [["docs/adr/0005-r5.md"]]
        parsed.clear()
        assert warm == _cold(tmp_path, capsys)
        parsed.clear()


def test_only_the_cache_adapter_reads_the_cache_environment() -> None:
    """The cache policy has one home (issue 29): the record cache, the model's answers and the
    read guard all ask :func:`adrguard.adapters.cache.store.folder_for`, and no other module names
    the cache's environment variables."""
    import ast

    src = Path(adrguard.__file__).parent
    names = {"ADRGUARD_CACHE_DIR", "ADRGUARD_NO_CACHE"}
    readers = {
        path.relative_to(src).as_posix()
        for path in src.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in names
    }
    assert readers == {"adapters/cache/store.py"}


def test_the_environment_turns_every_cache_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "chosen"))
    repo = tmp_path / "repo"
    repo.mkdir()
    assert store_mod.folder_for(True, None, repo, from_repository=False) == tmp_path / "chosen"
    assert store_mod.folder_for(False, None, repo, from_repository=False) is None
    monkeypatch.setenv("ADRGUARD_NO_CACHE", "1")
    assert store_mod.folder_for(True, None, repo, from_repository=False) is None


def test_one_canonical_form_of_the_parse_options_keys_records_and_root_samples() -> None:
    """``options_key`` is what the record cache and root detection both key by: ``today`` is
    left out (records outlive the date), every other option counts, and an option it cannot
    write out faithfully raises ``Uncacheable`` (nothing is kept) instead of a guess."""
    from adrguard.core.options import Options

    plain = cache_mod.options_key(Options())
    kind, fields = json.loads(plain)  # a struct writes the form a dataclass wrote: no key moved
    assert kind == "Options" and [f[0] for f in fields][:2] == ["status_synonyms", "status_headings"]
    assert fields[0][1][0] == "vocabulary" and dict(map(tuple, fields))["today"] is None
    assert cache_mod.options_key(Options(today="2031-01-02")) == plain
    assert cache_mod.options_key(Options(status_synonyms={"agreed": "accepted"})) != plain
    assert cache_mod.options_key(Options(max_file_size=10)) != plain
    with pytest.raises(cache_mod.Uncacheable):
        cache_mod.options_key(Options(extra={"when": object()}))


def _stamp_by_rglob(folder: Path) -> list[str]:
    """The stamp as pathlib's recursive glob lists the files (what the scan replaces)."""
    return [f"{p.relative_to(folder).as_posix()} {p.stat().st_size} {p.stat().st_mtime_ns}"
            for p in sorted(folder.rglob("*.py"))]


def test_a_source_stamp_lists_what_the_recursive_glob_lists(tmp_path: Path) -> None:
    """Files at every depth, names that sort differently by part than as text (``a-b.py``
    and ``a/b.py``), hidden ones, a folder named like a module, a symlink to a file (stamped
    by its target) and one to a folder (not entered), files of other kinds left out."""
    import os

    top = tmp_path / "pkg"
    for rel, text in [("a.py", "1"), ("a-b.py", "22"), ("a/b.py", "333"), ("a/c/d.py", "4"),
                      (".hidden.py", "5"), ("a/.x/y.py", "6"), ("z.pyc", "7"), ("a/b.pyi", "8"),
                      ("A.PY", "9"), ("x.py/inner.py", "10"), ("sub/__init__.py", ""),
                      (".py", "11")]:
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text, encoding="utf-8")
    os.symlink(top / "a" / "b.py", top / "link.py")
    os.symlink(top / "a", top / "linked")
    os.symlink(top / "a", top / "linked.py")
    os.utime(top / "a" / "b.py", ns=(1, 1_700_000_000_123_456_789))
    stamp = cache_mod.source_stamp(top)
    assert stamp == _stamp_by_rglob(top)
    assert [line.split()[0] for line in stamp] == [
        ".hidden.py", ".py", "a/.x/y.py", "a/b.py", "a/c/d.py", "a-b.py", "a.py", "link.py",
        "linked.py", "sub/__init__.py", "x.py", "x.py/inner.py"]
    assert "a/b.py 3 1700000000123456789" in stamp


def test_the_source_stamp_of_adrguards_own_code_is_the_recursive_globs() -> None:
    top = Path(adrguard.__file__).resolve().parent
    for folder in (top / "core", top / "rules", top / "engine"):
        assert cache_mod.source_stamp(folder) == _stamp_by_rglob(folder)


def _canonical_by_json(value: object) -> object:
    """:func:`canonical` with every set and mapping sorted by its items written out as JSON,
    and a struct's fields asked of msgspec (what the plain-string sort and the struct's
    field names replace)."""
    import json

    import msgspec

    from adrguard.core.model import Decision
    from adrguard.core.options import Options, Vocabulary

    if isinstance(value, Decision):
        return cache_mod.canonical(value)
    if isinstance(value, Options):  # written out without the day (the options key), then the day
        bare = msgspec.structs.replace(value, today=None)
        fields = [[f.name, _canonical_by_json(getattr(bare, f.name))]
                  for f in msgspec.structs.fields(bare)]
        return ["options", json.dumps(["Options", fields], ensure_ascii=True), value.today]
    if isinstance(value, Vocabulary):
        return ["vocabulary", _canonical_by_json(dict(value))]
    if isinstance(value, msgspec.Struct):
        return [type(value).__name__, [[f.name, _canonical_by_json(getattr(value, f.name))]
                                       for f in msgspec.structs.fields(value)]]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [_canonical_by_json(v) for v in value]]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((_canonical_by_json(v) for v in value), key=cache_mod.order)]
    if isinstance(value, dict):
        pairs = [[_canonical_by_json(k), _canonical_by_json(v)] for k, v in value.items()]
        return ["map", sorted(pairs, key=cache_mod.order)]
    return cache_mod.canonical(value)


_KEY_TEXT = st.text(alphabet=['a', 'b', ' ', '!', '"', '\\', '\n', '\x1f', '\x7f', 'é', '\u2028',
                              '#', '~', '\ud800'], max_size=4)
_KEYED = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), _KEY_TEXT),
    lambda inner: st.one_of(
        st.frozensets(st.one_of(_KEY_TEXT, st.integers(-3, 3)), max_size=6),
        st.frozensets(_KEY_TEXT, max_size=6),
        st.dictionaries(_KEY_TEXT, inner, max_size=5),
        st.dictionaries(st.one_of(_KEY_TEXT, st.integers(-3, 3)), inner, max_size=5),
        st.lists(inner, max_size=4).map(tuple),
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_KEYED)
def test_canonical_sorts_as_by_the_json_of_every_item(value: object) -> None:
    """Sets and mappings of strings JSON writes as they are are sorted by the strings
    themselves: the same order as by their JSON, whatever the characters."""
    assert cache_mod.canonical(value) == _canonical_by_json(value)


def test_canonical_of_a_configuration_and_a_corpus_as_by_json(tmp_path: Path) -> None:
    from adrguard.api.pipeline.corpus import load
    from adrguard.config import Config

    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-a.md").write_text("# 1. A\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n",
                                   encoding="utf-8")
    (adr / 'we"ird\\name.md').write_text("# B\n", encoding="utf-8")
    config, corpus = load(tmp_path)
    bare = msgspec.structs.replace(corpus, facts=type(corpus)(()).facts)  # facts: not keyable
    for value in (config, bare, Config(exclude=("b", "a", 'q"')), config.options):
        assert cache_mod.canonical(value) == _canonical_by_json(value)
    assert len(bare.decisions) == 2


def test_canonical_options_are_their_key_and_their_day() -> None:
    """A configuration's options are written out by the key the run computed once (without the
    day, which parsed records do not depend on) and the day beside it: options that differ in
    either are told apart, equal ones are not."""
    from adrguard.core.options import Options

    base = Options()
    same = Options()
    assert cache_mod.canonical(base) == cache_mod.canonical(same)
    assert cache_mod.canonical(base)[1] == cache_mod.options_key(base)
    assert cache_mod.canonical(msgspec.structs.replace(base, today="2024-01-02")) != \
        cache_mod.canonical(base)
    assert cache_mod.canonical(msgspec.structs.replace(base, archive_dirs=("old",))) != \
        cache_mod.canonical(base)
