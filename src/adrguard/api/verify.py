"""``adrguard verify``: accepted decisions checked against their fitness rules.

The corpus comes from the one pipeline (the files git will commit); each rule's decision from
the one record lookup (:func:`adrguard.api.lookup.find_decision`); evidence files and tracked
files are read safely (:mod:`adrguard.adapters.reading`); the evaluation is pure
(:mod:`adrguard.core.fitness`). Nothing is built, tested or run. The only write is the drift
baseline, and only when asked (``write_baseline``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from adrguard.adapters.reading import NOT_FOUND, read_file, read_tracked
from adrguard.api.agent.workspace import (
    SCHEMA_VERSION,
    ConfigurationError,
    InvalidRequest,
    LimitExceeded,
    Workspace,
    check_relative,
)
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load_with, resolve_root
from adrguard.config import Config
from adrguard.core.cancel import Token
from adrguard.core.errors import UserError
from adrguard.core.fitness import drift
from adrguard.core.fitness.audit import Audit, audit
from adrguard.core.fitness.evaluate import Inputs, applies, evaluate, needed_files
from adrguard.core.fitness.manifest import (
    MAX_EVIDENCE_FILES,
    FitnessManifest,
    FitnessManifestError,
    FitnessRule,
    evidence_outside,
    parse_manifest,
)
from adrguard.core.fitness.pointer import Document, load_document
from adrguard.core.fitness.result import POLICIES, Verification, to_json
from adrguard.core.model import Corpus, Decision
from adrguard.core.options import fitness_path
from adrguard.core.wording import plural

MAX_MANIFEST = 4 * 1024 * 1024
MAX_BASELINE = 64 * 1024 * 1024


@dataclass(frozen=True)
class Written:
    """What ``--write-baseline`` wrote."""

    path: str
    violations: int
    changed: bool


@dataclass(frozen=True)
class Loaded:
    root: Path
    config: Config
    corpus: Corpus
    manifest: FitnessManifest
    targets: Mapping[str, Decision]  # rule id -> its decision


def load(
    repo_root: Path | str | None = None,
    *,
    config: Config,
    rules: str | None = None,
    cancel: Token | None = None,
) -> Loaded:
    """The corpus, the fitness manifest and each rule's decision; a manifest that cannot be
    used (invalid, an unknown decision, an evidence path outside the repository) is a
    :class:`UserError` naming the place."""
    root = resolve_root(repo_root)
    path = check_relative(rules, "--rules") if rules else fitness_path(config.options)
    data, why = read_file(root, path, MAX_MANIFEST)
    if data is None:
        if why == NOT_FOUND:
            raise InvalidRequest(f"no fitness manifest at {path}: write one (docs/verify.md "
                                 "shows how) or name it with --rules PATH / [verify] rules")
        raise InvalidRequest(f"cannot read the fitness manifest {path}: {why}")
    manifest = parse_manifest(path, data)
    corpus = load_with(root, config, untracked=False, cancel=cancel)
    targets: dict[str, Decision] = {}
    for rule in manifest.rules:
        try:
            targets[rule.id] = find_decision(corpus, rule.decision)
        except UserError as exc:
            raise FitnessManifestError(path, rule.decision_line, rule.decision_column,
                                       f"rule {rule.id!r}: {exc}") from None
        for line, column, message in evidence_outside(rule):
            raise FitnessManifestError(path, line, column, message)
    return Loaded(root, config, corpus, manifest, targets)


def verify(
    repo_root: Path | str | None = None,
    *,
    config: Config,
    rules: str | None = None,
    evidence: Sequence[str] | None = None,
    baseline: str | None = None,
    policy: str | None = None,
    cancel: Token | None = None,
) -> Verification:
    """Evaluate every rule (``evidence``: the evidence files of this run, at most 20; None:
    every file the rules of accepted decisions name). ``baseline``: the drift baseline (default
    the config's ``verify.baseline``, else ``.adrguard-drift-baseline.json`` when it exists)."""
    return _run(load(repo_root, config=config, rules=rules,
                     cancel=cancel), evidence, baseline, policy)


def _run(
    loaded: Loaded,
    evidence: Sequence[str] | None,
    baseline: str | None,
    policy: str | None,
    *,
    missing_ok: bool = False,
) -> Verification:
    cfg = loaded.config
    chosen = (policy or cfg.options.verify.policy or "advisory").strip().lower()
    if chosen not in POLICIES:
        problem = InvalidRequest if policy else ConfigurationError
        raise problem(f"policy {chosen!r}: choose advisory or enforce")
    live = [r for r in loaded.manifest.rules if applies(loaded.targets[r.id])]
    given, paths, notes = _evidence_paths(loaded.manifest, live, evidence)
    documents = _documents(loaded.root, paths, cfg.options.verify.max_evidence_size)
    files = loaded.corpus.repo_files
    wanted = sorted({p for r in live for p in needed_files(r, files)})
    texts = read_tracked(loaded.root, wanted, cfg.options.max_file_size)
    inputs = Inputs(files, documents, given, texts)
    results = tuple(evaluate(r, loaded.targets[r.id], loaded.corpus, inputs)
                    for r in loaded.manifest.rules)
    found = audit(loaded.corpus, loaded.manifest, loaded.targets)
    run = Verification(loaded.manifest.path, chosen, results,
                       tuple((p, d.problem) for p, d in documents.items()), None,
                       tuple(notes), found.accepted, len(found.covered))
    return _judge(loaded, run, baseline, missing_ok)


def _evidence_paths(
    manifest: FitnessManifest, live: Sequence[FitnessRule], evidence: Sequence[str] | None
) -> tuple[frozenset[str] | None, list[str], list[str]]:
    """The evidence files this run reads: those given, else those the live rules name."""
    notes: list[str] = []
    if evidence is None:
        named = list(dict.fromkeys(p for r in live for p in r.evidence))
        if len(named) > MAX_EVIDENCE_FILES:
            raise LimitExceeded(f"the rules name {len(named)} evidence files; a run reads at most "
                            f"{MAX_EVIDENCE_FILES}: merge evidence into fewer files, or give "
                            "the files of this run with --evidence")
        return None, named, notes
    given = list(dict.fromkeys(check_relative(p, "evidence path") for p in evidence))
    if len(given) > MAX_EVIDENCE_FILES:
        raise LimitExceeded(f"{len(given)} evidence files given; at most {MAX_EVIDENCE_FILES} are "
                        "read per run")
    mentioned = set(manifest.evidence_files())
    notes += [f"evidence {p} was given but no rule names it" for p in given if p not in mentioned]
    return frozenset(given), given, notes


def _documents(root: Path, paths: Sequence[str], limit: int) -> dict[str, Document]:
    out: dict[str, Document] = {}
    for path in paths:
        data, why = read_file(root, path, limit)
        if data is None:
            if why == NOT_FOUND:
                why = "not found: produce it in CI before `adrguard verify` runs"
            out[path] = Document(path, problem=why)
        else:
            out[path] = load_document(path, data)
    return out


def _baseline_path(loaded: Loaded, baseline: str | None) -> tuple[str, bool]:
    """The drift baseline's path, and whether it was named (a named file must exist)."""
    if baseline:
        return check_relative(baseline, "baseline path"), True
    configured = (loaded.config.options.verify.baseline or "").strip()
    return (configured, True) if configured else (drift.DEFAULT_PATH, False)


def _judge(
    loaded: Loaded, run: Verification, baseline: str | None, missing_ok: bool
) -> Verification:
    path, named = _baseline_path(loaded, baseline)
    data, why = read_file(loaded.root, path, MAX_BASELINE)
    if data is None:
        if why != NOT_FOUND:
            raise ConfigurationError(f"cannot read the drift baseline {path}: {why}")
        if named and not missing_ok:
            raise InvalidRequest(f"no drift baseline at {path}: write one with `adrguard verify "
                                 "--write-baseline`, or leave the baseline out")
        return run
    try:
        known = drift.parse(data, path)
    except UserError as exc:
        raise ConfigurationError(str(exc)) from None
    results, counts = drift.judge(run.results, known, path)
    return replace(run, results=results, drift=counts)


def write_baseline(
    repo_root: Path | str | None = None,
    *,
    config: Config,
    rules: str | None = None,
    evidence: Sequence[str] | None = None,
    baseline: str | None = None,
    policy: str | None = None,
) -> tuple[Verification, Written]:
    """Evaluate as :func:`verify` does (judged against the baseline there is, if any), then
    write today's violations as the drift baseline, atomically."""
    from adrguard.adapters.write import write_if_changed

    loaded = load(repo_root, config=config, rules=rules)
    path, _named = _baseline_path(loaded, baseline)
    run = _run(loaded, evidence, baseline, policy, missing_ok=True)
    entries = drift.entries_of(run.results)
    text = drift.render(entries, loaded.manifest.path)
    changed = write_if_changed(loaded.root, path, text, "the drift baseline")
    if run.inconclusive:
        unknown = run.count("unknown")
        run = replace(run, notes=(*run.notes, f"{plural(unknown, 'rule')} had no verdict: their "
                                  "violations are not in the baseline"))
    return run, Written(path, len(entries), changed)


def audit_of(
    repo_root: Path | str | None = None,
    *,
    config: Config,
    rules: str | None = None,
) -> Audit:
    """``adrguard verify --audit``: decisions with and without rules; rules on inactive ones."""
    loaded = load(repo_root, config=config, rules=rules)
    return audit(loaded.corpus, loaded.manifest, loaded.targets)


def verify_architecture(
    ws: Workspace,
    rules_path: str,
    evidence_paths: Sequence[str] | None = None,
    baseline_path: str | None = None,
    policy: str = "advisory",
) -> dict[str, Any]:
    """The MCP tool ``verify_architecture`` (seed 004): :func:`verify` for the repository the
    workspace is bound to, as JSON with ``schemaVersion: "1.0"``. Read-only: it never writes
    the drift baseline. A request that cannot be answered raises its failure class: a missing
    or unreadable manifest or named baseline is an :class:`InvalidRequest`, an invalid manifest
    or baseline a :class:`ConfigurationError`, too many evidence files :class:`LimitExceeded`;
    a policy that fails is a result (``policyFailed``), never an error."""
    config = ws.config()
    try:
        with ws.locked():
            result = verify(ws.root, config=config, rules=rules_path, evidence=evidence_paths,
                            baseline=baseline_path, policy=policy, cancel=ws.cancel)
    except FitnessManifestError as exc:
        raise ConfigurationError(str(exc)) from None
    return to_json(result, SCHEMA_VERSION)
