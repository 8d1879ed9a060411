"""The rule catalogue is complete and matches the public contract in RULES.md.

Every registered rule: a unique code and name, exactly as in RULES.md (name and default severity),
a docstring with **Why**, **Bad** and **Good**, and a case file with at least one passing and one
failing example. Every family that is registered has all of its RULES.md codes.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adrguard.core.findings import Severity
from adrguard.rules import ALL_RULES, BaseRule

CASES_DIR = Path(__file__).resolve().parent / "cases"
SEVERITY_LETTERS = {"E": Severity.ERROR, "W": Severity.WARNING, "N": Severity.NOTE}
# Families RULES.md reserves without listing their codes (ADR6xx citations, ADR7xx fitness rules)
RESERVED_FAMILIES = frozenset("67")
RESERVED = re.compile(r"Reserved for [^:\n]*:\s*(ADR\d{3})\s+`([a-z0-9-]+)`,\s*(error|warning|note)")
ROW = re.compile(r"^\|\s*(ADR\d{3})\s*\|\s*([a-z0-9-]+)\s*\|\s*(E|W|N|off)\s*\|", re.M)


@pytest.fixture(scope="module")
def catalogue(corpora_dir: Path) -> dict[str, tuple[str, str]]:
    """code -> (name, severity letter or "off") from the shared RULES.md."""
    text = (corpora_dir.parent / "RULES.md").read_text(encoding="utf-8")
    rows = {code: (name, sev) for code, name, sev in ROW.findall(text)}
    # codes reserved in prose ("Reserved for ...: ADR509 `number-claimed-elsewhere`, warning")
    for code, name, sev in RESERVED.findall(text):
        rows.setdefault(code, (name, sev[0].upper()))
    assert len(rows) > 40, "RULES.md table not recognised"
    return rows


def _ids(rule: type[BaseRule]) -> str:
    return rule.meta.code


def _cases(code: str) -> list[dict[str, Any]]:
    path = CASES_DIR / f"{code}.toml"
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    cases: list[dict[str, Any]] = data.get("case", [])
    return cases


def test_codes_and_names_are_unique_and_sorted() -> None:
    codes = [r.meta.code for r in ALL_RULES]
    names = [r.meta.name for r in ALL_RULES]
    assert len(set(codes)) == len(codes)
    assert len(set(names)) == len(names)
    assert codes == sorted(codes)
    assert all(re.fullmatch(r"ADR\d{3}", c) for c in codes)
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", n) for n in names)


@pytest.mark.parametrize("rule", ALL_RULES, ids=_ids)
def test_rule_matches_rules_md(rule: type[BaseRule], catalogue: dict[str, tuple[str, str]]) -> None:
    m = rule.meta
    if m.code[3] in RESERVED_FAMILIES and m.code not in catalogue:
        return  # RULES.md reserves the family; its codes and names are ours (checked above)
    assert m.code in catalogue, f"{m.code} is not in RULES.md"
    name, sev = catalogue[m.code]
    assert m.name == name
    if sev == "off":
        assert not m.enabled_by_default
    else:
        assert m.enabled_by_default
        assert m.default_severity == SEVERITY_LETTERS[sev]
    assert m.summary.strip()


def test_every_registered_family_is_complete(catalogue: dict[str, tuple[str, str]]) -> None:
    registered = {r.meta.code for r in ALL_RULES}
    families = {code[3] for code in registered}
    missing = sorted(c for c in catalogue if c[3] in families and c not in registered)
    assert not missing, f"RULES.md codes of registered families not implemented: {missing}"
    assert {"0", "1"} <= families


@pytest.mark.parametrize("rule", ALL_RULES, ids=_ids)
def test_rule_docstring_has_why_bad_good(rule: type[BaseRule]) -> None:
    doc = rule.__doc__ or ""
    for heading in ("**Why**", "**Bad**", "**Good**"):
        assert heading in doc, f"{rule.meta.code} docstring lacks {heading}"
    assert doc.index("**Why**") < doc.index("**Bad**") < doc.index("**Good**")


@pytest.mark.parametrize("rule", ALL_RULES, ids=_ids)
def test_rule_has_passing_and_failing_cases(rule: type[BaseRule]) -> None:
    code = rule.meta.code
    assert (CASES_DIR / f"{code}.toml").is_file(), f"no case file tests/rules/cases/{code}.toml"
    cases = _cases(code)
    names = [c.get("name") for c in cases]
    assert all(names) and len(set(names)) == len(names), "case names must be present and unique"
    failing = [c for c in cases if any(e.split()[0] == code for e in c.get("expect", ()))]
    passing = [c for c in cases if c not in failing]
    assert failing, f"{code}: no failing example (a case expecting a {code} finding)"
    assert passing, f"{code}: no passing example (a case expecting no {code} finding)"


def test_case_files_belong_to_rules() -> None:
    codes = {r.meta.code for r in ALL_RULES}
    stray = sorted(p.stem for p in CASES_DIR.glob("*.toml") if p.stem not in codes)
    assert not stray, f"case files for unknown rules: {stray}"
