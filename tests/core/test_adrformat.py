"""The ADR formats are one registry (:mod:`adrguard.core.adrformat`): the parser recognises a
record by it, the required sections come from it, ``new`` offers and writes the formats it marks,
and the docs list them."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from adrguard.cli import build_parser
from adrguard.core import adrformat
from adrguard.core.authoring.style import BUILT_IN
from adrguard.core.model import SourceFile
from adrguard.core.options import DEFAULT_REQUIRED_SECTIONS, Options
from adrguard.core.parse.record import parse

DOCS = Path(__file__).resolve().parents[2] / "docs"

RECORDS = {
    "nygard": ("0001-use-queues.md",
               "# 1. Use queues\n\n## Status\n\nAccepted\n\n## Context\n\nLoad.\n\n"
               "## Decision\n\nQueues.\n\n## Consequences\n\nMore parts.\n"),
    "madr2": ("0002-pick-a-cache.md",
              "# Pick a cache\n\n* Status: accepted\n* Deciders: Ann, Bo\n\n"
              "## Context and Problem Statement\n\nSlow pages.\n\n"
              "## Decision Outcome\n\nA cache.\n"),
    "madr3": ("0003-pick-a-store.md",
              "---\nstatus: accepted\ndate: 2024-01-02\n---\n# Pick a store\n\n"
              "## Context and Problem Statement\n\nData.\n\n## Decision Outcome\n\nA store.\n"),
    "madr4": ("0004-pick-a-bus.md",
              "---\nstatus: accepted\ndecision-makers: Ann\n---\n# Pick a bus\n\n"
              "## Context and Problem Statement\n\nEvents.\n\n## Decision Outcome\n\nA bus.\n"),
    "log4brains": ("20240102-pick-a-log.md",
                   "# Pick a log\n\n- Status: accepted\n- Date: 2024-01-02\n\n"
                   "## Context and Problem Statement\n\nNotes.\n\n## Decision Outcome\n\nA log.\n"),
    "generic": ("0005-notes.md", "# Notes\n\nSome words about a choice.\n"),
}


def _format_of(name: str, text: str) -> str:
    record = parse(SourceFile(f"docs/adr/{name}", "docs/adr", text.encode()), Options())
    return record.format


@pytest.mark.parametrize("expected", sorted(RECORDS))
def test_the_parser_recognises_each_format_by_the_registry(expected: str) -> None:
    assert _format_of(*RECORDS[expected]) == expected


def test_every_format_of_the_registry_has_a_record_here() -> None:
    assert set(RECORDS) == {f.name for f in adrformat.FORMATS}


def test_the_first_entry_that_recognises_a_record_wins() -> None:
    # MADR bullets on a dated name are log4brains (rank 1) before MADR 2 (rank 4)
    signals = adrformat.Signals("20240102-x.md", frozenset({"decision outcome"}),
                                frozenset({"status"}), frozenset(), True, True, True)
    assert [f.name for f in adrformat.DETECTION_ORDER if f.detect(signals)][:2] == [
        "log4brains", "madr2"]
    assert adrformat.recognise(signals) == "log4brains"
    assert adrformat.DETECTION_ORDER[-1].name == adrformat.GENERIC


def test_required_sections_and_new_come_from_the_registry() -> None:
    assert dict(DEFAULT_REQUIRED_SECTIONS) == {f.name: f.sections for f in adrformat.FORMATS}
    assert set(BUILT_IN) == set(adrformat.WRITTEN), "a written format needs its built-in style"
    assert all(BUILT_IN[name].format == name for name in adrformat.WRITTEN)
    parser = build_parser(["new"])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    option = next(a for a in sub.choices["new"]._actions if "--format" in a.option_strings)
    assert tuple(option.choices or ()) == adrformat.WRITTEN


def test_the_docs_list_the_formats_new_writes() -> None:
    page = (DOCS / "authoring.md").read_text(encoding="utf-8")
    line = page[page.index("the format `--format` names ("):]
    line = line[:line.index(")")]
    assert tuple(w.strip("`, ") for w in line.split("(")[1].split()) == adrformat.WRITTEN
