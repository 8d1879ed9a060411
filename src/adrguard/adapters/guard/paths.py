"""Paths as an agent writes them — absolute or relative to its working directory, with ``..``,
``~``, backslashes, symlinks or another letter case — as the repo-relative paths the guard's
policy compares with the log's layout. Nothing is read; the file system is asked only where a
symlink is resolved or two names are checked to be the same file."""

from __future__ import annotations

import os

from adrguard.core.guard.layout import LogLayout, PathState, has_wildcard
from adrguard.core.guard.policy import Target

# the order in which two readings of one path are preferred: the one the log cares most about
_WEIGHT = {
    PathState.ARCHIVED: 4,
    PathState.ACTIVE: 3,
    PathState.NAVIGATION: 2,
    PathState.OTHER: 1,
    PathState.OUTSIDE: 0,
}


class Resolver:
    """Paths made repo-relative for one repository (``top``: its work tree) and one layout."""

    def __init__(self, top: str, layout: LogLayout) -> None:
        self.top = os.path.abspath(top)
        self.real_top = os.path.realpath(top)
        self.layout = layout

    def working(self, cwd: str | None, cd: tuple[str | None, ...] = ()) -> str | None:
        """The absolute working directory after the ``cd`` steps (None when one is unknown)."""
        here = os.path.abspath(_expand(cwd)) if cwd else self.top
        for step in cd:
            if step is None:
                return None
            here = os.path.join(here, _expand(step))
        return os.path.normpath(here)

    def relative(self, folder: str | None) -> str | None:
        """A folder (absolute) as a repo-relative path, None when it is outside."""
        if folder is None:
            return None
        readings = self._readings(folder)
        return readings[0] if readings else None

    def target(self, raw: str, cwd: str | None, wildcard: bool = False) -> Target:
        """``raw`` (relative to the working directory ``cwd``) as a target of the policy. A path
        that reads two ways (its text with ``..`` folded, and the file a symlink leads to) is
        judged by the reading that matters most to the log."""
        text = _expand(raw)
        if not os.path.isabs(text):
            if cwd is None:
                return Target(None)  # relative to a directory that is not known here
            text = os.path.join(cwd, text)
        if wildcard:
            return self._pattern(text)
        best: str | None = None
        for rel in self._readings(text):
            if best is None or _WEIGHT[self.layout.state(rel)] > _WEIGHT[self.layout.state(best)]:
                best = rel
        layout = self.layout
        if best is not None and best not in layout.records and best not in layout.navigation:
            best = self._same_file(best) or best
        return Target(best)

    def _readings(self, path: str) -> list[str]:
        lexical = os.path.normpath(path)
        real = os.path.realpath(path)
        out: list[str] = []
        for candidate, top in ((lexical, self.top), (lexical, self.real_top),
                               (real, self.real_top)):
            rel = _inside(candidate, top)
            if rel is not None and rel not in out:
                out.append(rel)
        return out

    def _pattern(self, text: str) -> Target:
        """A shell wildcard: the folders before its first wildcard resolved, the rest kept."""
        parts = os.path.normpath(text).split(os.sep)
        first = next(i for i, p in enumerate(parts) if has_wildcard(p))
        head = os.sep.join(parts[:first]) or os.sep
        rest = "/".join(parts[first:])
        patterns = [rest if rel == "." else f"{rel}/{rest}" for rel in self._readings(head)]
        for pattern in patterns:  # the reading that names files of the log, if one does
            if self.layout.matching(pattern):
                return Target(pattern, wildcard=True)
        return Target(patterns[0], wildcard=True) if patterns else Target(None)

    def _same_file(self, rel: str) -> str | None:
        """The listed record or navigation file that ``rel`` is the same file as, on a file
        system that ignores letter case."""
        listed = self.layout.same_path(rel)
        if listed is None:
            return None
        try:
            same = os.path.samefile(os.path.join(self.real_top, rel),
                                    os.path.join(self.real_top, listed))
        except OSError:
            return None
        return listed if same else None


def _expand(text: str) -> str:
    text = text.replace("\\", "/")
    return os.path.expanduser(text) if text.startswith("~") else text


def _inside(path: str, top: str) -> str | None:
    if path == top:
        return "."
    prefix = top.rstrip(os.sep) + os.sep
    if path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    return None
