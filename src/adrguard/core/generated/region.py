"""Helpers shared by the generated files (INDEX, CURRENT): repo-relative path arithmetic, line
ends, and the marked region of a markdown file that adrguard owns. Pure string work."""

from __future__ import annotations

import hashlib

import msgspec

from adrguard.core import relpath
from adrguard.core.errors import UserError
from adrguard.core.lazyre import lazy

MARK_START = "<!-- adrguard:index:start -->"
MARK_END = "<!-- adrguard:index:end -->"
_FENCE = lazy(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def content_sha256(data: bytes) -> str:
    """SHA-256 of the bytes with CRLF normalised to LF (what ``Decision.sha256`` holds)."""
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


# --- paths ------------------------------------------------------------------------------


def relative_name(value: object, where: str) -> str:
    """A config value naming a file relative to an ADR root, normalised; UserError when it is
    empty, absolute or climbs out with ``..``."""
    if not isinstance(value, str) or not value.strip():
        raise UserError(f"{where} must be a non-empty path relative to the ADR root")
    text = value.strip().replace("\\", "/")
    parts = text.split("/")
    drive = text[:1].isascii() and text[:1].isalpha() and text[1:2] == ":"  # C:
    if text.startswith("/") or drive or ".." in parts:
        raise UserError(
            f"{where} = {value!r} must stay inside the ADR root (no absolute path, no '..')"
        )
    problem = relpath.problem(value)
    if problem is not None:
        raise UserError(f"{where} {problem}")
    return relpath.normalise(text)


def join_root(root: str, rel: str) -> str:
    """``rel`` (relative to an ADR root, ``.`` for the root itself) as a repo-relative path."""
    if root in ("", "."):
        return rel
    return root if rel in ("", ".") else f"{root}/{rel}"


def under_root(path: str, root: str) -> str:
    """``path`` relative to ``root`` (the path itself when ``root`` is the repository)."""
    return path if root in ("", ".") else path.removeprefix(root + "/")


def relative_link(from_file: str, to_path: str) -> str:
    """A markdown link from ``from_file`` to ``to_path`` (both repo-relative, POSIX)."""
    here = from_file.split("/")[:-1]
    there = to_path.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    parts = [".."] * (len(here) - common) + there[common:]
    return "/".join(parts).replace(" ", "%20").replace("(", "%28").replace(")", "%29")


# --- markers ----------------------------------------------------------------------------


class Markers(msgspec.Struct, frozen=True):
    """Where the generated region is. ``problem`` is set when the markers are unusable."""

    start: int | None = None  # 0-based line index of the start marker
    end: int | None = None
    problem: str | None = None
    problem_line: int = 1

    @property
    def found(self) -> bool:
        return self.start is not None or self.end is not None or self.problem is not None


def find_markers(text: str) -> Markers:
    """Marker lines outside fenced code blocks. Exactly one start before exactly one end."""
    starts: list[int] = []
    ends: list[int] = []
    fence: tuple[str, int] | None = None
    for i, line in enumerate(text.split("\n")):
        m = _FENCE.match(line)
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                fence = (m.group(1)[0], len(m.group(1)))
                continue
        else:
            if (
                m
                and m.group(1)[0] == fence[0]
                and len(m.group(1)) >= fence[1]
                and not m.group(2).strip()
            ):
                fence = None
            continue
        stripped = line.strip()
        if len(line) - len(line.lstrip(" ")) > 3:
            continue  # an indented code block
        if stripped == MARK_START:
            starts.append(i)
        elif stripped == MARK_END:
            ends.append(i)
    if not starts and not ends:
        return Markers()
    if len(starts) == 1 and len(ends) == 1 and starts[0] < ends[0]:
        return Markers(starts[0], ends[0])
    if not ends:
        where = starts[0]
        problem = f"has {MARK_START} on line {where + 1} but no {MARK_END}; add the end marker"
    elif not starts:
        where = ends[0]
        problem = f"has {MARK_END} on line {where + 1} but no {MARK_START}; add the start marker"
    elif len(starts) > 1 or len(ends) > 1:
        where = (starts[1:] or ends[1:])[0]
        problem = (
            f"has {len(starts)} start and {len(ends)} end markers; keep exactly one pair "
            f"(extra marker on line {where + 1})"
        )
    else:
        where = ends[0]
        problem = f"has the end marker (line {ends[0] + 1}) before the start marker; swap them"
    return Markers(problem=problem, problem_line=where + 1)


def normalise(data: bytes | str) -> str:
    """Text with LF line ends (CRLF and lone CR become LF)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return text.replace("\r\n", "\n").replace("\r", "\n")


def splice(text: str, markers: Markers, block: str) -> str:
    """Replace the marked region (markers included) by ``block``; keep the rest verbatim."""
    assert markers.start is not None and markers.end is not None
    lines = text.split("\n")
    before = "".join(line + "\n" for line in lines[: markers.start])
    after = "\n".join(lines[markers.end + 1 :])
    out = before + block + after
    return out if out.endswith("\n") else out + "\n"
