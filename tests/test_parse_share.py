"""A large parse shared with helper interpreters (ADR 63), started now or ahead of the run (ADR
64), gives exactly what one process gives: the same records in the same order, each with the
same cache encoding; a helper that cannot start or fails changes nothing but the time; a helper
never imports from the folder it runs in; a cancelled run ends its helpers, and helpers started
ahead that nobody takes are ended."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adrguard.api.pipeline import helpers, parsing
from adrguard.api.pipeline.helpers import Ahead, Helper
from adrguard.api.pipeline.parsing import Parsed
from adrguard.config import Config
from adrguard.core.cancel import Cancelled, Token
from adrguard.core.model import SourceFile
from adrguard.core.options import Options

NYGARD = """# {n}. Use a queue for job {n}

Date: 2024-02-{day:02d}

## Status

{status}

## Context

Job {n} waits on a slow call. See [the previous decision]({prev:04d}-job-{prev}.md) and ADR-{prev}.

## Decision

We put job {n} on a queue.

## Consequences

Retries are cheap.
"""

FRONT = """---
status: {status}
date: 2024-03-{day:02d}
supersedes: [{prev}]
---
# Keep cache {n}

## Context and Problem Statement

Cache {n} is cold after a deploy.

## Decision Outcome

Chosen option: warm it, because it replaces record {prev}.
"""

# front matter that MessagePack cannot hold exactly: the helper answers nil for this record
TAGGED = """---
status: accepted
when: !!timestamp 2024-01-02
tags: !!set {a, b}
big: 123456789012345678901234567890
---
# Tagged record
"""


def _sources(count: int) -> list[SourceFile]:
    out = []
    for n in range(1, count + 1):
        text = (NYGARD if n % 2 else FRONT).format(
            n=n, day=n % 28 + 1, prev=max(n - 1, 1),
            status=("Accepted", "Superseded by ADR-3", "proposed")[n % 3])
        out.append(SourceFile(path=f"docs/adr/{n:04d}-job-{n}.md", root="docs/adr",
                              data=text.encode()))
    out.insert(count - 2, SourceFile(path="docs/adr/0900-tagged.md", root="docs/adr",
                                      data=TAGGED.encode()))
    out.append(SourceFile(path="docs/adr/0901-gone.md", root="docs/adr", data=None,
                          error="not a regular file"))
    out.append(SourceFile(path="docs/adr/0902-latin.md", root="docs/adr",
                          data=b"# Caf\xe9\n\nStatus: accepted\n"))
    return out


def _serial(count: int, encoded: bool = True) -> tuple[list[SourceFile], Options, list[Parsed]]:
    """``count`` written records (and three more of the odd kinds), the default options, and
    what this process alone parses them into."""
    sources, options = _sources(count), Config().options
    return sources, options, parsing.parse_all(sources, options, encoded=encoded)


def _ended(helper: Helper) -> bool:
    """Whether ``helper``'s process has ended and been waited for, its files closed."""
    return helper._process.returncode is not None and helper._answer.closed


@pytest.fixture
def small_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Share even a small list, so the tests stay quick."""
    monkeypatch.setattr(parsing, "SHARE_MIN", 2)
    monkeypatch.setattr(parsing, "HEAD_START", 4)
    monkeypatch.setattr(parsing, "HEAD_START_AHEAD", 2)


def _answers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record what every helper answered (None: it failed)."""
    seen: list[object] = []
    answer = parsing._answer

    def spy(helper: Helper, cancel: Token | None, count: int) -> list[bytes | None] | None:
        got = answer(helper, cancel, count)
        seen.append(got)
        return got

    monkeypatch.setattr(parsing, "_answer", spy)
    return seen


def _started(monkeypatch: pytest.MonkeyPatch, fail: int | None = None) -> list[Helper | None]:
    """Record the helper each slice got (None: none could take it); with ``fail``, that
    slice (counted from 1) gets none."""
    got: list[Helper | None] = []
    helper_for = parsing._helper_for

    def spy(part: list[SourceFile], opts: Options, ahead: Ahead | None) -> Helper | None:
        helper = None if len(got) + 1 == fail else helper_for(part, opts, ahead)
        got.append(helper)
        return helper

    monkeypatch.setattr(parsing, "_helper_for", spy)
    return got


