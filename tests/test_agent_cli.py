"""``adrguard find``, ``context`` and ``search`` in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentrepo import build

from adrguard.cli import main


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "repo"
    build(path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_find_text_and_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "find", "--repo", str(repo), "--no-cache", "--paths", "src/db/schema.py"
    )
    assert code == 0
    assert out.splitlines()[0].startswith("ADR-0005  Use PostgreSQL for storage  [accepted]")
    assert "why: successor ADR-0002; glob src/db/** (src/db/schema.py) via front-matter" in out
    assert "note: left out for their status: 1 superseded" in out
    code, out, _ = run(
        capsys,
        "find",
        "--repo",
        str(repo),
        "--no-cache",
        "--topic",
        "redis",
        "--status",
        "proposed,accepted",
        "--format",
        "json",
    )
    data = json.loads(out)
    assert data["results"][0]["identifier"] == "ADR-0004"
    assert data["statuses"] == ["accepted", "proposed"]
    assert (data["schemaVersion"], data["method"], data["cached"]) == ("1.0", "keyword", False)
    assert isinstance(data["latency_ms"], int)


def test_find_needs_input_and_checks_it(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "find", "--repo", str(repo))
    assert code == 2 and "give paths" in err
    code, _, err = run(capsys, "find", "--repo", str(repo), "--paths", "/etc/passwd")
    assert code == 2 and "absolute" in err
    code, _, err = run(capsys, "find", "--repo", str(repo), "--topic", "x" * 300)
    assert code == 2 and "limit is 256" in err


def test_context_text_json_and_cursor(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "context", "ADR-0002", "--repo", str(repo), "--no-cache")
    assert code == 0
    assert out.startswith("=== ADR-0005: Use PostgreSQL for storage [accepted]")
    assert "current successor of ADR-0002" in out and "warning: ADR-0002 is superseded" in out
    assert "units shown: 2 of 2 (a unit is a record, or one part of a long record); 0 left out;" \
        in out and "tokens (estimate)" in out
    code, out, _ = run(
        capsys,
        "context",
        "--repo",
        str(repo),
        "--no-cache",
        "--paths",
        "src/api/routes.py",
        "--max-units",
        "1",
        "--format",
        "json",
    )
    first = json.loads(out)
    assert len(first["units"]) == 1 and first["cursor"]
    code, out, _ = run(
        capsys,
        "context",
        "--repo",
        str(repo),
        "--no-cache",
        "--paths",
        "src/api/routes.py",
        "--max-units",
        "1",
        "--cursor",
        first["cursor"],
    )
    assert code == 0 and "=== ADR-0006" in out
    code, _, err = run(capsys, "context", "--repo", str(repo), "--topic", "x", "--cursor", "bad")
    assert code == 2 and "cursor" in err
    code, _, err = run(capsys, "context", "ADR-0003", "--repo", str(repo), "--max-chars", "10")
    assert code == 2 and "max-chars (maxChars) must be at least 1,000" in err


def test_context_headers_and_footer_say_parts_and_units_one_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28.8: a long record's parts are named as parts of that record in the headers, and
    the footer counts units (records or parts) saying so; it read "part 1 of 3" above and
    "1 of 7 units" below."""
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "log")
    sections = "".join(f"\n## Section {i}\n\n" + f"Sentence {i}. " * 180 + "\n" for i in range(6))
    repo.write({"docs/adr/0001-long.md": "# 1. Long\n\n## Status\n\nAccepted\n" + sections})
    repo.commit("a long record")
    code, out, _ = run(capsys, "context", "ADR-0001", "--repo", str(repo.path), "--no-cache",
                       "--max-units", "1", "--max-chars", "2000")
    assert code == 0
    header = out.splitlines()[0]
    parts = int(header.rsplit(" of ", 2)[1])
    assert header.startswith("=== ADR-0001") and f"(part 1 of {parts} of ADR-0001)" in header
    assert f"units shown: 1 of {parts} (a unit is a record, or one part of a long record);" in out
    assert f"{parts - 1} left out" in out


