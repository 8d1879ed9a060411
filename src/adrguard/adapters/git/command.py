"""Running git: one runner for every git command adrguard starts, and one error for every git
failure. A command that fails raises :class:`GitError` (a :class:`UserError`: one line that says
what failed and how to fix it, exit 2); a caller for which a failure has a meaning (no merge
base, an untracked file) catches that one class. A missing git executable is a plain
:class:`UserError` that no caller swallows.

Commands run through :mod:`subprocess` (the standard library, loaded at start-up anyway), so
listing a work tree and reading objects (``git cat-file --batch``) never imports gitpython."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from adrguard.core.errors import UserError

_ENV = {"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
STDERR_CHARS = 200  # of git's message kept in an error


class GitError(UserError):
    """A git command that failed: ``status`` (its exit status; None when it did not run to
    the end), ``stderr`` (what git said), ``reason`` (that as one line) and ``command`` (its
    arguments); the message says what failed and, where known, what to do."""

    def __init__(self, message: str, *, status: int | None = None, stderr: str = "",
                 args: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.stderr = stderr
        self.reason = one_line(stderr) or (f"exit status {status}" if status else message)
        self.command = args

    def saying(self, message: str) -> GitError:
        """The same failure with another message (the fix a caller knows)."""
        return GitError(message, status=self.status, stderr=self.stderr, args=self.command)


def one_line(raw: bytes | str) -> str:
    """git's error output as one line, at most :data:`STDERR_CHARS` characters."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return " ".join(text.split()).strip("'").strip()[:STDERR_CHARS]


def run(repo_root: Path, *args: str, timeout: float | None = None,
        stdin: bytes | None = None) -> bytes:
    """``git ARGS`` in ``repo_root`` (fed ``stdin`` when given): its raw standard output.
    Raises :class:`GitError` when git fails (or runs longer than ``timeout`` seconds),
    ``UserError`` when git is missing."""
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(
            ["git", *args], cwd=repo_root, env=env, capture_output=True, timeout=timeout,
            check=False, input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took longer than {timeout:.0f} s: stopped; retry, or "
                       "check the network and the remote", args=args) from None
    except OSError as exc:
        if shutil.which("git") is None:
            raise UserError("git executable not found: install git, or drop --base") from None
        raise GitError(f"git {args[0]} could not start in {repo_root}: {exc.strerror or exc}",
                       args=args) from None
    if done.returncode != 0:
        said = done.stderr[:4096].decode("utf-8", "replace")
        why = one_line(said) or f"exit status {done.returncode}"
        raise GitError(f"git {args[0]} failed: {why}", status=done.returncode, stderr=said,
                       args=args)
    return done.stdout


def decode_path(raw: bytes) -> str:
    """A path as text: UTF-8, or with ``\\xNN`` escapes for bytes that are not valid UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "backslashreplace")


def find_repo_root(start: Path) -> Path | None:
    """The top of the work tree containing ``start``, or None outside a git repository (or
    without git)."""
    try:
        out = run(start, "rev-parse", "--show-toplevel").decode("utf-8", "surrogateescape")
    except UserError:
        return None
    return Path(out.strip()) if out.strip() else None


def refusal(start: Path) -> str | None:
    """Why git refuses to work in ``start`` although a ``.git`` is there (its first error
    line, e.g. "detected dubious ownership"), or None when git works or is not installed."""
    try:
        run(start, "rev-parse", "--show-toplevel")
    except GitError as exc:
        if exc.status is None:
            return None
        lines = [ln.strip() for ln in exc.stderr.splitlines() if ln.strip()]
        first = next((ln for ln in lines if ln.lower().startswith(("fatal", "error"))),
                     lines[0] if lines else "")
        return first or "git failed"
    except UserError:
        return None
    return None


def require_repo(repo_root: Path) -> None:
    """Raise a one-line ``GitError`` unless ``repo_root`` is inside a git work tree."""
    try:
        run(repo_root, "rev-parse", "--git-dir")
    except GitError as exc:
        raise exc.saying(
            f"{repo_root} is not inside a git repository: change-aware checks need history; "
            "run them in a clone, or drop --base"
        ) from None


def require_work_tree(base: Path) -> None:
    """A one-line ``UserError`` unless ``base`` is inside a git work tree."""
    if find_repo_root(base) is None:
        raise UserError(
            f"{base} is not inside a git work tree: --changed and the pre-commit hook judge "
            "what git would commit; run `adrguard check` to check every record"
        )
