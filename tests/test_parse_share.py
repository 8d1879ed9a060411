"""A large parse shared with helper interpreters (ADR 63) gives exactly what one process gives:
the same records in the same order, each with the same cache encoding; a helper that cannot
start or fails changes nothing but the time; a helper never imports from the folder it runs in;
a cancelled run ends its helpers."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adrguard.api.pipeline import parsing
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


@pytest.fixture
def small_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Share even a small list, so the tests stay quick."""
    monkeypatch.setattr(parsing, "SHARE_MIN", 2)
    monkeypatch.setattr(parsing, "HEAD_START", 4)


def _answers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record what every helper answered (None: it failed)."""
    seen: list[object] = []
    answer = parsing._Helper.answer

    def spy(self: parsing._Helper, cancel: Token | None) -> list[bytes | None] | None:
        got = answer(self, cancel)
        seen.append(got)
        return got

    monkeypatch.setattr(parsing._Helper, "answer", spy)
    return seen


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
    answer = parsing._Helper.answer

    def garbled(self: parsing._Helper, cancel: Token | None) -> list[bytes | None] | None:
        got = answer(self, cancel)
        assert got is not None
        return [b"\x93not a record" if i % 2 else blob for i, blob in enumerate(got)]

    monkeypatch.setattr(parsing._Helper, "answer", garbled)
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
    calls: list[int] = []
    start = parsing._Helper.start

    def second_fails(part: list[SourceFile], opts: object) -> parsing._Helper | None:
        calls.append(len(part))
        return None if len(calls) == 2 else start(part, opts)  # type: ignore[arg-type]

    monkeypatch.setattr(parsing._Helper, "start", staticmethod(second_fails))
    assert parsing.parse_all(sources, options, encoded=True, jobs=4) == serial
    assert len(calls) == 3


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
    started: list[parsing._Helper] = []
    start = parsing._Helper.start

    def spy(sources: list[SourceFile], options: object) -> parsing._Helper | None:
        helper = start(sources, options)  # type: ignore[arg-type]
        if helper is not None:
            started.append(helper)
        return helper

    monkeypatch.setattr(parsing._Helper, "start", staticmethod(spy))
    token = Token()
    token.cancel()
    with pytest.raises(Cancelled):
        parsing.parse_all(_sources(20), Config().options, encoded=True, jobs=3, cancel=token)
    assert len(started) == 2
    assert all(h._process.poll() is not None for h in started)
    assert all(h._answer.closed for h in started)


def test_below_the_threshold_or_alone_this_process_parses_everything() -> None:
    assert parsing.shares(parsing.SHARE_MIN - 1, 4) == []
    assert parsing.shares(10_000, 1) == []
    assert parsing.shares(10_000, 0) == []


@given(count=st.integers(0, 50_000), parsers=st.integers(0, 9))
def test_the_helpers_take_equal_slices_from_the_end(count: int, parsers: int) -> None:
    bounds = parsing.shares(count, parsers)
    if not bounds:
        return
    assert 1 <= len(bounds) <= parsing.MAX_PARSERS - 1 and len(bounds) == min(parsers, 4) - 1
    assert bounds[-1][1] == count
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    sizes = {end - start for start, end in bounds}
    assert len(sizes) == 1
    head, each = bounds[0][0], sizes.pop()
    # this process keeps HEAD_START records more than a helper, plus what does not divide
    assert each >= 1 and 0 <= head - each - parsing.HEAD_START < len(bounds) + 1


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
