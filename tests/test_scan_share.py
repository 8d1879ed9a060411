"""A citation scan shared with the helpers a cold run started ahead (ADR 66) finds exactly what
one process finds: the same citing files in the same order, the same counts of files read and
left out; it fills the citation cache as a serial scan does; a helper that cannot take its
files, fails or answers what is not an outcome of the file changes nothing but the time; a
small scan, or one without waiting helpers, leaves them waiting; a cancelled scan ends them.
Every scan here runs in real helper interpreters over a real git work tree."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.adapters.cache.store import RunStore
from adrguard.adapters.source import WorkTree
from adrguard.api.pipeline import scan_share
from adrguard.api.pipeline.citation_scan import ASKED, scan_found
from adrguard.api.pipeline.corpus import corpus_of
from adrguard.api.pipeline.helpers import Ahead, Helper
from adrguard.config import load_config
from adrguard.core.cancel import Cancelled, Token
from adrguard.core.citations.scan import Scanner, Scheme
from adrguard.core.model import Citations

RECORD = "# {n}. Keep job {n} on a queue\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A work tree with three records and forty files to scan: code citing decisions in
    comments (and mentioning them in strings, which do not count), documents linking records,
    a binary file, an undecodable one, one larger than the limit, a symlink out of the
    repository, a vendored file and a tracked file deleted from the work tree."""
    outside = tmp_path / "outside.py"
    outside.write_text("# ADR-0001 from outside the repository\n")
    git = GitRepo(tmp_path / "repo")
    files: dict[str, str | bytes] = {
        f"docs/adr/{n:04d}-keep-job-{n}-on-a-queue.md": RECORD.format(n=n) for n in (1, 2, 3)
    }
    files[".adrguard.toml"] = "[citations]\nmax-file-size = 2000\n"
    for i in range(30):
        cited = f"# Retries follow ADR-{i % 4 + 1:04d}.\n" if i % 3 else "# nothing cited\n"
        files[f"src/pkg{i % 4}/mod{i:02d}.py"] = f'{cited}x = "ADR-0002 in a string"\n'
    for i in range(5):
        files[f"docs/guide{i}.md"] = (
            f"# Guide {i}\n\nAs [ADR 2](adr/0002-keep-job-2-on-a-queue.md) decided.\n")
    files["src/blob.py"] = b"# ADR-0001\n\x00\x01\x02 binary\n"
    files["src/latin.py"] = b"# ADR-0003 caf\xe9\n"
    files["src/large.py"] = "# ADR-0001\n" + "x = 1\n" * 600
    files["vendor/lib.py"] = "# ADR-0001\n"
    files["src/gone.py"] = "# ADR-0002\n"
    git.write(files)
    (git.path / "src" / "link.py").symlink_to(outside)
    git.commit("records and code")
    (git.path / "src" / "gone.py").unlink()
    return git.path


def _scan(root: Path, ahead: Ahead | None, cancel: Token | None = None,
          store_folder: Path | None = None) -> Citations:
    config = load_config(root, None)
    found = WorkTree(root, False, ()).discover(config, None)
    corpus = corpus_of(found, config)
    if store_folder is None:
        got = scan_found(found, config, corpus, None, root, ASKED, cancel, ahead)
    else:
        run = RunStore(config, root)
        try:
            got = scan_found(found, config, corpus, run.get(), root, ASKED, cancel, ahead)
        finally:
            run.close()
    assert got is not None
    return got


def _waiting(count: int) -> Ahead:
    helpers = [Helper.start() for _ in range(count)]
    assert all(h is not None for h in helpers)
    return Ahead([h for h in helpers if h is not None])


def _ended(helper: Helper) -> bool:
    return helper._process.returncode is not None and helper._answer.closed


