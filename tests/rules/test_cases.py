"""Run every rule case file in ``tests/rules/cases/`` (format: ``tests/rules/README.md``).

Each ``[[case]]`` becomes one test: its files are written into a fresh folder (no git), its
config into ``.adrguard.toml``, and ``adrguard.api.check`` runs on it through the real pipeline
(config → discovery → parser → engine).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

CASES_DIR = Path(__file__).resolve().parent / "cases"
CASE_KEYS = frozenset(
    {"name", "files", "expect", "config", "codes", "paths", "today", "severity", "base_files",
     "other_files"}
)


def load_case_files() -> dict[str, dict[str, Any]]:
    """``{file stem: parsed TOML}`` for every case file."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(CASES_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            out[path.stem] = tomllib.load(fh)
    return out


def _params() -> list[Any]:
    params = []
    for stem, data in load_case_files().items():
        rule = data.get("rule", stem)
        for case in data.get("case", []):
            if "base_files" in case:
                continue  # change-aware cases run in the 5xx family's own harness
            params.append(pytest.param(rule, case, id=f"{stem}::{case.get('name', '?')}"))
    return params


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml_value(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


def write_case(root: Path, rule: str, case: dict[str, Any]) -> None:
    """Materialise a case: its files and its ``.adrguard.toml``."""
    for rel, text in case["files"].items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    config = dict(case.get("config", {}))
    if "select" not in config and "profile" not in config:
        config["select"] = [rule]
    lines = [f"{_toml_value(k)} = {_toml_value(v)}" for k, v in config.items()]
    (root / ".adrguard.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def found(root: Path, case: dict[str, Any]) -> list[tuple[str, str]]:
    """``("CODE path:line", severity)`` for every finding of the run."""
    from adrguard import api

    paths = [str(root / p) for p in case.get("paths", ())]
    report = api.check(root, paths=paths, today=case.get("today"))
    return [
        (f"{f.code} {f.location.path}:{f.location.line}", f.severity.label) for f in report.findings
    ]


@pytest.mark.parametrize(("rule", "case"), _params())
def test_case(rule: str, case: dict[str, Any], tmp_path: Path) -> None:
    unknown = set(case) - CASE_KEYS
    assert not unknown, f"unknown case keys {sorted(unknown)}; see tests/rules/README.md"
    write_case(tmp_path, rule, case)
    codes = tuple(case.get("codes", [rule]))
    results = [(key, sev) for key, sev in found(tmp_path, case) if key.startswith(codes)]
    got = Counter(key for key, _ in results)
    want = Counter(case["expect"])
    assert got == want, (
        f"\nexpected: {sorted(want.elements())}\nfound:    {sorted(got.elements())}"
        f"\n(all findings: {found(tmp_path, case)})"
    )
    severities = dict(results)
    for key, severity in case.get("severity", {}).items():
        assert severities.get(key) == severity, f"{key}: severity {severities.get(key)}"


def test_cases_are_collected() -> None:
    assert _params(), f"no rule case files found in {CASES_DIR}"
