"""Excludes are pathspec's gitignore matching, on the path below the root and the repo path."""

from __future__ import annotations

from adrguard.adapters import layout
from adrguard.config import DEFAULT_EXCLUDE, Config


def test_index_names() -> None:
    assert [p for p in DEFAULT_EXCLUDE if layout._is_index_name(p)] == ["README.md", "readme.md"]


def test_default_excludes_and_a_record_folder_readme() -> None:
    files = [
        "docs/adr/README.md",
        "docs/adr/0001-x.md",
        "docs/adr/0000-template.md",
        "docs/adr/template-nygard.md",
        "docs/adr/sub/INDEX.md",
        "docs/adr/XXX-later.md",
        "docs/adr/0000-modèle.md",
        "docs/adr/0007-a/README.md",
        "docs/adr/drafts/a?b.md",
    ]
    plan = layout.classify(files, ("docs/adr",), Config())
    assert [p for p, _, _ in plan.records] == [
        "docs/adr/0001-x.md",
        "docs/adr/0007-a/README.md",
        "docs/adr/drafts/a?b.md",
    ]
    narrowed = layout.classify(files, ("docs/adr",), Config(exclude=("drafts/", "[0-9]*-a/")))
    assert "docs/adr/drafts/a?b.md" in narrowed.skipped
    assert "docs/adr/0007-a/README.md" in narrowed.skipped
