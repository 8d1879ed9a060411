"""The only module that talks to git (through gitpython). Imported lazily: gitpython is slow
to import, so callers import this module inside functions, never at module top level."""

from __future__ import annotations

from pathlib import Path

from adrguard.core.errors import UserError
from adrguard.core.model import FileChange


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
    """A digest of what ``git ls-files`` and the remote URL depend on (the index and the
    repository's config files), read without starting git, or None when the repository is not a
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


def remote_url(repo_root: Path, remote: str = "origin") -> str | None:
    """The remote's web URL (``https://github.com/owner/repo``) when it is a GitHub-like URL."""
    import git

    try:
        url: str = _git(repo_root).config("--get", f"remote.{remote}.url").strip()
    except (git.GitCommandError, OSError):
        return None
    return normalise_remote(url)


def normalise_remote(url: str) -> str | None:
    url = url.strip()
    if url.startswith("git@") and ":" in url:
        host, _, path = url[4:].partition(":")
        url = f"https://{host}/{path}"
    elif url.startswith("ssh://"):
        rest = url[len("ssh://") :]
        rest = rest.split("@", 1)[-1]
        url = "https://" + rest
    if not url.startswith(("https://", "http://")):
        return None
    url = url.removesuffix("/").removesuffix(".git")
    if "@" in url.split("/")[2]:
        scheme, _, rest = url.partition("://")
        url = f"{scheme}://{rest.split('@', 1)[1]}"
    return url


# --- change sets: refs, merge base, diff, files at a revision (issue 5) -----------------------

_FETCH_TIMEOUT = 300.0  # seconds per fetch attempt
DEEPEN_STEPS: tuple[int, ...] = (64, 512, 4096)  # bounded: three deepening fetches, then unshallow


def _run(repo_root: Path, *args: str, timeout: float | None = None) -> bytes:
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


def _stderr(exc: Exception) -> str:
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
        _run(repo_root, "rev-parse", "--git-dir")
    except git.GitCommandError:
        raise UserError(
            f"{repo_root} is not inside a git repository: change-aware checks need history; "
            "run them in a clone, or drop --base"
        ) from None


def _fetch_hint(repo_root: Path, ref: str) -> str:
    remote, _, branch = ref.partition("/")
    if branch and remote in remotes(repo_root):
        return f"git fetch {remote} {branch}"
    return f"git fetch origin {ref}"


def resolve_commit(repo_root: Path, ref: str, role: str = "base") -> str:
    """The full commit id ``ref`` names; a one-line ``UserError`` naming the fix otherwise."""
    import git

    require_repo(repo_root)
    try:
        out = _run(
            repo_root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"
        )
    except git.GitCommandError:
        flag = "--base" if role == "base" else "--head"
        raise UserError(
            f"{role} ref {ref!r} not found: fetch it ({_fetch_hint(repo_root, ref)}) "
            f"or pass {flag} with an existing ref"
        ) from None
    return out.decode("ascii").strip()


def remotes(repo_root: Path) -> list[str]:
    import git

    try:
        return _run(repo_root, "remote").decode("utf-8", "replace").split()
    except git.GitCommandError:
        return []


def is_shallow(repo_root: Path) -> bool:
    import git

    try:
        return _run(repo_root, "rev-parse", "--is-shallow-repository").strip() == b"true"
    except git.GitCommandError:
        return False


def merge_base(repo_root: Path, base: str, head: str) -> str | None:
    """The best common ancestor of two commits (``base...head``), or None when there is none."""
    import git

    try:
        out = _run(repo_root, "merge-base", base, head)
    except git.GitCommandError as exc:
        if exc.status == 1:
            return None
        raise UserError(f"git merge-base {base} {head} failed: {_stderr(exc)}") from None
    return out.decode("ascii").strip() or None


def no_merge_base_error(repo_root: Path, base_ref: str, head_ref: str) -> UserError:
    if is_shallow(repo_root):
        return UserError(
            f"no merge base between {base_ref!r} and {head_ref!r} in this shallow clone: fetch "
            "more history (actions/checkout with fetch-depth: 0, or git fetch --deepen=500 origin) "
            "or rerun with --deepen"
        )
    return UserError(
        f"{base_ref!r} and {head_ref!r} share no history (no merge base): pass a --base that "
        "the head branch was started from"
    )


def _deepen_remote(repo_root: Path, base_ref: str) -> tuple[str, list[str]]:
    """The remote to fetch from and the refspecs that keep ``base_ref`` up to date."""
    known = remotes(repo_root)
    remote, _, branch = base_ref.partition("/")
    if branch and remote in known:
        return remote, [f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}"]
    if "origin" in known:
        return "origin", []
    if len(known) == 1:
        return known[0], []
    raise UserError(
        "--deepen needs a remote to fetch from, and none is configured (git remote add origin URL)"
    )


