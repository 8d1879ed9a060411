"""`adrguard guard` on a real repository whose retired records `adrguard archive apply` moved
into the archive: Claude Code PreToolUse payloads (tests/data/guard/claude, in the shape the
hooks reference documents) for each supported tool and each mode, the generic form, and every
way the guard can fail — which it reports, and in guard mode fails closed for the call only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from guardrepo import (
    ACTIVE,
    ARCHIVED,
    PAYLOADS,
    build,
    hook,
    payload,
    payload_problems,
    set_mode,
)

from adrguard.cli import main

DISCOVERY = ["glob-all-markdown", "glob-archive-folder", "grep-names-everywhere",
             "grep-count-adrs", "bash-ls-archive", "bash-rg-files", "bash-grep-names"]
TARGETED = ["read-index", "read-archive-index", "read-current", "read-active",
            "read-active-part", "grep-one-active-record", "bash-cat-active", "read-code"]
ARCHIVED_READS = ["read-archived", "grep-one-archived-record", "bash-cat-archived",
                  "bash-head-archived-glob", "bash-sed-archived"]
UNSCOPED = ["grep-content-everywhere", "grep-content-adr-folder", "bash-grep-everywhere",
            "bash-rg-everywhere"]
CODE = ["grep-code-glob", "grep-code-type", "grep-code-excluding-adrs", "grep-code-path",
        "bash-rg-code", "bash-grep-code"]
TRICKS = ["read-archived-dotdot", "read-archived-symlink", "read-archived-relative",
          "read-archived-backslashes", "bash-cat-archived-symlinked-folder"]
NOT_ARCHIVE = ["read-folder-named-archive", "bash-cat-folder-named-archive"]
NOT_RECOGNISED = ["bash-python-reads-archived", "bash-git-show-history", "mcp-other-server"]
MALFORMED = ["malformed-not-json.txt", "malformed-array.json", "malformed-no-tool-name.json",
             "malformed-read-without-path.json", "malformed-tool-input-string.json",
             "malformed-grep-output-mode.json"]

ALLOWED = DISCOVERY + TARGETED + CODE + NOT_ARCHIVE + NOT_RECOGNISED
STOPPED = ARCHIVED_READS + UNSCOPED + TRICKS


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("guard")).path


@pytest.fixture
def mode(repo: Path) -> Any:
    def set_to(value: str, extra: str = "") -> Path:
        set_mode(repo, value, extra)
        return repo

    yield set_to
    set_mode(repo, "guard")


def test_every_payload_file_is_used() -> None:
    named = set(ALLOWED + STOPPED + MALFORMED) | {
        "malformed-other-event.json", "no-session-read-archived.json",
        "no-session-read-active.json"}
    files = {p.name for p in PAYLOADS.iterdir() if p.suffix in (".json", ".txt")}
    assert {n if "." in n else n + ".json" for n in named} == files


def test_the_payloads_have_the_documented_shape(repo: Path) -> None:
    for path in sorted(PAYLOADS.glob("*.json")):
        data = json.loads(payload(path.name, repo))
        problems = payload_problems(data)
        if path.name.startswith("malformed-"):
            assert problems, path.name
        else:
            assert not problems, (path.name, problems)
            assert set(data) <= {"session_id", "transcript_path", "cwd", "permission_mode",
                                 "hook_event_name", "tool_name", "tool_input", "tool_use_id"}


def _name(case: str) -> str:
    return case if "." in case else case + ".json"


@pytest.mark.parametrize("case", ALLOWED)
@pytest.mark.parametrize("level", ["off", "warn", "guard"])
def test_allowed_in_every_mode(case: str, level: str, mode: Any, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode(level)
    code, out = hook(monkeypatch, capsys, payload(_name(case), repo, session=None))
    assert code == 0
    assert out is None  # nothing printed: Claude Code's own permission rules apply unchanged


@pytest.mark.parametrize("case", STOPPED)
def test_denied_in_guard_mode_with_a_receipt(case: str, mode: Any,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("guard")
    code, out = hook(monkeypatch, capsys, payload(_name(case), repo, session=None))
    assert code == 0 and out is not None
    decision = out["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse"
    assert decision["permissionDecision"] == "deny"
    reason = decision["permissionDecisionReason"]
    assert reason.startswith("adrguard read guard: ")
    assert "adrguard context" in reason and "adr_context" in reason
    if case in UNSCOPED:
        assert "with no target" in reason
        assert "search code only" in reason
    else:
        assert "is an archived decision record" in reason
        assert "archive/0002-use-mysql.md" in reason or "archive/0004-use-postgresql.md" in reason
        assert '"history": true' in reason
    assert str(repo) not in reason  # repo-relative paths only
    assert "systemMessage" not in out


@pytest.mark.parametrize("case", STOPPED)
def test_let_through_with_a_hint_in_warn_mode(case: str, mode: Any,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("warn")
    code, out = hook(monkeypatch, capsys, payload(_name(case), repo, session=None))
    assert code == 0 and out is not None
    decision = out["hookSpecificOutput"]
    assert "permissionDecision" not in decision  # allowed: only context for Claude
    assert decision["additionalContext"].startswith("adrguard read guard: ")
    assert "adrguard context" in decision["additionalContext"]


@pytest.mark.parametrize("case", STOPPED)
def test_off_keeps_todays_access(case: str, mode: Any, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("off")
    assert hook(monkeypatch, capsys, payload(_name(case), repo)) == (0, None)


@pytest.mark.uses_cache
def test_warn_says_it_once_per_record_per_session(mode: Any, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("warn")
    first = hook(monkeypatch, capsys, payload("read-archived.json", repo, "warn-session"))[1]
    assert first is not None and "additionalContext" in first["hookSpecificOutput"]
    # the same record again, by another tool: said already in this session
    for case in ("read-archived.json", "bash-cat-archived.json", "read-archived-symlink.json"):
        assert hook(monkeypatch, capsys, payload(case, repo, "warn-session")) == (0, None)
    # another archived record: said once for it too
    other = hook(monkeypatch, capsys, payload("bash-sed-archived.json", repo, "warn-session"))[1]
    assert other is not None and "0004-use-postgresql" in str(other)
    # another session starts afresh
    again = hook(monkeypatch, capsys, payload("read-archived.json", repo, "other-session"))[1]
    assert again is not None


@pytest.mark.uses_cache
def test_repeated_reads_are_counted_and_hinted_once(mode: Any, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("guard")
    assert hook(monkeypatch, capsys, payload("read-active.json", repo, "count")) == (0, None)
    code, second = hook(monkeypatch, capsys, payload("bash-cat-active.json", repo, "count"))
    assert (code, second) == (0, None)  # another part (the whole file by cat): not a repeat
    code, third = hook(monkeypatch, capsys, payload("read-active.json", repo, "count"))
    assert third is not None
    assert "read already in this session" in third["hookSpecificOutput"]["additionalContext"]
    assert hook(monkeypatch, capsys, payload("read-active.json", repo, "count")) == (0, None)
    capsys.readouterr()
    assert main(["guard", "--session", "count", "read", str(repo / ACTIVE),
                 "--repo", str(repo)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["session"]["recordsRead"] == 1
    assert line["session"]["repeats"] == 3  # the Read tool twice more, then this read
    assert line["session"]["bytesRead"] == 5 * (repo / ACTIVE).stat().st_size


def test_a_missing_session_id_hints_every_time(mode: Any, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("warn")
    for _ in range(2):
        code, out = hook(monkeypatch, capsys, payload("no-session-read-archived.json", repo))
        assert code == 0 and out is not None
        assert "additionalContext" in out["hookSpecificOutput"]
    repo = mode("guard")
    code, out = hook(monkeypatch, capsys, payload("no-session-read-archived.json", repo))
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert hook(monkeypatch, capsys, payload("no-session-read-active.json", repo)) == (0, None)


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_payload_is_reported_never_silently_allowed(
    case: str, mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = mode("guard")
    monkeypatch.chdir(repo)  # the payload may not say where the agent works
    code, out = hook(monkeypatch, capsys, payload(case, repo))
    assert code == 0 and out is not None
    decision = out["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "could not judge this call (malformed hook payload" in \
        decision["permissionDecisionReason"]
    assert "malformed hook payload" in out["systemMessage"]
    repo = mode("warn")
    code, out = hook(monkeypatch, capsys, payload(case, repo))
    assert out is not None and "hookSpecificOutput" not in out
    assert "this call was not checked" in out["systemMessage"]
    repo = mode("off")
    assert hook(monkeypatch, capsys, payload(case, repo)) == (0, None)


def test_a_hook_wired_to_another_event_says_so(mode: Any, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    repo = mode("guard")
    code, out = hook(monkeypatch, capsys, payload("malformed-other-event.json", repo))
    assert code == 0 and out is not None
    assert "hookSpecificOutput" not in out
    assert "register it under PreToolUse" in out["systemMessage"]


def test_a_folder_called_archive_is_the_archive_only_when_configured(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # archive-dirs names another folder: docs/adr/archive holds ordinary records then
    repo = mode("guard", 'archive-dirs = ["retired"]\n')
    assert hook(monkeypatch, capsys, payload("read-archived.json", repo)) == (0, None)
    repo = mode("guard", 'archive-dirs = ["src"]\n')  # src is not below an ADR root
    assert hook(monkeypatch, capsys, payload("read-folder-named-archive.json", repo)) == (0, None)


def test_a_bad_configuration_fails_closed_only_for_what_needs_judging(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = mode("guard", "archive-dirz = ['x']\n")
    _code, out = hook(monkeypatch, capsys, payload("read-code.json", repo))
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "unknown key 'archive-dirz'" in reason and "did you mean 'archive-dirs'" in reason
    # nothing to judge (file names, a program): allowed, and the degradation is reported
    for case in ("glob-all-markdown.json", "bash-python-reads-archived.json"):
        _code, out = hook(monkeypatch, capsys, payload(case, repo))
        assert out is not None and "hookSpecificOutput" not in out
        assert "unknown key 'archive-dirz'" in out["systemMessage"]
    # warn mode: let through, reported
    repo = mode("warn", "archive-dirz = ['x']\n")
    _code, out = hook(monkeypatch, capsys, payload("read-archived.json", repo))
    assert out is not None and "this call was not checked" in out["systemMessage"]


@pytest.mark.parametrize("text", ['read-guard = "on"\n', "read-guard = [\n"])
def test_a_mode_that_cannot_be_read_asks_the_person(
    text: str, repo: Path, mode: Any, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    mode("guard")
    (repo / ".adrguard.toml").write_text(text)
    code, out = hook(monkeypatch, capsys, payload("read-active.json", repo))
    assert code == 0 and out is not None
    assert out["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert "cannot read its own configuration" in \
        out["hookSpecificOutput"]["permissionDecisionReason"]
    capsys.readouterr()
    assert main(["guard", "read", str(repo / ACTIVE), "--repo", str(repo)]) == 2
    assert json.loads(capsys.readouterr().out)["decision"] == "ask"


def test_a_log_failure_is_reported_and_fails_closed(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.adapters.guard import setup
    from adrguard.core.errors import UserError

    def refused(*_args: object, **_kw: object) -> None:
        raise UserError("git refuses the repository at /x: detected dubious ownership")

    monkeypatch.setattr(setup, "plan_layout", refused)  # the name the guard's setup calls
    repo = mode("guard")
    _code, out = hook(monkeypatch, capsys, payload("read-active.json", repo))
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "dubious ownership" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_crash_inside_the_guard_fails_closed_with_the_reason(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.core.guard import policy

    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(policy, "decide", broken)
    monkeypatch.setattr("adrguard.api.agent.guard.decide", broken)
    repo = mode("guard")
    code, out = hook(monkeypatch, capsys, payload("read-active.json", repo))
    assert code == 0 and out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "internal error RuntimeError: boom" in reason
    repo = mode("warn")
    code, out = hook(monkeypatch, capsys, payload("read-active.json", repo))
    assert out is not None and "internal error RuntimeError: boom" in out["systemMessage"]


@pytest.mark.uses_cache
def test_counters_that_cannot_be_written_never_swallow_a_denial(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "guard-sessions").write_text("not a folder")
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(cache))
    repo = mode("guard")
    _code, out = hook(monkeypatch, capsys, payload("read-archived.json", repo, "s"))
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "session folder cannot be used" in out["systemMessage"]


@pytest.mark.uses_cache
def test_a_hostile_session_id_stays_in_the_cache_folder(
    mode: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(cache))
    repo = mode("warn")
    for hostile in ("../../../../tmp/escaped", "/etc/passwd", "a\x00b", "x" * 5000, "..",
                    "guard-sessions/../../owned"):
        data = json.loads(payload("read-active.json", repo))
        data["session_id"] = hostile
        code, _out = hook(monkeypatch, capsys, json.dumps(data).encode())
        assert code == 0
    names = sorted(p.name for p in (cache / "guard-sessions").iterdir())
    assert len(names) == 6
    assert all(len(n) == 64 + len(".json") and n.endswith(".json") for n in names)
    outside = {p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*")}
    assert outside == {"cache"}
    assert not Path("/tmp/escaped").exists()


def test_the_generic_form(mode: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from adrguard.core.schemas import validator

    repo = mode("guard")
    where = ["--repo", str(repo)]
    cases = [
        (["read", str(repo / ACTIVE)], 0, "allow"),
        (["read", str(repo / ARCHIVED)], 1, "deny"),
        (["search", "mysql", str(repo)], 1, "deny"),
        (["search", "mysql", str(repo), "--glob", "!docs/adr/**"], 0, "allow"),
        (["search", "mysql", str(repo), "--type", "py"], 0, "allow"),
        (["search", "mysql", str(repo), "--output", "names"], 0, "allow"),
        (["search", "mysql", str(repo / ACTIVE)], 0, "allow"),
    ]
    for args, status, decision in cases:
        capsys.readouterr()
        assert main(["guard", *args, *where]) == status, args
        out = capsys.readouterr().out
        assert out.count("\n") == 1  # one JSON line
        line = json.loads(out)
        assert line["decision"] == decision and line["mode"] == "guard"
        errors = list(validator("guard.schema.json").iter_errors(line))
        assert not errors, errors[0].message
    capsys.readouterr()
    main(["guard", "read", str(repo / ARCHIVED), *where])
    line = json.loads(capsys.readouterr().out)
    (notice,) = line["notices"]
    assert notice["receipt"]["mcp"] == {"tool": "adr_context",
                                        "arguments": {"identifier": ARCHIVED}}
    assert notice["receipt"]["command"] == f"adrguard context {ARCHIVED}"
