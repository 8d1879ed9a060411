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


def tracked_files(repo_root: Path) -> list[str]:
    """Tracked and staged files (``git ls-files``), repo-relative POSIX paths; ``-z`` safe."""
    import git

    try:
        out = _git(repo_root).ls_files("-z", "--cached", "--full-name", strip_newline_in_stdout=False)
    except (git.GitCommandError, OSError) as exc:
        raise UserError(f"git ls-files failed in {repo_root}: {exc}") from None
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
