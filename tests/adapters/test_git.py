"""The git adapter's change-set functions on real temporary repositories (fixed names, dates)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import BASE_ENV, GitRepo

from adrguard.adapters import git
from adrguard.adapters.git.worktree import _from_top
from adrguard.api.pipeline.sources import build_changes, corpus_at
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.model import FileChange

RECORD = "# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n"


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"docs/adr/0001-use-postgres.md": RECORD, "src/app.py": "x = 1\n"})
    repo.commit("base")
    return repo


def test_base_equal_to_head_is_an_empty_change(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    changes = build_changes(repo.path, Config(), "HEAD")
    assert changes.changes == ()
    assert changes.merge_base == changes.base_commit == changes.head_commit
    assert any("same commit" in n for n in changes.notes)
    assert changes.base_corpus is not None
    assert [d.path for d in changes.base_corpus] == ["docs/adr/0001-use-postgres.md"]


def test_diverged_history_uses_the_merge_base_and_says_so(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    fork = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write({"src/app.py": "x = 2\n"})
    repo.commit("feature work")
    repo.git("checkout", "-q", "main")
    repo.write({"src/other.py": "y = 1\n"})
    repo.commit("main moves on")
    changes = build_changes(repo.path, Config(), "main", "feature")
    assert changes.merge_base == fork
    assert changes.base_commit != fork
    assert [(c.status, c.path) for c in changes.changes] == [("M", "src/app.py")]
    assert any("merge base" in n and fork[:12] in n for n in changes.notes)


def test_no_common_history_is_an_error(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.git("checkout", "-q", "--orphan", "other")
    repo.git("rm", "-rq", "--cached", ".")
    repo.write({"unrelated.txt": "z\n"})
    repo.commit("root of another history")
    with pytest.raises(UserError, match="share no history"):
        build_changes(repo.path, Config(), "main", "other")


def test_missing_base_ref_names_the_fetch(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with pytest.raises(UserError) as err:
        build_changes(repo.path, Config(), "origin/main")
    assert str(err.value) == (
        "base ref 'origin/main' not found: fetch it (git fetch origin origin/main) "
        "or pass --base with an existing ref"
    )


def test_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not inside a git repository"):
        git.resolve_commit(tmp_path, "HEAD")


def test_awkward_file_names_binary_and_submodule_changes(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    sub_a = "a" * 40
    repo.write({"data/blob.bin": b"\x00\x01\x02" * 50})
    repo.git("add", "data/blob.bin")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{sub_a},vendor/lib")
    repo.git("commit", "-q", "-m", "gitlink and binary")
    base = repo.git("rev-parse", "HEAD")
    repo.write({
        "docs/with space.md": "a\n",
        "src/new\nline.py": "b\n",
        "data/blob.bin": b"\x00\x09\x02" * 50,
    })
    repo.write_bytes_path(b"caf\xe9.txt", b"latin-1 name\n")
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'b' * 40},vendor/lib")
    repo.git("commit", "-q", "-m", "awkward")
    changes, notes = git.diff_changes(repo.path, base, repo.git("rev-parse", "HEAD"))
    got = {(c.status, c.path) for c in changes}
    assert got == {
        ("A", "caf\\xe9.txt"),
        ("M", "data/blob.bin"),
        ("A", "docs/with space.md"),
        ("A", "src/new\nline.py"),
        ("M", "vendor/lib"),
    }
    assert "submodule vendor/lib changed: its own files are not inspected" in notes
    assert any("caf\\xe9.txt is not valid UTF-8" in n for n in notes)


def test_renames_keep_the_old_path(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    base = repo.git("rev-parse", "HEAD")
    (repo.path / "docs/adr/archive").mkdir()
    repo.git("mv", "docs/adr/0001-use-postgres.md", "docs/adr/archive/0001-use-postgres.md")
    head = repo.commit("archive")
    changes, _ = git.diff_changes(repo.path, base, head)
    assert [(c.status, c.path, c.old_path) for c in changes] == [
        ("R", "docs/adr/archive/0001-use-postgres.md", "docs/adr/0001-use-postgres.md")
    ]


def test_renamed_then_deleted_record_is_a_deletion(tmp_path: Path) -> None:
    from adrguard import api

    repo = _repo(tmp_path)
    repo.write({"docs/adr/0002-keep.md": RECORD.replace("1. Use Postgres", "2. Keep")})
    base = repo.commit("second record")
    repo.git("mv", "docs/adr/0001-use-postgres.md", "docs/adr/0001-postgres.md")
    repo.commit("rename")
    repo.git("rm", "-q", "docs/adr/0001-postgres.md")
    repo.commit("delete")
    changes = build_changes(repo.path, Config(), base)
    assert [(c.status, c.path) for c in changes.changes] == [
        ("D", "docs/adr/0001-use-postgres.md")
    ]
    report = api.check(repo.path, base=base, select=["ADR506"])
    assert [(f.code, f.location.path) for f in report.findings] == [
        ("ADR506", "docs/adr/0001-use-postgres.md")
    ]


def test_corpus_at_reads_objects_not_the_work_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    base = repo.git("rev-parse", "HEAD")
    repo.write({"docs/adr/0001-use-postgres.md": RECORD.replace("Accepted", "Superseded")})
    corpus = corpus_at(repo.path, Config(), base)
    assert corpus.decisions[0].status is not None
    assert corpus.decisions[0].status.value == "accepted"
    assert "src/app.py" in corpus.repo_files


def test_corpus_at_reuses_unchanged_records_only(tmp_path: Path) -> None:
    from adrguard import api

    repo = _repo(tmp_path)
    repo.write({"docs/adr/0002-keep.md": RECORD.replace("1. Use Postgres", "2. Keep")})
    base = repo.commit("second")
    repo.write({"docs/adr/0001-use-postgres.md": RECORD.replace("Postgres.", "MySQL.")})
    _config, head = api.load(repo.path)
    at_base = corpus_at(repo.path, Config(), base, reuse=head)
    assert at_base.by_path["docs/adr/0002-keep.md"] is head.by_path["docs/adr/0002-keep.md"]
    changed = at_base.by_path["docs/adr/0001-use-postgres.md"]
    assert changed is not head.by_path["docs/adr/0001-use-postgres.md"]
    assert "Postgres." in changed.text


def test_worktree_and_detached_head(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    base = repo.git("rev-parse", "HEAD")
    repo.write({"src/app.py": "x = 3\n"})
    head = repo.commit("more")
    other = tmp_path / "wt"
    repo.git("worktree", "add", "-q", "--detach", str(other), head)
    changes = build_changes(other, Config(), base)
    assert changes.head_commit == head
    assert [c.path for c in changes.changes] == ["src/app.py"]


# --- shallow clones -----------------------------------------------------------------------


def _upstream(tmp_path: Path) -> GitRepo:
    """main: 3 commits; feature forks after the first and gets 3; main then gets 3 more."""
    up = GitRepo(tmp_path / "upstream")
    up.write({"docs/adr/0001-use-postgres.md": RECORD, "src/app.py": "x = 0\n"})
    up.commit("c0")
    up.git("checkout", "-q", "-b", "feature")
    for i in range(3):
        up.write({"src/app.py": f"x = {i + 1}\n"})
        up.commit(f"feature {i}")
    up.git("checkout", "-q", "main")
    for i in range(3):
        up.write({f"src/main{i}.py": "y\n"})
        up.commit(f"main {i}")
    return up


def _clone(tmp_path: Path, up: GitRepo, fetch_main: bool) -> Path:
    clone = tmp_path / "clone"
    env = {**BASE_ENV, "PATH": __import__("os").environ["PATH"]}
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{up.path}",
         str(clone)], check=True, env=env, capture_output=True,
    )
    if fetch_main:
        subprocess.run(
            ["git", "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main"],
            cwd=clone, check=True, env=env, capture_output=True,
        )
    return clone


def test_shallow_clone_without_merge_base_says_how_to_fix(tmp_path: Path) -> None:
    clone = _clone(tmp_path, _upstream(tmp_path), fetch_main=True)
    assert git.is_shallow(clone)
    with pytest.raises(UserError) as err:
        build_changes(clone, Config(), "origin/main")
    message = str(err.value)
    assert "shallow clone" in message
    assert "fetch-depth: 0" in message and "git fetch --deepen" in message
    assert "--deepen" in message and "\n" not in message


def test_deepen_fetches_until_the_merge_base_appears(tmp_path: Path) -> None:
    up = _upstream(tmp_path)
    fork = up.git("rev-list", "--max-parents=0", "HEAD")
    clone = _clone(tmp_path, up, fetch_main=True)
    changes = build_changes(clone, Config(), "origin/main", deepen=True)
    assert changes.merge_base == fork
    assert [(c.status, c.path) for c in changes.changes] == [("M", "src/app.py")]
    assert any("--deepen fetched more history (1 fetch)" in n for n in changes.notes)


def test_deepen_fetches_a_missing_base_branch(tmp_path: Path) -> None:
    up = _upstream(tmp_path)
    clone = _clone(tmp_path, up, fetch_main=False)
    with pytest.raises(UserError, match="git fetch origin main"):
        build_changes(clone, Config(), "origin/main")
    changes = build_changes(clone, Config(), "origin/main", deepen=True)
    assert changes.merge_base == up.git("rev-list", "--max-parents=0", "HEAD")


def test_deepen_is_bounded(tmp_path: Path) -> None:
    up = _upstream(tmp_path)
    clone = _clone(tmp_path, up, fetch_main=True)
    subprocess.run(["git", "checkout", "-q", "--orphan", "lonely"], cwd=clone, check=True)
    env = {**BASE_ENV, "PATH": __import__("os").environ["PATH"]}
    subprocess.run(["git", "commit", "-q", "-m", "lonely"], cwd=clone, check=True, env=env)
    with pytest.raises(UserError, match=r"share no history even after fetching all of it"):
        git.deepen_until_merge_base(clone, "origin/main", "HEAD", steps=(1, 2))


def test_one_ls_tree_parser_for_files_paths_and_objects(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    odd = "docs/adr/0002 tab\there.md"
    repo.write({"docs/adr/0001-a.md": RECORD, odd: RECORD, "src/line\nbreak.py": "y = 1\n"})
    repo.commit("files")
    head = repo.git("rev-parse", "HEAD")
    files = git.files_at(repo.path, head)
    assert sorted(files) == ["docs/adr/0001-a.md", odd, "src/line\nbreak.py"]
    assert git.paths_at(repo.path, head, ["docs/adr"]) == {"docs/adr/0001-a.md", odd}
    assert git.object_ids(repo.path, head, [odd, "absent.md"]) == {odd: files[odd]}
    assert git.blobs_at(repo.path, head, [odd]) == {odd: RECORD.encode()}
    kinds = {e.path: e.kind for e in git.ls_tree(repo.path, head, recursive=False)}
    assert kinds == {"docs": "tree", "src": "tree"}


def test_objects_are_read_in_one_batch_byte_for_byte(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    texts = {"a.md": "no newline at the end", "b.md": "\n\nblank lines\n\n", "c.md": "",
             "d.md": "ends\r\n", "e.md": RECORD}
    repo.write(texts)
    repo.commit("files")
    head = repo.git("rev-parse", "HEAD")
    ids = git.object_ids(repo.path, head, texts)
    got = git.read_blobs(repo.path, [ids["e.md"], *ids.values(), ids["a.md"]])
    assert got == {ids[p]: t.encode() for p, t in texts.items()}
    assert git.read_blobs(repo.path, []) == {}
    missing = "0" * 40
    with pytest.raises(git.GitError, match=r"cannot read objects .*0000000000 missing"):
        git.read_blobs(repo.path, [ids["a.md"], missing])
    with pytest.raises(git.GitError, match=r"is not an object id"):
        git.read_blobs(repo.path, ["HEAD:a.md"])


def test_a_git_failure_is_one_error_with_the_fix(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    for call in (lambda: git.files_at(repo.path, "no-such-rev"),
                 lambda: git.blobs_at(repo.path, "no-such-rev", ["docs/adr/0001-use-postgres.md"]),
                 lambda: git.paths_at(repo.path, "no-such-rev", ["."])):
        with pytest.raises(git.GitError, match=r"git ls-tree no-such-rev failed: fatal") as err:
            call()
        assert isinstance(err.value, UserError) and err.value.status == 128
    with pytest.raises(git.GitError, match="is not inside a git repository"):
        git.require_repo(tmp_path)
    assert git.find_repo_root(tmp_path) is None
    assert git.tracked_files(tmp_path) is None
    assert git.head_commit(repo.path) == repo.git("rev-parse", "HEAD")


def test_check_of_a_work_tree_lists_files_without_gitpython(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.write({"docs/adr/0002-untracked.md": RECORD.replace("1. Use", "2. Use")})
    script = (
        "import sys, json\n"
        "from adrguard.cli import main\n"
        "code = main(['check', '--format', 'json'])\n"
        "print('LOADED=' + json.dumps(['git' in sys.modules, code]))\n"
    )
    env = {**BASE_ENV, "PATH": os.environ["PATH"], "HOME": str(tmp_path),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], cwd=repo.path, env=env,
                          capture_output=True, text=True, check=True)
    report, _, loaded = done.stdout.rpartition("LOADED=")
    assert json.loads(loaded) == [False, 0]
    assert json.loads(report)["summary"]["decisions"] == 2  # the untracked record too


def _awkward_local_change(tmp_path: Path, latin1: bool = False) -> GitRepo:
    """A commit of many kinds of file, then every kind of change, partly staged (with
    ``latin1``: a file whose name is not UTF-8 renamed too)."""
    repo = _repo(tmp_path)
    repo.write({"docs/adr/0002-b.md": RECORD, "docs/adr/0003-c.md": RECORD + "C.\n",
                "docs/adr/0004-d.md": RECORD + "D.\n", "src/new\nline.py": "n\n"})
    os.symlink("0002-b.md", repo.path / "docs/adr/link.md")
    if latin1:
        repo.write_bytes_path(b"caf\xe9.md", b"latin-1 name\n")
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'a' * 40},vendor/lib")
    repo.git("commit", "-q", "-m", "many kinds")  # not commit(): its `add -A` drops the gitlink
    repo.write({"docs/adr/0001-use-postgres.md": RECORD + "Edited.\n", "src/app.py": "x = 2\n",
                "docs/adr/0005-e.md": RECORD + "E.\n", "src/new\nline.py": "m\n"})
    repo.git("mv", "docs/adr/0003-c.md", "docs/adr/0006-c.md")
    repo.git("rm", "-q", "docs/adr/0004-d.md")
    (repo.path / "docs/adr/link.md").unlink()
    os.symlink("0001-use-postgres.md", repo.path / "docs/adr/link.md")
    if latin1:
        repo.git("mv", os.fsdecode(b"caf\xe9.md"), "cafe.md")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'b' * 40},vendor/lib")
    repo.git("add", "docs/adr/0001-use-postgres.md", "docs/adr/link.md", "src/new\nline.py")
    repo.write({"docs/adr/0002-b.md": RECORD + "Not staged.\n", "notes/untracked.md": "u\n"})
    return repo


def _worktree_changes(base: Path) -> tuple[str, list[FileChange]]:
    """Everything not committed yet, from one call each: HEAD, the diff against it, and the
    untracked files git does not ignore (made relative to the top of the work tree)."""
    head = git.head_commit(base) or git.EMPTY_TREE
    changes = git.diff_changes(base, head)[0]
    known = {c.path for c in changes}
    new = [p for p in _from_top(base, git.untracked_files(base)) if p not in known]
    return head, changes + [FileChange("A", p) for p in new]


@pytest.mark.parametrize("latin1", [False, True])
def test_a_local_diff_is_what_rev_parse_twice_and_the_diff_gave(
    tmp_path: Path, latin1: bool
) -> None:
    """The hook's one ``git rev-parse`` for the top and HEAD gives the same change as the
    two calls and the diff did, staged or not, from the top or a folder."""
    repo = _awkward_local_change(tmp_path, latin1)
    for base in (repo.path, repo.path / "docs"):
        staged = git.local_diff(base, True)
        assert (staged.head, staged.changes) == git.staged_changes(base)
        everything = git.local_diff(base, False)
        assert (everything.head, everything.changes) == _worktree_changes(base)
        assert staged.head == repo.git("rev-parse", "HEAD")
        assert {c.status for c in everything.changes} == {"A", "D", "M", "R"}


def test_the_diffs_object_ids_are_what_ls_tree_finds(tmp_path: Path) -> None:
    """The object ids a diff names for the files before a change are those ``git ls-tree``
    lists (None for a submodule), and reading the files by them gives the same corpus as
    listing them first."""
    from adrguard.adapters.source import Amended, WorkTree

    repo = _awkward_local_change(tmp_path)
    found = WorkTree(repo.path).discover(Config())
    for staged in (True, False):
        local = git.local_diff(repo.path, staged)
        then = frozenset(c.old_path or c.path for c in local.changes if c.status != "A")
        now = frozenset(c.path for c in local.changes)
        assert local.before is not None and set(local.before) == then
        listed = git.object_ids(repo.path, local.head, then)
        assert local.before == {**listed, "vendor/lib": None}
        assert "docs/adr/link.md" in listed and "docs/adr/0003-c.md" in listed
        by_ids = Amended(repo.path, local.head, found, now, then, local.before)
        assert by_ids._then() == git.blobs_at(repo.path, local.head, then)
        assert by_ids.discover(Config()) == Amended(
            repo.path, local.head, found, now, then).discover(Config())


def test_a_name_git_knows_by_other_bytes_gives_no_ids(tmp_path: Path) -> None:
    """A name that is not UTF-8 (git knows it by other bytes): the files before the change
    are listed by ``git ls-tree`` as before; an unmerged path has the id HEAD holds."""
    repo = _awkward_local_change(tmp_path, latin1=True)
    assert git.local_diff(repo.path, True).before is None
    conflict = _repo(tmp_path / "conflict")
    conflict.git("checkout", "-q", "-b", "other")
    conflict.write({"src/app.py": "x = 2\n"})
    conflict.commit("other")
    conflict.git("checkout", "-q", "main")
    conflict.write({"src/app.py": "x = 3\n"})
    conflict.commit("main")
    merged = subprocess.run(["git", "merge", "-q", "other"], cwd=conflict.path,
                            env=conflict.env(), capture_output=True)
    assert merged.returncode != 0
    local = git.local_diff(conflict.path, True)
    assert ("U", "src/app.py") in {(c.status, c.path) for c in local.changes}
    assert local.before == git.object_ids(conflict.path, "HEAD", ["src/app.py"])


def test_a_local_diff_before_the_first_commit_and_outside_a_work_tree(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "new")
    repo.write({"docs/adr/0001-use-postgres.md": RECORD})
    repo.git("add", "-A")
    local = git.local_diff(repo.path, True)
    assert (local.head, local.changes) == git.staged_changes(repo.path)
    assert local.head == git.EMPTY_TREE and local.before == {}
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(UserError) as raised:
        git.local_diff(outside, True)
    with pytest.raises(UserError) as required:
        git.require_work_tree(outside)
    assert str(raised.value) == str(required.value)
