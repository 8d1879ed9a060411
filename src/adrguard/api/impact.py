"""Change sets and impact: git history → ChangeSet → :func:`adrguard.core.impact.analyse`.

``build_changes`` is what ``check --base`` and ``impact`` share: the merge base of base and
head (``base...head``), the files changed since it (``-z`` safe, renames with their old path),
and the corpus as it was at the merge base, parsed with the same config as discovery.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from pathlib import Path

from adrguard.api.corpus import build_corpus, load_with, parse_sources, resolve_root
from adrguard.config import DEFAULT_ROOTS, Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.impact import Impact, analyse, configured_statuses
from adrguard.core.mapping import manifest_of
from adrguard.core.model import ChangeSet, Corpus, Decision, SourceFile
from adrguard.core.options import manifest_path


def corpus_at(
    repo_root: Path,
    config: Config,
    rev: str,
    roots: tuple[str, ...] = (),
    reuse: Corpus | None = None,
) -> Corpus:
    """The corpus as it was at commit ``rev``: the same roots, excludes and archive folders as
    discovery, read from git objects (the work tree is not touched). A record of ``reuse``
    with the same path and content is taken as it is instead of being parsed again."""
    from adrguard.adapters import git as gitio
    from adrguard.adapters import layout

    blobs = gitio.files_at(repo_root, rev)
    if roots:
        use_roots, shallow = roots, (reuse.shallow_roots if reuse is not None else frozenset())
    else:
        use_roots, shallow = _roots_at(repo_root, config, blobs)
    plan = layout.classify(sorted(blobs), use_roots, config, shallow=shallow)
    limit = config.options.max_file_size
    manifest = manifest_path(config.options)
    wanted = [blobs[p] for p, _root, _arch in plan.records]
    texts = [p for p in _generated(blobs, use_roots) if p != manifest]
    for path in (manifest, *texts):
        if path in blobs:
            wanted.append(blobs[path])
    data = gitio.read_blobs(repo_root, wanted)
    known = reuse.by_path if reuse is not None else {}
    kept: list[Decision] = []
    sources: list[SourceFile] = []
    for path, root, archived in plan.records:
        raw = data[blobs[path]]
        same = known.get(path)
        if len(raw) > limit:
            why = f"file is {len(raw):,} bytes at {rev[:12]}, larger than max-file-size ({limit:,})"
            sources.append(SourceFile(path, root, None, why, archived))
        elif (
            same is not None
            and (same.root, same.archived) == (root, archived)
            and (same.sha256 == _content_sha(raw))
        ):
            kept.append(same)
        else:
            sources.append(SourceFile(path, root, raw, None, archived))
    others = {p: data[blobs[p]] for p in (manifest, *texts) if p in blobs}
    return build_corpus(
        kept + parse_sources(sources, config),
        roots=use_roots,
        repo_files=blobs.keys(),
        other_texts=others,
        skipped=plan.skipped,
        repo_url=None,
        shallow_roots=shallow,
    )


def _generated(blobs: Collection[str], roots: Collection[str]) -> list[str]:
    """Index and CURRENT files directly in the roots (what rules compare the records with)."""
    from adrguard.adapters.files import OTHER_TEXT_NAMES
    from adrguard.core.region import join_root

    return [p for r in roots for n in sorted(OTHER_TEXT_NAMES) if (p := join_root(r, n)) in blobs]


def _content_sha(data: bytes) -> str:
    """``Decision.sha256`` of a file's bytes (line ends normalised, as the parser does)."""
    return hashlib.sha256(data.replace(b"\r\n", b"\n") if b"\r" in data else data).hexdigest()


