"""Issue 27: input that drove two loops against each other (a supersession chain and the
citations of it, a chain and compaction, the words of a Status section and the status
vocabulary, broken anchors and headings, thousands of records sharing one number). Each runs
through the real CLI, in this process, under a CPU deadline far above what the linear code
needs and far below what the quadratic code took; benchmarks/hostile.py times the same classes
at 5,000 records or 1 MiB, with their growth."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hostile import make_repo, record, run

DEADLINE = 5.0  # CPU seconds of this process: a hang, not a slow or busy machine


def _timed(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    cpu = time.process_time()
    result = run(capsys, *args, "--no-cache", "--format", "json")
    spent = time.process_time() - cpu
    assert spent < DEADLINE, f"adrguard {args[0]} took {spent:.1f} s of CPU"
    assert result.code in (0, 1), result.err
    return result.code, json.loads(result.out)


def _chain(n: int) -> dict[str, str]:
    """``n`` records, each superseded by the next (both sides written); the last accepted."""
    out: dict[str, str] = {}
    for i in range(1, n + 1):
        status = f"Superseded by [{i + 1}. R](0{i + 1:04d}-r.md)" if i < n else "Accepted"
        if i > 1:
            status += f"\n\nSupersedes [{i - 1}. R](0{i - 1:04d}-r.md)"
        out[f"docs/adr/0{i:04d}-r.md"] = (
            f"# {i}. R\n\nDate: 2024-01-01\n\n## Status\n\n{status}\n\n## Context\n\nc\n\n"
            "## Decision\n\nd\n\n## Consequences\n\ne\n"
        )
    return out


@pytest.fixture
def repo_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def build(files: dict[str, str]) -> Path:
        r = make_repo(tmp_path / "repo", files)
        monkeypatch.chdir(r.path)
        return r.path

    return build


def test_citations_of_a_long_supersession_chain(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """ADR602 walked the chain to its end once per citation, and scanned every citation of
    the file for one on the same line naming a successor: 1,250 records and 20,000 citations
    took 222 s. Now each record's standing is resolved once per run, and a line's successors
    are one bit-set test."""
    n = 1_000
    lines = []
    for k in range(4 * n):
        i = k % n + 1
        if k % 2:
            lines.append(f"x{k} = {k}  # see ADR-{i:05d}\n")
        else:  # the line also cites a later record of the chain: history, not a stale citation
            lines.append(f"y{k} = {k}  # ADR-{i:05d}, now ADR-{min(n, i + 2):05d}\n")
    repo_with({**_chain(n), ".adrguard.toml": "[citations]\nenabled = true\n",
               "src/app.py": "".join(lines)})
    _code, report = _timed(capsys, "check")
    stale = [f for f in report["findings"] if f["code"] == "ADR602"]
    # every "see" line cites a superseded record; of the other lines only the later record
    # (superseded itself, its own successor not on the line) is reported
    # one a line, except the 8 lines where the reported record would be the last, in force
    assert len(stale) == 4 * n - 8
    second = next(f for f in stale if f["line"] == 2)
    assert "ADR-0002" in second["message"] and f"ADR-{n:04d}" in second["message"]
    on_first = [f["decision"] for f in stale if f["line"] == 1]
    assert on_first == ["ADR-0003"]  # ADR-0001 is cited beside its successor's successor


def test_compaction_of_a_long_supersession_chain(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """compaction walked the chain, the declared relationships, the blocker findings and the
    CURRENT members once per record (2,500 records: 10 s; 5,000: 38 s)."""
    n = 3_000
    repo_with(_chain(n))
    _code, report = _timed(capsys, "compaction")
    records = {r["id"]: r for r in report["records"]}
    assert len(records) == n
    first = records["ADR-0001"]
    assert first["evidence"]["currentSuccessor"]["id"] == f"ADR-{n:04d}"
    assert first["disposition"] == "archive-candidate"
    assert records[f"ADR-{n:04d}"]["disposition"] == "keep"
    (chain,) = [c for c in report["candidates"] if c["kind"] == "chain"]
    assert len(chain["records"]) == n


GREEK = "αβγδεζηθικλμνξοπρστυφχψω"


def _greek(k: int) -> str:
    return "".join(GREEK[(k // len(GREEK) ** i) % len(GREEK)] for i in range(8))


def test_status_section_of_many_words_and_a_large_status_table(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """The unknown-status hint compared every phrase of the Status section with every word of
    the vocabulary (a 1 MiB Status section: 86 s; `[statuses]` synonyms multiply it). Now it
    looks at the first phrases only, and each through a length and prefix index."""
    words = "".join(_greek(k * 7919) + ". " for k in range(6_000))  # none is near a status
    synonyms = "".join(f'"syn{k:05d}x" = "accepted"\n' for k in range(3_000))
    typo = record(3, status="Acepted")
    repo_with({"docs/adr/0001-a.md": record(1),
               "docs/adr/0002-b.md": record(2, status=words),
               "docs/adr/0003-c.md": typo,
               ".adrguard.toml": "[statuses]\n" + synonyms})
    _code, report = _timed(capsys, "check")
    unknown = {f["path"]: f["message"] for f in report["findings"] if f["code"] == "ADR103"}
    assert "docs/adr/0002-b.md" in unknown and "did you mean" not in unknown["docs/adr/0002-b.md"]
    assert "did you mean 'accepted'" in unknown["docs/adr/0003-c.md"]


def test_broken_anchors_against_many_headings(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """Every broken same-page anchor looked for its closest heading among all of them (2,000
    x 2,000 in a 60 KB file: 10 s). Anchors are a set; the hint has an index and a budget."""
    n = 2_000
    body = "".join(f"## Section {k:05d} alpha\n\n[see](#section-{k:05d}-alphx)\n\n"
                   for k in range(n))
    repo_with({"docs/adr/0001-a.md": record(1) + body})
    _code, report = _timed(capsys, "check")
    broken = [f for f in report["findings"] if f["code"] == "ADR202"]
    assert len(broken) == n
    assert "did you mean #section-00000-alpha?" in broken[0]["message"]


def test_thousands_of_records_sharing_one_number(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """Each duplicate-id finding named every other record of the group, and each ambiguous
    relationship listed every record it matched: 2,000 records numbered 1 wrote 322 MB of
    JSON. Now each names 8 and relates at most 50."""
    n = 2_000
    files = {f"docs/adr/0001-x{i}.md": record(1, f"X{i}") + "\nDepends on ADR-1\n"
             for i in range(n)}
    repo_with(files)
    _code, report = _timed(capsys, "check")
    dup = [f for f in report["findings"] if f["code"] == "ADR106"]
    ambiguous = [f for f in report["findings"] if f["code"] == "ADR302"]
    assert len(dup) == n and len(ambiguous) == n
    assert f"and {n - 1 - 8:,} more" in dup[0]["message"] and len(dup[0]["related"]) == 50
    assert f"matches {n} records" in ambiguous[0]["message"]
    assert f"and {n - 8} more" in ambiguous[0]["message"]
    assert len(json.dumps(report)) < 10_000_000  # linear in the records: about 3 KB each