@pytest.mark.usefixtures("small_share")
@pytest.mark.parametrize("encoded", [True, False])
def test_a_shared_parse_is_a_serial_parse(monkeypatch: pytest.MonkeyPatch, encoded: bool) -> None:
    sources, options, serial = _serial(30, encoded=encoded)
    seen = _answers(monkeypatch)
    shared = parsing.parse_all(sources, options, encoded=encoded, jobs=3)
    assert len(seen) == 2 and all(isinstance(a, list) for a in seen)  # two helpers answered
    assert any(None in a for a in seen if isinstance(a, list))  # the tagged record came back nil
    assert [d for d, _ in shared] == [d for d, _ in serial]
    assert [b for _, b in shared] == [b for _, b in serial]
    assert [d.path for d, _ in shared] == [s.path for s in sources]


@pytest.mark.usefixtures("small_share")
@pytest.mark.parametrize("executable", ["", "/bin/false", "/no/such/python"])
def test_a_helper_that_cannot_start_or_fails_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, executable: str
) -> None:
    sources, options, serial = _serial(12)
    monkeypatch.setattr(sys, "executable", executable)
    shared = parsing.parse_all(sources, options, encoded=True, jobs=2)
    assert shared == serial


@pytest.mark.usefixtures("small_share")
def test_an_answer_that_is_not_a_record_is_parsed_here(monkeypatch: pytest.MonkeyPatch) -> None:
    sources, options, serial = _serial(12)
    answer = parsing._answer

    def garbled(helper: Helper, cancel: Token | None, count: int) -> list[bytes | None] | None:
        got = answer(helper, cancel, count)
        assert got is not None
        return [b"\x93not a record" if i % 2 else blob for i, blob in enumerate(got)]

    monkeypatch.setattr(parsing, "_answer", garbled)
    assert parsing.parse_all(sources, options, encoded=True, jobs=2) == serial


@pytest.mark.usefixtures("small_share")
def test_no_temporary_folder_to_write_in_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only or full temporary folder: every record is parsed in this process."""
    import tempfile

    sources, options, serial = _serial(12)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", full)
    assert parsing.parse_all(sources, options, encoded=True, jobs=2) == serial


@pytest.mark.usefixtures("small_share")
def test_a_slice_whose_helper_did_not_start_is_parsed_here(monkeypatch: pytest.MonkeyPatch) -> None:
    sources, options, serial = _serial(40)
    got = _started(monkeypatch, fail=2)
    assert parsing.parse_all(sources, options, encoded=True, jobs=4) == serial
    assert len(got) == 3 and got[1] is None and got[0] is not None and got[2] is not None


@pytest.mark.usefixtures("small_share")
def test_a_helper_never_imports_from_the_folder_it_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pull request that adds a package named like ours at the repository's root runs no code
    of its own: the helper starts with ``-P``, so the current folder is not on its path."""
    marker = tmp_path / "ran"
    fake = tmp_path / "adrguard"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nraise SystemExit(7)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    sources = _sources(10)
    options = Config().options
    seen = _answers(monkeypatch)
    shared = parsing.parse_all(sources, options, encoded=True, jobs=2)
    assert not marker.exists()
    assert seen and all(isinstance(a, list) for a in seen)
    assert shared == parsing.parse_all(sources, options, encoded=True)


@pytest.mark.usefixtures("small_share")
def test_a_cancelled_run_ends_its_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    started = _started(monkeypatch)
    token = Token()
    token.cancel()
    with pytest.raises(Cancelled):
        parsing.parse_all(_sources(20), Config().options, encoded=True, jobs=3, cancel=token)
    assert len(started) == 2 and all(h is not None for h in started)
    assert all(_ended(h) for h in started if h is not None)


def test_below_the_threshold_or_alone_this_process_parses_everything() -> None:
    assert parsing.shares(parsing.SHARE_MIN - 1, 4) == []
    assert parsing.shares(10_000, 1) == []
    assert parsing.shares(10_000, 0) == []


@given(count=st.integers(0, 50_000), parsers=st.integers(0, 9),
       head_start=st.sampled_from([parsing.HEAD_START, parsing.HEAD_START_AHEAD]))
