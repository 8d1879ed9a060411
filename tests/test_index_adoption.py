"""A generated INDEX that is gone is ADR401 (at HEAD, or at the base of ``check --base``), and
``index --write`` never creates ``INDEX.md`` beside an index the log already keeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

RECORD = "# {n}. T{n}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n"
FILES = {"docs/adr/0001-a.md": RECORD.format(n=1), "docs/adr/0002-b.md": RECORD.format(n=2)}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> GitRepo:
    r = GitRepo(tmp_path / "repo")
    r.write(FILES)
    assert run(capsys, "index", "--write", "--init", "--repo", str(r.path), "--no-cache")[0] == 0
    assert (r.path / "docs/adr/INDEX.md").is_file()
    r.commit("records and their index")
    return r


def test_a_generated_index_deleted_since_head_is_adr401(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "check", "--repo", str(repo.path), "--no-cache")[0] == 0
    (repo.path / "docs/adr/INDEX.md").unlink()
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--no-cache", "--fail-on",
                       "warning")
    assert code == 1 and "ADR401" in out
    assert "the generated index docs/adr/INDEX.md is gone (2 records)" in out
    repo.git("rm", "-q", "--cached", "docs/adr/INDEX.md")  # a staged deletion: the hook and
    for judged in (["--changed"], ["--hook"]):              # --changed compare with HEAD
        assert "ADR401" in run(capsys, "check", "--repo", str(repo.path), "--no-cache", *judged)[1]
    # index --write brings it back under its own name
    code, out, _ = run(capsys, "index", "--write", "--repo", str(repo.path), "--no-cache")
    assert code == 0 and out == "Fixing docs/adr/INDEX.md\n"


def test_a_generated_index_deleted_on_a_branch_is_adr401_with_base(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    base = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "feature")
    repo.remove(["docs/adr/INDEX.md"])
    repo.commit("drop the index")
    plain = run(capsys, "check", "--repo", str(repo.path), "--no-cache")[1]
    assert "ADR401" not in plain  # HEAD no longer has it: nothing says it was generated
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--no-cache", "--base", base)
    assert code == 0 and "ADR401" in out and "docs/adr/INDEX.md is gone" in out  # a warning


@pytest.mark.parametrize("name,text", [
    ("index.md", "# Decisions\n\nSee the records.\n"),
    ("README.md", "# Decisions\n\n- [A](0001-a.md)\n- [B](0002-b.md)\n"),
])
def test_index_write_never_creates_index_md_beside_an_existing_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    r = GitRepo(tmp_path / "repo")
    r.write({**FILES, f"docs/adr/{name}": text})
    r.commit("x")
    code, out, err = run(capsys, "index", "--write", "--repo", str(r.path), "--no-cache")
    # a hand-written index is the log's content, not a usage error: left alone, exit 0
    assert code == 0 and out == "" and not (r.path / "docs/adr/INDEX.md").exists()
    assert f"note: docs/adr/{name} is written by hand" in err and "--init" in err
    assert (r.path / f"docs/adr/{name}").read_text("utf-8") == text
    code, out, _ = run(capsys, "index", "--write", "--init", "--repo", str(r.path), "--no-cache")
    assert code == 0 and out == f"Fixing docs/adr/{name}\n"
    adopted = (r.path / f"docs/adr/{name}").read_text("utf-8")
    assert adopted.startswith(text) and "adrguard:index:start" in adopted
    assert not (r.path / "docs/adr/INDEX.md").exists()


def test_a_readme_that_lists_no_record_is_not_an_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = GitRepo(tmp_path / "repo")
    r.write({**FILES, "docs/adr/README.md": "# Decisions\n\nWe record decisions here.\n"})
    r.commit("x")
    code, out, err = run(capsys, "index", "--write", "--repo", str(r.path), "--no-cache")
    assert code == 0 and out == "" and "`adrguard index --write --init` creates" in err
    code, out, _ = run(capsys, "index", "--write", "--init", "--repo", str(r.path), "--no-cache")
    assert code == 0 and out == "Fixing docs/adr/INDEX.md\n"


def test_index_hook_does_nothing_when_no_adr_file_changed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write({"src/app.py": "x = 1\n"})
    repo.git("add", "-A")
    code, out, err = run(capsys, "index", "--write", "--exit-non-zero-on-fix", "--hook",
                         "--repo", str(repo.path), "src/app.py")
    assert code == 0 and out == "" and "nothing to do" in err
    repo.write({"docs/adr/0003-c.md": RECORD.format(n=3)})
    repo.git("add", "-A")
    code, out, _ = run(capsys, "index", "--write", "--exit-non-zero-on-fix", "--hook",
                       "--repo", str(repo.path), "docs/adr/0003-c.md")
    assert code == 1 and out == "Fixing docs/adr/INDEX.md\n"


def test_a_configured_index_is_created_and_one_log_opting_in_does_not_opt_in_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = GitRepo(tmp_path / "repo")
    r.write({**FILES, "services/api/docs/adr/0001-c.md": RECORD.format(n=1),
             ".adrguard.toml": 'roots = ["docs/adr", "services/api/docs/adr"]\n'
                               '[index]\npaths = { "docs/adr" = "INDEX.md" }\n'})
    r.commit("two logs, one asks for an index")
    code, out, err = run(capsys, "index", "--write", "--repo", str(r.path), "--no-cache")
    assert code == 0 and out == "Fixing docs/adr/INDEX.md\n"
    assert not (r.path / "services/api/docs/adr/INDEX.md").exists()
    assert "services/api/docs/adr has no generated index" in err
    r.commit("the index")
    code, out, _ = run(capsys, "check", "--repo", str(r.path), "--no-cache", "--select", "ADR4",
                       "--fail-on", "note")
    assert code == 0 and "services/api" not in out  # the other log is not asked for one
    assert run(capsys, "index", "--check", "--repo", str(r.path), "--no-cache")[0] == 0
