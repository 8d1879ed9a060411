"""Round 2, the write surfaces (issue 27): every path adrguard writes or reads because a
repository's configuration named it goes through one guard (``adrguard.pathguard``): inside the
work tree, never in a git folder, never through a symlinked folder; a report path on the
command line is the user's, but a symlink the repository holds is not; a cache folder a
repository names stays in the user's cache folder. Real git repositories, the real CLI."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from gitrepo import BASE_ENV, GitRepo
from hostile import Result, make_repo, record, run

RECORDS = {"docs/adr/0001-a.md": record(1), "docs/adr/0002-b.md": record(2, "Another")}
FITNESS = ('{"schemaVersion": 1, "rules": [{"id": "r", "decision": "ADR-0001", '
           '"kind": "required-paths", "paths": ["nothing/*"]}]}')


def _one_error(result: Result, *needles: str) -> None:
    assert result.code == 2, (result.code, result.out, result.err)
    assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err
    for needle in needles:
        assert needle in result.err, result.err


def _git_files(repo: Path) -> set[str]:
    """Every file below the repository's git folder (what git would run or trust)."""
    top = repo / ".git"
    return {str(p.relative_to(top)) for p in top.rglob("*") if p.is_file()}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    r = make_repo(tmp_path / "repo", {**RECORDS, ".adrguard-fitness.json": FITNESS})
    monkeypatch.chdir(r.path)
    return r


# --- High: configuration paths into .git ------------------------------------------------------


