"""What a repo-relative path named by configuration, a plan or a person may look like: the
lexical half of the one path guard (the file-system half is :mod:`adrguard.pathguard`).

A path adrguard reads or writes because something named it stays inside the work tree and out
of git's own folders. Lexically that means: not empty, no control character (a NUL ends a path
for the operating system), not absolute (``/x``, ``\\x``, ``C:x``), no ``..`` segment, and no
segment that names a git folder: ``.git`` in any case, and the spellings that reach it on
case-insensitive or Windows file systems (``.git.``, ``.git `` and ``git~1``, and ``.git`` with
characters HFS+ ignores, such as a zero-width joiner), as git itself refuses them
(``core.protectNTFS``, ``core.protectHFS``).
"""

from __future__ import annotations

from adrguard.core.lazyre import lazy

# Characters HFS+ ignores when it compares names (git's is_hfs_dotgit lists them).
_HFS_IGNORED = lazy("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def has_drive(text: str) -> bool:
    """Whether ``text`` starts with a drive (``C:``): an ASCII letter and a colon."""
    return text[:1].isascii() and text[:1].isalpha() and text[1:2] == ":"


def is_git_name(segment: str) -> bool:
    """Whether one path segment names a git folder on some file system git runs on."""
    plain = segment if segment.isascii() else _HFS_IGNORED.sub("", segment)  # ignored: not ASCII
    name = plain.rstrip(". ").casefold()
    return name == ".git" or name == "git~1"


def _control(text: str) -> bool:
    return any(c < " " or c == "\x7f" for c in text)


def problem(value: object) -> str | None:
    """Why ``value`` is not a usable repo-relative path (None when it is), phrased to follow
    the path: ``'../x' climbs out of the repository with '..'``."""
    if not isinstance(value, str) or not value.strip():
        return "is empty: give a path relative to the repository"
    shown = repr(value[:120])
    if _control(value):
        return f"{shown} holds a control character (NUL, newline, ...): remove it"
    text = value.strip().replace("\\", "/")
    if text.startswith("/") or has_drive(text):
        return f"{shown} is absolute: give a path relative to the repository"
    parts = text.split("/")
    if ".." in parts:
        return f"{shown} climbs out with '..': give a path inside the repository"
    if any(is_git_name(p) for p in parts):
        return (f"{shown} is inside git's own folder (.git): adrguard never reads or writes "
                "there; name a path in the work tree")
    return None


def normalise(value: str) -> str:
    """``value`` (which :func:`problem` accepted) with ``\\`` as ``/`` and no empty or ``.``
    segment."""
    return "/".join(p for p in value.strip().replace("\\", "/").split("/") if p not in ("", "."))