def test_context_overview_lists_the_index(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "context", "--repo", str(repo), "--no-cache")
    assert code == 0
    assert out.splitlines()[:2] == [
        "ADR-0001  [accepted]  Record architecture decisions",
        "    docs/adr/0001-record-architecture-decisions.md",
    ]
    assert "index rows shown: 6 of 6; 0 left out;" in out
    code, out, _ = run(capsys, "context", "--repo", str(repo), "--no-cache", "--format", "json")
    data = json.loads(out)
    assert data["mode"] == "overview" and len(data["index"]) == 6


def test_search_text_and_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", "MySQL storage", "--repo", str(repo), "--no-cache")
    assert code == 0
    assert out.splitlines()[0] == (
        "ADR-0002  Use MySQL for storage  [superseded]  (title, markdown)"
    )
    assert out.rstrip().endswith("2 matching records")
    code, out, _ = run(
        capsys,
        "search",
        "decision",
        "--repo",
        str(repo),
        "--limit",
        "1",
        "--format",
        "json",
        "--no-cache",
    )
    data = json.loads(out)
    assert len(data["results"]) == 1 and data["truncated"] and data["excerptsAreUntrusted"]
    code, _, err = run(capsys, "search", "decision", "--repo", str(repo), "--limit", "101")
    assert code == 2 and "between 1 and 100" in err


def test_mcp_limits_from_flags() -> None:
    import argparse

    from adrguard.cli.mcpcmd import limits
    from adrguard.core.errors import UserError

    given = argparse.Namespace(
        max_records=5, max_response_bytes=None, max_units=3, max_chars=None, timeout=2.5
    )
    chosen = limits(given)
    assert (chosen.max_records, chosen.max_units, chosen.max_chars) == (5, 3, 12_000)
    assert chosen.timeout == 2.5
    default = limits(
        argparse.Namespace(
            max_records=None, max_response_bytes=None, max_units=None, max_chars=None, timeout=None
        )
    )
    assert (default.max_records, default.max_response_bytes, default.timeout) == (
        1_000,
        1024 * 1024,
        60.0,
    )
    with pytest.raises(UserError, match="--timeout must be more than 0"):
        limits(
            argparse.Namespace(
                max_records=None, max_response_bytes=None, max_units=None, max_chars=None, timeout=0
            )
        )
    with pytest.raises(UserError, match="--max-records must be 1 or more"):
        limits(
            argparse.Namespace(
                max_records=0, max_response_bytes=None, max_units=None, max_chars=None
            )
        )


def test_help_lists_the_agent_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("find", "context", "search", "mcp"):
        assert f"    {name}" in out


def test_find_defaults_to_the_configured_governing_statuses(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without --status, find (like impact) takes `impact.statuses` from the config."""
    argv = ["find", "--repo", str(repo), "--no-cache", "--topic", "redis", "--format", "json"]
    plain = json.loads(run(capsys, *argv)[1])
    assert plain["statuses"] == ["accepted"]
    assert "ADR-0004" not in [r["identifier"] for r in plain["results"]]  # proposed
    config = tmp_path / "adrguard.toml"
    config.write_text(
        (repo / ".adrguard.toml").read_text(encoding="utf-8")
        if (repo / ".adrguard.toml").is_file()
        else "",
        encoding="utf-8",
    )
    with config.open("a", encoding="utf-8") as fh:
        fh.write('\n[impact]\nstatuses = ["accepted", "proposed"]\n')
    data = json.loads(run(capsys, *argv, "--config", str(config))[1])
    assert data["statuses"] == ["accepted", "proposed"]
    assert data["results"][0]["identifier"] == "ADR-0004"
    config.write_text('[impact]\nstatuses = ["bogus"]\n', encoding="utf-8")
    code, _, err = run(capsys, *argv, "--config", str(config))
    assert code == 2 and "impact.statuses" in err and "bogus" in err