@pytest.mark.parametrize(("config", "command", "key"), [
    ('roots = ["docs/adr"]\n[index]\npath = "../../.git/hooks/post-checkout"\n',
     ["index", "--write"], "'../../.git/hooks/post-checkout'"),  # refused on main too
    ('roots = ["."]\n[index]\npath = ".git/hooks/post-checkout"\n',
     ["index", "--write"], "index.path"),
    ('roots = ["."]\n[index]\npath = ".git/hooks/post-checkout"\n',  # the adrguard-fix hook
     ["index", "--write", "--exit-non-zero-on-fix", "--hook", ".adrguard.toml"], "index.path"),
    ('roots = ["."]\n[index]\npaths = {"." = ".GIT/hooks/pre-push"}\n',
     ["index", "--write"], "index.paths"),
    ('roots = ["."]\n[current]\nview = "docs/adr/CURRENT.md"\nmanifest = ".git/info/attributes"\n',
     ["current", "stamp"], "current.manifest"),
    ('[verify]\nbaseline = ".git/hooks/pre-commit"\n', ["verify", "--write-baseline"],
     "verify.baseline"),
    ('[verify]\nrules = ".git/config"\n', ["verify"], "verify.rules"),
    ('template = ".git/config"\n', ["new", "Leak the token"], "template"),
])
def test_a_config_path_into_git_is_refused_before_anything_is_written(
    repo: GitRepo, config: str, command: list[str], key: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On main `index --write` wrote `.git/hooks/post-checkout` (code git runs), `current
    stamp` wrote `.git/info/attributes`, `verify --write-baseline` wrote `.git/hooks/pre-commit`
    and `new` copied `.git/config` (the job's token after actions/checkout) into a record."""
    (repo.path / ".git/config").write_text(
        (repo.path / ".git/config").read_text() + '[http]\n\textraheader = "AUTH: secret"\n')
    repo.write({".adrguard.toml": config, "docs/adr/CURRENT.md": "# In force\n"})
    repo.commit("config")
    if "--hook" in command:  # the commit the hook judges changes adrguard's settings
        repo.write({".adrguard.toml": config + "# changed\n"})
        repo.git("add", ".adrguard.toml")
    before = _git_files(repo.path) - {"index"}
    result = run(capsys, *command)
    _one_error(result, key)
    assert "git" in result.err
    assert _git_files(repo.path) - {"index"} == before  # git's own index aside (git add)
    assert "secret" not in result.out + result.err
    assert not list((repo.path / "docs/adr").glob("0003-*"))


def test_a_committed_symlinked_folder_into_git_is_never_written_through(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo.path / "docs/adr/generated").symlink_to("../../.git/hooks")
    repo.write({".adrguard.toml": '[index]\npath = "generated/post-merge"\n'})
    repo.commit("a folder that is git's hooks")
    repo.write({"docs/adr/0003-c.md": record(3, "A third")})  # what the commit brings
    repo.git("add", "docs/adr/0003-c.md")
    before = _git_files(repo.path)
    for command in (["index", "--write"], ["index", "--write", "--exit-non-zero-on-fix",
                                           "--hook", "docs/adr/0003-c.md"]):
        _one_error(run(capsys, *command), "docs/adr/generated is a symlink", "never writes")
    assert _git_files(repo.path) == before | {"index"}  # git's own index (git add, git status)


def test_a_symlinked_folder_that_stays_inside_is_not_written_through_either(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule for every writer: no symlinked folder on the way, wherever it leads."""
    (repo.path / "elsewhere").mkdir()
    (repo.path / "docs/adr/out").symlink_to("../../elsewhere")
    repo.write({".adrguard.toml": '[index]\npath = "out/INDEX.md"\n'})
    repo.commit("a symlinked folder inside")
    _one_error(run(capsys, "index", "--write"), "docs/adr/out is a symlink",
               "inside the repository")
    assert list((repo.path / "elsewhere").iterdir()) == []


def test_a_separate_git_folder_inside_the_work_tree_is_off_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`.git` may be a file naming the real git folder (``--separate-git-dir``, a submodule, a
    linked worktree): that folder is a git folder too, whatever its name."""
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, **BASE_ENV}
    subprocess.run(["git", "init", "-q", "-b", "main", "--separate-git-dir",
                    str(work / "store"), str(work)], check=True, env=env)
    r = GitRepo(work, init=False)
    r.write({**RECORDS, ".adrguard.toml": 'roots = ["."]\n[index]\npath = "store/hooks/post-checkout"\n'})
    r.commit("records")
    monkeypatch.chdir(work)
    before = {p.name for p in (work / "store/hooks").iterdir()}
    _one_error(run(capsys, "index", "--write"), "store/hooks/post-checkout",
               "git's own folders")
    assert {p.name for p in (work / "store/hooks").iterdir()} == before


def test_a_linked_worktree_cannot_write_into_its_git_folder(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In a linked worktree the git folder lives in the main repository; a committed symlink
    to it is refused like any symlinked folder, and a read through it too."""
    wt = tmp_path / "wt"
    repo.git("worktree", "add", "-q", str(wt))
    gitdir = (wt / ".git").read_text().split(":", 1)[1].strip()
    (wt / "docs/adr/admin").symlink_to(gitdir)
    (wt / ".adrguard.toml").write_text('frontmatter-schema = "docs/adr/admin/HEAD"\n'
                                       '[index]\npath = "admin/HEAD"\n')
    monkeypatch.chdir(wt)
    head = (Path(gitdir) / "HEAD").read_text()
    result = run(capsys, "index", "--write")
    _one_error(result, "frontmatter-schema", "outside the repository")
    (wt / ".adrguard.toml").write_text('[index]\npath = "admin/HEAD"\n')
    _one_error(run(capsys, "index", "--write"), "docs/adr/admin is a symlink")
    assert (Path(gitdir) / "HEAD").read_text() == head


def test_archive_dirs_naming_git_or_a_path_is_a_usage_error(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `archive-dirs = [".git"]` made `archive apply` move a record into an untracked
    `.git` folder under the root, so the next commit deleted it."""
    for value in ('".git"', '".GIT"', '"a/b"', '".."', '"."'):
        repo.write({".adrguard.toml": f"archive-dirs = [{value}]\n"})
        _one_error(run(capsys, "archive", "plan", "ADR-0002"), "archive-dirs entry",
                   "one plain folder name")
        _one_error(run(capsys, "check"), "archive-dirs entry")
    assert not (repo.path / "docs/adr/.git").exists()


# --- High: a report path through a committed symlinked folder ------------------------------


def test_format_path_through_a_committed_symlinked_folder_is_refused(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `--format json:reports/x.json` followed the committed `reports` symlink and
    wrote outside the repository."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo.path / "reports").symlink_to(outside)
    repo.commit("reports is a symlink")
    for command in (["check"], ["impact", "--base", "HEAD"], ["verify"]):
        _one_error(run(capsys, *command, "--format", "json:reports/x.json"),
                   "reports is a symlinked folder inside the repository")
    result = run(capsys, "graph", "--all", "--output", "reports/x.txt")  # --all: a picture
    assert result.code == 2 and "error: cannot write reports/x.txt: reports is a symlinked " \
        "folder inside the repository" in result.err
    _one_error(run(capsys, "archive", "plan", "ADR-0002", "--out", "reports/plan.json"),
               "reports is a symlinked folder")
    assert list(outside.iterdir()) == []


def test_a_report_path_through_the_users_own_symlink_is_written(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Outside the work tree the path is the user's choice, symlinks and all."""
    real = tmp_path / "real-reports"
    real.mkdir()
    (tmp_path / "my-reports").symlink_to(real)
    assert run(capsys, "check", "--format", f"json:{tmp_path}/my-reports/x.json").code == 0
    assert (real / "x.json").is_file()


# --- High: a cache folder the repository names --------------------------------------------


@pytest.mark.uses_cache
def test_a_repository_cache_dir_outside_the_users_cache_folder_is_refused(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On main `cache-dir = "/anywhere"` in a pull request's config made check create that
    folder, write there and trust what it found, so a planted entry hid findings."""
    monkeypatch.delenv("ADRGUARD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    planted = tmp_path / "shared" / "cache"
    repo.write({".adrguard.toml": f'cache-dir = "{planted}"\n'})
    _one_error(run(capsys, "check"), "cache-dir", "outside your cache folder",
               "ADRGUARD_CACHE_DIR")
    assert not planted.exists()
    assert run(capsys, "check", "--no-cache").code == 0
    mine = tmp_path / "user-cache" / "project"  # inside the user's cache folder: used
    repo.write({".adrguard.toml": f'cache-dir = "{mine}"\n'})
    assert run(capsys, "check").code == 0 and (mine / "CACHEDIR.TAG").is_file()
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path / "chosen"))  # the user's: anywhere
    repo.write({".adrguard.toml": f'cache-dir = "{planted}"\n'})
    assert run(capsys, "check").code == 0 and not planted.exists()


@pytest.mark.uses_cache
def test_a_cache_dir_symlinked_out_of_the_users_cache_folder_is_refused(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("ADRGUARD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    (tmp_path / "user-cache").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "user-cache" / "sneaky").symlink_to(tmp_path / "elsewhere")
    repo.write({".adrguard.toml": f'cache-dir = "{tmp_path}/user-cache/sneaky"\n'})
    _one_error(run(capsys, "check"), "outside your cache folder")
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.uses_cache
def test_the_read_guard_never_uses_a_repository_cache_dir_outside_the_users_cache_folder(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read guard (issue 32) chooses its cache folder as every command does: a folder the
    repository's configuration names outside the user's cache folder is not used (the guard
    then runs without a cache: counters never change a decision)."""
    from adrguard.adapters.guard.setup import load_setup

    monkeypatch.delenv("ADRGUARD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    planted = tmp_path / "shared" / "cache"
    repo.write({".adrguard.toml": f'read-guard = "warn"\ncache-dir = "{planted}"\n'})
    setup, folder = load_setup(repo.path.resolve())
    assert folder is None and not planted.exists()
    assert setup.mode.value == "warn"
    mine = tmp_path / "user-cache" / "guard"
    repo.write({".adrguard.toml": f'read-guard = "warn"\ncache-dir = "{mine}"\n'})
    assert load_setup(repo.path.resolve())[1] == mine


# --- Low: paths given to `new` and `verify` ---------------------------------------------------


def test_new_root_outside_the_repository_is_refused(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `new --root /abs/path` lost its leading slash and created `abs/path` inside the
    repository."""
    away = tmp_path / "elsewhere" / "adr"
    _one_error(run(capsys, "new", "--root", str(away), "A title"), "outside the repository")
    assert not away.exists() and not (repo.path / str(away).lstrip("/")).exists()
    _one_error(run(capsys, "new", "--root", ".git/adr", "A title"), "git's own folder")
    result = run(capsys, "new", "--root", str(repo.path / "docs/adr"), "A title")
    assert result.code == 0 and (repo.path / "docs/adr/0003-a-title.md").is_file()


@pytest.mark.parametrize(("where", "needle"), [
    (["--rules", "../../etc/passwd"], "contains '..'"),
    (["--config-rules", "../../etc/passwd"], "climbs out with '..'"),
    (["--config-rules", "/etc/passwd"], "is absolute"),
])
def test_verify_rules_outside_the_repository_say_what_is_wrong(
    repo: GitRepo, where: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On main `[verify] rules = "../../etc/passwd"` said "a folder on its path is a symlink",
    and "/etc/passwd" said there was no manifest at /etc/passwd."""
    if where[0] == "--config-rules":
        repo.write({".adrguard.toml": f'[verify]\nrules = "{where[1]}"\n'})
        where = []
    result = run(capsys, "verify", *where)
    _one_error(result, needle)
    assert "symlink" not in result.err
