"""Every reporter over real ADR collections (../shared/corpora): valid, deterministic, complete."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from adrguard import api
from adrguard.core.schemas import validator
from adrguard.reporters import REPORTERS, decisions_of, default_context
from adrguard.reporters.github import PER_LEVEL

COLLECTIONS = ("alphagov__govuk-aws", "ministryofjustice__cloud-platform", "JabRef__jabref")


@pytest.mark.parametrize("name", COLLECTIONS)
def test_real_collection_in_every_format(
    name: str, corpora_dir: Path, sarif_schema: dict[str, Any]
) -> None:
    root = corpora_dir / name
    report = api.check(root, today="2026-01-01")
    _config, corpus = api.load(root)
    ctx = default_context(
        repo_url="https://github.com/example/adrs", decisions=decisions_of(corpus)
    )
    outputs = {fmt: render(report, ctx) for fmt, render in REPORTERS.items()}
    assert outputs == {fmt: render(report, ctx) for fmt, render in REPORTERS.items()}

    data = json.loads(outputs["json"])
    validator("report.schema.json").validate(data)
    assert len(data["findings"]) == len(report.findings)
    assert data["summary"]["decisions"] == report.decisions

    sarif = json.loads(outputs["sarif"])
    Draft7Validator(sarif_schema).validate(sarif)
    assert len(sarif["runs"][0]["results"]) == len(report.findings)

    annotations = outputs["github"].splitlines()
    assert len(annotations) <= 3 * PER_LEVEL + 1
    assert all(line.startswith("::") for line in annotations)

    text = outputs["text"]
    assert text.endswith(f"({report.files} files)\n")
    assert str(root) not in text and str(root) not in outputs["sarif"]

    md = outputs["markdown"]
    assert md.startswith("## adrguard\n")
    assert md.count("\n| ") == len(report.findings) + 2  # header, rule, one row per finding
