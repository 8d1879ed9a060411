"""What other refs and open pull requests add (``check --against``, ``new --against``, the
Action's ``open-pull-requests`` input), as :class:`~adrguard.core.authoring.claims.Claims`.

From refs (:func:`from_refs`): each ref is compared with this change from their merge base:
the records it adds there (``git diff`` of the merge base and the ref, the files read from git's
objects, never checked out, nothing fetched), and the records of this side that the merge base
does not have. From a claims file (:func:`from_file`, written by ``adrguard action prepare``
from the pull requests API): the records each pull request adds, against the records this
change adds since its base.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from adrguard.adapters import git
from adrguard.adapters.layout import classify
from adrguard.adapters.reading import read_bytes
from adrguard.config import Config
from adrguard.core.authoring.claims import Claimed, merge
from adrguard.core.authoring.claims import Claims as Claims
from adrguard.core.authoring.claims import summary as summary
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, SourceFile
from adrguard.core.parse import formats
from adrguard.core.schemas import load_json, validator

CLAIMS_SCHEMA = "claims.schema.json"
MAX_CLAIMS = 64 * 1024 * 1024  # bytes of a claims file (the Action writes at most a few MiB)
_PREFIXES = ("refs/remotes/", "refs/heads/", "refs/tags/", "refs/")


def short_ref(name: str) -> str:
    for prefix in _PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix) :]
    return name


def blob_id(data: bytes) -> str:
    """Git's object id of a file with these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _our_blobs(repo_root: Path, config: Config, paths: Sequence[str]) -> dict[str, str]:
    real = os.path.realpath(repo_root)
    out: dict[str, str] = {}
    for path in paths:
        got = read_bytes(real, path, config.options.max_file_size)
        if got is not None and got[0] is not None:
            out[path] = blob_id(got[0])
    return out


Where = Mapping[str, tuple[str, bool]]  # record path -> (its ADR root, archived)


def _where(config: Config, corpus: Corpus, paths: set[str]) -> dict[str, tuple[str, bool]]:
    """Which of ``paths`` are records under this side's roots (one classification for every
    source: its cost does not grow with the number of refs)."""
    plan = classify(sorted(paths), corpus.roots, config, shallow=corpus.shallow_roots)
    return {path: (root, archived) for path, root, archived in plan.records}


def _claimed(config: Config, where: Where, source: str, label: str,
             files: Mapping[str, bytes | None], blobs: Mapping[str, str]) -> list[Claimed]:
    """The records among ``files`` (path -> bytes, None when unknown), parsed for their
    number, id and title."""
    from adrguard.core.parse.record import parse

    out: list[Claimed] = []
    for path in sorted(files):
        if path not in where:
            continue
        root, archived = where[path]
        data = files[path]
        if data is None:
            (ident, number), title = formats.identity(path, root), None
        else:
            d = parse(SourceFile(path, root, data, archived=archived), config.options)
            ident, number, title = d.id, d.number, d.title
        out.append(Claimed(source, label, path, root, number, ident, title, blobs.get(path, "")))
    return out