def test_the_helpers_take_equal_slices_from_the_end(
    count: int, parsers: int, head_start: int
) -> None:
    bounds = parsing.shares(count, parsers, head_start)
    if not bounds:
        return
    assert 1 <= len(bounds) <= helpers.MAX_PARSERS - 1 and len(bounds) == min(parsers, 4) - 1
    assert bounds[-1][1] == count
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    sizes = {end - start for start, end in bounds}
    assert len(sizes) == 1
    head, each = bounds[0][0], sizes.pop()
    # this process keeps head_start records more than a helper, plus what does not divide
    assert each >= 1 and 0 <= head - each - head_start < len(bounds) + 1


@pytest.mark.usefixtures("small_share")
def test_the_labelled_logs_parse_the_same_shared(
    corpora_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every record of the labelled logs (real text of every kind we have), parsed in one list
    by this process and two helpers, equals a serial parse."""
    from adrguard.adapters.files import discover

    sources = [
        src
        for folder in sorted(p for p in corpora_dir.iterdir() if (p / "docs").is_dir())
        for src in discover(folder, Config()).sources
    ]
    assert len(sources) > 500
    options = Config().options
    serial = parsing.parse_all(sources, options, encoded=True)
    seen = _answers(monkeypatch)
    shared = parsing.parse_all(sources, options, encoded=True, jobs=3)
    assert len(seen) == 2 and all(isinstance(a, list) for a in seen)
    assert shared == serial


@pytest.fixture
def two_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three processors, whatever this machine has: two helpers are started ahead, and a
    parse is shared by three processes."""
    monkeypatch.setattr(helpers, "cpus", lambda: 3)
    monkeypatch.setattr(parsing, "cpus", lambda: 3)


@pytest.mark.usefixtures("small_share", "two_helpers")
def test_helpers_started_ahead_are_taken_and_give_a_serial_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sources, options, serial = _serial(30)
    started = _started(monkeypatch)
    seen = _answers(monkeypatch)
    with Ahead.start() as ahead:
        waiting = list(ahead._waiting)
        assert len(waiting) == 2
        shared = parsing.parse_all(sources, options, encoded=True, jobs=0, ahead=ahead)
        assert len(ahead) == 0  # both were taken, none was started now
    assert started == waiting
    assert len(seen) == 2 and all(isinstance(a, list) for a in seen)
    assert shared == serial
    assert all(_ended(h) for h in waiting)


@pytest.mark.usefixtures("two_helpers")
def test_helpers_started_ahead_that_nobody_takes_are_ended() -> None:
    """A parse too small to share takes none; closing ends them, and they answer nothing."""
    sources, options, serial = _serial(5)
    ahead = Ahead.start()
    waiting = list(ahead._waiting)
    assert len(waiting) == 2
    assert parsing.parse_all(sources, options, encoded=True, jobs=0, ahead=ahead) == serial
    assert len(ahead) == 2
    ahead.close()
    assert len(ahead) == 0 and all(_ended(h) for h in waiting)


@pytest.mark.usefixtures("small_share", "two_helpers")
def test_a_helper_started_ahead_that_ended_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper that died while it waited cannot take its records: one is started for them."""
    sources, options, serial = _serial(30)
    started = _started(monkeypatch)
    seen = _answers(monkeypatch)
    with Ahead.start() as ahead:
        dead = ahead._waiting[0]
        dead._process.kill()
        dead._process.wait()
        shared = parsing.parse_all(sources, options, encoded=True, jobs=0, ahead=ahead)
    assert dead not in started and len(started) == 2 and _ended(dead)
    assert len(seen) == 2 and all(isinstance(a, list) for a in seen)
    assert shared == serial


def test_a_helper_given_no_records_ends_without_an_answer() -> None:
    helper = Helper.start()
    assert helper is not None
    try:
        assert helper.feed(b"")
        assert helper.answer(None) == b""
        assert parsing._answer(helper, None, 0) is None  # not a MessagePack array: parse here
        assert not helper.feed(b"more")  # fed once, its pipe is closed
    finally:
        helper.stop()
    assert _ended(helper)


@pytest.mark.usefixtures("two_helpers")
def test_one_processor_starts_no_helper_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helpers, "cpus", lambda: 1)
    assert Ahead.if_cold(no_cache=True) is None
    monkeypatch.setattr(sys, "executable", "")
    assert len(Ahead.start()) == 0  # no interpreter to start: nothing waits
