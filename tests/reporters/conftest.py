"""A hand-built report with hostile content, and a fixed rule catalogue.

The catalogue is fixed on purpose: golden files must not change when rules are added. The
findings carry what an attacker can put in an ADR (titles and paths end up in messages):
workflow commands, ``%``, CR/LF, commas and colons, @mentions, #refs, HTML, Markdown links,
terminal escapes, bidi overrides and non-ASCII text.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Location
from adrguard.reporters import DecisionInfo, ReportContext
from adrguard.rules.base import RuleMeta

GOLDEN = Path(__file__).resolve().parent / "golden"
SARIF_SCHEMA = Path(__file__).resolve().parent / "sarif-2.1.0.schema.json"
UPDATE = os.environ.get("ADRGUARD_UPDATE_GOLDEN") == "1"

CATALOGUE = (
    RuleMeta("ADR001", "unreadable-file", "A file in an ADR root cannot be read.", Severity.ERROR),
    RuleMeta("ADR104", "missing-section", "A required section is absent.", Severity.WARNING),
    RuleMeta(
        "ADR105", "empty-section", "A required section has no content.", Severity.WARNING, False
    ),
    RuleMeta("ADR201", "broken-link", "A relative link's target does not exist.", Severity.ERROR),
    RuleMeta("ADR303", "relationship-cycle", "Supersession forms a cycle.", Severity.ERROR),
    RuleMeta(
        "ADR501",
        "governed-change",
        "A changed file is governed by an accepted decision.",
        Severity.NOTE,
        needs_changes=True,
    ),
)
DESCRIPTIONS = {
    "ADR303": "Records supersede each other in a loop. Why: nobody can tell which one is in force.",
}

HOSTILE_TITLE = "Use Kafka @org/team #123 <img src=x onerror=alert(1)>"


def _f(
    code: str,
    severity: Severity,
    message: str,
    path: str,
    line: int = 1,
    column: int = 1,
    decision: str | None = None,
    related: tuple[str, ...] = (),
) -> Finding:
    name = {m.code: m.name for m in CATALOGUE}[code]
    return Finding(code, name, severity, message, Location(path, line, column), decision, related)


def tricky_findings() -> tuple[Finding, ...]:
    a = "docs/adr/0001-use kafka, v2: final.md"
    b = "docs/adr/0002-100%-#sure|`x`.md"
    c = "docs/adr/0003-café.md"
    return (
        _f("ADR104", Severity.WARNING, "missing section: Consequences", a, 1, 1, "ADR-0001"),
        _f(
            "ADR303",
            Severity.ERROR,
            "supersedes forms a cycle: ADR-0001 -> ADR-0002 -> ADR-0001\n"
            "::error file=x,line=1::injected\r\n::set-env name=A::B, 100% sure",
            a,
            4,
            3,
            "ADR-0001",
            ("ADR-0002",),
        ),
        _f(
            "ADR201",
            Severity.ERROR,
            "broken link [click](https://evil.example/a_b) ![img](x.png) `code` | pipe "
            "see www.example.com, mail me@example.com, GH-42, $x^2$, *bold* ~strike~ \\back",
            b,
            12,
            5,
            "ADR-0002",
        ),
        _f(
            "ADR501",
            Severity.NOTE,
            f"src/app.py is governed by ADR-0003 ({HOSTILE_TITLE}): review it",
            c,
            2,
            1,
            "ADR-0003",
        ),
        _f(
            "ADR001",
            Severity.ERROR,
            "unreadable: \x1b[31mred\x1b[0m bidi \u202eevil\u202c tab\there",
            "docs/adr/0004-binary.md",
            1,
            1,
        ),
    )


@pytest.fixture
def ctx() -> ReportContext:
    return ReportContext(
        version="9.8.7",
        rules=CATALOGUE,
        descriptions=DESCRIPTIONS,
        repo_url=None,
        decisions={
            "ADR-0001": DecisionInfo("ADR-0001", "docs/adr/0001.md", "Use Kafka", "accepted"),
            "ADR-0002": DecisionInfo("ADR-0002", "docs/adr/0002.md", "Use **Pulsar**", "proposed"),
            "ADR-0003": DecisionInfo("ADR-0003", "docs/adr/0003.md", HOSTILE_TITLE, "accepted"),
            "ADR-0004": DecisionInfo("ADR-0004", "docs/adr/0004.md", None, None),
        },
    )


@pytest.fixture
def tricky() -> Report:
    findings = tricky_findings()
    return Report(findings=tuple(sorted(findings, key=lambda f: f.sort_key)), decisions=4, files=5)


@pytest.fixture
def clean() -> Report:
    return Report(findings=(), decisions=1, files=1, profile="strict")


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_bytes(text.encode("utf-8"))
    expected = path.read_bytes().decode("utf-8")
    assert text == expected, (
        f"{name} differs from its golden file (ADRGUARD_UPDATE_GOLDEN=1 updates)"
    )


@pytest.fixture
def golden() -> Callable[[str, str], None]:
    """Compare text with ``golden/<name>`` byte for byte (ADRGUARD_UPDATE_GOLDEN=1 rewrites)."""
    return _check_golden


@pytest.fixture
def sarif_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return data
