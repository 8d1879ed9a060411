"""Attack 4: no command injection through text output. A record whose title, status, file name
and text carry ``::command::`` (after blanks), ``##[command]``, ESC, C1 controls and bidi
overrides goes through every command that prints it; a model of the GitHub runner's command
parser reads the output and must find nothing to execute."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hostile import make_repo, record, run

from adrguard.core.textsafe import json_safe, neutralise

HOSTILE_PATH = "docs/adr/0002-::error::named.md"
HOSTILE = """---
title: "::warning::title\\n  ::set-output name=x::y ##[error]z \\e[31mred \\u202eevil \\x85nel"
affected-paths: ["src/**"]
supersedes: ["::error::sup", "0001-a.md"]
---
# 2. ::error::heading ##[warning]w \x1b]0;title\x07

Date: 2024-01-02

## Status

::notice::accepted ##[group]g

## Context

  ::add-mask::secret
##[endgroup] see ADR-0001 and [x](missing::error::.md)

## Decision

\x1b[2J cleared \u202e reversed

## Consequences

None.
"""
UNSAFE_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def executed(output: str) -> list[str]:
    """The workflow commands GitHub's runner would run for ``output``: ``::name ...::`` once
    the line is trimmed, ``##[name`` anywhere in a line, and nothing between
    ``::stop-commands::TOKEN`` and ``::TOKEN::``."""
    found: list[str] = []
    stopped: str | None = None
    for line in output.split("\n"):
        trimmed = line.strip()
        if stopped is not None:
            if trimmed == f"::{stopped}::":
                stopped = None
            continue
        m = re.match(r"^::([^ :]+)[^:]*::(.*)$", trimmed)
        if m and m.group(1) == "stop-commands":
            stopped = m.group(2)
        elif m:
            found.append(m.group(1))
        elif "##[" in line:
            found.append("##[" + line.split("##[", 1)[1][:10])
    return found


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    r = make_repo(tmp_path / "repo", {"docs/adr/0001-a.md": record(1), "src/app.py": "x = 1\n"})
    r.write({HOSTILE_PATH: HOSTILE, "src/app.py": "x = 2\n"})
    r.commit("hostile")
    monkeypatch.chdir(r.path)
    return r.path


COMMANDS = [
    ["check"],
    ["check", "--format", "json"],
    ["check", "--format", "markdown"],
    ["check", "--format", "sarif"],
    ["list"],
    ["list", "--format", "json"],
    ["show", "2"],
    ["show", "2", "--format", "json"],
    ["impact", "--base", "HEAD~1"],
    ["impact", "--base", "HEAD~1", "--format", "json"],
    ["impact", "--base", "HEAD~1", "--format", "markdown"],
    ["find", "--paths", "src/app.py", "--topic", "error", "--status", "unknown"],
    ["context", "--paths", "src/app.py", "--status", "unknown"],
    ["context", "ADR-0002"],
    ["search", "error"],
    ["graph"],
    ["graph", "--format", "dot"],
    ["graph", "--format", "json"],
    ["relationships"],
    ["compaction"],
    ["compaction", "--format", "json"],
    ["archive", "plan", "2", "--format", "text"],
    ["archive", "plan", "2"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("actions", [False, True], ids=["plain", "GITHUB_ACTIONS"])
def test_no_output_runs_a_workflow_command(
    repo: Path, argv: list[str], actions: bool, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if actions:
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
    else:
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = run(capsys, *argv)
    assert result.code in (0, 1), result.err
    assert "0002" in result.out  # the hostile record is in every output
    assert executed(result.out) == [] and executed(result.err) == []
    assert not UNSAFE_RAW.search(result.out) and not UNSAFE_RAW.search(result.err)
    if actions:  # wrapped in stop-commands with a token that is fresh for every run
        first = result.out.split("\n", 1)[0]
        assert re.fullmatch(r"::stop-commands::[0-9a-f]{32}", first)
        assert result.out.endswith(f"::{first.rsplit('::', 1)[1]}::\n")
    if "json" in argv or "sarif" in argv:
        body = result.out
        if actions:
            body = body.split("\n", 1)[1].rsplit("::", 2)[0]
        json.loads(body)  # still valid JSON


def test_stop_commands_token_is_unpredictable(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    tokens = {run(capsys, "list").out.split("\n", 1)[0] for _ in range(3)}
    assert len(tokens) == 3


def test_annotations_to_stdout_stay_commands(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--format github` exists to emit annotations: they are not stopped, and the hostile
    text inside them cannot start another command."""
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    out = run(capsys, "check", "--format", "github").out
    assert not out.startswith("::stop-commands::")
    assert set(executed(out)) <= {"error", "warning", "notice"}
    assert len(executed(out)) == out.count("\n")


def test_sarif_and_json_files_decode_to_the_original_text(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "check", "--format", "sarif:out.sarif", "--format", "json:out.json")
    for name in ("out.sarif", "out.json"):
        raw = (repo / name).read_text(encoding="utf-8")
        assert executed(raw) == [] and not UNSAFE_RAW.search(raw)
        assert "::error::sup" in json.dumps(json.loads(raw), ensure_ascii=False)


def test_the_escaping_function_on_its_own() -> None:
    assert neutralise("  ::error::x") == "  \\x3a:error::x"
    assert neutralise("a ##[error]b") == "a #\\x23[error]b"
    assert neutralise("one\n::two") == "one\\x0a::two"
    assert neutralise("one\n ::two", multiline=True) == "one\n \\x3a:two"
    assert neutralise("\x1b[0m\u202e\x85\ud800") == "\\x1b[0m\\u202e\\x85\ufffd"
    assert neutralise("std::vector and 100%") == "std::vector and 100%"
    for text in ("::a::b", "##[x", "\x1b", "ok"):
        assert neutralise(neutralise(text)) == neutralise(text)
        assert json.loads(json_safe(json.dumps(text, ensure_ascii=False))) == text


BIDI_AND_FORMAT = "\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u200b\u2060\ufeff\ufff9"


def test_github_annotations_neutralise_every_bidi_and_format_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 2 (issue 27): on main `--format github` let U+200E, U+200F and U+061C (and the
    invisible format characters) of a file name or a link through, so an annotation could
    read in another order than it was written. Every output neutralises one set of them; the
    zero-width joiner (emoji, scripts) stays."""
    name = "docs/adr/0002-b\u200f\u061c.md"
    body = record(2, "B") + f"\nSee [x](gone{BIDI_AND_FORMAT}\U0001f468\u200d\U0001f469.md).\n"
    r = make_repo(tmp_path / "repo", {"docs/adr/0001-a.md": record(1), name: body})
    monkeypatch.chdir(r.path)
    for fmt in ("github", "text", "json", "sarif"):
        out = run(capsys, "check", "--format", fmt).out
        assert "0002" in out and "gone" in out
        assert not any(c in out for c in BIDI_AND_FORMAT), (fmt, ascii(out))
    assert "\u200d" in run(capsys, "check", "--format", "github").out
    assert neutralise("a\u200eb\u061cc\ufeff") == "a\\u200eb\\u061cc\\ufeff"
