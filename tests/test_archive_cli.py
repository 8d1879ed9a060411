"""`adrguard archive plan | apply | restore` end to end on real git repositories: a plan that
keeps every link, applied with git mv, checked clean, restored to the byte; refusals, a changed
source, a re-run, an interrupted apply that resumes, a plan file kept out of the work tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from compactionrepo import build, status
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.config import load_config
from adrguard.core.schemas import validator

SRC = Path(__file__).resolve().parents[1] / "src"
RETIRED = ["ADR-0002", "4"]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path)


def _plan(repo: GitRepo, capsys: pytest.CaptureFixture[str], *ids: str) -> tuple[Path, dict[str, Any]]:
    out = repo.path / ".git" / "adrguard" / "plan.json"
    assert main(["archive", "plan", *(ids or RETIRED), "--repo", str(repo.path),
                 "--out", str(out)]) == 0, capsys.readouterr()
    data = json.loads(out.read_text())
    errors = list(validator("archive-plan.schema.json").iter_errors(data))
    assert not errors, errors[0].message
    capsys.readouterr()
    return out, data


def _check(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    main(["check", "--repo", str(repo.path), "--format", "json", "--no-cache"])
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _codes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["code"], f["path"].replace("archive/", "")) for f in report["findings"])


def _listed(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[Any, ...]]:
    capsys.readouterr()
    assert main(["list", "--repo", str(repo.path), "--format", "json", "--no-cache"]) == 0
    rows = json.loads(capsys.readouterr().out)["decisions"]
    return {r["id"]: (r["number"], r["title"], r["status"], r["archived"]) for r in rows}


def _record_bytes(repo: GitRepo) -> list[bytes]:
    """The bytes of every record file, wherever it lives, sorted: a move deletes none."""
    adr = repo.path / "docs/adr"
    return sorted(p.read_bytes() for p in adr.rglob("0*.md"))


def test_plan_apply_check_restore(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    before_check = _check(repo, capsys)
    before_list = _listed(repo, capsys)
    untouched = [b for b in _record_bytes(repo) if b"Use MySQL" not in b and b"# 4." not in b
                 and b"# 6." not in b]
    head = repo.git("rev-parse", "HEAD")
    plan_path, plan = _plan(repo, capsys)
    assert status(repo) == ""  # the plan went into the git folder: the work tree is untouched
    assert [(m["from"], m["to"]) for m in plan["moves"]] == [
        ("docs/adr/0002-use-mysql.md", "docs/adr/archive/0002-use-mysql.md"),
        ("docs/adr/0004-use-postgresql.md", "docs/adr/archive/0004-use-postgresql.md"),
    ]
    edits = {(rw["source"], e["old"], e["new"], e["direction"], e["kind"])
             for rw in plan["rewrites"] for e in rw["edits"]}
    assert edits == {
        ("docs/adr/0002-use-mysql.md", "0001-record-architecture-decisions.md#decision",
         "../0001-record-architecture-decisions.md#decision", "outbound", "inline"),
        ("docs/adr/0004-use-postgresql.md", "0006-use-postgresql-16.md",
         "../0006-use-postgresql-16.md", "outbound", "inline"),
        ("docs/adr/0006-use-postgresql-16.md", "0004-use-postgresql.md",
         "archive/0004-use-postgresql.md", "inbound", "inline"),
        ("docs/adr/0006-use-postgresql-16.md", "./0002-use-mysql.md",
         "./archive/0002-use-mysql.md", "inbound", "reference"),
        ("docs/guide.md", "adr/0002-use-mysql.md", "adr/archive/0002-use-mysql.md", "inbound",
         "inline"),
    }
    for rw in plan["rewrites"]:  # the byte ranges name exactly the destinations
        data = (repo.path / rw["source"]).read_bytes()
        assert all(data[e["start"]:e["end"]] == e["old"].encode() for e in rw["edits"])
    assert {c["path"]: c["action"] for c in plan["index"]} == {
        "docs/adr/INDEX.md": "update", "docs/adr/archive/INDEX.md": "update"}
    assert plan["conflicts"] == []
    # ADR-0006 is a member of the reviewed view and its links change: the plan says what
    # would make the view stale; the change is a pure path move, so apply updates the
    # manifest mechanically and the view stays fresh
    assert [(c["view"], [r["code"] for r in c["reasons"]]) for c in plan["current"]] == [
        ("docs/adr/CURRENT.md", ["ADR406"])]

    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    capsys.readouterr()
    log = json.loads((repo.path / ".git/adrguard/archive" / f"{plan['planId']}.json").read_text())
    assert not list(validator("archive-log.schema.json").iter_errors(log))
    assert log["planId"] == plan["planId"] and log["state"] == "applied"
    staged = repo.git("diff", "--cached", "--name-status", "-M")
    assert "R100\tdocs/adr/0002-use-mysql.md\tdocs/adr/archive/0002-use-mysql.md" in staged
    after_check = _check(repo, capsys)
    assert after_check["summary"]["errors"] == 0
    # no record deleted or renumbered: the same ids, numbers, titles and statuses; two archived
    after_list = _listed(repo, capsys)
    assert set(after_list) == set(before_list)
    assert {k: v[:3] for k, v in after_list.items()} == {k: v[:3] for k, v in before_list.items()}
    assert sorted(k for k, v in after_list.items() if v[3] and not before_list[k][3]) == [
        "ADR-0002", "ADR-0004"]
    assert len(_record_bytes(repo)) == len(untouched) + 3
    assert all(b in _record_bytes(repo) for b in untouched)  # the others are byte-for-byte kept
    assert _codes(after_check) == _codes(before_check)  # nothing broken; the view fresh
    assert main(["index", "--check", "--repo", str(repo.path)]) == 0
    assert "Earlier: [MySQL][mysql]" in (repo.path / "docs/adr/0006-use-postgresql-16.md").read_text()
    capsys.readouterr()

    # a second apply is a no-op
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    assert "nothing to do" in capsys.readouterr().out

    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert repo.git("diff") == "" and repo.git("diff", "--cached") == ""
    assert status(repo) == ""
    assert repo.git("rev-parse", "HEAD") == head
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_apply_refuses_a_changed_source_naming_it(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    plan_path, _ = _plan(repo, capsys)
    record = repo.path / "docs/adr/0004-use-postgresql.md"
    record.write_text(record.read_text() + "\nA late note.\n")
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 2
    err = capsys.readouterr().err
    assert "docs/adr/0004-use-postgresql.md" in err and "nothing was moved" in err
    assert repo.git("status", "--porcelain") == "M docs/adr/0004-use-postgresql.md"  # stripped


def test_apply_refuses_when_the_successor_is_no_longer_accepted(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    plan_path, _ = _plan(repo, capsys)
    six = repo.path / "docs/adr/0006-use-postgresql-16.md"
    six.write_text(six.read_text().replace("Accepted\n\nSupersedes", "Proposed\n\nSupersedes"))
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 2
    assert "no longer fully retired" in capsys.readouterr().err
    assert repo.git("status", "--porcelain") == "M docs/adr/0006-use-postgresql-16.md"


def test_an_edited_plan_file_is_refused(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    plan_path, plan = _plan(repo, capsys)
    plan["rewrites"][0]["edits"][0]["new"] = "https://example.invalid/x.md"
    plan_path.write_text(json.dumps(plan))
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 2
    assert "edited after it was made" in capsys.readouterr().err
    assert status(repo) == ""


@pytest.mark.parametrize(
    ("ids", "reason"),
    [
        (["ADR-0003"], "not retired (status accepted)"),
        (["ADR-0008"], "successor ADR-0009 is proposed"),
        (["ADR-0006"], "not retired"),
        (["ADR-0000"], "in the archive already"),
    ],
)
def test_plan_refuses_records_not_fully_retired(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], ids: list[str], reason: str
) -> None:
    assert main(["archive", "plan", *ids, "--repo", str(repo.path)]) == 1
    text = capsys.readouterr().out
    assert "cannot be archived" in text and reason in text
    assert status(repo) == ""


def test_a_record_still_depended_on_is_refused(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    three = repo.path / "docs/adr/0003-expose-a-rest-api.md"
    three.write_text(three.read_text().replace(
        "## Context", "Depends on [2. Use MySQL](0002-use-mysql.md)\n\n## Context"))
    repo.commit("lean on a retired record")
    assert main(["archive", "plan", "2", "--repo", str(repo.path)]) == 1
    assert "ADR-0003 still depend on it" in capsys.readouterr().out


def test_plan_out_must_not_land_in_the_tracked_tree(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["archive", "plan", *RETIRED, "--repo", str(repo.path)]
    assert main([*base, "--out", str(repo.path / "docs/plan.json")]) == 2
    assert "git does not ignore" in capsys.readouterr().err
    assert main([*base, "--out", str(repo.path / "plans/p.json")]) == 0  # .gitignore: /plans/
    assert main([*base, "--out", str(tmp_path / "elsewhere.json")]) == 0
    capsys.readouterr()
    assert repo.git("status", "--porcelain") == ""  # the ignored plan does not show


def test_plan_prints_json_by_default_and_writes_nothing(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["archive", "plan", *RETIRED, "--repo", str(repo.path)]) == 0
    first = capsys.readouterr().out
    assert main(["archive", "plan", *RETIRED, "--repo", str(repo.path)]) == 0
    assert capsys.readouterr().out == first  # deterministic: the same plan, the same id
    assert json.loads(first)["planId"]
    assert main(["archive", "plan", *RETIRED, "--repo", str(repo.path), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "move docs/adr/0002-use-mysql.md -> docs/adr/archive/0002-use-mysql.md" in text
    assert status(repo) == ""


def test_a_pure_move_keeps_a_fresh_view_fresh(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """A view that links to a record being archived gets its link rewritten; the plan says
    what would make the view stale (ADR406, ADR408); apply, seeing the view fresh before and
    the change a pure path move, rewrites the manifest's paths and hashes mechanically and
    the view stays fresh (issue 33, point 4). Restore puts the manifest back to the byte."""
    view = repo.path / "docs/adr/CURRENT.md"
    view.write_text(view.read_text() + "\nHistory: [ADR-0002](0002-use-mysql.md).\n")
    assert main(["current", "stamp", "--repo", str(repo.path)]) == 0
    repo.commit("the view names the old record")
    manifest = (repo.path / "docs/adr/CURRENT.sources.json").read_bytes()
    plan_path, plan = _plan(repo, capsys)
    assert [c["view"] for c in plan["current"]] == ["docs/adr/CURRENT.md"]
    assert [r["code"] for r in plan["current"][0]["reasons"]] == ["ADR406", "ADR408"]
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    out = capsys.readouterr().out
    assert "updated docs/adr/CURRENT.sources.json" in out and "stale now" not in out
    assert (repo.path / "docs/adr/CURRENT.sources.json").read_bytes() != manifest
    assert "(archive/0002-use-mysql.md)" in view.read_text()
    assert main(["current", "status", "--repo", str(repo.path), "--no-cache"]) == 0
    assert not [f for f in _check(repo, capsys)["findings"] if f["code"].startswith("ADR40")]
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert (repo.path / "docs/adr/CURRENT.sources.json").read_bytes() == manifest
    assert status(repo) == ""


def test_a_view_stale_before_the_move_is_left_alone(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    view = repo.path / "docs/adr/CURRENT.md"
    view.write_text(view.read_text() + "\nHistory: [ADR-0002](0002-use-mysql.md).\n")
    repo.commit("the view names the old record, not reviewed")  # stale: ADR408
    manifest = (repo.path / "docs/adr/CURRENT.sources.json").read_bytes()
    plan_path, _plan_data = _plan(repo, capsys)
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    assert "stale now" in capsys.readouterr().out
    assert (repo.path / "docs/adr/CURRENT.sources.json").read_bytes() == manifest


class Stop(Exception):
    pass


def _stopping_at(step: str) -> Any:
    def hook(name: str) -> None:
        if name == step:
            raise Stop(name)
    return hook


@pytest.mark.parametrize(
    "step",
    ["move docs/adr/0002-use-mysql.md", "move docs/adr/0004-use-postgresql.md",
     "rewrite docs/adr/0006-use-postgresql-16.md", "index"],
)
def test_an_interrupted_apply_resumes_and_restores(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], step: str
) -> None:
    from adrguard.api.archive.apply import apply, restore

    plan_path, _ = _plan(repo, capsys)
    config = load_config(repo.path)
    with pytest.raises(Stop):
        apply(repo.path, config, plan_path, hook=_stopping_at(step))
    # the same command again finishes the job
    done = apply(repo.path, config, plan_path)
    assert done.done
    assert main(["index", "--check", "--repo", str(repo.path)]) == 0
    assert _check(repo, capsys)["summary"]["errors"] == 0
    restore(repo.path, plan_path)
    assert status(repo) == ""


def test_restore_after_an_interrupted_apply(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    from adrguard.api.archive.apply import apply, restore

    plan_path, _ = _plan(repo, capsys)
    with pytest.raises(Stop):
        apply(repo.path, load_config(repo.path), plan_path,
              hook=_stopping_at("rewrite docs/adr/archive/0002-use-mysql.md"))
    restore(repo.path, plan_path)
    assert status(repo) == ""


def test_a_killed_apply_resumes(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    """The process dies between two steps (no clean-up runs); the next apply finishes."""
    plan_path, _ = _plan(repo, capsys)
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from adrguard.config import load_config\n"
        "from adrguard.api.archive.apply import apply\n"
        "root, plan = Path(sys.argv[1]), Path(sys.argv[2])\n"
        "def hook(step):\n"
        "    if step.startswith('move docs/adr/0004'):\n"
        "        os._exit(9)\n"
        "apply(root, load_config(root), plan, hook=hook)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", script, str(repo.path), str(plan_path)],
                          env=env, capture_output=True, check=False)
    assert done.returncode == 9, done.stderr
    assert "docs/adr/archive/0004-use-postgresql.md" in repo.git("status", "--porcelain")
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    assert _check(repo, capsys)["summary"]["errors"] == 0
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert status(repo) == ""


def test_restore_refuses_a_file_changed_after_the_apply(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    plan_path, _ = _plan(repo, capsys)
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    guide = repo.path / "docs/guide.md"
    guide.write_text(guide.read_text() + "Edited after the move.\n")
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 2
    assert "docs/guide.md" in capsys.readouterr().err


def test_a_mirror_folder_is_not_reported_as_duplicates(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _check(repo, capsys)
    mirror = [f for f in report["findings"] if f["path"].startswith("docs/adr/zh/")]
    assert [(f["code"], f["severity"]) for f in mirror] == [("ADR106", "note")]
    assert not any(f["code"] == "ADR106" and f["severity"] == "error" for f in report["findings"])
    assert main(["list", "--repo", str(repo.path), "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)["decisions"]
    assert listed and not any("/zh/" in r["path"] for r in listed)


def test_one_folder_per_record_moves_with_its_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "folders")
    body = "## Context\n\nx\n\n## Decision\n\nx\n\n## Consequences\n\nx\n"
    repo.write({
        "docs/adr/0001-old-way/README.md":
            f"# 1. Old way\n\n## Status\n\nSuperseded by [2](../0002-new-way/README.md)\n\n{body}"
            "![diagram](diagram.png)\n",
        "docs/adr/0001-old-way/diagram.png": b"\x89PNG fake",
        "docs/adr/0002-new-way/README.md":
            f"# 2. New way\n\n## Status\n\nAccepted\n\nSupersedes [1](../0001-old-way/README.md)\n\n{body}",
    })
    repo.commit("folders")
    plan_path = tmp_path / "plan.json"
    assert main(["archive", "plan", "1", "--repo", str(repo.path), "--out", str(plan_path)]) == 0
    plan = json.loads(plan_path.read_text())
    assert sorted(m["to"] for m in plan["moves"]) == [
        "docs/adr/archive/0001-old-way/README.md", "docs/adr/archive/0001-old-way/diagram.png"]
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    capsys.readouterr()
    assert _check(repo, capsys)["summary"]["errors"] == 0
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert status(repo) == ""


def test_the_worked_example_in_the_docs_is_this_repository(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/compaction.md shows the plan of this repository: its move and link lines are the
    command's own."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "compaction.md").read_text()
    shown = [line for line in doc.splitlines() if line.startswith(("  move ", "  link "))]
    assert main(["archive", "plan", *RETIRED, "--repo", str(repo.path), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert shown == [line for line in text.splitlines() if line.startswith(("  move ", "  link "))]


def test_an_archived_record_of_a_root_found_by_content_stays_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder that is an ADR root because its files read as records (not because of its
    name) keeps an archived record as a record: same id, no new finding after the move."""
    repo = GitRepo(tmp_path / "by-content")
    body = "## Context\n\nWhy.\n\n## Decision\n\nThis.\n\n## Consequences\n\nThat.\n"
    files = {
        f"docs/reference/design/adr-{n:03d}-topic-{n}.md":
            f"# ADR {n:03d}: Topic {n}\n\n## Status\n\nAccepted\n\n{body}" for n in range(1, 6)}
    files["docs/reference/design/adr-002-topic-2.md"] = (
        "# ADR 002: Topic 2\n\n## Status\n\nSuperseded by [ADR 005](adr-005-topic-5.md)\n\n" + body)
    files["docs/reference/design/adr-005-topic-5.md"] = (
        "# ADR 005: Topic 5\n\n## Status\n\nAccepted\n\nSupersedes [ADR 002](adr-002-topic-2.md)."
        " ADR-002 said otherwise.\n\n" + body)
    repo.write({**files, "src/app.py": "x = 1\n"})
    repo.commit("a log found by content")
    before_list = _listed(repo, capsys)
    assert before_list["ADR-0002"][3] is False
    before = _check(repo, capsys)
    plan_path = tmp_path / "plan.json"
    assert main(["archive", "plan", "ADR-0002", "--repo", str(repo.path),
                 "--out", str(plan_path)]) == 0, capsys.readouterr()
    plan = json.loads(plan_path.read_text())
    assert [m["to"] for m in plan["moves"]] == ["docs/reference/design/archive/adr-002-topic-2.md"]
    assert not [c for c in plan["conflicts"] if c["blocking"]]
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    after_list = _listed(repo, capsys)
    assert after_list["ADR-0002"][3] is True
    assert {k: v[:3] for k, v in after_list.items()} == {k: v[:3] for k, v in before_list.items()}
    assert _codes(_check(repo, capsys)) == _codes(before)
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert status(repo) == ""


