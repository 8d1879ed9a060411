"""Attack 2: input that used to take quadratic (or exponential) time. Each runs through the
real CLI under a deadline far above what the fixed code needs; benchmarks/hostile.py times the
same classes at the 1 MiB size limit."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hostile import make_repo, record, run

# CPU seconds of this process (the CLI runs in it): a quadratic loop blows through this on any
# machine, while a busy machine (other jobs on the same cores) does not make a linear case fail.
DEADLINE = 5.0
WALL_DEADLINE = 60.0  # a hang, not a slow machine


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    started, cpu = time.monotonic(), time.process_time()
    result = run(capsys, "check", "--no-cache", "--format", "json", *args)
    assert time.process_time() - cpu < DEADLINE
    assert time.monotonic() - started < WALL_DEADLINE
    return result.code, json.loads(result.out) if result.out else {}


def _codes(report: dict[str, object]) -> list[str]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return [f["code"] for f in findings]


@pytest.fixture
def repo_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def build(files: dict[str, str]) -> Path:
        r = make_repo(tmp_path / "repo", {"docs/adr/0001-a.md": record(1), **files})
        monkeypatch.chdir(r.path)
        return r.path

    return build


def test_html_block_of_unclosed_comment_openers(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    flood = "# 2. Flood\n\n## Status\n\nAccepted\n\n" + "<!--" * 60_000 + "\n"
    repo_with({"docs/adr/0002-flood.md": flood})
    code, report = _check(capsys)
    assert code in (0, 1)
    assert code in (0, 1) and report["summary"]["decisions"] == 2  # type: ignore[index]


def test_html_block_of_comment_opener_lines(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """One HTML event per line: each looked for its `-->` to the end of the file."""
    lines = "# 2. Lines\n\n## Status\n\nAccepted\n\n" + "<!--\n" * 100_000
    closed = "# 3. Closed\n\n## Status\n\nAccepted\n\n" + "<!--\n" * 50_000 + "-->\n"
    repo_with({"docs/adr/0002-lines.md": lines, "docs/adr/0003-closed.md": closed})
    code, report = _check(capsys)
    assert code in (0, 1) and report["summary"]["decisions"] == 3  # type: ignore[index]


def test_many_suppression_comments(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    body = "".join(
        f"<!-- adrguard-disable-next-line ADR201 -->\n[x](missing{i}.md)\n\n" for i in range(15_000)
    )
    wide = "<!-- adrguard-disable ADR201 -->\n" * 5_000
    repo_with({"docs/adr/0002-flood.md": "# 2. Flood\n\n## Status\n\nAccepted\n\n" + body,
               "docs/adr/0003-wide.md": record(3) + wide + "[y](gone.md)\n" * 5_000})
    code, report = _check(capsys)
    assert code in (0, 1)
    assert "ADR201" not in _codes(report)  # every broken link is silenced
    assert "ADR004" not in _codes(report)  # each comment covers a silenced finding


def test_suppression_comment_with_a_long_run_of_spaces(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    comment = "<!-- adrguard-disable" + " " * 200_000 + "x -->\n"
    repo_with({"docs/adr/0002-spaces.md": record(2) + comment})
    code, report = _check(capsys)
    assert code in (0, 1)
    assert "ADR003" in _codes(report)  # `x` names no rule


def test_catastrophic_decision_id_pattern(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    """``(a+)+$`` against a line of a's followed by a b: Python's re takes hours; RE2 is linear."""
    repo_with({".adrguard.toml": 'decision-id-pattern = "(a+)+$"\n',
               "docs/adr/0002-a.md": record(2) + "a" * 100_000 + "b\n"})
    code, _report = _check(capsys)
    assert code in (0, 1)


def test_catastrophic_filename_pattern(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    repo_with({".adrguard.toml": 'filename-pattern = "^(a|aa)+$"\n',
               "docs/adr/" + "a" * 200 + ".md": record(2)})
    code, report = _check(capsys)
    assert code in (0, 1)
    assert "ADR107" in _codes(report)


def test_pattern_re2_cannot_run_is_a_config_error(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    repo_with({".adrguard.toml": 'decision-id-pattern = "(ADR)-\\\\d+(?=x)"\n'})
    result = run(capsys, "check")
    assert result.code == 2 and result.err.count("\n") == 1
    assert "decision-id-pattern" in result.err and "look-around" in result.err


def test_catastrophic_front_matter_schema_pattern(repo_with, capsys) -> None:  # type: ignore[no-untyped-def]
    schema = {"type": "object", "properties": {"id": {"type": "string", "pattern": "^(a+)+$"}},
              "patternProperties": {"^(x+x+)+y$": {"type": "string"}},
              "additionalProperties": False}
    record2 = "---\nid: " + "a" * 5_000 + "!\n" + "x" * 1_000 + ": 1\n---\n" + record(2)
    repo_with({".adrguard.toml": 'frontmatter-schema = "adr.schema.json"\n',
               "adr.schema.json": json.dumps(schema), "docs/adr/0002-a.md": record2})
    code, report = _check(capsys)
    assert code in (0, 1)
    findings: list[dict[str, str]] = report["findings"]  # type: ignore[assignment]
    messages = [f["message"] for f in findings if f["code"] == "ADR110"]
    assert any("does not match '^(a+)+$'" in m for m in messages)
    assert any("additional properties are not allowed" in m for m in messages)
