"""``adrguard impact`` and ``check --base`` end to end, in-process, on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.schemas import validator

MONEY = """---
status: accepted
affected-paths: ["src/billing/**"]
---
# 1. Money as integers

## Decision

Amounts are cents.
"""
OLD_DB = "# 2. Postgres\n\n## Status\n\nSuperseded by [3. MySQL](0003-mysql.md)\n"
NEW_DB = "# 3. MySQL\n\n## Status\n\nAccepted\n\nSupersedes [2. Postgres](0002-postgres.md)\n"
SEARCH = "# 4. Search\n\n## Status\n\nProposed\n"
MANIFEST = {
    "schemaVersion": 1,
    "components": {"search": ["src/search/**"]},
    "mappings": [
        {"decision": "ADR-0002", "paths": ["db/**"]},
        {"decision": "ADR-0004", "components": ["search"], "note": "ask the search team"},
    ],
}


@pytest.fixture
def repo(tmp_path: Path) -> tuple[GitRepo, str]:
    r = GitRepo(tmp_path / "repo")
    r.write({
        "docs/adr/0001-money.md": MONEY,
        "docs/adr/0002-postgres.md": OLD_DB,
        "docs/adr/0003-mysql.md": NEW_DB,
        "docs/adr/0004-search.md": SEARCH,
        ".adrguard-impact.json": json.dumps(MANIFEST, indent=2) + "\n",
        "src/billing/invoice.py": "total = 1\n",
        "src/search/index.py": "x = 1\n",
        "db/schema.sql": "create table t (id int);\n",
        "README.md": "hello\n",
    })
    base = r.commit("base")
    r.git("checkout", "-q", "-b", "feature")
    r.write({
        "src/billing/invoice.py": "total = 2\n",
        "src/search/index.py": "x = 2\n",
        "db/schema.sql": "create table t (id bigint);\n",
        "README.md": "hello again\n",
    })
    r.commit("feature")
    return r, base


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output(repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]) -> None:
    r, _ = repo
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", "main")
    assert code == 0
    assert "never means that the change violates them" in out
    assert "ADR-0001 Money as integers [accepted] via front-matter" in out
    assert "ADR-0004" not in out.split("uncertainty:")[0].split("mappings that need")[0]
    assert "ADR-0002 (.adrguard-impact.json:10) is superseded: use ADR-0003 MySQL instead" in out
    assert "changed files: 4 (1 governed, 3 not governed, 0 decision records)" in out
    assert "ADR-0004 (proposed) map changed files" in out


def test_a_commit_id_reads_short_and_counts_read_in_the_plural_or_not(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28.8: ``--base`` as the Action passes it (a full commit id) reads as its short id,
    once; one changed file is "1 changed file", one record "1 decision record"."""
    r, base = repo
    for fmt in ("text", "markdown"):
        code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", base, "--format", fmt)
        assert code == 0 and base not in out and base[:12] in out
        assert f"({base[:12]})" not in out  # not "0123456789ab (0123456789ab)"
    r.write({"src/billing/invoice.py": "total = 3\n", "src/search/index.py": "x = 1\n",
             "db/schema.sql": "create table t (id int);\n", "README.md": "hello\n",
             "docs/adr/0004-search.md": SEARCH + "\nMore.\n"})
    r.commit("one file and one record")
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", base, "--format",
                       "markdown")
    assert "2 changed files" in out and "1 decision record." in out


def test_json_validates_and_status_widens(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, base = repo
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", "main",
                       "--status", "accepted,proposed", "--format", "json")
    assert code == 0
    data = json.loads(out)
    validator("impact.schema.json").validate(data)
    assert data["mergeBase"] == base
    assert [(a["id"], a["via"], a["notes"]) for a in data["affected"]] == [
        ("ADR-0001", ["front-matter"], []),
        ("ADR-0004", ["manifest"], ["ask the search team"]),
    ]
    assert data["mappingIssues"][0]["successor"]["id"] == "ADR-0003"
    assert data["coverage"] == {"changed": 4, "records": 0, "governed": 2, "ungoverned": 2}
    assert out.endswith("}\n")


def test_config_statuses_are_the_default(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    (r.path / ".adrguard.toml").write_text('[impact]\nstatuses = ["proposed"]\n', encoding="utf-8")
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", "main",
                       "--format", "json")
    assert code == 0
    assert [a["id"] for a in json.loads(out)["affected"]] == ["ADR-0004"]
    (r.path / ".adrguard.toml").write_text('[impact]\nstatuses = ["acepted"]\n', encoding="utf-8")
    code, _, err = run(capsys, "impact", "--repo", str(r.path), "--base", "main")
    assert code == 2 and "config impact.statuses: unknown status acepted" in err


def test_markdown_to_a_file(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    r, _ = repo
    target = tmp_path / "impact.md"
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", "main",
                       "--format", f"markdown:{target}")
    assert code == 0 and out == ""
    text = target.read_text(encoding="utf-8")
    assert text.startswith("## Decisions this change touches\n")
    assert "| [ADR-0001 Money as integers](docs/adr/0001-money.md) | accepted | front-matter |" in text
    assert "### What this cannot tell" in text


