"""Load a repository's decisions: config → discovery → parse → Corpus. The one pipeline every
front end (CLI, MCP, the action) uses."""

from __future__ import annotations

import gc
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adrguard.config import Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.findings import Report
from adrguard.core.model import ChangeSet, Corpus, Decision, SourceFile


@dataclass(frozen=True)
class Loaded:
    config: Config
    corpus: Corpus
    repo_root: Path


def resolve_root(repo_root: Path | str | None) -> Path:
    """The directory given, or else the top of the git work tree around the current directory
    (found by walking up to ``.git``, without starting git), or else the current directory."""
    if repo_root is None:
        return _discover_top(Path.cwd().resolve())
    root = Path(repo_root)
    if not root.exists():
        raise UserError(f"--root {root} does not exist")
    if not root.is_dir():
        raise UserError(f"--root {root} is not a directory")
    return root.resolve()


def _discover_top(start: Path) -> Path:
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


PARALLEL_MIN = 1500  # below this many files to parse, a second process costs more than it saves


def parse_sources(
    sources: Sequence[SourceFile], config: Config, repo_root: Path | None = None
) -> list[Decision]:
    """Parse every source, reusing the parse cache when it is enabled."""
    from adrguard.adapters import cache as cache_mod

    use_cache = config.cache and repo_root is not None and not os.environ.get("ADRGUARD_NO_CACHE")
    store = (
        cache_mod.ParseCache.open(repo_root, _fingerprint(config))
        if use_cache and repo_root
        else None
    )
    out: list[Decision | None] = [None] * len(sources)
    todo: list[int] = []
    hashes: list[str] = []
    for i, src in enumerate(sources):
        sha = cache_mod.content_hash(src.data) + (src.error or "")
        hashes.append(sha)
        hit = store.get(src.path, sha, src.root, src.archived) if store else None
        if hit is None:
            todo.append(i)
        else:
            out[i] = hit
    fresh = _parse_many([sources[i] for i in todo], config, encoded=store is not None)
    for i, (decision, data) in zip(todo, fresh, strict=True):
        out[i] = decision
        if store is not None:
            src = sources[i]
            store.put_encoded(src.path, hashes[i], src.root, src.archived, data)
    if store is not None:
        store.retain({s.path for s in sources})
        store.save()
    return [d for d in out if d is not None]


def _fingerprint(config: Config) -> str:
    from dataclasses import asdict

    from adrguard.adapters.cache import config_fingerprint

    return config_fingerprint(asdict(config.options))


Parsed = tuple[Decision, Any]  # a record and, when asked for, its encoded form (else None)


def _parse_chunk(args: tuple[list[SourceFile], Config, bool]) -> list[Parsed]:
    from adrguard.core.parse import parse
    from adrguard.core.serialize import encode

    chunk, config, encoded = args
    decisions = [parse(src, config.options) for src in chunk]
    return [(d, encode(d) if encoded else None) for d in decisions]


_JSON_TYPES = (str, int, float, bool, type(None))


def _plain(value: Any) -> bool:
    """Whether front matter survives encode/decode unchanged (YAML sets and binary do not)."""
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return type(value) in _JSON_TYPES


def _encoded_chunk(args: tuple[list[SourceFile], Config, bool]) -> list[Any]:
    """In a worker: parse and encode. Plain lists travel back far cheaper than pickled
    dataclasses (which cost the parent more to load than parsing saved); a record whose
    front matter would not survive encoding travels as itself."""
    from adrguard.core.parse import parse
    from adrguard.core.serialize import encode

    chunk, config, _ = args
    out: list[Any] = []
    for src in chunk:
        d = parse(src, config.options)
        out.append(encode(d) if _plain(d.front_matter) else d)
    return out


def _parse_many(sources: list[SourceFile], config: Config, encoded: bool = False) -> list[Parsed]:
    from adrguard.adapters.cache import cpu_count

    workers = min(cpu_count(), 4)
    if len(sources) < PARALLEL_MIN or workers < 2:
        return _parse_chunk((sources, config, encoded))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from adrguard.core.serialize import decode, encode

    # This process parses the first share itself while the workers do the rest; it then
    # decodes what they send back, so its share is a little smaller.
    own = len(sources) * 9 // (10 * workers)
    size = -(-(len(sources) - own) // (workers - 1))
    chunks = [(sources[i : i + size], config, True) for i in range(own, len(sources), size)]
    try:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers - 1, mp_context=ctx) as pool:
            futures = [pool.submit(_encoded_chunk, chunk) for chunk in chunks]
            mine = _parse_chunk((sources[:own], config, encoded))
            results = [f.result() for f in futures]
    except (OSError, ValueError, RuntimeError):  # no fork here: parse in this process
        return _parse_chunk((sources, config, encoded))
    theirs: list[Parsed] = []
    for part in results:
        for item in part:
            if isinstance(item, Decision):
                theirs.append((item, encode(item) if encoded else None))
            else:
                theirs.append((decode(item), item if encoded else None))
    return mine + theirs


def build_corpus(
    decisions: list[Decision],
    *,
    roots: Sequence[str],
    repo_files: Collection[str],
    other_texts: dict[str, bytes],
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


def load_with(repo_root: Path, config: Config) -> Corpus:
    from adrguard.adapters.files import discover

    found = discover(repo_root, config)
    decisions = parse_sources(found.sources, config, repo_root)
    corpus = build_corpus(
        decisions,
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repo_url=found.repo_url,
        untracked=found.untracked,
    )
    # The corpus lives until the process ends: keep the cyclic garbage collector from walking
    # it again and again (at 10,000 records that cost more than the rules themselves).
    gc.freeze()
    return corpus


def load(
    repo_root: Path | str | None = None, config_path: Path | None = None
) -> tuple[Config, Corpus]:
    root = resolve_root(repo_root)
    config = load_config(root, config_path)
    return config, load_with(root, config)


@dataclass(frozen=True)
class CheckResult:
    report: Report
    corpus: Corpus
    config: Config


def check(
    repo_root: Path | str | None = None,
    **kwargs: Any,
) -> Report:
    """Run every selected rule over the repository's decisions and return the sorted report."""
    return check_result(repo_root, **kwargs).report


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
    """The report together with the corpus and the effective config it was made from."""
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
        from dataclasses import replace

        cfg = replace(cfg, options=replace(cfg.options, today=today))
    changes: ChangeSet | None = None
    if base is not None:
        from adrguard.api import impact

        corpus = impact.head_corpus(root, cfg, head)
        changes = impact.build_changes(root, cfg, base, head, corpus=corpus, deepen=deepen)
    elif head is not None:
        raise UserError("--head needs --base: say which revision the change is measured against")
    else:
        corpus = load_with(root, cfg)
    only = _expand(corpus, [_relative(root, p) for p in paths]) if paths else None
    report = engine.run(corpus, cfg, changes=changes, only_paths=only)
    return CheckResult(report=report, corpus=corpus, config=cfg)


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
        p = (Path.cwd() / p).resolve()
    try:
        return p.resolve().relative_to(root).as_posix()
    except ValueError:
        raise UserError(f"{path} is outside the repository root {root}") from None
