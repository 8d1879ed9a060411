"""Plain exclude globs are translated without pathspec (start-up time); the translation must
be exactly pathspec's."""

from __future__ import annotations

import re

import pathspec
import pytest

from adrguard.adapters import layout
from adrguard.config import DEFAULT_EXCLUDE

PLAIN = [
    *DEFAULT_EXCLUDE,
    "a?b.md",
    "*.MD",
    "x+y(1).md",
    "{draft}*.md",
    "$money^.md",
    "a|b",
    "é*ß?.markdown",
    "~notes~",
    "50%.md",
    "a,b=c.md",
]
NOT_PLAIN = ["", "*", "**/x.md", "docs/adr/x.md", "x/", "!README.md", "#c", "[ab].md", "a b.md"]


def _pathspec_regex(pattern: str) -> str:
    spec = pathspec.PathSpec.from_lines("gitignore", [pattern])
    (compiled,) = spec.patterns
    return re.sub(r"\(\?P<\w+>", "(?:", compiled.regex.pattern)  # type: ignore[attr-defined]


@pytest.mark.parametrize("pattern", PLAIN)
def test_plain_patterns_translate_exactly_like_pathspec(pattern: str) -> None:
    assert layout._simple_regex(pattern) == _pathspec_regex(pattern)


@pytest.mark.parametrize("pattern", NOT_PLAIN)
def test_other_patterns_are_left_to_pathspec(pattern: str) -> None:
    assert layout._simple_regex(pattern) is None


PATHS = [
    "README.md",
    "docs/adr/README.md",
    "docs/adr/0001-x.md",
    "docs/adr/0000-template.md",
    "docs/adr/template-nygard.md",
    "docs/adr/sub/INDEX.md",
    "docs/adr/0007-a/README.md",
    "docs/adr/XXX-later.md",
    "docs/adr/0000-modèle.md",
    "docs/adr/a?b.md",
    "docs/adr/acb.md",
    "docs/adr/x+y(1).md",
]


def test_plain_matcher_agrees_with_pathspec() -> None:
    fast = layout._matcher(PLAIN)
    spec = pathspec.PathSpec.from_lines("gitignore", PLAIN)
    for path in PATHS:
        rel = path.removeprefix("docs/adr/")
        assert fast(path, rel) == bool(spec.match_file(rel) or spec.match_file(path)), path


def test_index_names() -> None:
    assert [p for p in DEFAULT_EXCLUDE if layout._is_index_name(p)] == ["README.md", "readme.md"]
