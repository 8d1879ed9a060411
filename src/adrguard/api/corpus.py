"""Load a repository's decisions: config → discovery → parse → Corpus. The one pipeline every
front end (CLI, MCP, the action) uses."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

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


def parse_sources(sources: Sequence[SourceFile], config: Config) -> list[Decision]:
    from adrguard.core.parse import parse

    return [parse(src, config.options) for src in sources]


def build_corpus(
    decisions: list[Decision],
    *,
    roots: Sequence[str],
    repo_files: Collection[str],
    other_texts: dict[str, bytes],
    skipped: Sequence[str],
    repo_url: str | None,
) -> Corpus:
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    return Corpus(
        decisions=ordered,
        roots=tuple(roots),
        repo_files=frozenset(repo_files),
        other_texts=dict(other_texts),
        skipped=tuple(skipped),
        repo_url=repo_url,
    )


def load_with(repo_root: Path, config: Config) -> Corpus:
    from adrguard.adapters.files import discover

    found = discover(repo_root, config)
    decisions = parse_sources(found.sources, config)
    return build_corpus(
        decisions,
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repo_url=found.repo_url,
    )


def load(repo_root: Path | str | None = None, config_path: Path | None = None) -> tuple[Config, Corpus]:
    root = resolve_root(repo_root)
    config = load_config(root, config_path)
    return config, load_with(root, config)


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
) -> Report:
    """Run every selected rule over the repository's decisions and return the sorted report."""
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
    corpus = load_with(root, cfg)
    changes: ChangeSet | None = None
    if base is not None:
        changes = _changes(root, cfg, corpus, base, head)
    only = _expand(corpus, [_relative(root, p) for p in paths]) if paths else None
    return engine.run(corpus, cfg, changes=changes, only_paths=only)


def _changes(root: Path, cfg: Config, corpus: Corpus, base: str, head: str | None) -> ChangeSet:
    try:
        from adrguard.api import impact
    except ModuleNotFoundError as exc:  # pragma: no cover - impact not installed
        raise UserError("--base needs change-aware checks, which this build lacks") from exc
    return impact.build_changes(root, cfg, base, head, corpus=corpus)


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
