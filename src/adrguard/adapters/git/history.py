"""Revisions and what changed between them: resolving refs, the merge base (fetching more
history of a shallow clone when asked), the files a diff names, and the refs a glob lists
(``--against``)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from adrguard.adapters.git.command import GitError, decode_path, require_repo, run
from adrguard.core.errors import UserError
from adrguard.core.model import FileChange
from adrguard.core.wording import plural

_FETCH_TIMEOUT = 300.0  # seconds per fetch attempt
DEEPEN_STEPS: tuple[int, ...] = (64, 512, 4096)  # bounded: three deepening fetches, then unshallow


def _fetch_hint(repo_root: Path, ref: str) -> str:
    remote, _, branch = ref.partition("/")
    if branch and remote in remotes(repo_root):
        return f"git fetch {remote} {branch}"
    return f"git fetch origin {ref}"


def resolve_commit(repo_root: Path, ref: str, role: str = "base") -> str:
    """The full commit id ``ref`` names; a one-line ``UserError`` naming the fix otherwise."""
    require_repo(repo_root)
    try:
        out = run(
            repo_root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"
        )
    except GitError:
        flag = f"--{role}"
        raise UserError(
            f"{role} ref {ref!r} not found: fetch it ({_fetch_hint(repo_root, ref)}) "
            f"or pass {flag} with an existing ref"
        ) from None
    return out.decode("ascii").strip()


def remotes(repo_root: Path) -> list[str]:
    try:
        return run(repo_root, "remote").decode("utf-8", "replace").split()
    except GitError:
        return []


def is_shallow(repo_root: Path) -> bool:
    try:
        return run(repo_root, "rev-parse", "--is-shallow-repository").strip() == b"true"
    except GitError:
        return False


def merge_base(repo_root: Path, base: str, head: str) -> str | None:
    """The best common ancestor of two commits (``base...head``), or None when there is none."""
    try:
        out = run(repo_root, "merge-base", base, head)
    except GitError as exc:
        if exc.status == 1:
            return None
        raise exc.saying(f"git merge-base {base} {head} failed: {exc.reason}") from None
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
            f"{remote} ({plural(fetched, 'fetch', 'fetches')}): pass a --base that the head "
            "branch was started from"
        )
    return found, fetched


def _exists(repo_root: Path, ref: str) -> bool:
    try:
        resolve_commit(repo_root, ref)
    except UserError:
        return False
    return True


def _fetch(repo_root: Path, flag: str, remote: str, refspecs: list[str]) -> None:
    try:
        run(
            repo_root,
            "fetch",
            "--quiet",
            "--no-tags",
            flag,
            remote,
            *refspecs,
            timeout=_FETCH_TIMEOUT,
        )
    except GitError as exc:
        raise exc.saying(f"--deepen: git fetch {flag} {remote} failed: {exc.reason}") from None


class Span(msgspec.Struct, frozen=True):
    """What a change spans: the commits ``base`` and ``head`` name, their merge base, the files
    changed from the merge base to head, and notes on how it was reached (``--deepen``, a base
    that is not an ancestor) and on what was not inspected."""

    base_commit: str
    head_commit: str
    merge_base: str
    changes: list[FileChange]
    notes: list[str]


def span(
    repo_root: Path, base: str, head_ref: str, *, deepen: bool = False,
    head_commit: str | None = None,
) -> Span:
    """The change from the merge base of ``base`` and ``head_ref`` to head (``base...head``):
    resolved, its merge base found (fetching more history of a shallow clone with ``deepen``)
    and diffed. ``head_commit``: the commit ``head_ref`` names, when the caller resolved it
    already (it is resolved again only after ``deepen`` fetched)."""
    head_sha = head_commit or resolve_commit(repo_root, head_ref, "head")
    try:
        base_sha = resolve_commit(repo_root, base, "base")
    except UserError:
        if not deepen or not is_shallow(repo_root):
            raise
        base_sha = ""  # --deepen fetches it
    merge = merge_base(repo_root, base_sha, head_sha) if base_sha else None
    notes: list[str] = []
    if merge is None:
        if not deepen or not is_shallow(repo_root):
            raise no_merge_base_error(repo_root, base, head_ref)
        merge, fetched = deepen_until_merge_base(repo_root, base, head_ref)
        notes.append(f"--deepen fetched more history ({plural(fetched, 'fetch', 'fetches')}) "
                     "to find the merge base")
        base_sha = resolve_commit(repo_root, base, "base")
        head_sha = resolve_commit(repo_root, head_ref, "head")
    if base_sha == head_sha:
        notes.append(f"base {base} and head {head_ref} are the same commit: nothing changed")
    elif merge != base_sha:
        notes.append(
            f"{base} is not an ancestor of {head_ref}: compared against their merge base "
            f"{merge[:12]}, so only what {head_ref} changed since it branched counts"
        )
    changes, diff_notes = diff_changes(repo_root, merge, head_sha)
    return Span(base_sha, head_sha, merge, changes, notes + diff_notes)


def diff_changes(
    repo_root: Path, *revs: str, cached: bool = False
) -> tuple[list[FileChange], list[str]]:
    """Files changed from commit ``revs[0]`` to ``revs[1]`` (one rev: to the work tree, or with
    ``cached`` to the index) with status, old path (renames) and notes on what was not
    inspected (submodules, paths that are not UTF-8). ``-z`` safe."""
    changes, notes, _before = diff_with_ids(repo_root, *revs, cached=cached)
    return changes, notes


# git's id of "no object" in a raw diff (a file that side does not hold)
_NO_OBJECT = frozenset((b"0" * 40, b"0" * 64))


def diff_with_ids(
    repo_root: Path, *revs: str, cached: bool = False
) -> tuple[list[FileChange], list[str], dict[str, str | None] | None]:
    """:func:`diff_changes`, and the object id at ``revs[0]`` of every file the change does
    not add (by its path there: the old path of a rename), None for a submodule. The whole
    mapping is None when a path is not the name git knows the file by (not UTF-8), would be
    read as pathspec magic (a leading ``:``), or has no id: read such files by listing them
    (:func:`adrguard.adapters.git.blobs_at`)."""
    try:
        out = run(
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
    except GitError as exc:
        shown = " ".join(r[:12] for r in revs)
        raise exc.saying(f"git diff {shown} failed: {exc.reason}") from None
    fields = out.split(b"\0")
    changes: list[FileChange] = []
    notes: list[str] = []
    before: dict[str, str | None] | None = {}
    i = 0
    while i < len(fields) and fields[i].startswith(b":"):
        meta = fields[i][1:].split(b" ")
        old_mode, new_mode, status = meta[0], meta[1], meta[4].decode("ascii")
        old_id = meta[2]
        kind = status[0]
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
        changes.append(FileChange(kind, dst, src))
        if kind != "A" and before is not None:
            held = None if old_mode == b"160000" else old_id.decode("ascii")
            was = src or dst
            if (old_id in _NO_OBJECT or was.startswith(":")  # ":": a pathspec's magic to git
                    or before.setdefault(was, held) != held):
                before = None
        if b"160000" in (old_mode, new_mode):
            notes.append(f"submodule {dst} changed: its own files are not inspected")
        if any(_not_utf8(p) for p in raw_paths):
            notes.append(f"path {dst} is not valid UTF-8: shown with \\x escapes")
            before = None  # its name here is not the bytes git knows it by
    return changes, notes, before


def _not_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


_GLOB = frozenset("*?[")
_REF_FOLDERS = ("refs/heads/", "refs/remotes/", "refs/tags/")


class Listed(msgspec.Struct, frozen=True):
    """The refs ``--against`` names: (ref, commit, whether a glob matched it) each commit once,
    and a note for each ref a glob matched that names no commit (a tree, a blob), skipped."""

    refs: list[tuple[str, str, bool]]
    skipped: list[str]


def list_refs(repo_root: Path, patterns: list[str]) -> Listed:
    """Every ref the patterns name, in the order given, each commit once. A glob
    (``refs/remotes/origin/pr/*``, ``origin/pr/*``) lists what ``git for-each-ref`` holds (a
    glob that does not start with ``refs/`` is also tried under ``refs/heads``,
    ``refs/remotes`` and ``refs/tags``) and may match nothing; a ref it matches that is not a
    commit (nor a tag of one) is skipped with a note. Any other pattern must name an existing ref
    or commit. Only what is already fetched is read: nothing is fetched."""
    require_repo(repo_root)
    out: dict[str, tuple[str, bool]] = {}
    skipped: list[str] = []
    for pattern in patterns:
        if not pattern or pattern.startswith("-") or any(c in pattern for c in "\0\n"):
            raise UserError(f"--against {pattern!r} is not a ref name or glob")
        if not _GLOB & set(pattern):
            out.setdefault(pattern, (resolve_commit(repo_root, pattern, "against"), False))
            continue
        wanted = [pattern] if pattern.startswith("refs/") else [
            pattern, *(f"{folder}{pattern}" for folder in _REF_FOLDERS)
        ]
        try:
            raw = run(repo_root, "for-each-ref", "--format=%(refname)%00%(objectname)"
                          "%00%(objecttype)%00%(*objectname)%00%(*objecttype)",
                          "--end-of-options", *wanted) if wanted else b""
        except GitError as exc:
            raise exc.saying(f"git for-each-ref {pattern} failed: {exc.reason}") from None
        for row in raw.decode("utf-8", "replace").splitlines():
            name, sha, kind, peeled, peeled_kind = (row.split("\0") + [""] * 5)[:5]
            if not name or name.endswith("/HEAD") or name in out:  # origin/HEAD: an alias
                continue
            if (peeled_kind or kind) != "commit":
                skipped.append(f"{name} points to a {peeled_kind or kind or 'missing object'}, "
                               "not a commit: skipped")
                continue
            out[name] = (peeled or sha, True)
    seen: set[str] = set()
    unique = []
    for name, (sha, globbed) in out.items():  # two names of one commit add the same records
        if sha not in seen:
            seen.add(sha)
            unique.append((name, sha, globbed))
    return Listed(unique, skipped)
