"""The findings of the hook's run over the last commit are kept between commits
(:mod:`adrguard.adapters.cache.runs`) and never change a result: every hook run below equals the
same run without the cache, and anything the run depends on changing is a miss."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.adapters.cache import runs as run_cache
from adrguard.adapters.cache.store import Store
from adrguard.cli import main
from adrguard.config import Config
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Corpus, Decision, Location

pytestmark = pytest.mark.uses_cache

BODY = "## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nThen.\n"


def _record(n: int, status: str = "Accepted", body: str = BODY) -> str:
    return f"# {n}. Record {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n{body}"


def _hook(repo: GitRepo, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict]:
    code = main(["check", "--repo", str(repo.path), "--hook", "docs/adr/0001-r1.md",
                 "--format", "json", "--today", "2026-01-01", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_the_hook_equals_a_run_without_the_cache_commit_after_commit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    # 0002 has an older finding (a status nobody knows), 0003 links to 0001
    repo.write({"docs/adr/0001-r1.md": _record(1),
                "docs/adr/0002-r2.md": _record(2, "Bogus"),
                "docs/adr/0003-r3.md": _record(3, body=BODY + "\nSee [1](0001-r1.md).\n")})
    repo.commit("base")
    edits = [_record(1, "Weird"),  # the commit causes a finding in 0001
             _record(1, "Odd"),  # ... another one
             _record(1, "Accepted", BODY + "\nMore.\n")]
    for n, text in enumerate(edits):
        if n == 2:  # the last commit changes what was before: 0002 fixed
            repo.write({"docs/adr/0002-r2.md": _record(2)})
            repo.commit("fix 0002")
        repo.write({"docs/adr/0001-r1.md": text})
        repo.git("add", "-A")
        cached = [_hook(repo, capsys) for _ in range(2)]  # the second reads the stored entry
        plain = _hook(repo, capsys, "--no-cache")
        assert cached[0] == cached[1] == plain
        caused = {(f["code"], f["path"]) for f in plain[1]["findings"]}
        assert (("ADR103", "docs/adr/0001-r1.md") in caused) == (n < 2)
        # 0002's finding is older until the commit that fixes it
        assert plain[1]["gate"]["older"] == (1 if n < 2 else 0)
    # the entry lives in the user's cache folder, one per work tree and scope
    store = Store.open(Path(os.environ["ADRGUARD_CACHE_DIR"]))
    assert store is not None
    entry = run_cache.key("findings", run_cache.FORMAT.to_bytes(2, "big"), "before this commit",
                          str(repo.path.resolve()))
    assert run_cache._decode(store.get(entry), "") is None  # stored under another run's key
    assert b'"ADR103"' in (store.get(entry) or b"")
    store.close()


def _decision(path: str, text: str) -> Decision:
    import hashlib

    return Decision(id=path[:4], path=path, root="docs/adr", title="t", text=text,
                    sha256=hashlib.sha256(text.encode()).hexdigest())  # as the parser sets it


def test_a_stored_run_is_used_only_under_the_same_key(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "cache")
    assert store is not None
    place = tmp_path / "repo"
    ran: list[str] = []
    found = (Finding("ADR104", "missing-section", Severity.WARNING, "m", Location("a.md", 3, 2),
                     "0001", ("0002",)),)

    def run(label: str) -> tuple[Finding, ...]:
        ran.append(label)
        return found

    corpus = Corpus((_decision("0001.md", "a"),), repo_files=frozenset({"x", "y"}),
                    other_texts={"README.md": b"index"})
    config = Config()
    assert run_cache.findings_of(store, place, "p", corpus, config, lambda: run("1")) == found
    assert run_cache.findings_of(store, place, "p", corpus, config, lambda: run("2")) == found
    assert ran == ["1"]  # stored, then read back equal (every field of every finding)
    changed = [
        Corpus((_decision("0001.md", "b"),), repo_files=frozenset({"x", "y"}),
               other_texts={"README.md": b"index"}),  # a record's bytes
        Corpus((_decision("0001.md", "a"),), repo_files=frozenset({"x"}),
               other_texts={"README.md": b"index"}),  # the files of the repository
        Corpus((_decision("0001.md", "a"),), repo_files=frozenset({"x", "y"}),
               other_texts={"README.md": b"other"}),  # a file other than a record
    ]
    for i, other in enumerate(changed):
        run_cache.findings_of(store, place, "p", other, config, functools.partial(run, f"c{i}"))
    run_cache.findings_of(store, place, "p", corpus, Config(select=("ADR1",)), lambda: run("s"))
    assert ran == ["1", "c0", "c1", "c2", "s"]
    # a value the key cannot write out is run every time, never guessed
    odd = Corpus((_decision("0001.md", "a"),), other_texts={"f": object()})  # type: ignore[dict-item]
    run_cache.findings_of(store, place, "p", odd, config, lambda: run("o1"))
    run_cache.findings_of(store, place, "p", odd, config, lambda: run("o2"))
    assert ran[-2:] == ["o1", "o2"]
    assert run_cache.findings_of(None, place, "p", corpus, config, lambda: run("n")) == found
    store.close()


def test_the_key_is_the_same_in_every_process() -> None:
    """Sets are written sorted: string hashing differs between processes."""
    code = ("from adrguard.adapters.cache.keys import canonical, order\n"
            "from adrguard.config import Config\n"
            "from adrguard.core.model import Corpus\n"
            "c = Corpus((), repo_files=frozenset('abcdefghij'), shallow_roots=frozenset('xyz'))\n"
            "print(order(canonical(c)) + order(canonical(Config(exclude=('a', 'b')))))")
    outs = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                           text=True, env={"PYTHONHASHSEED": str(seed)}).stdout
            for seed in (1, 2, 3)}
    assert len(outs) == 1 and '"set"' in outs.pop()


def test_a_changed_source_file_is_another_stamp(tmp_path: Path) -> None:
    import os

    from adrguard.adapters.cache.keys import source_stamp

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("y = 2\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not code\n", encoding="utf-8")
    first = source_stamp(tmp_path)
    assert [s.split()[0] for s in first] == ["b.py", "pkg/a.py"]
    assert source_stamp(tmp_path) == first
    (tmp_path / "notes.txt").write_text("other\n", encoding="utf-8")
    assert source_stamp(tmp_path) == first  # only Python files count
    st = os.stat(tmp_path / "b.py")
    (tmp_path / "b.py").write_text("y = 3\n", encoding="utf-8")  # same size ...
    os.utime(tmp_path / "b.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # ... a new time
    assert source_stamp(tmp_path) != first
    (tmp_path / "pkg" / "c.py").write_text("", encoding="utf-8")
    assert len(source_stamp(tmp_path)) == 3
