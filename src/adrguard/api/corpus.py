"""The one pipeline: a source (work tree or git revision) → discover → read → parse → Corpus.

Every front end (CLI, MCP server, the action) and every command that reads records (check and
``--base``, impact, index, current, list, show, graph, find, context, ...) builds its corpus
with :func:`load_corpus`. Parsed records come from the record cache
(:mod:`adrguard.adapters.cache`) when it holds them.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from adrguard.adapters.cache import Store
from adrguard.adapters.files import Discovery
from adrguard.adapters.source import Source, WorkTree
from adrguard.config import Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.findings import Report
from adrguard.core.model import Corpus, Decision, SourceFile


def resolve_root(repo_root: Path | str | None) -> Path:
    """The directory given, or else the top of the git work tree around the current directory
    (found by walking up to ``.git``, without starting git), or else the current directory.
    Resolved once here; everything below takes it as it is."""
    if repo_root is None:
        start = Path.cwd().resolve()
        return next((d for d in (start, *start.parents) if (d / ".git").exists()), start)
    root = Path(repo_root)
    if not root.exists():
        raise UserError(f"--root {root} does not exist")
    if not root.is_dir():
        raise UserError(f"--root {root} is not a directory")
    return root.resolve()


def open_store(config: Config, repo_root: Path) -> Store | None:
    """The record cache for this run, or None when it is off (``--no-cache``, ``cache = false``,
    ``ADRGUARD_NO_CACHE``) or cannot be used. Whatever is in the work tree may come from a pull
    request, so the cache is never inside it: a chosen folder there (``cache-dir``,
    ``ADRGUARD_CACHE_DIR``) is a configuration error, and the default one (a repository of the
    home folder) means running without a cache."""
    if not config.cache or os.environ.get("ADRGUARD_NO_CACHE"):
        return None
    from adrguard.adapters import cache

    directory = cache.cache_dir(config.cache_dir)
    real, top = os.path.realpath(directory), os.path.realpath(repo_root)
    if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
        if not (os.environ.get("ADRGUARD_CACHE_DIR") or config.cache_dir):
            return None  # the default folder: nobody chose it
        raise UserError(
            f"the cache folder {directory} is inside the repository {repo_root}: set cache-dir "
            "(or ADRGUARD_CACHE_DIR) to a folder outside it, or run with --no-cache"
        )
    return cache.Store.open(directory)


def load_corpus(source: Source, config: Config, *, reuse: Corpus | None = None) -> Corpus:
    """The corpus ``source`` holds. Records of ``reuse`` with the same path, root, archive flag
    and bytes are taken as they are (the base of a change shares most records with its head)."""
    # Records of a revision are not cached: the head's records (``reuse``) hold almost all of them.
    work_tree = isinstance(source, WorkTree)
    store = open_store(config, source.root) if work_tree else None
    try:
        found = source.discover(config, store)
        return corpus_of(found, config, store, reuse, source.root if work_tree else None)
    finally:
        if store is not None:
            store.close()


def load_with(repo_root: Path, config: Config) -> Corpus:
    """The corpus of the work tree at ``repo_root`` (already resolved)."""
    return load_corpus(WorkTree(repo_root), config)


def load(
    repo_root: Path | str | None = None, config_path: Path | None = None
) -> tuple[Config, Corpus]:
    root = resolve_root(repo_root)
    config = load_config(root, config_path)
    return config, load_with(root, config)


def corpus_of(
    found: Discovery,
    config: Config,
    store: Store | None = None,
    reuse: Corpus | None = None,
    place: Path | None = None,
) -> Corpus:
    """Parse what discovery found into the corpus (cached by ``place``: see
    :func:`parse_sources`)."""
    return build_corpus(
        parse_sources(found.sources, config, store, reuse.by_path if reuse else None, place),
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repo_url=found.repo_url,
        untracked=found.untracked,
    )


def parse_sources(
    sources: Sequence[SourceFile],
    config: Config,
    store: Store | None = None,
    reuse: Mapping[str, Decision] | None = None,
    place: Path | None = None,
) -> list[Decision]:
    """Every source parsed, in order: from ``reuse`` or the cache when they hold it, else by
    :func:`adrguard.api.parsing.parse_all` (and then stored). The records of one place (a work
    tree) are kept together in one pack of the store."""
    import hashlib

    from adrguard.adapters.cache import Pack, digest, key, parser_signature, record_digest
    from adrguard.api.parsing import parse_all

    pack: Pack | None = None
    signature = b""
    if store is not None and place is not None:
        signature = digest(parser_signature(), _options_key(config))
        pack = Pack(store, key("records", signature, os.fspath(place)))
    out: list[Decision | None] = [None] * len(sources)
    todo: list[int] = []
    keys: dict[int, bytes] = {}
    for i, src in enumerate(sources):
        data = src.data
        if data is None or (pack is None and not reuse):  # nothing to look up
            todo.append(i)
            continue
        sha = hashlib.sha256(data).digest()
        old = reuse.get(src.path) if reuse else None
        if old is not None and _same(old, src) and old.sha256 == _content_sha(data, sha):
            out[i] = old
            continue
        if pack is not None:
            keys[i] = record_digest(signature, sha, src.path, src.root, src.archived)
            out[i] = _cached(pack.get(keys[i]), src)
        if out[i] is None:
            todo.append(i)
    fresh = parse_all(
        [sources[i] for i in todo], config.options, encoded=pack is not None, jobs=config.jobs
    )
    for i, (decision, blob) in zip(todo, fresh, strict=True):
        out[i] = decision
        if pack is not None and blob is not None and i in keys:
            pack.put(keys[i], blob)
    if pack is not None:
        pack.save()
    return [d for d in out if d is not None]


def _same(d: Decision, src: SourceFile) -> bool:
    return (d.path, d.root, d.archived) == (src.path, src.root, src.archived)


def _cached(blob: bytes | None, src: SourceFile) -> Decision | None:
    """The record ``blob`` holds when it decodes and is the one asked for."""
    from adrguard.core.serialize import decode

    if blob is None:
        return None
    try:
        hit = decode(blob)
    except ValueError:
        return None
    return hit if _same(hit, src) else None


def _content_sha(data: bytes, sha: bytes) -> str:
    """``Decision.sha256`` of a file's bytes (line ends normalised, as the parser does)."""
    if b"\r" not in data:
        return sha.hex()
    import hashlib

    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def _options_key(config: Config) -> str:
    """The parse options, canonically. ``today`` only matters to rules (ADR109): leaving it
    out keeps parsed records valid from one day to the next."""
    import json
    from dataclasses import fields, is_dataclass

    def plain(value: object) -> object:
        if is_dataclass(value) and not isinstance(value, type):
            return plain({f.name: getattr(value, f.name) for f in fields(value)})
        if isinstance(value, Mapping):
            return [[str(k), plain(v)] for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if value is None or isinstance(value, str | int | float | bool):
            return value
        return repr(value)

    return json.dumps(plain(replace(config.options, today=None)), ensure_ascii=True)


def build_corpus(
    decisions: list[Decision],
    *,
    roots: Sequence[str],
    repo_files: Collection[str],
    other_texts: Mapping[str, bytes],
    skipped: Sequence[str],
    repo_url: str | None,
    untracked: Sequence[str] = (),
) -> Corpus:
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    return Corpus(
        decisions=ordered,
        roots=tuple(roots),
        repo_files=frozenset(repo_files),
        other_texts=dict(other_texts),
        skipped=tuple(skipped),
        repo_url=repo_url,
        untracked=tuple(untracked),
    )


@dataclass(frozen=True)
class CheckResult:
    """A report, the effective config it was made with, and the corpus it was made from."""

    report: Report
    config: Config
    corpus: Corpus

    @property
    def repo_url(self) -> str | None:
        return self.corpus.repo_url

    @property
    def untracked(self) -> tuple[str, ...]:
        return self.corpus.untracked


def check(
    repo_root: Path | str | None = None,
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    paths: Sequence[str] = (),
    profile: str | None = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    base: str | None = None,
    head: str | None = None,
    today: str | None = None,
    deepen: bool = False,
) -> Report:
    """Run every selected rule over the repository's decisions and return the sorted report
    (the arguments are :func:`check_result`'s)."""
    return check_result(
        repo_root,
        config_path=config_path,
        config=config,
        paths=paths,
        profile=profile,
        select=select,
        ignore=ignore,
        base=base,
        head=head,
        today=today,
        deepen=deepen,
    ).report


def check_result(
    repo_root: Path | str | None = None,
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    paths: Sequence[str] = (),
    profile: str | None = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    base: str | None = None,
    head: str | None = None,
    today: str | None = None,
    deepen: bool = False,
) -> CheckResult:
    """The report together with the corpus and the effective config it was made from.
    ``base`` adds the change-aware rules, measured from the merge base of ``base`` and
    ``head`` (default: the work tree)."""
    from adrguard import engine

    root = resolve_root(repo_root)
    cfg = config if config is not None else load_config(root, config_path)
    overrides: dict[str, object] = {"profile": profile}
    if select:
        overrides["select"] = tuple(select)
    if ignore:
        overrides["ignore"] = tuple(cfg.ignore) + tuple(ignore)
    cfg = cfg.with_overrides(**overrides)
    if today is not None:
        cfg = replace(cfg, options=replace(cfg.options, today=today))
    rel_paths = [_relative(root, p) for p in paths]
    if base is None and head is not None:
        raise UserError("--head needs --base: say which revision the change is measured against")
    changes = None
    if base is not None:
        from adrguard.api import impact

        corpus = impact.head_corpus(root, cfg, head)
        changes = impact.build_changes(root, cfg, base, head, corpus=corpus, deepen=deepen)
    else:
        corpus = load_with(root, cfg)
    only = _expand(corpus, rel_paths) if rel_paths else None
    report = engine.run(corpus, cfg, changes=changes, only_paths=only)
    return CheckResult(report, cfg, corpus)


def _expand(corpus: Corpus, rel_paths: list[str]) -> list[str]:
    """Files as given; a directory stands for every record below it."""
    out: list[str] = []
    for rel in rel_paths:
        prefix = "" if rel in ("", ".") else rel.rstrip("/") + "/"
        below = [d.path for d in corpus.decisions if d.path.startswith(prefix)]
        out.extend(below if (not rel.endswith(".md") and below) else [rel])
    return sorted(set(out))


def _relative(root: Path, path: str) -> str:
    p = Path(path)
    if not p.is_absolute():
        p = Path.cwd() / p
    try:
        return p.resolve().relative_to(root).as_posix()
    except ValueError:
        raise UserError(f"{path} is outside the repository root {root}") from None
