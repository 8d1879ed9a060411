"""Load a repository's decisions: config → discovery → parse → Corpus. The one pipeline every
front end (CLI, MCP, the action) uses."""

from __future__ import annotations

import gc
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.config import Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.findings import Report
from adrguard.core.formats import non_record_type
from adrguard.core.model import Corpus, Decision, SourceFile

if TYPE_CHECKING:
    from adrguard.adapters.files import Discovery
    from adrguard.api.memo import DecisionRow


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
        raise UserError(f"--repo {root} does not exist")
    if not root.is_dir():
        raise UserError(f"--repo {root} is not a directory")
    return root.resolve()


def _discover_top(start: Path) -> Path:
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


PARALLEL_MIN = 1500  # below this many files to parse, a second process costs more than it saves


def source_hashes(sources: Sequence[SourceFile]) -> list[str]:
    """Each source's identity for the caches: the SHA-256 of its bytes, plus its read error."""
    from adrguard.adapters.cache import content_hash

    return [content_hash(src.data) + (src.error or "") for src in sources]


def parse_sources(
    sources: Sequence[SourceFile],
    config: Config,
    repo_root: Path | None = None,
    hashes: Sequence[str] | None = None,
) -> list[Decision]:
    """Parse every source, reusing the parse cache when it is enabled."""
    from adrguard.adapters import cache as cache_mod

    store = (
        cache_mod.ParseCache.open(repo_root, _fingerprint(config), len(sources))
        if repo_root is not None and cache_mod.enabled(repo_root, config.cache)
        else None
    )
    out: list[Decision | None] = [None] * len(sources)
    todo: list[int] = []
    if hashes is None:
        hashes = source_hashes(sources)
    # Decoding and parsing build many small objects and free none: the cyclic collector would
    # walk them again and again for nothing (a third of a warm run at 10,000 records).
    paused = gc.isenabled()
    gc.disable()
    try:
        for i, src in enumerate(sources):
            sha = hashes[i]
            hit = store.get(src.path, sha, src.root, src.archived) if store else None
            if hit is None:
                todo.append(i)
            else:
                out[i] = hit
        fresh = _parse_many([sources[i] for i in todo], config, encoded=store is not None)
    finally:
        if paused:
            gc.enable()
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

    options = asdict(config.options)
    # ``today`` only matters to rules (ADR109): leaving it out keeps the parse cache valid from
    # one day to the next and shared with the commands that run no rules (list, show, graph).
    options.pop("today", None)
    return config_fingerprint(options)


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
    shallow_roots: Collection[str] = (),
    previous_texts: dict[str, bytes] | None = None,
) -> Corpus:
    # A document whose front matter declares a non-decision type (a supplement, a guide) is
    # skipped like an index or a template.
    others = [d.path for d in decisions if d.front_matter and non_record_type(d.front_matter)]
    if others:
        dropped = set(others)
        decisions = [d for d in decisions if d.path not in dropped]
        skipped = sorted({*skipped, *others})
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    return Corpus(
        decisions=ordered,
        roots=tuple(roots),
        repo_files=frozenset(repo_files),
        other_texts=dict(other_texts),
        skipped=tuple(skipped),
        repo_url=repo_url,
        untracked=tuple(untracked),
        shallow_roots=frozenset(shallow_roots),
        previous_texts=dict(previous_texts or {}),
    )


def load_with(
    repo_root: Path, config: Config, *, untracked: bool = True, extra_roots: Sequence[str] = ()
) -> Corpus:
    """The repository's decisions; ``untracked`` (manual commands) also reads the records git
    neither tracks nor ignores yet, like ``adrguard check`` does."""
    from adrguard.adapters.files import discover

    found = discover(repo_root, config, untracked=untracked, extra_roots=extra_roots)
    return corpus_of(found, config, repo_root)


def corpus_of(
    found: Discovery, config: Config, repo_root: Path, hashes: Sequence[str] | None = None
) -> Corpus:
    """Parse what discovery found into the corpus."""
    cache_root = repo_root if found.cache_trusted else None  # None: no parse cache
    decisions = parse_sources(found.sources, config, cache_root, hashes)
    corpus = build_corpus(
        decisions,
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repo_url=found.repo_url,
        untracked=found.untracked,
        shallow_roots=found.shallow_roots,
    )
    # The corpus lives until the process ends: keep the cyclic garbage collector from walking
    # it again and again (at 10,000 records that cost more than the rules themselves).
    gc.freeze()
    return corpus


def load(
    repo_root: Path | str | None = None, config_path: Path | None = None, *, untracked: bool = True
) -> tuple[Config, Corpus]:
    root = resolve_root(repo_root)
    config = load_config(root, config_path)
    return config, load_with(root, config, untracked=untracked)


@dataclass(frozen=True)
class CheckResult:
    """A report, the effective config it was made with, and what reporters need to know of the
    records. ``cached`` says the report came from the result cache: the records were then not
    parsed, and ``corpus`` parses them on first use."""

    report: Report
    config: Config
    repo_url: str | None = None
    untracked: tuple[str, ...] = ()
    cached: bool = False
    root: Path | None = None
    parsed: Corpus | None = None
    key: str | None = None  # the result-cache key the report was stored or found under
    rows: tuple[DecisionRow, ...] | None = None  # see ``decisions``
    found: Discovery | None = None  # what discovery found (roots and why, for ``-v``)
    skipped_run: str | None = None  # why nothing was checked (the hook: nothing relevant)

    @property
    def corpus(self) -> Corpus:
        if self.parsed is None:
            if self.root is None:
                raise ValueError("a CheckResult without a corpus needs its root")
            object.__setattr__(self, "parsed", load_with(self.root, self.config))
        assert self.parsed is not None
        return self.parsed

    @property
    def decisions(self) -> tuple[DecisionRow, ...]:
        """``(id, path, title, status)`` of every record: from the corpus, else from the result
        cache (stored beside the report, read only by the formats that name decisions), else
        from parsing the records."""
        if self.rows is None:
            from adrguard.api import memo

            rows = None
            if self.parsed is None and self.key is not None and self.root is not None:
                rows = memo.load_rows(self.root, self.key)
            object.__setattr__(
                self, "rows", rows if rows is not None else memo.rows_of(self.corpus)
            )
        assert self.rows is not None
        return self.rows
