"""The severity policy of RULES.md, enforced over the whole rule catalogue.

RULES.md: `error` only for objective breakage (the kinds it lists); a deviation from the log's
own convention, or a likely mistake, at most `warning`; an observation with weak evidence a
`note`. Every registered rule is classified here once, so a new rule fails this test until
someone decides which kind of claim it makes. Convention rules also document what they learn
and how to override it, and never grade a finding above warning in their case files.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_cases import found, load_case_files, write_case

from adrguard.core.findings import Severity
from adrguard.engine import profile_severity
from adrguard.rules import ALL_RULES, RULES_BY_CODE, BaseRule

# Objective breakage, each with the words RULES.md's severity policy uses for it.
BREAKAGE: dict[str, str] = {
    "ADR001": "an unreadable file",
    "ADR002": "invalid front matter",
    "ADR101": "a missing title",
    "ADR106": "a duplicate id",
    "ADR110": "an invalid manifest or schema",
    "ADR201": "a broken link",
    "ADR202": "a broken link or anchor",
    "ADR203": "a broken link",
    "ADR301": "a dangling",
    "ADR302": "ambiguous",
    "ADR303": "cyclic relation",
    "ADR309": "a self-reference",
    "ADR306": "a record that contradicts its successor",
    "ADR401": "a stale or missing generated file",
    "ADR402": "a stale or missing generated file",
    "ADR404": "a stale or missing generated file",
    "ADR405": "an invalid manifest or schema",
    "ADR502": "a dangling",
    "ADR506": "a record deleted",
    "ADR507": "its id reused",
    "ADR701": "an invalid manifest or schema",
    "ADR702": "a dangling",
    "ADR704": "an unreadable file",
}
# Judged against what the log itself does (ARCHITECTURE.md section 0): at most warning.
CONVENTION = frozenset({"ADR102", "ADR104", "ADR107", "ADR109", "ADR304"})
# Likely mistakes a maintainer would fix, but not breakage: at most warning.
MISTAKE = frozenset(
    {
        "ADR003", "ADR103", "ADR105", "ADR108", "ADR111", "ADR112", "ADR204", "ADR205", "ADR305", "ADR307",
        "ADR308", "ADR310", "ADR406", "ADR407", "ADR408", "ADR503", "ADR504", "ADR505", "ADR703",
        "ADR601", "ADR602", "ADR603",
        "ADR509",
    }
)
# Observations with weak evidence, or prompts to look: note.
OBSERVATION = frozenset({"ADR004", "ADR403", "ADR501", "ADR508"})
CAPS = {
    **dict.fromkeys(BREAKAGE, Severity.ERROR),
    **dict.fromkeys(CONVENTION | MISTAKE, Severity.WARNING),
    **dict.fromkeys(OBSERVATION, Severity.WARNING),
}


@pytest.fixture(scope="module")
def policy(corpora_dir: Path) -> str:
    """The severity policy paragraph of the shared RULES.md."""
    text = (corpora_dir.parent / "RULES.md").read_text(encoding="utf-8")
    m = re.search(r"^## Severity policy\n(.+?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "RULES.md has no '## Severity policy' section"
    return " ".join(m.group(1).split())


def _ids(rule: type[BaseRule]) -> str:
    return rule.meta.code


def test_every_rule_is_classified_once() -> None:
    groups = [set(BREAKAGE), CONVENTION, MISTAKE, OBSERVATION]
    codes = {r.meta.code for r in ALL_RULES}
    assert set().union(*groups) == codes
    assert sum(len(g) for g in groups) == len(codes), "a code is classified twice"


def test_breakage_kinds_are_the_ones_rules_md_names(policy: str) -> None:
    for code, words in BREAKAGE.items():
        assert words in policy, f"{code}: {words!r} is not a kind of breakage in RULES.md"


@pytest.mark.parametrize("rule", ALL_RULES, ids=_ids)
def test_default_severity_follows_the_policy(rule: type[BaseRule]) -> None:
    meta = rule.meta
    assert meta.default_severity <= CAPS[meta.code], (
        f"{meta.code} defaults to {meta.default_severity.label}; RULES.md allows at most "
        f"{CAPS[meta.code].label} for it"
    )
    if meta.default_severity is Severity.ERROR:
        assert meta.code in BREAKAGE
    if meta.code in OBSERVATION and meta.enabled_by_default:
        assert meta.default_severity is Severity.NOTE


@pytest.mark.parametrize("rule", ALL_RULES, ids=_ids)
def test_profiles_shift_severities_as_documented(rule: type[BaseRule]) -> None:
    default = rule.meta.default_severity
    assert profile_severity(rule, "standard") == default
    assert profile_severity(rule, "legacy") == Severity.WARNING
    assert profile_severity(rule, "advisory") == min(default, Severity.WARNING)
    raised = Severity.ERROR if default == Severity.WARNING else default
    assert profile_severity(rule, "strict") == raised
    assert profile_severity(rule, "standard", Severity.NOTE) == Severity.NOTE  # self-graded


@pytest.mark.parametrize("code", sorted(CONVENTION))
def test_convention_rules_say_what_they_learn_and_how_to_override(code: str) -> None:
    doc = RULES_BY_CODE[code].__doc__ or ""
    assert "**Learns**" in doc, f"{code} docstring does not say what it learns"
    assert "**Override**" in doc, f"{code} docstring does not say how to override it"


def _convention_cases() -> list[Any]:
    return [
        pytest.param(stem, case, id=f"{stem}::{case['name']}")
        for stem, data in load_case_files().items()
        if stem in CONVENTION
        for case in data.get("case", [])
    ]


@pytest.mark.parametrize(("code", "case"), _convention_cases())
def test_convention_findings_are_never_errors(
    code: str, case: dict[str, Any], tmp_path: Path
) -> None:
    write_case(tmp_path, code, case)
    severities = {sev for key, sev in found(tmp_path, case) if key.startswith(code)}
    assert "error" not in severities