def test_explicit_head_reads_records_at_that_revision(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    r.git("checkout", "-q", "main")  # the work tree no longer holds the feature
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--base", "main",
                       "--head", "feature", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["head"] == "feature"
    assert [a["files"] for a in data["affected"]] == [["src/billing/invoice.py"]]


def test_broken_manifest_is_exit_2_with_line_and_column(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    r.write({".adrguard-impact.json": '{"schemaVersion": 1,\n  "mappings": [}\n'})
    r.commit("break it")
    code, _, err = run(capsys, "impact", "--repo", str(r.path), "--base", "main")
    assert code == 2
    assert err.startswith("error: .adrguard-impact.json:2:16: not valid JSON")
    assert err.count("\n") == 1


def test_usage_errors(repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]) -> None:
    r, _ = repo
    assert run(capsys, "impact", "--repo", str(r.path))[0] == 2
    code, _, err = run(capsys, "impact", "--repo", str(r.path), "--base", "main",
                       "--status", "acepted")
    assert code == 2 and "--status: unknown status acepted; choose from accepted" in err
    code, _, err = run(capsys, "impact", "--repo", str(r.path), "--base", "origin/main")
    assert code == 2
    assert err == ("error: base ref 'origin/main' not found: fetch it (git fetch origin "
                   "origin/main) or pass --base with an existing ref\n")


def test_pre_push_hook_mode_never_fails(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r, base = repo
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", r.git("rev-parse", "feature"))
    code, out, _ = run(capsys, "impact", "--repo", str(r.path), "--from-env")
    assert code == 0 and "ADR-0001 Money as integers" in out
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "0" * 40)
    code, out, err = run(capsys, "impact", "--repo", str(r.path), "--from-env")
    assert (code, out) == (0, "") and "new branch" in err
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "f" * 40)
    code, out, err = run(capsys, "impact", "--repo", str(r.path), "--from-env")
    assert (code, out) == (0, "") and "not blocking the push" in err


def test_hook_is_declared(repo_dir: Path) -> None:
    hooks = yaml.safe_load((repo_dir / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "adrguard-impact")
    assert hook["stages"] == ["pre-push"]
    assert hook["entry"] == "adrguard impact --from-env"
    assert hook["pass_filenames"] is False and hook["verbose"] is True


def test_check_base_runs_the_change_rules(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    r.write({"docs/adr/0001-money.md": MONEY.replace("cents", "euros")})
    r.remove(["docs/adr/0004-search.md"])
    r.commit("rewrite and delete")
    code, out, _ = run(capsys, "check", "--repo", str(r.path), "--base", "main",
                       "--select", "ADR5", "--format", "json")
    findings = {(f["code"], f["path"]) for f in json.loads(out)["findings"]}
    assert findings == {
        ("ADR501", "docs/adr/0001-money.md"),
        ("ADR503", ".adrguard-impact.json"),
        ("ADR502", ".adrguard-impact.json"),
        ("ADR505", "docs/adr/0001-money.md"),
        ("ADR506", "docs/adr/0004-search.md"),
    }
    assert code == 1


def _head_resolutions(monkeypatch: pytest.MonkeyPatch, head: str) -> list[tuple[str, ...]]:
    """The ``git rev-parse`` calls of ``head`` through the git adapter, as they happen."""
    from adrguard.adapters.git import history

    calls: list[tuple[str, ...]] = []
    real = history.run

    def counting(repo_root: Path, *args: str, **kwargs: Any) -> bytes:
        if args[:1] == ("rev-parse",) and f"{head}^{{commit}}" in args:
            calls.append(args)
        return real(repo_root, *args, **kwargs)

    monkeypatch.setattr(history, "run", counting)
    return calls


@pytest.mark.parametrize("checked_out", ["main", "feature"])
def test_the_head_of_a_change_is_resolved_once(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, checked_out: str,
) -> None:
    """``check --base --head``, ``impact --head`` and the agent's impact answer resolve the
    head ref once and hand its commit down (the head corpus, the change, the citation scan),
    whether the head is the commit checked out (the work tree is read) or another one."""
    from adrguard.api.agent.impact import analyze_impact
    from adrguard.api.agent.workspace import Workspace

    r, base = repo
    r.git("checkout", "-q", checked_out)
    calls = _head_resolutions(monkeypatch, "feature")
    argv = ("--repo", str(r.path), "--base", base, "--head", "feature", "--no-cache")
    assert run(capsys, "check", *argv)[0] == 0
    assert len(calls) == 1
    code, out, _ = run(capsys, "impact", *argv)
    assert code == 0 and "ADR-0001 Money as integers [accepted]" in out
    assert len(calls) == 2
    answer = analyze_impact(Workspace.open(r.path, cache=False), base, ".adrguard-impact.json",
                            "feature")
    assert answer["repository"]["headCommit"] == r.git("rev-parse", "feature")
    assert [a["identifier"] for a in answer["affectedDecisions"]] == ["ADR-0001"]
    assert len(calls) == 3
