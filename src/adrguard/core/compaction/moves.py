"""An archive move, worked out on paths and bytes: where each retired record goes, and every
relative link, in both directions, that the move would break and how it is rewritten.

A record moves to its root's archive folder, keeping its place below the root
(``docs/adr/0004-x.md`` -> ``docs/adr/archive/0004-x.md``; ``docs/adr/api/0007-y.md`` ->
``docs/adr/archive/api/0007-y.md``); a one-folder-per-record record moves with its folder. A
link needs rewriting when, after the move, the text written would name another file than the
one it names now: a link *to* a moved file from anywhere, and a relative link *from* a moved
file to anything that stays. The rewrite replaces only the destination's path: the ``#anchor``
and ``?query``, the link text and the title stay as written, and so does the target's file
name as it was written (its percent-encoding and backslash escapes). A link the move does not
change (to a file that stays, from a file that stays; a URL; a link already broken before the
move, which stays broken) is no conflict: at most a risk the plan names. Pure.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from adrguard.core.compaction.links import Occurrence, occurrences
from adrguard.core.graph.resolve import normalise, parse_target
from adrguard.core.model import Corpus, Decision
from adrguard.core.parse import formats
from adrguard.core.parse.ids import parse_name
from adrguard.core.repository import Repository

_SAFE = "-._~!$&'()*+,;=:@"


def sha256(data: bytes) -> str:
    """The hash a plan records: of the bytes exactly as stored."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Edit:
    """Replace bytes ``start:end`` (``old``) by ``new``."""

    start: int
    end: int
    line: int
    kind: str
    direction: str  # inbound (to a moved file) | outbound (from a moved file)
    old: str
    new: str


@dataclass(frozen=True)
class Issue:
    """A conflict (``blocking``: apply refuses the plan) or a risk the plan cannot remove."""

    kind: str
    path: str
    line: int
    message: str
    blocking: bool = True


@dataclass(frozen=True)
class Rewrite:
    """The link edits of one file: ``source`` now, ``path`` after the move (the same when the
    file stays)."""

    source: str
    path: str
    edits: tuple[Edit, ...]
    before: bytes
    after: bytes


def archive_name(corpus: Corpus, root: str, archive_dirs: Sequence[str]) -> str:
    """The archive folder name used in ``root``: the one its archived records are in, else
    the first configured (``archive``)."""
    for d in corpus.decisions:
        if d.root == root and d.archived:
            rel = d.path if root in ("", ".") else d.path[len(root) + 1 :]
            for part in rel.split("/")[:-1]:
                if part in archive_dirs:
                    return part
    return archive_dirs[0] if archive_dirs else "archive"


def unit_of(d: Decision) -> str:
    """What moves: the record's file, or its folder (one folder per record)."""
    if formats.is_folder_record(d.path, d.root):
        return d.path.rsplit("/", 1)[0]
    return d.path


def target_of(unit: str, root: str, archive: str) -> str:
    rel = unit if root in ("", ".") else unit[len(root) + 1 :]
    return f"{archive}/{rel}" if root in ("", ".") else f"{root}/{archive}/{rel}"


def mirror_units(d: Decision, target: str, corpus: Corpus) -> dict[str, str]:
    """The translation mirrors of ``d`` (:mod:`adrguard.core.parse.mirrors`) and where each
    goes when ``d`` moves to ``target``: a file that adds a language tag to its name stays
    beside it (``0002-x.zh.md`` -> ``archive/0002-x.zh.md``); a file of a language folder
    that repeats its name or number mirrors the move inside that folder (``zh/0002-x.md`` ->
    ``zh/archive/0002-x.md``), so the folder keeps mirroring the root's layout. A mirror
    declared with ``translation-of:`` names its original in words, not by path: it stays."""
    name = posixpath.basename(d.path)
    number = d.number if d.number is not None else parse_name(name).number
    out: dict[str, str] = {}
    for path, owner in sorted(corpus.mirrors.items()):
        if owner == d.path and path != d.path:  # 0002-x.zh.md beside 0002-x.md
            out[path] = posixpath.join(posixpath.dirname(target), posixpath.basename(path))
            continue
        if owner == path or not path.startswith(owner + "/"):
            continue
        base = posixpath.dirname(owner)  # the folder the language folder mirrors
        if base and not d.path.startswith(base + "/"):
            continue
        mirrored = posixpath.relpath(d.path, base or ".")
        mine = posixpath.relpath(path, owner)
        if posixpath.dirname(mine) != posixpath.dirname(mirrored):
            continue  # zh/api/0007-x.md mirrors api/0007-x.md only
        leaf = posixpath.basename(mine)
        if leaf.casefold() == name.casefold() or (
                number is not None and parse_name(leaf).number == number):
            out[path] = posixpath.join(owner, posixpath.relpath(target, base or "."))
    return out


