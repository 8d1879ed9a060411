"""The pre-commit hook and the record cache: the tree before the commit (what ``HEAD`` holds)
takes a changed record from the work tree's pack when that pack still holds its bytes at
``HEAD`` (it was checked before it was edited), and writes nothing to the pack; the report is the
one a run without the cache gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recordcache import files, read_pack

BODY = "## Context\n\nWe need it.\n\n## Decision\n\n{decision}\n\n## Consequences\n\nFine.\n"


def _record(n: int, decision: str, status: str = "Accepted") -> str:
    return (f"# {n}. Record {n}\n\nDate: 2024-01-{n:02d}\n\n## Status\n\n{status}\n\n"
            + BODY.format(decision=decision))


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    subprocess.run(["git", *args], cwd=root, check=True, env=env)


def _log(root: Path) -> Path:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-r1.md").write_text(_record(1, "We use one queue."), encoding="utf-8")
    for n in range(2, 17):  # a log of 16: an edit keeps the pack's base (it writes a delta)
        (adr / f"{n:04d}-r{n}.md").write_text(_record(n, f"We keep {n}.", "Proposed"),
                                             encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return adr


def _hook(root: Path, *extra: str) -> tuple[str, str, int, list[str]]:
    """Run ``check --hook`` on the first record in a fresh interpreter: its report (stdout,
    stderr, exit code) and the adrguard parser modules it imported."""
    script = (
        "import json, sys\nfrom adrguard.cli import main\n"
        f"code = main(['check', '--hook', 'docs/adr/0001-r1.md', *{list(extra)!r}])\n"
        "sys.stdout.flush()\n"
        "print('MODULES=' + json.dumps(sorted(m for m in sys.modules"
        " if m.startswith('adrguard.core.parse.record'))), file=sys.stderr)\n"
        "sys.exit(code)"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=root, env={**os.environ, "NO_COLOR": "1"})
    lines = run.stderr.splitlines()
    modules = json.loads(lines[-1].removeprefix("MODULES="))
    return run.stdout, "\n".join(lines[:-1]), run.returncode, modules


def _packs() -> dict[Path, dict[bytes, bytes]]:
    return {p: entries for p in files() if (entries := read_pack(p)) is not None}


@pytest.mark.uses_cache
def test_the_hook_takes_the_record_before_the_commit_from_the_cache(tmp_path: Path,
                                                                    monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A log checked, then a record's decision rewritten and staged: the first hook run parses
    the staged record, the second parses nothing (both sides come from the cache, the side
    before the commit from the entry the first check stored), and both report the finding the
    commit causes exactly as a run without the cache does."""
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    adr = _log(root)
    subprocess.run([sys.executable, "-m", "adrguard", "check"], cwd=root, check=False,
                   capture_output=True)
    (adr / "0001-r1.md").write_text(_record(1, "We use two queues."), encoding="utf-8")
    _git(root, "add", "-A")

    first = _hook(root)
    packs = _packs()
    second = _hook(root)
    uncached = _hook(root, "--no-cache")

    assert "ADR505" in first[0]  # the accepted decision's text changed: the HEAD side was read
    assert first[3] == ["adrguard.core.parse.record"]  # the staged bytes are new
    assert second[3] == []  # nothing parsed: the bytes at HEAD come from the work tree's pack
    assert first[:3] == second[:3] == uncached[:3]
    assert _packs() == packs  # reading the pack for the side before the commit wrote nothing


