"""Generated documentation must not drift from its sources, and the README must stay true."""

from __future__ import annotations

import re
from pathlib import Path

from adrguard.reporters.catalogue import expected_docs


def test_rule_pages_match_docstrings(repo_dir: Path) -> None:
    docs = repo_dir / "docs" / "rules"
    expected = expected_docs()
    committed = {p.name: p.read_text(encoding="utf-8") for p in docs.glob("*.md")}
    stale = sorted(n for n in expected if committed.get(n) != expected[n])
    extra = sorted(set(committed) - set(expected))
    assert not stale and not extra, (
        f"docs/rules drifted (stale: {stale}, extra: {extra}); "
        "regenerate with: adrguard rules --write-docs docs/rules"
    )


def test_readme_starts_with_the_two_setup_commands(repo_dir: Path) -> None:
    text = (repo_dir / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    assert "pip install" in blocks[0] and "adrguard check" in blocks[0]
    assert blocks[1].strip() == "python -m pytest"
    ci = (repo_dir / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in ci