def _roots_at(
    repo_root: Path, config: Config, blobs: Collection[str]
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The roots discovery would use (and which of them are shallow), else (when they are gone
    from the work tree) the configured or default roots that hold files at the revision."""
    from adrguard.adapters import files

    try:
        search = files.find_roots(repo_root, config)
    except UserError:
        candidates = config.roots or DEFAULT_ROOTS
        held = tuple(r for r in candidates if any(p.startswith(f"{r}/") for p in blobs))
        return held, frozenset()
    return tuple(r.path for r in search.roots), frozenset(r.path for r in search.roots if r.shallow)


def build_changes(
    repo_root: Path,
    config: Config,
    base: str,
    head: str | None = None,
    *,
    corpus: Corpus | None = None,
    deepen: bool = False,
) -> ChangeSet:
    """What changed from the merge base of ``base`` and ``head`` (default ``HEAD``) to head,
    with the corpus at the merge base. ``deepen`` fetches more history in shallow clones."""
    from adrguard.adapters import git as gitio

    head_ref = head or "HEAD"
    head_sha = gitio.resolve_commit(repo_root, head_ref, "head")
    try:
        base_sha = gitio.resolve_commit(repo_root, base, "base")
    except UserError:
        if not deepen or not gitio.is_shallow(repo_root):
            raise
        base_sha = ""  # --deepen fetches it
    merge = gitio.merge_base(repo_root, base_sha, head_sha) if base_sha else None
    notes: list[str] = []
    if merge is None:
        if not deepen or not gitio.is_shallow(repo_root):
            raise gitio.no_merge_base_error(repo_root, base, head_ref)
        merge, fetched = gitio.deepen_until_merge_base(repo_root, base, head_ref)
        notes.append(f"--deepen fetched more history ({fetched} fetches) to find the merge base")
        base_sha = gitio.resolve_commit(repo_root, base, "base")
        head_sha = gitio.resolve_commit(repo_root, head_ref, "head")
    if base_sha == head_sha:
        notes.append(f"base {base} and head {head_ref} are the same commit: nothing changed")
    elif merge != base_sha:
        notes.append(
            f"{base} is not an ancestor of {head_ref}: compared against their merge base "
            f"{merge[:12]}, so only what {head_ref} changed since it branched counts"
        )
    changes, diff_notes = gitio.diff_changes(repo_root, merge, head_sha)
    roots = corpus.roots if corpus is not None else ()
    return ChangeSet(
        base=base,
        head=head_ref,
        merge_base=merge,
        changes=tuple(changes),
        base_corpus=corpus_at(repo_root, config, merge, roots, reuse=corpus),
        notes=tuple(notes + diff_notes),
        base_commit=base_sha,
        head_commit=head_sha,
    )


def head_corpus(repo_root: Path, config: Config, head: str | None) -> Corpus:
    """The corpus ``head`` describes: the work tree for no head (or a head naming the commit
    checked out), else the files of that commit."""
    from adrguard.adapters import git as gitio

    if head is not None:
        wanted = gitio.resolve_commit(repo_root, head, "head")
        if wanted != gitio.resolve_commit(repo_root, "HEAD", "head"):
            return corpus_at(repo_root, config, wanted)
    return load_with(repo_root, config, untracked=False)  # what git will commit


def impact(
    repo_root: Path | str | None = None,
    *,
    base: str,
    head: str | None = None,
    config_path: Path | None = None,
    config: Config | None = None,
    statuses: Collection[str] | None = None,
    deepen: bool = False,
) -> Impact:
    """The decisions a change touches (``adrguard impact``). ``statuses`` that govern default
    to the config's ``impact.statuses``, else accepted."""
    from adrguard.adapters import git as gitio

    root = resolve_root(repo_root)
    cfg = config if config is not None else load_config(root, config_path)
    gitio.require_repo(root)
    corpus = head_corpus(root, cfg, head)
    changes = build_changes(root, cfg, base, head, corpus=corpus, deepen=deepen)
    manifest = manifest_of(corpus, cfg.options)
    wanted = configured_statuses(cfg.options) if statuses is None else statuses
    return analyse(corpus, changes, manifest, wanted)