def test_an_archive_folder_that_is_a_symlink_out_of_the_repository_is_refused(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """git mv follows a symlinked folder: the plan names it as a blocking conflict, and the
    move itself refuses it, so nothing leaves the repository."""
    outside = tmp_path / "outside"
    outside.mkdir()
    archive = repo.path / "docs/adr/archive"
    repo.git("rm", "-rq", "docs/adr/archive")
    archive.symlink_to(outside, target_is_directory=True)
    repo.commit("the archive folder points out of the repository")
    plan_path = tmp_path / "plan.json"
    assert main(["archive", "plan", "2", "--repo", str(repo.path), "--out", str(plan_path)]) == 1
    plan = json.loads(plan_path.read_text())
    assert [(c["kind"], c["path"]) for c in plan["conflicts"] if c["blocking"]] == [
        ("unsafe-target", "docs/adr/archive/0002-use-mysql.md")]
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 2
    assert "blocking conflict" in capsys.readouterr().err
    from adrguard.adapters.git import move
    from adrguard.core.errors import UserError

    with pytest.raises(UserError, match="resolves outside the repository"):
        move(repo.path, "docs/adr/0002-use-mysql.md", "docs/adr/archive/0002-use-mysql.md")
    assert list(outside.iterdir()) == []
    assert status(repo) == ""


MOVED = "docs/adr/0002-use-[old]-queue.md"
SHA = "0123456789abcdef0123456789abcdef01234567"
SHOP = "https://github.com/acme/shop"


def _nygard(n: int, title: str, status: str, body: str = "C.", front: str = "") -> str:
    fm = f"---\n{front}---\n" if front else ""
    return (f"{fm}# {n}. {title}\n\nDate: 2024-03-0{n}\n\n## Status\n\n{status}\n\n## Context\n\n"
            f"{body}\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n")


def test_plan_conflicts_are_only_links_the_move_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28.5: a link into the moved record written with backslash escapes and a markdown
    link inside the moved record's front matter are rewritten; a permalink to an old commit, a
    URL at another branch and a link that was broken before the move are not conflicts (the
    move does not change them), whatever remote is configured; a URL at the default branch
    is a risk (a URL is never rewritten)."""
    repo = GitRepo(tmp_path / "shop")
    repo.write({
        "docs/adr/0001-record-decisions.md": _nygard(1, "Record decisions", "Accepted"),
        MOVED: _nygard(2, "Use the old queue", "Superseded",
                       "See ![the flow](./diagrams/flow.png), never drawn.",
                       "status: superseded by [ADR-0003](0003-use-kafka.md)\n"),
        "docs/adr/0003-use-kafka.md": _nygard(
            3, "Use Kafka", "Accepted\n\nSupersedes [2. Use the old queue](0002-use-\\[old\\]-queue.md)"),
        "docs/adr/0004-keep-history.md": _nygard(4, "Keep history", "Accepted", "\n".join([
            f"- [as decided]({SHOP}/blob/{SHA}/{MOVED.replace('[', '%5B').replace(']', '%5D')})",
            f"- [on a branch]({SHOP}/blob/feature/x/{MOVED.replace('[', '%5B').replace(']', '%5D')})",
            f"- [today]({SHOP}/blob/main/{MOVED.replace('[', '%5B').replace(']', '%5D')})",
        ])),
    })
    repo.commit("a log")
    repo.git("remote", "add", "origin", "git@github.com:acme/shop.git")
    head = repo.git("rev-parse", "HEAD")
    before = _check(repo, capsys)
    plans: dict[bool, dict[str, Any]] = {}
    for extra in ([], ["--repository-url", f"{SHOP}/tree/main"]):
        out = tmp_path / f"plan{len(plans)}.json"
        capsys.readouterr()
        code = main(["archive", "plan", "ADR-0002", "--repo", str(repo.path), "--out", str(out),
                     *extra])
        assert code == 0, capsys.readouterr()
        plans[bool(extra)] = json.loads(out.read_text())
    for plan in plans.values():
        assert plan["conflicts"] == []
        edits = {(e["old"], e["new"], e["kind"]) for rw in plan["rewrites"] for e in rw["edits"]}
        assert edits == {
            ("0002-use-\\[old\\]-queue.md", "archive/0002-use-\\[old\\]-queue.md", "inline"),
            ("0003-use-kafka.md", "../0003-use-kafka.md", "front-matter"),
        }
        assert ("broken-link", MOVED) in {(r["kind"], r["path"]) for r in plan["risks"]}
    # the URL at the default branch is named only when the repository is known
    assert "repository-url" not in {r["kind"] for r in plans[False]["risks"]}
    (url_risk,) = [r for r in plans[True]["risks"] if r["kind"] == "repository-url"]
    assert url_risk["path"] == "docs/adr/0004-keep-history.md"

    plan_path = tmp_path / "plan0.json"
    assert main(["archive", "apply", str(plan_path), "--repo", str(repo.path)]) == 0
    after = _check(repo, capsys)
    assert _codes(after) == _codes(before)  # the move broke nothing
    assert main(["archive", "restore", str(plan_path), "--repo", str(repo.path)]) == 0
    assert status(repo) == "" and repo.git("rev-parse", "HEAD") == head


def test_apply_stages_the_archive_index_it_creates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28.8: the first archived record creates ``archive/INDEX.md``; apply stages it with
    the moves (it used to be left untracked), and restore unstages and removes it."""
    repo = GitRepo(tmp_path / "log")
    repo.write({
        "docs/adr/0001-record-decisions.md": _nygard(1, "Record decisions", "Accepted"),
        "docs/adr/0002-use-a-queue.md": _nygard(
            2, "Use a queue", "Superseded by [3. Use Kafka](0003-use-kafka.md)"),
        "docs/adr/0003-use-kafka.md": _nygard(
            3, "Use Kafka", "Accepted\n\nSupersedes [2. Use a queue](0002-use-a-queue.md)"),
    })
    assert main(["index", "--write", "--init", "--repo", str(repo.path), "--no-cache"]) == 0
    head = repo.commit("a log with a generated index")
    out = tmp_path / "plan.json"
    assert main(["archive", "plan", "2", "--repo", str(repo.path), "--out", str(out)]) == 0
    plan = json.loads(out.read_text())
    assert {c["path"]: c["action"] for c in plan["index"]} == {
        "docs/adr/INDEX.md": "update", "docs/adr/archive/INDEX.md": "create"}
    assert main(["archive", "apply", str(out), "--repo", str(repo.path)]) == 0
    lines = repo.git("status", "--porcelain", "--untracked-files=all").splitlines()
    assert "A  docs/adr/archive/INDEX.md" in lines
    assert not [line for line in lines if line.startswith("??")]
    assert main(["archive", "restore", str(out), "--repo", str(repo.path)]) == 0
    assert status(repo) == "" and repo.git("rev-parse", "HEAD") == head