def from_refs(repo_root: Path, config: Config, corpus: Corpus, refs: Sequence[str],
              head: str | None = None, head_commit: str | None = None) -> Claims:
    """What each ref that ``refs`` name (refs or globs) adds since its merge base with
    ``head`` (default HEAD; the work tree is this side), and this side's new records.
    ``head_commit``: the commit ``head`` names, when the change resolved it already."""
    listed = git.list_refs(repo_root, list(refs))
    here = head_commit or git.resolve_commit(repo_root, head or "HEAD", "head")
    existing: dict[str, set[str]] = {}
    pending: list[tuple[str, str, dict[str, bytes | None], dict[str, str], frozenset[str]]] = []
    notes = list(listed.skipped)
    for name, sha, globbed in listed.refs:
        label = short_ref(name)
        if sha == here:
            continue  # the commit this side starts from
        base = git.merge_base(repo_root, here, sha)
        if base is None and globbed:  # one unrelated ref a glob matched: not this change's kin
            notes.append(f"{name} shares no history with {head or 'HEAD'}: skipped")
            continue
        if base is None:
            raise git.no_merge_base_error(repo_root, name, head or "HEAD")
        changes, _notes = git.diff_changes(repo_root, base, sha)
        added = [c.path for c in changes if c.status == "A" or (
            c.status == "R" and c.old_path is not None and _renumbered(c.old_path, c.path))]
        ids = git.object_ids(repo_root, sha, added) if added else {}
        data = git.read_blobs(repo_root, list(ids.values()))
        files = {p: data.get(ids[p]) for p in ids}
        if base not in existing:
            existing[base] = git.paths_at(repo_root, base, list(corpus.roots))
        mine = frozenset(d.path for d in corpus.decisions if d.path not in existing[base])
        pending.append((name, label, files, ids, mine))
    where = _where(config, corpus, {p for _, _, files, _, _ in pending for p in files})
    parts = [Claims(tuple(_claimed(config, where, name, label, files, ids)), {name: mine},
                    sources=(name,)) for name, label, files, ids, mine in pending]
    claims = merge(parts)
    new = sorted({p for paths in claims.new_here.values() for p in paths})
    return merge([claims, Claims(blobs=_our_blobs(repo_root, config, new), notes=tuple(notes))])


def _renumbered(old: str, new: str) -> bool:
    return formats.number_from_name(old.rsplit("/", 1)[-1]) != formats.number_from_name(
        new.rsplit("/", 1)[-1])


# --- a claims file (the Action's open pull requests) --------------------------------------


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and ".." not in parts and "" not in parts and all(
        c >= " " and c != "\x7f" for c in path)


def _read_claims(path: Path) -> str:
    """The text of a claims file: a regular file of at most :data:`MAX_CLAIMS` bytes, UTF-8."""
    import stat

    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        data = fh.read(MAX_CLAIMS + 1)
    if len(data) > MAX_CLAIMS:
        raise ValueError(f"larger than {MAX_CLAIMS:,} bytes")
    return data.decode("utf-8")


def read_file(path: Path) -> dict[str, Any]:
    """A claims file (``schemas/claims.schema.json``), validated."""
    try:
        data = load_json(_read_claims(path))
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read the claims file {path}: {exc}") from None
    errors = sorted(validator(CLAIMS_SCHEMA).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        where = ".".join(str(p) for p in errors[0].path) or "(top level)"
        raise UserError(f"claims file {path}: invalid at {where}: {errors[0].message}")
    return dict(data)


def from_file(repo_root: Path, config: Config, corpus: Corpus, path: Path,
              before: Corpus) -> Claims:
    """The records each pull request of a claims file adds, against the records this change
    adds since ``before`` (the corpus at its base)."""
    data = read_file(path)
    mine = frozenset(d.path for d in corpus.decisions if d.path not in before.by_path)
    pending: list[tuple[str, str, dict[str, bytes | None], dict[str, str]]] = []
    for pull in data["pullRequests"]:
        source = f"pull request #{pull['number']}"
        title = str(pull.get("title") or "").strip()
        label = f"{source} ({title[:80]!r})" if title else source
        files: dict[str, bytes | None] = {}
        blobs: dict[str, str] = {}
        for f in pull["files"]:
            if not _safe_path(f["path"]):
                continue  # a path from the API that is not a plain repo-relative path
            text = f.get("text")
            files[f["path"]] = text.encode("utf-8") if isinstance(text, str) else None
            if f.get("blob"):
                blobs[f["path"]] = str(f["blob"])
        pending.append((source, label, files, blobs))
    where = _where(config, corpus, {p for _, _, files, _ in pending for p in files})
    parts = [Claims(tuple(_claimed(config, where, source, label, files, blobs)),
                    {source: mine}, sources=(source,)) for source, label, files, blobs in pending]
    claims = merge(parts)
    return merge([claims, Claims(blobs=_our_blobs(repo_root, config, sorted(mine)))])
