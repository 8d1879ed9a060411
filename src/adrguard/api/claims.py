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
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from adrguard.config import Config
from adrguard.core.authoring.claims import Claimed, Claims, merge
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, SourceFile

CLAIMS_SCHEMA = "claims.schema.json"
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
    from adrguard.adapters.reading import read_bytes

    real = os.path.realpath(repo_root)
    out: dict[str, str] = {}
    for path in paths:
        got = read_bytes(real, path, config.options.max_file_size)
        if got is not None and got[0] is not None:
            out[path] = blob_id(got[0])
    return out


def _claimed(config: Config, corpus: Corpus, source: str, label: str,
             files: Mapping[str, bytes | None], blobs: Mapping[str, str]) -> list[Claimed]:
    """The records among ``files`` (path -> bytes, None when unknown) under this side's
    roots, parsed for their number, id and title."""
    from adrguard.adapters.layout import classify
    from adrguard.core.parse import formats
    from adrguard.core.parse.record import parse

    plan = classify(sorted(files), corpus.roots, config, shallow=corpus.shallow_roots)
    out: list[Claimed] = []
    for path, root, archived in plan.records:
        data = files[path]
        if data is None:
            fallback, number = formats.identity(path, root)
            out.append(Claimed(source, label, path, root, number, fallback, None,
                               blobs.get(path, "")))
            continue
        d = parse(SourceFile(path, root, data, archived=archived), config.options)
        out.append(Claimed(source, label, path, root, d.number, d.id, d.title,
                           blobs.get(path, "")))
    return out


def from_refs(repo_root: Path, config: Config, corpus: Corpus, refs: Sequence[str],
              head: str | None = None) -> Claims:
    """What each ref that ``refs`` name (refs or globs) adds since its merge base with
    ``head`` (default HEAD; the work tree is this side), and this side's new records."""
    from adrguard.adapters import git as gitio
    from adrguard.adapters import revisions

    listed = revisions.list_refs(repo_root, list(refs))
    here = revisions.resolve_commit(repo_root, head or "HEAD", "head")
    existing: dict[str, set[str]] = {}
    parts: list[Claims] = []
    for name, sha in listed:
        label = short_ref(name)
        if sha == here:
            continue  # the commit this side starts from
        base = revisions.merge_base(repo_root, here, sha)
        if base is None:
            raise revisions.no_merge_base_error(repo_root, name, head or "HEAD")
        changes, _notes = revisions.diff_changes(repo_root, base, sha)
        added = [c.path for c in changes if c.status == "A" or (
            c.status == "R" and c.old_path is not None and _renumbered(c.old_path, c.path))]
        ids = revisions.object_ids(repo_root, sha, added) if added else {}
        data = gitio.read_blobs(repo_root, list(ids.values()))
        files = {p: data.get(ids[p]) for p in ids}
        if base not in existing:
            existing[base] = revisions.paths_at(repo_root, base, list(corpus.roots))
        mine = frozenset(d.path for d in corpus.decisions if d.path not in existing[base])
        parts.append(Claims(tuple(_claimed(config, corpus, name, label, files, ids)),
                            {name: mine}, sources=(name,)))
    claims = merge(parts)
    new = sorted({p for paths in claims.new_here.values() for p in paths})
    return merge([claims, Claims(blobs=_our_blobs(repo_root, config, new))])


def _renumbered(old: str, new: str) -> bool:
    from adrguard.core.parse import formats

    return formats.number_from_name(old.rsplit("/", 1)[-1]) != formats.number_from_name(
        new.rsplit("/", 1)[-1])


# --- a claims file (the Action's open pull requests) --------------------------------------


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and ".." not in parts and "" not in parts and all(
        c >= " " and c != "\x7f" for c in path)


def read_file(path: Path) -> dict[str, Any]:
    """A claims file (``schemas/claims.schema.json``), validated."""
    from adrguard.core.schemas import validator

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
    parts: list[Claims] = []
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
        parts.append(Claims(tuple(_claimed(config, corpus, source, label, files, blobs)),
                            {source: mine}, sources=(source,)))
    claims = merge(parts)
    return merge([claims, Claims(blobs=_our_blobs(repo_root, config, sorted(mine)))])
