"""Rules split between this process and a forked copy (large corpora) give exactly the serial
report, on real corpora; a rule that fails in the copy fails as it would serially."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_labels import source_roots as _roots

from adrguard import engine
from adrguard.api import load_with
from adrguard.config import load_config
from adrguard.engine import split
from adrguard.rules import ALL_RULES

COLLECTIONS = ["ministryofjustice__cloud-platform", "alphagov__govuk-aws", "adr__madr"]


def _setup(corpora_dir: Path, name: str, tmp_path: Path) -> tuple[object, object]:
    collection = corpora_dir / name
    cfg_file = tmp_path / "adrguard.toml"
    cfg_file.write_text("roots = " + json.dumps(_roots(collection)) + "\n", encoding="utf-8")
    config = load_config(collection, cfg_file)
    return config, load_with(collection, config)


@pytest.mark.parametrize("name", COLLECTIONS)
def test_split_run_equals_serial_run(
    corpora_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    config, corpus = _setup(corpora_dir, name, tmp_path)
    monkeypatch.setattr(split, "PARALLEL_RULES_MIN", 10**9)
    serial = engine.run(corpus, config)  # type: ignore[arg-type]
    forks: list[int] = []
    real_fork = split._fork
    monkeypatch.setattr(split, "_fork", lambda *a: forks.append(1) or real_fork(*a))
    monkeypatch.setattr(split, "PARALLEL_RULES_MIN", 0)
    parallel = engine.run(corpus, config)  # type: ignore[arg-type]
    assert forks == [1], "the split path was not taken"
    assert parallel == serial
    assert serial.findings, f"{name} should have findings to compare"


def test_failing_rule_in_the_copy_fails_like_a_serial_run(
    corpora_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, corpus = _setup(corpora_dir, COLLECTIONS[0], tmp_path)
    broken = next(r for r in ALL_RULES if r.meta.code == "ADR205")  # runs in the copy

    def boom(self: object, ctx: object) -> object:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(broken, "check", boom)
    errors = []
    for minimum in (10**9, 0):
        monkeypatch.setattr(split, "PARALLEL_RULES_MIN", minimum)
        with pytest.raises(engine.InternalError) as info:
            engine.run(corpus, config)  # type: ignore[arg-type]
        errors.append((info.value.code, str(info.value)))
    assert errors[0] == errors[1] == ("ADR205", "rule ADR205 failed: ZeroDivisionError: planted")


def test_no_fork_while_other_threads_run(
    corpora_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    config, corpus = _setup(corpora_dir, COLLECTIONS[1], tmp_path)
    monkeypatch.setattr(split, "PARALLEL_RULES_MIN", 0)
    monkeypatch.setattr(split, "_fork", lambda *a: pytest.fail("forked with a thread running"))
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert engine.run(corpus, config).decisions == len(corpus)  # type: ignore[arg-type]
    finally:
        stop.set()
        worker.join()
