"""``compaction``: the read-only analysis of a log (:mod:`adrguard.core.compaction.analysis`).
The corpus from the one pipeline, the CURRENT states, the blocker checks from the engine, the
reading sizes from the bytes discovery read. Writes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from adrguard.adapters.files import Discovery
from adrguard.adapters.source import WorkTree
from adrguard.api.check import CheckRequest, run_check
from adrguard.api.generated import current_states
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import read_source
from adrguard.config import Config
from adrguard.core.compaction import scope as scoping
from adrguard.core.compaction.analysis import Analysis, analyse
from adrguard.core.compaction.evidence import BLOCKER_KINDS
from adrguard.core.compaction.evidence import COMPACTION_CODES as COMPACTION_CODES
from adrguard.core.compaction.size import Size, measure
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding
from adrguard.core.model import Corpus


def blocker_findings(corpus: Corpus, config: Config) -> list[Finding]:
    """The findings of the checks that block compaction (:data:`BLOCKER_KINDS`), whatever the
    config selects or ignores; per-file ignores and inline suppressions still hold."""
    only = config.with_overrides(select=tuple(sorted(BLOCKER_KINDS)), ignore=())
    return list(run_check(CheckRequest(corpus=corpus, config=only)).report.findings)


def sizes_of(found: Discovery) -> dict[str, Size]:
    """Reading size of every record and generated text discovery read, by path."""
    out = {s.path: measure(s.data) for s in found.sources if s.data is not None}
    out.update((p, measure(data)) for p, data in found.other_texts.items())
    return out


def parse_sources(raw: str) -> list[str]:
    """``--sources 1,ADR-0007,docs/adr/0009-x.md``: the keys, each non-empty."""
    keys = [k.strip() for k in raw.split(",")]
    if not raw.strip() or any(not k for k in keys):
        raise UserError(f"--sources {raw!r}: give record ids or paths separated by commas, "
                        "e.g. --sources ADR-0003,ADR-0007")
    return keys


def analyse_repository(
    root: Path,
    config: Config,
    *,
    sources: str | None = None,
    domain: str | None = None,
) -> Analysis:
    """The analysis of every unarchived record, of ``sources`` (comma-separated ids or paths)
    or of ``domain``. Unknown, ambiguous or archived sources and an unknown domain are
    :class:`UserError`."""
    if sources is not None and domain is not None:
        raise UserError("--sources and --domain choose the scope two ways: give one of them")
    found, corpus = read_source(WorkTree(root, untracked=True), config)
    if sources is not None:
        chosen = [find_decision(corpus, key) for key in parse_sources(sources)]
        scope = scoping.sources(chosen, sources)
    elif domain is not None:
        scope = scoping.domain(corpus, domain, config.options.archive_dirs)
    else:
        scope = scoping.everything(corpus)
    states = current_states(root, config, corpus)
    return analyse(corpus, scope, states, blocker_findings(corpus, config), sizes_of(found),
                   config.options.require_status)


__all__: Sequence[str] = ("analyse_repository", "blocker_findings", "sizes_of")
