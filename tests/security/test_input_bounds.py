"""Round 2, input never yields exit 3 (issue 27): every file and configuration value adrguard
reads is bounded (depth, size) and validated before use. A bad value of the configuration is
one ``error:`` line and exit 2; a file of the log that cannot be parsed is a finding. Real git
repositories, the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from hostile import Result, make_repo, record, run

DEEP = "[" * 100_000 + "]" * 100_000


def _one_error(result: Result, *needles: str) -> None:
    assert result.code == 2, (result.code, result.out, result.err)
    assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err
    for needle in needles:
        assert needle in result.err, result.err


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    r = make_repo(tmp_path / "repo", {
        "docs/adr/0001-a.md": record(1),
        "docs/adr/0002-b.md": record(2, "Another"),
        "src/app.py": "# see ADR-0001\n",
    })
    monkeypatch.chdir(r.path)
    return r


COMMANDS = [["check"], ["list"], ["graph"], ["index"], ["citations"], ["compaction"],
            ["baseline"], ["find", "--topic", "decision"], ["relationships"],
            ["impact", "--base", "HEAD"]]


@pytest.mark.parametrize("glob", ["[z-a]", "\\\\", "!", "a\\\\"])
@pytest.mark.parametrize("key", ["exclude", "extend-exclude", "per-file-ignores"])
def test_a_glob_pathspec_cannot_compile_is_one_error_line_for_every_command(
    repo: GitRepo, glob: str, key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main list, graph, index, citations, compaction, baseline, find (and check) exited 3
    with pathspec's or re's exception."""
    if key == "per-file-ignores":
        repo.write({".adrguard.toml": f'[per-file-ignores]\n"{glob}" = ["ADR101"]\n'})
    else:
        repo.write({".adrguard.toml": f'{key} = ["{glob}"]\n'})
    for command in COMMANDS:
        _one_error(run(capsys, *command), key, glob.replace("\\\\", "\\"))