class Mover:
    """Old path -> new path, for files and for the folders that move whole."""

    def __init__(self, units: Mapping[str, str], files: Collection[str]) -> None:
        self.units = dict(units)  # unit (file or folder) -> its target
        self.files: dict[str, str] = {}
        for unit, target in units.items():
            if unit in files:
                self.files[unit] = target
            for f in files:
                if f.startswith(unit + "/"):
                    self.files[f] = target + f[len(unit) :]

    def __call__(self, path: str) -> str:
        """Where ``path`` (a file or a folder) is after the move."""
        if path in self.files:
            return self.files[path]
        for unit, target in self.units.items():
            if path == unit or path.startswith(unit + "/"):
                return target + path[len(unit) :]
        return path


def _relative(to: str, from_dir: str) -> str:
    return posixpath.relpath(to or ".", from_dir or ".")


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def unescape(text: str) -> str:
    """CommonMark's backslash escapes resolved (a backslash before ASCII punctuation)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCTUATION:
            out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _written_segments(path: str) -> dict[str, str]:
    """decoded segment -> as written, for the segments of a destination's path (escapes and
    percent-encoding resolved in the key, kept in the value)."""
    return {unquote(unescape(seg)): seg for seg in path.split("/") if seg}


def _rewritable(o: Occurrence) -> bool:
    """Whether the written bytes can be rewritten segment by segment: written plainly, or with
    backslash escapes only (entities and YAML escapes are not)."""
    if o.exact:
        return True
    return o.kind in ("inline", "image", "reference") and unescape(o.raw) == o.destination


def new_destination(o: Occurrence, target: str, new_source: str, is_dir: bool) -> str:
    """The destination ``o`` is rewritten to, so that from ``new_source`` it names ``target``."""
    cut = min((i for i in (o.raw.find("#"), o.raw.find("?")) if i != -1), default=len(o.raw))
    path, suffix = o.raw[:cut], o.raw[cut:]
    written = _written_segments(path)
    new = target if path.startswith("/") else _relative(target, posixpath.dirname(new_source))
    segments = [written.get(seg) or quote(seg, safe=_SAFE) for seg in new.split("/")]
    out = "/".join(segments)
    if path.startswith("/"):
        out = "/" + out
    elif path.startswith("./") and not out.startswith("../"):
        out = "./" + out
    if path.endswith("/") and not out.endswith("/"):
        out += "/"
    elif is_dir and not path.endswith("/") and out.endswith("/"):
        out = out.rstrip("/")
    return out + suffix


def plan_rewrites(
    files: Mapping[str, bytes],
    move: Mover,
    repo_files: frozenset[str],
    repo_dirs: frozenset[str],
    repository: Repository | None,
) -> tuple[list[Rewrite], list[Issue], list[Issue]]:
    """(rewrites, conflicts, risks) for the markdown ``files`` (path now -> bytes)."""
    rewrites: list[Rewrite] = []
    conflicts: list[Issue] = []
    risks: list[Issue] = []
    for source in sorted(files):
        data = files[source]
        new_source = move(source)
        edits: list[Edit] = []
        for o in occurrences(data):
            dest = o.destination
            t = parse_target(dest, source, repository)
            if t.kind != "path" or t.repo_path is None:
                continue
            target = t.repo_path
            moved_target = move(target)
            if t.from_url:
                if moved_target != target:
                    risks.append(Issue("repository-url", source, o.line, f"{o.raw} names "
                                       f"{target}, which moves to {moved_target}: a URL is not "
                                       "rewritten; fix it after the merge", False))
                continue
            exists = target in repo_files or target in repo_dirs
            if o.kind == "front-matter" and target not in repo_files:
                continue  # a value that names no file is not a link (an id, a tag, a date)
            written_path = dest.split("#", 1)[0].split("?", 1)[0]
            resolved_after = (
                normalise(posixpath.dirname(new_source), unquote(written_path))[0]
                if written_path else new_source
            )
            if resolved_after is None:
                continue
            if not exists:  # broken before the move and after it: the move changes nothing
                if new_source != source and resolved_after != target:
                    risks.append(Issue("broken-link", source, o.line, f"{o.raw} names "
                                       f"{target}, which does not exist; it is left as "
                                       "written", False))
                continue
            if resolved_after.rstrip("/") == moved_target.rstrip("/") or not written_path:
                continue
            if not _rewritable(o):
                conflicts.append(Issue("inexact-link", source, o.line, f"{o.raw} is written "
                                       "with escapes or entities: write it plainly so it can be "
                                       "rewritten"))
                continue
            new = new_destination(o, moved_target, new_source, target in repo_dirs)
            direction = "outbound" if new_source != source else "inbound"
            edits.append(Edit(o.start, o.end, o.line, o.kind, direction, o.raw, new))
        if edits:
            rewrites.append(Rewrite(source, new_source, tuple(edits), data,
                                    apply_edits(data, edits)))
    return rewrites, conflicts, risks


def apply_edits(data: bytes, edits: Sequence[Edit]) -> bytes:
    """``data`` with every edit made (they do not overlap); the bytes replaced must be
    ``old``, else ValueError."""
    out = bytearray(data)
    for e in sorted(edits, key=lambda x: x.start, reverse=True):
        if bytes(out[e.start : e.end]) != e.old.encode("utf-8"):
            raise ValueError(f"bytes {e.start}:{e.end} are not {e.old!r}")
        out[e.start : e.end] = e.new.encode("utf-8")
    return bytes(out)