def deepen_until_merge_base(
    repo_root: Path, base_ref: str, head_ref: str, steps: tuple[int, ...] = DEEPEN_STEPS
) -> tuple[str, int]:
    """Fetch more history from the configured remote until ``base_ref`` and ``head_ref`` have a
    merge base: one ``git fetch --deepen=N`` per step, then one ``--unshallow``. Returns the
    merge base and the number of fetches made."""
    remote, refspecs = _deepen_remote(repo_root, base_ref)
    attempts = [f"--deepen={n}" for n in steps] + ["--unshallow"]
    fetched = 0
    if refspecs and not _exists(repo_root, base_ref):  # CI clones often lack the base branch
        _fetch(repo_root, f"--depth={steps[0]}", remote, refspecs)
        fetched += 1
    for flag in attempts:
        base = resolve_commit(repo_root, base_ref, "base")
        head = resolve_commit(repo_root, head_ref, "head")
        found = merge_base(repo_root, base, head)
        if found is not None:
            return found, fetched
        if not is_shallow(repo_root):
            break
        _fetch(repo_root, flag, remote, refspecs)
        fetched += 1
    base = resolve_commit(repo_root, base_ref, "base")
    head = resolve_commit(repo_root, head_ref, "head")
    found = merge_base(repo_root, base, head)
    if found is None:
        raise UserError(
            f"{base_ref!r} and {head_ref!r} share no history even after fetching all of it from "
            f"{remote} ({fetched} fetches): pass a --base that the head branch was started from"
        )
    return found, fetched


def _exists(repo_root: Path, ref: str) -> bool:
    try:
        resolve_commit(repo_root, ref)
    except UserError:
        return False
    return True


def _fetch(repo_root: Path, flag: str, remote: str, refspecs: list[str]) -> None:
    import git

    try:
        _run(
            repo_root,
            "fetch",
            "--quiet",
            "--no-tags",
            flag,
            remote,
            *refspecs,
            timeout=_FETCH_TIMEOUT,
        )
    except git.GitCommandError as exc:
        raise UserError(f"--deepen: git fetch {flag} {remote} failed: {_stderr(exc)}") from None


def diff_changes(
    repo_root: Path, *revs: str, cached: bool = False
) -> tuple[list[FileChange], list[str]]:
    """Files changed from commit ``revs[0]`` to ``revs[1]`` (one rev: to the work tree, or with
    ``cached`` to the index) with status, old path (renames) and notes on what was not
    inspected (submodules, paths that are not UTF-8). ``-z`` safe."""
    import git

    try:
        out = _run(
            repo_root,
            "diff",
            *(("--cached",) if cached else ()),
            "--raw",
            "-z",
            "--no-abbrev",
            "--find-renames",
            "--no-ext-diff",
            "--no-textconv",
            "--ignore-submodules=none",
            *revs,
            "--",
        )
    except git.GitCommandError as exc:
        shown = " ".join(r[:12] for r in revs)
        raise UserError(f"git diff {shown} failed: {_stderr(exc)}") from None
    fields = out.split(b"\0")
    changes: list[FileChange] = []
    notes: list[str] = []
    i = 0
    while i < len(fields) and fields[i].startswith(b":"):
        meta = fields[i][1:].split(b" ")
        old_mode, new_mode, status = meta[0], meta[1], meta[4].decode("ascii")
        kind, score = status[0], status[1:]
        if kind in "RC":
            src, dst = decode_path(fields[i + 1]), decode_path(fields[i + 2])
            raw_paths: tuple[bytes, ...] = (fields[i + 1], fields[i + 2])
            i += 3
        else:
            src, dst = None, decode_path(fields[i + 1])
            raw_paths = (fields[i + 1],)
            i += 2
        if kind == "C":  # copies are additions that name where they came from
            kind = "A"
        changes.append(FileChange(kind, dst, src, int(score) if score else None))
        if b"160000" in (old_mode, new_mode):
            notes.append(f"submodule {dst} changed: its own files are not inspected")
        if any(_not_utf8(p) for p in raw_paths):
            notes.append(f"path {dst} is not valid UTF-8: shown with \\x escapes")
    return changes, notes


def _not_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def files_at(repo_root: Path, rev: str) -> dict[str, str]:
    """Every blob path at ``rev`` mapped to its object id (``git ls-tree -r -z``)."""
    import git

    try:
        out = _run(repo_root, "ls-tree", "-r", "-z", "--full-tree", rev)
    except git.GitCommandError as exc:
        raise UserError(f"git ls-tree {rev[:12]} failed: {_stderr(exc)}") from None
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
        raise UserError(f"cannot read objects from {repo_root}: {_stderr(exc)}") from None
    finally:
        repo.close()
