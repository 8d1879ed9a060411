"""The only module that talks to git (through gitpython). Imported lazily: gitpython is slow
to import, so callers import this module inside functions, never at module top level."""

from __future__ import annotations

from pathlib import Path

from adrguard.core.errors import UserError


def _git(cwd: Path):  # type: ignore[no-untyped-def]
    import git

    return git.Git(str(cwd))


def find_repo_root(start: Path) -> Path | None:
    """The top of the work tree containing ``start``, or None outside a git repository."""
    import git

    try:
        out = _git(start).rev_parse("--show-toplevel")
    except (git.GitCommandError, git.GitCommandNotFound, OSError):
        return None
    return Path(out.strip()) if out.strip() else None


def refusal(start: Path) -> str | None:
    """Why git refuses to work in ``start`` although a ``.git`` is there (its first error
    line, e.g. "detected dubious ownership"), or None when git works or is not installed."""
    import git

    try:
        _git(start).rev_parse("--show-toplevel")
    except git.GitCommandError as exc:
        text = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else str(
            exc.stderr or exc)
        lines = [ln.strip().removeprefix("stderr:").strip().removeprefix("'")
                 for ln in text.splitlines() if ln.strip()]
        first = next((ln for ln in lines if ln.lower().startswith(("fatal", "error"))),
                     lines[0] if lines else "")
        return first or "git failed"
    except (git.GitCommandNotFound, OSError):
        return None
    return None


# Variables that move the repository, its index or its config away from ``<top>/.git``.
_LOCATION_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
                       "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY",
                       "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE")  # fmt: skip


def state_digest(top: Path) -> str | None:
    """A digest of what ``git ls-files`` depends on (the index and the repository's config
    files), read without starting git, or None when the repository is not a
    plain one that this shortcut covers (a ``.git`` file, ``GIT_DIR`` and the like, another
    index file, ``core.worktree`` or includes in its config).
    Callers key cached listings on it: the same index bytes list the same files."""
    import hashlib
    import os

    if any(name in os.environ for name in _LOCATION_VARIABLES) or any(
        name.startswith("GIT_CONFIG") for name in os.environ
    ):
        return None
    git_dir = top / ".git"
    if git_dir.is_symlink() or not git_dir.is_dir() or not (git_dir / "HEAD").is_file():
        return None
    index_file = os.environ.get("GIT_INDEX_FILE")  # git sets it for hooks: fine if it is ours
    if index_file is not None:
        try:
            if not os.path.samefile(index_file, git_dir / "index"):
                return None
        except OSError:
            return None
    digest = hashlib.sha256(str(top).encode("utf-8", "surrogateescape") + b"\0")
    home = Path(os.environ.get("HOME", "/nonexistent"))
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    for part in (git_dir / "index", git_dir / "config", home / ".gitconfig", xdg / "git/config"):
        try:
            data = part.read_bytes()
        except FileNotFoundError:
            data = b"<absent>"
        except OSError:
            return None
        lowered = data.lower()
        if part == git_dir / "config" and (b"worktree" in lowered or b"include" in lowered):
            return None
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def tracked_files(where: Path) -> list[str] | None:
    """Tracked and staged files below ``where`` (``git ls-files``, ``-z`` safe), relative to
    it, sorted; None when git cannot list them there (not a work tree, no git, a repository
    git refuses to use)."""
    import git

    try:
        out = _git(where).ls_files("-z", "--cached", strip_newline_in_stdout=False)
    except (git.GitCommandError, git.GitCommandNotFound, OSError):
        return None
    return sorted({p for p in out.split("\0") if p})


def run_git(repo_root: Path, *args: str, timeout: float | None = None) -> bytes:
    """``git ARGS`` in ``repo_root``; raw stdout. Raises ``git.GitCommandError`` on failure and
    ``UserError`` when git itself is missing."""
    import git

    try:
        out: bytes = git.Git(str(repo_root)).execute(
            ["git", *args],
            stdout_as_string=False,
            strip_newline_in_stdout=False,
            kill_after_timeout=timeout,
            env={"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
        )
    except git.GitCommandNotFound:
        raise UserError("git executable not found: install git, or drop --base") from None
    return out


def stderr_line(exc: Exception) -> str:
    text = str(getattr(exc, "stderr", "") or exc).strip().strip("'").strip()
    return text.replace("\n", " ").removeprefix("stderr: ").strip().strip("'")[:200]


def decode_path(raw: bytes) -> str:
    """A path as text: UTF-8, or with ``\\xNN`` escapes for bytes that are not valid UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "backslashreplace")


def require_repo(repo_root: Path) -> None:
    """Raise a one-line ``UserError`` unless ``repo_root`` is inside a git work tree."""
    import git

    try:
        run_git(repo_root, "rev-parse", "--git-dir")
    except git.GitCommandError:
        raise UserError(
            f"{repo_root} is not inside a git repository: change-aware checks need history; "
            "run them in a clone, or drop --base"
        ) from None


def files_at(repo_root: Path, rev: str) -> dict[str, str]:
    """Every blob path at ``rev`` mapped to its object id (``git ls-tree -r -z``)."""
    import git

    try:
        out = run_git(repo_root, "ls-tree", "-r", "-z", "--full-tree", rev)
    except git.GitCommandError as exc:
        raise UserError(f"git ls-tree {rev[:12]} failed: {stderr_line(exc)}") from None
    found: dict[str, str] = {}
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        _mode, kind, sha = meta.split(b" ")
        if kind == b"blob":
            found[decode_path(raw_path)] = sha.decode("ascii")
    return found


def read_blobs(repo_root: Path, shas: list[str]) -> dict[str, bytes]:
    """Object contents by id, through one ``git cat-file --batch`` process."""
    import git

    if not shas:
        return {}
    try:
        repo = git.Repo(str(repo_root))
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise UserError(f"{repo_root} is not inside a git repository") from None
    try:
        return {sha: repo.odb.stream(bytes.fromhex(sha)).read() for sha in dict.fromkeys(shas)}
    except (ValueError, git.GitCommandError) as exc:
        raise UserError(f"cannot read objects from {repo_root}: {stderr_line(exc)}") from None
    finally:
        repo.close()
