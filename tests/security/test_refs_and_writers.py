"""Round 2 (issue 27): refs a glob matches are data a remote chose, and `new` writes in the
log's own line ends. Real git repositories, the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo
from hostile import make_repo, record, run


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    r = make_repo(tmp_path / "repo", {"docs/adr/0001-a.md": record(1),
                                      "docs/adr/0002-b.md": record(2, "Another")})
    monkeypatch.chdir(r.path)
    return r


def _refs(repo: GitRepo) -> None:
    """origin/pr/1 adds record 3; pr/2 is an orphan branch; pr/3 a tree; pr/4 a blob."""
    repo.git("checkout", "-q", "-b", "pr1")
    repo.write({"docs/adr/0003-c.md": record(3, "From a pull request")})
    repo.commit("pr 1")
    repo.git("update-ref", "refs/remotes/origin/pr/1", "HEAD")
    repo.git("checkout", "-q", "--orphan", "lonely")
    repo.git("rm", "-rqf", ".")
    repo.write({"other.txt": "unrelated history\n"})
    repo.commit("orphan")
    repo.git("update-ref", "refs/remotes/origin/pr/2", "HEAD")
    repo.git("checkout", "-q", "main")
    repo.git("update-ref", "refs/remotes/origin/pr/3", repo.git("rev-parse", "HEAD:docs"))
    repo.git("update-ref", "refs/remotes/origin/pr/4",
             repo.git("rev-parse", "HEAD:docs/adr/0001-a.md"))


def test_an_orphan_blob_or_tree_ref_a_glob_matches_is_skipped_with_a_note(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main one such ref failed the whole `check --against GLOB` (exit 2, no report)."""
    _refs(repo)
    repo.write({"docs/adr/0003-mine.md": record(3, "Mine")})  # collides with origin/pr/1
    result = run(capsys, "check", "--against", "origin/pr/*", "--format", "json")
    assert result.code == 0, result.err  # ADR509 is a warning
    assert '"ADR509"' in result.out  # the real ref still counts
    for note in ("refs/remotes/origin/pr/2 shares no history with HEAD: skipped",
                 "refs/remotes/origin/pr/3 points to a tree, not a commit: skipped",
                 "refs/remotes/origin/pr/4 points to a blob, not a commit: skipped"):
        assert f"adrguard: note: {note}" in result.err, result.err
    named = run(capsys, "check", "--against", "origin/pr/2")  # named, not matched: an error
    assert named.code == 2 and named.err.startswith("error: ") and "share no history" in named.err


def test_new_writes_crlf_into_a_crlf_log(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `new` wrote LF lines into a log whose records end their lines with CRLF."""
    for path in ("docs/adr/0001-a.md", "docs/adr/0002-b.md"):
        target = repo.path / path
        target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))
    repo.commit("CRLF")
    assert run(capsys, "new", "A third").code == 0
    data = (repo.path / "docs/adr/0003-a-third.md").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") > 5
    assert run(capsys, "supersede", "1", "Replace the first", "--status", "accepted").code == 0
    for path in ("docs/adr/0001-a.md", "docs/adr/0004-replace-the-first.md"):
        data = (repo.path / path).read_bytes()
        assert data.count(b"\r\n") == data.count(b"\n"), path


def test_new_keeps_lf_in_an_lf_log(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "new", "A third").code == 0
    assert b"\r" not in (repo.path / "docs/adr/0003-a-third.md").read_bytes()