@pytest.mark.uses_cache
def test_the_hook_parses_the_record_before_the_commit_when_the_cache_lacks_it(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Never checked before the edit: the bytes at HEAD are in no pack, so the side before the
    commit parses them, every time (they are not stored: the pack holds the work tree's
    records), with the same report."""
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    adr = _log(root)
    (adr / "0001-r1.md").write_text(_record(1, "We use two queues."), encoding="utf-8")
    _git(root, "add", "-A")

    runs = [_hook(root), _hook(root), _hook(root, "--no-cache")]

    assert "ADR505" in runs[0][0]
    assert [r[3] for r in runs] == [["adrguard.core.parse.record"]] * 3
    assert runs[0][:3] == runs[1][:3] == runs[2][:3]


class _Hashed:
    """Every byte string a hash object of :mod:`hashlib` was given (on creation or by
    ``update``), whatever the algorithm."""

    def __init__(self) -> None:
        self.inputs: list[bytes] = []

    def wrap(self, real):  # type: ignore[no-untyped-def]
        seen = self.inputs

        class Hash:
            def __init__(self, data: bytes = b"", *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
                self._real = real(data, *args, **kwargs)
                seen.append(bytes(data))

            def update(self, data: bytes) -> None:
                seen.append(bytes(data))
                self._real.update(data)

            def digest(self) -> bytes:
                return self._real.digest()

            def hexdigest(self) -> str:
                return self._real.hexdigest()

            def copy(self) -> Hash:  # the state so far, its inputs counted once
                twin = Hash.__new__(Hash)
                twin._real = self._real.copy()
                return twin

        return Hash

    def times(self, data: bytes) -> int:
        """How many inputs hold ``data`` (alone, or after a key's other parts)."""
        return sum(1 for given in self.inputs if given.endswith(data))


@pytest.mark.uses_cache
def test_the_hook_hashes_each_records_bytes_once(tmp_path: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                 capsys) -> None:
    """A warm hook on a staged edit: the tree before the commit takes the records the change
    leaves alone from the work tree's reads without hashing their bytes again, so the bytes of
    each record the edit leaves alone are hashed once in the run (for the record cache's key),
    the edited record's once too (no entry holds them yet: the hash its key began with is the
    parser's digest of its content, ADR 60), the bytes the edit replaced once (the pack of the
    work tree is asked for them), and the report is the one a run without the cache gives."""
    import hashlib

    from adrguard.cli import main

    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    adr = _log(root)
    monkeypatch.chdir(root)
    assert main(["check"]) == 0  # the cache is warm
    before = (adr / "0001-r1.md").read_bytes()
    (adr / "0001-r1.md").write_text(_record(1, "We use two queues."), encoding="utf-8")
    _git(root, "add", "-A")
    capsys.readouterr()

    hashed = _Hashed()
    for name in ("sha256", "blake2b"):
        monkeypatch.setattr(hashlib, name, hashed.wrap(getattr(hashlib, name)))
    code = main(["check", "--hook", "docs/adr/0001-r1.md"])
    report = capsys.readouterr().out
    monkeypatch.undo()
    monkeypatch.chdir(root)
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))

    records = sorted(adr.glob("*.md"))
    assert len(records) == 16
    assert {p.name: hashed.times(p.read_bytes()) for p in records} == {
        p.name: 1 for p in records}
    assert hashed.times(before) == 1
    assert "ADR505" in report
    assert (code, report) == (main(["check", "--hook", "docs/adr/0001-r1.md", "--no-cache"]),
                              capsys.readouterr().out)


_LINES = st.lists(st.sampled_from([b"a", b"b", b"\r", b"\n", b"\r\n"]), max_size=12).map(b"".join)


@given(known=_LINES, data=_LINES)
def test_bytes_compared_without_a_hash_agree_with_the_content_digest(known: bytes,
                                                                     data: bytes) -> None:
    """The tree before a change takes a record of the work tree for bytes equal to the ones it
    was parsed from, line ends aside, exactly when their content digests (``Decision.sha256``)
    are equal: the comparison that hashes nothing answers as the digests do."""
    from adrguard.api.pipeline.records import _unchanged
    from adrguard.core.model import SourceFile
    from adrguard.core.options import Options
    from adrguard.core.parse.record import parse

    old = parse(SourceFile("docs/adr/0001-a.md", "docs/adr", known), Options())
    assert _unchanged(old, data, {old.path: known}) == _unchanged(old, data, None)
    assert _unchanged(old, data, {old.path: known}) == (
        old.sha256 == parse(SourceFile(old.path, old.root, data), Options()).sha256)
