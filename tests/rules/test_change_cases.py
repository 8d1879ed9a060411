"""Run the change-aware rule cases: every ``[[case]]`` with ``base_files``.

The case becomes a real git repository: ``base_files`` (and the config) are the first commit,
``files`` the second, and ``adrguard.api.check(..., base=<first commit>)`` runs on it.
``renames`` (optional, ``{old = new}``) are applied with ``git mv`` before ``files`` is written,
so git's rename detection sees a move. ``other_files`` (optional) are committed on a branch
``other`` made from the first commit, and the check runs with ``against=["other"]`` (ADR509).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from test_cases import load_case_files, write_case


def _params() -> list[Any]:
    params = []
    for stem, data in load_case_files().items():
        rule = data.get("rule", stem)
        for case in data.get("case", []):
            if "base_files" in case:
                params.append(pytest.param(rule, case, id=f"{stem}::{case['name']}"))
    return params


def run_case(root: Path, rule: str, case: dict[str, Any]) -> list[str]:
    from adrguard import api

    repo = GitRepo(root)
    write_case(root, rule, {**case, "files": case["base_files"]})
    base = repo.commit("base")
    for old, new in case.get("renames", {}).items():
        (root / new).parent.mkdir(parents=True, exist_ok=True)
        repo.git("mv", old, new)
    against = []
    if "other_files" in case:
        repo.git("checkout", "-q", "-b", "other")
        repo.write(case["other_files"])
        repo.commit("other")
        repo.git("checkout", "-q", "-")
        against.append("other")
    repo.replace_tree(case["files"], keep=[".adrguard.toml"])
    write_case(root, rule, case)
    repo.commit("head")
    report = api.check(root, base=base, against=against)
    return [f"{f.code} {f.location.path}:{f.location.line}" for f in report.findings]


@pytest.mark.parametrize(("rule", "case"), _params())
def test_change_case(rule: str, case: dict[str, Any], tmp_path: Path) -> None:
    codes = tuple(case.get("codes", [rule]))
    results = [key for key in run_case(tmp_path, rule, case) if key.startswith(codes)]
    assert Counter(results) == Counter(case["expect"]), f"found: {sorted(results)}"


def test_change_cases_are_collected() -> None:
    assert len(_params()) >= 10
