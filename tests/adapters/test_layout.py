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


def test_name_patterns_match_as_pathspec_matches_them_without_importing_it() -> None:
    """The built-in excludes and other plain name patterns are matched without pathspec (it
    costs more to import than the whole rest of discovery); every answer is pathspec's, for
    ordinary paths and for the odd ones it rewrites first (a leading ``/`` or ``./``) or whose
    regex reads a line break otherwise."""
    import itertools
    import subprocess
    import sys

    import pathspec

    patterns = [*DEFAULT_EXCLUDE, "notes", "*.draft.md", "a*b*c", "*", "x.y+z(1)", "ab*ba",
                "*a*a*", "a*a"]
    paths = [
        "README.md", "docs/README.md", "README.md/inside.md", "a/readme.md", "readme.MD",
        "0001-x.md", "template.md", "templates/0001.md", "x/template-a.md", "0000-a-template",
        "0000-foo-TEMPLATE-x.md", "XXX.md", "aXXXb/c.md", "a/xxx", "0000-modèle-a.md",
        "modele.md", "plantilla-x.md", "vorlage.md", "notes/0001.md", "my-notes/1.md",
        "a.draft.md", "b/a.draft.md.txt", "abc", "a-b-c", "acb", "x.y+z(1)", "xxy+z(1)",
        "/README.md", "./README.md", "a//README.md", "README.md/", "a\nb/README.md",
        "x/README.md\n", "a\\README.md", "dir/", "", "0001-\u00e9t\u00e9.md", "a", "aa", "aba",
        "abba", "abbba", "x/aba/y",
    ]
    for pattern in patterns:
        assert layout._simple(pattern)
        names = layout._Names.of([pattern])
        spec = pathspec.GitIgnoreSpec.from_lines([pattern])
        assert names is not None
        for path in paths:
            assert names.match_file(path) == spec.match_file(path), (pattern, path)
            if path and "/" not in path and "\n" not in path and "\\" not in path:
                assert layout._name_matches(pattern, path) == spec.match_file(path), (
                    pattern, path)
        assert layout._is_index_name(pattern) == (pattern in ("README.md", "readme.md"))
    together = layout._Names.of(patterns)
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    assert together is not None
    for path in (*paths, *("/".join(p) for p in itertools.product(paths[:12], repeat=2))):
        assert together.match_file(path) == spec.match_file(path), path
    for pattern in ("docs/*.md", "a?.md", "[ab].md", "!README.md", "#x", " x", "x ", "**/x",
                    "x\\*", ""):
        assert not layout._simple(pattern)
        assert layout._Names.of(["README.md", pattern]) is None
    # the built-in excludes never import pathspec
    script = ("import sys\nfrom adrguard.adapters import layout\nfrom adrguard.config import "
              "Config\nplan = layout.classify(['docs/adr/README.md', 'docs/adr/0001-a.md'], "
              "('docs/adr',), Config())\nassert [p for p, _, _ in plan.records] == "
              "['docs/adr/0001-a.md']\nassert 'pathspec' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", script], check=True)


def test_the_record_readme_excludes_are_built_when_first_asked() -> None:
    """The excludes for a one-folder-per-record README (every pattern but the index names) are
    built on first use and answer as when they were built with the others."""
    paths = [("docs/adr/0007-a/README.md", "0007-a/README.md"), ("docs/adr/README.md",
             "README.md"), ("docs/adr/x/readme.md", "x/readme.md"), ("a/b.md", "b.md")]
    for patterns in (DEFAULT_EXCLUDE, ("drafts/", "[0-9]*-a/"), ("README.md",), ("!x", "*.md")):
        excluder = layout._Excluder(patterns)
        assert excluder._record is None
        kept = [p for p in patterns if not layout._is_index_name(p)]
        eager = layout._Spec(kept) if len(kept) != len(patterns) else layout._Spec(patterns)
        for path, rel in paths:
            assert excluder.record(path, rel) == eager(path, rel), (patterns, path)
        assert excluder._record is not None