@pytest.fixture
def small_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Share even these forty files."""
    monkeypatch.setattr(scan_share, "SHARE_MIN", 4)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """What every helper answered (None: it failed)."""
    seen: list[object] = []
    answer = scan_share.answer

    def spy(helper: Helper, cancel: Token | None, count: int) -> scan_share.Answer | None:
        got = answer(helper, cancel, count)
        seen.append(got)
        return got

    monkeypatch.setattr(scan_share, "answer", spy)
    yield seen


@pytest.mark.usefixtures("small_share")
@pytest.mark.parametrize("helpers", [1, 2, 3])
def test_a_shared_scan_is_a_serial_scan(repo: Path, answers: list[object], helpers: int) -> None:
    serial = _scan(repo, None)
    with _waiting(helpers) as ahead:
        waiting = list(ahead._waiting)
        shared = _scan(repo, ahead)
        assert len(ahead) == 0  # every helper took a stripe
    assert len(answers) == helpers and all(isinstance(a, list) for a in answers)
    assert shared == serial
    assert all(_ended(h) for h in waiting)
    # the scan read and left out what a serial scan does: the comparison is not of empties
    assert {f.path for f in serial.files} >= {"src/pkg1/mod01.py", "docs/guide0.md"}
    assert "src/pkg0/mod00.py" not in {f.path for f in serial.files}
    assert {"binary", "too-large", "vendored"} <= set(serial.skipped)
    assert all(f.path not in ("src/link.py", "src/gone.py") for f in serial.files)


@pytest.mark.usefixtures("small_share")
def test_a_shared_scan_fills_the_cache_as_a_serial_scan_does(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ADRGUARD_NO_CACHE", raising=False)
    serial = _scan(repo, None)
    with _waiting(2) as ahead:
        shared = _scan(repo, ahead, store_folder=tmp_path / "cache")
    calls: list[str] = []
    scan = Scanner.scan

    def counted(self: Scanner, path: str, data: bytes, *args: object, **kwargs: object) -> object:
        calls.append(path)
        return scan(self, path, data, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Scanner, "scan", counted)
    again = _scan(repo, None, store_folder=tmp_path / "cache")
    assert shared == serial == again
    assert calls == []  # every file the helpers scanned came back from the cache


@pytest.mark.usefixtures("small_share")
def test_a_helper_that_cannot_take_its_files_or_fails_changes_nothing(
    repo: Path, answers: list[object]
) -> None:
    serial = _scan(repo, None)
    with _waiting(3) as ahead:
        dead = ahead._waiting[1]
        dead._process.kill()
        dead._process.wait()  # it cannot take its stripe: this process scans it
        failing = ahead._waiting[2]
        shared = _scan(repo, _Failing(ahead, failing))
    assert shared == serial
    assert len(answers) == 2 and isinstance(answers[0], list) and answers[1] is None
    assert _ended(dead) and _ended(failing)


class _Failing(Ahead):
    """The waiting helpers of ``ahead``; ``failing`` is given work it cannot do (its stdin
    closes on a request that is not a pickle), so it ends without an answer."""

    def __init__(self, ahead: Ahead, failing: Helper) -> None:
        super().__init__(ahead._waiting)
        self._failing = failing

    def take(self) -> Helper | None:
        helper = super().take()
        if helper is self._failing:
            helper.feed(b"not a pickle")
            return _Fed(helper)
        return helper


class _Fed(Helper):
    """A helper already fed: feeding it again is refused like a helper's closed pipe is."""

    def __init__(self, helper: Helper) -> None:
        super().__init__(helper._process, helper._answer)

    def feed(self, records: bytes) -> bool:
        return True  # it was fed (with what it cannot read): its answer is a failure


@pytest.mark.usefixtures("small_share")
def test_an_answer_that_is_not_an_outcome_of_the_file_is_scanned_here(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = _scan(repo, None)
    answer = scan_share.answer

    def garbled(helper: Helper, cancel: Token | None, count: int) -> scan_share.Answer | None:
        got = answer(helper, cancel, count)
        assert got is not None
        return [(b"", b"\x93not an outcome") if isinstance(g, tuple) and i % 2 else g
                for i, g in enumerate(got)]

    monkeypatch.setattr(scan_share, "answer", garbled)
    with _waiting(1) as ahead:
        assert _scan(repo, ahead) == serial


def test_a_small_scan_or_none_waiting_leaves_the_helpers_waiting(repo: Path) -> None:
    serial = _scan(repo, None)
    with _waiting(1) as ahead:
        assert _scan(repo, ahead) == serial  # forty files, below SHARE_MIN
        assert len(ahead) == 1
    many = [f"src/mod{i}.py" for i in range(scan_share.SHARE_MIN)]
    assert scan_share.start(Ahead([]), many, str(repo), Scheme(), 10, b"") == (1, [])
    assert scan_share.start(None, many, str(repo), Scheme(), 10, b"") == (1, [])


@pytest.mark.usefixtures("small_share")
def test_a_cancelled_scan_ends_its_helpers(repo: Path) -> None:
    token = Token()
    token.cancel()
    with _waiting(2) as ahead:
        waiting = list(ahead._waiting)
        with pytest.raises(Cancelled):
            _scan(repo, ahead, cancel=token)
    assert all(_ended(h) for h in waiting)


@pytest.mark.usefixtures("small_share")
def test_a_cold_check_of_a_small_log_shares_its_scan_and_reports_what_a_serial_one_does(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    answers: list[object],
) -> None:
    """Three records leave the helpers started ahead waiting after the parse: the scan takes
    them, and the report (with ADR601's findings about what the code cites) is the serial
    one."""
    from adrguard.api.pipeline import helpers, parsing
    from adrguard.cli import main

    monkeypatch.chdir(repo)
    argv = ["check", "--format", "json", "--no-baseline", "--no-cache", "--today", "2024-06-01"]
    monkeypatch.setattr(helpers, "cpus", lambda: 1)
    serial_code = main(argv)
    serial = capsys.readouterr().out
    assert answers == []  # one processor: no helper, the scan ran here
    monkeypatch.setattr(helpers, "cpus", lambda: 3)
    monkeypatch.setattr(parsing, "cpus", lambda: 3)
    code = main(argv)
    assert (code, capsys.readouterr().out) == (serial_code, serial)
    assert len(answers) == 2 and all(isinstance(a, list) for a in answers)
    # ADR601 reports the code citing a record the log lacks: the scan's result is in the report
    assert serial.count('"ADR601"') == 4 and '"src/pkg3/mod07.py"' in serial