def test_an_exclude_anchored_at_the_root_is_still_a_glob(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """`/x` anchors at the root in a `.gitignore`; the excludes accept it as before."""
    repo.write({".adrguard.toml": 'extend-exclude = ["/docs/adr/0002-b.md", "!keep.md"]\n'})
    result = run(capsys, "list", "--format", "json")
    assert result.code == 0
    assert [r["path"] for r in json.loads(result.out)["decisions"]] == ["docs/adr/0001-a.md"]


@pytest.mark.parametrize("value", ["%Y %Y", "%m %m %Y", "%Y-%Y-%d"])
def test_a_date_format_with_a_directive_twice_is_a_usage_error(
    repo: GitRepo, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `date-format = "%Y %Y"` made strptime raise re.error: exit 3."""
    repo.write({".adrguard.toml": f'date-format = "{value}"\n'})
    _one_error(run(capsys, "check"), "date-format", "reads back what it writes")


def test_deeply_nested_current_manifest_is_a_finding(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main a CURRENT.sources.json nested 100,000 deep crashed ADR404-ADR408 (ADR000,
    exit 3)."""
    repo.write({"docs/adr/CURRENT.md": "# In force\n", "docs/adr/CURRENT.sources.json": DEEP})
    repo.commit("a deep manifest")
    result = run(capsys, "check", "--format", "json")
    assert result.code == 1, result.err
    found = [(f["code"], f["message"]) for f in json.loads(result.out)["findings"]]
    assert not any(code == "ADR000" for code, _ in found)
    assert any(code == "ADR405" and "nested 100000 levels deep" in message
               for code, message in found)


def test_a_corrupt_baseline_says_how_to_recover_and_the_advice_works(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main a deeply nested .adrguard-baseline.json crashed check (no report, exit 3), and a
    corrupt one said to run `adrguard baseline`, which failed the same way."""
    for damage in (json.dumps({"entries": json.loads("[" * 60 + "]" * 60)})[:-1] + DEEP + "}",
                   "{not json"):
        repo.write({".adrguard-baseline.json": damage})
        result = run(capsys, "check")
        _one_error(result, ".adrguard-baseline.json", "`adrguard baseline`", "--no-baseline")
        assert run(capsys, "check", "--no-baseline").code == 0
        _one_error(run(capsys, "baseline", "--update"), ".adrguard-baseline.json")
        written = run(capsys, "baseline")
        assert written.code == 0, written.err
        assert run(capsys, "check").code == 0
        json.loads((repo.path / ".adrguard-baseline.json").read_text())


def test_a_deeply_nested_claims_file_is_a_usage_error(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims = tmp_path / "claims.json"
    claims.write_text('{"schemaVersion": 1, "pullRequests": ' + DEEP + "}")
    repo.write({"docs/adr/0003-c.md": record(3, "Third")})
    repo.commit("a third record")
    _one_error(run(capsys, "check", "--base", "HEAD~1", "--claims", str(claims)),
               "claims file", "nested")


def test_a_deep_yaml_flow_sequence_in_log4brains_config_names_no_folder(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main a .log4brains.yml with a deep flow sequence raised RecursionError (exit 3)."""
    deep = "[" * 30_000 + "]" * 30_000
    repo.write({".log4brains.yml": f"project:\n  adrFolder: {deep}\n"})
    repo.commit("log4brains")
    assert run(capsys, "check").code == 0
    repo.write({".log4brains.yml": "project:\n  adrFolder: " + "- " * 20_000 + "x\n"})
    assert run(capsys, "check").code == 0


def _fitness(repo: GitRepo, evidence: str, value: object = 1) -> None:
    rule = {"id": "floor", "decision": "ADR-0001", "kind": "evidence", "evidence": evidence,
            "pointer": "/v", "op": ">=", "value": value}
    repo.write({".adrguard-fitness.json": json.dumps({"schemaVersion": 1, "rules": [rule]})})
    repo.commit("fitness")


def test_a_nul_in_an_evidence_path_is_a_usage_error_and_a_finding(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main a NUL in a fitness manifest's evidence path was `ValueError: embedded null byte`:
    exit 3 (and the Action's verify step then published nothing: tests/github)."""
    _fitness(repo, "art\u0000ifacts.json")
    _one_error(run(capsys, "verify"), "evidence", "control character")
    result = run(capsys, "check", "--format", "json")
    assert result.code == 1
    assert any(f["code"] == "ADR704" and "control character" in f["message"]
               for f in json.loads(result.out)["findings"])


def test_a_number_too_large_for_a_float_in_evidence_is_never_a_pass(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `1e400` became Infinity, and `Infinity >= 1` passed."""
    _fitness(repo, "e.json")
    (repo.path / "e.json").write_text('{"v": 1e400}')
    result = run(capsys, "verify", "--format", "json")
    rule = json.loads(result.out)["results"][0]
    assert rule["status"] == "unknown"
    assert "too large" in rule["evidence"][0]["problem"]
    (repo.path / "e.json").write_text('{"v": 1e300}')
    assert json.loads(run(capsys, "verify", "--format", "json").out)["results"][0]["status"] \
        == "pass"


@pytest.mark.parametrize("written", ["2024-01-01 25:99:99", "2024-01-01T24:30", "2024-01-01 12:61"])
def test_an_impossible_time_of_day_makes_the_date_impossible(
    repo: GitRepo, written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `Date: 2024-01-01 25:99:99` was read as 1 January 2024."""
    repo.write({"docs/adr/0002-b.md": record(2, "Another").replace("2024-01-02", written)})
    result = run(capsys, "check", "--format", "json")
    assert any(f["code"] == "ADR109" and written in f["message"]
               for f in json.loads(result.out)["findings"]), result.out


def test_damaged_json_files_are_never_a_crash_in_a_subprocess(tmp_path: Path) -> None:
    """The real executable, the real process limits: every JSON file of the repository nested
    100,000 deep at once, and each command still ends with 0, 1 or 2."""
    r = make_repo(tmp_path / "repo", {
        "docs/adr/0001-a.md": record(1), "docs/adr/CURRENT.md": "# x\n",
        "docs/adr/CURRENT.sources.json": DEEP, ".adrguard-impact.json": DEEP,
        ".adrguard-fitness.json": DEEP, ".adrguard-drift-baseline.json": DEEP,
    })
    for command in (["check"], ["impact", "--base", "HEAD"], ["verify"], ["current", "stamp"]):
        done = subprocess.run([sys.executable, "-m", "adrguard", *command, "--repo",
                               str(r.path)], capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1, 2), (command, done.stderr)
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("key", ["include", "exclude"])
def test_a_bad_glob_of_the_current_view_is_a_usage_error(
    repo: GitRepo, key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({".adrguard.toml": f'[current]\n{key} = ["[z-a]"]\n',
                "docs/adr/CURRENT.md": "# In force\n"})
    for command in (["check"], ["current", "stamp"]):
        _one_error(run(capsys, *command), f"current.{key}", "[z-a]")
