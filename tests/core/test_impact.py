"""Impact analysis, the manifest model and bulk glob matching (pure: no git, no files)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.impact.analysis import analyse, to_json
from adrguard.core.impact.globs import GlobSet, glob_problem, literal_prefix
from adrguard.core.impact.history import decision_text, first_difference
from adrguard.core.impact.mapping import ManifestError, parse_manifest
from adrguard.core.model import ChangeSet, Corpus, Decision, FileChange, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse
from adrguard.core.schemas import validator


def record(path: str, text: str) -> Decision:
    return parse(SourceFile(path, "docs/adr", text.encode()), Options())


def corpus(records: dict[str, str], files: tuple[str, ...] = ()) -> Corpus:
    decisions = sorted((record(p, t) for p, t in records.items()), key=lambda d: (d.id, d.path))
    return Corpus(decisions=tuple(decisions), roots=("docs/adr",),  # type: ignore[arg-type]
                  repo_files=frozenset(files) | frozenset(records))


def changes(*items: tuple[str, str] | tuple[str, str, str]) -> ChangeSet:
    fcs = tuple(FileChange(i[0], i[1], i[2] if len(i) == 3 else None) for i in items)
    return ChangeSet("main", "HEAD", "a" * 40, fcs, base_commit="a" * 40, head_commit="b" * 40)


def manifest(obj: object, path: str = ".adrguard-impact.json") -> object:
    return parse_manifest(path, json.dumps(obj, indent=2).encode())


MONEY = (
    "---\nstatus: accepted\naffected-paths: [\"src/billing/**\", \"!src/billing/gen/**\"]\n"
    "---\n# 1. Money\n"
)
OLD_DB = "# 2. Postgres\n\n## Status\n\nSuperseded by [3. MySQL](0003-mysql.md)\n"
NEW_DB = "# 3. MySQL\n\n## Status\n\nAccepted\n\nSupersedes [2. Postgres](0002-postgres.md)\n"
DRAFTY = "---\nstatus: proposed\naffected-paths: [\"src/search/**\"]\n---\n# 4. Search\n"
RECORDS = {
    "docs/adr/0001-money.md": MONEY,
    "docs/adr/0002-postgres.md": OLD_DB,
    "docs/adr/0003-mysql.md": NEW_DB,
    "docs/adr/0004-search.md": DRAFTY,
}
FILES = ("src/billing/a.py", "src/billing/gen/b.py", "db/schema.sql", "src/search/s.py",
         "README.md")


# --- globs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glob", "prefix"),
    [("src/a/**", "src/a/"), ("src/a", "src/a"), ("*.py", ""), ("docs/", ""), ("a/**/b", "a/"),
     ("**/x/y", ""), ("src/*.py", "src/"), ("src/a/", "src/a"), ("a/b\\*c/d", "a/")],
)
def test_literal_prefix(glob: str, prefix: str) -> None:
    assert literal_prefix(glob) == prefix


@pytest.mark.parametrize(
    ("glob", "why"),
    [("/etc/passwd", "absolute"), ("C:/x", "absolute"), ("src/../../x", "'..'"),
     ("a\\", "not a valid gitwildmatch glob"), ("", "empty"), ("#comment", "comment"),
     ("c:\\x", "absolute"), ("Z:/", "absolute"), ("src\\..\\x", "'..'"),
     ("a[z-a]", "from low to high")],
)
def test_glob_problems(glob: str, why: str) -> None:
    problem = glob_problem(glob)
    assert problem is not None and why in problem


@pytest.mark.parametrize("glob", ["é:/x", "1:/x", "c:x", "ab:/x", "..x", "x..", "c"])
def test_drive_like_and_dotted_names_are_relative_globs(glob: str) -> None:
    assert glob_problem(glob) is None


def test_literal_globs_agree_with_pathspec() -> None:
    """Globs pathspec writes as a literal folder or path (escaped characters included) are
    matched by prefix, never compiled: the same files as pathspec's own match."""
    import pathspec

    globs = ["src/a b", "lib\\[x\\]", "docs/", "a\\*b/c", "x.py", "é/ü", "a+b(c)/", "d\\q"]
    paths = ["src/a b", "src/a b/c.py", "src/a bc", "lib/[x]", "lib/x", "docs/y.md", "a*b/c",
             "a*b/c/d", "axb/c", "x.py", "sub/x.py", "é/ü", "é/ü/v", "a+b(c)/z", "dq", "d\\q"]
    got = GlobSet([[g] for g in globs]).match(paths)
    for glob, matched in zip(globs, got, strict=True):
        assert glob_problem(glob) is None
        spec = pathspec.PathSpec.from_lines("gitignore", [glob])
        assert matched == tuple(sorted(p for p in paths if spec.match_file(p))), glob


def test_last_matching_glob_wins() -> None:
    paths = ["src/a.py", "src/gen/b.py", "src/gen/keep.py", "docs/x.md"]
    globset = GlobSet([["src/**", "!src/gen/**", "src/gen/keep.py"], ["*.md"], []])
    got = globset.match(paths)
    assert got == [
        ("src/a.py", "src/gen/keep.py"), ("docs/x.md",), ()
    ]
    assert globset.matches_any(paths) == [True, True, False]
    assert GlobSet([["src"], ["!src"]]).matches_any(["src"]) == [True, False]


def test_file_names_with_newlines_match() -> None:
    assert GlobSet([["src/**"], ["*.py"]]).match(["src/new\nline.py"]) == [
        ("src/new\nline.py",), ("src/new\nline.py",)
    ]


_SEGMENT = st.sampled_from(["src", "a", "b", "lib", "x.py", "y.md", "gen", "a b", "é"])
_GLOB_PART = st.sampled_from(["src", "a", "*", "**", "*.py", "x.py", "gen", "[ab]", "?", "lib"])


@settings(max_examples=200, deadline=None)
@given(
    paths=st.lists(st.lists(_SEGMENT, min_size=1, max_size=4).map("/".join), max_size=30),
    lists=st.lists(
        st.lists(
            st.tuples(st.booleans(), st.lists(_GLOB_PART, min_size=1, max_size=3),
                      st.booleans()).map(lambda t: ("!" if t[0] else "") + "/".join(t[1])
                                         + ("/" if t[2] else "")),
            max_size=4,
        ),
        max_size=5,
    ),
)
def test_globset_agrees_with_pathspec_one_file_at_a_time(
    paths: list[str], lists: list[list[str]]
) -> None:
    import pathspec

    globset = GlobSet(lists)
    got = globset.match(paths)
    assert globset.matches_any(paths) == [bool(found) for found in got]
    for globs, matched in zip(lists, got, strict=True):
        usable = [g for g in globs if glob_problem(g) is None]
        spec = pathspec.PathSpec.from_lines("gitignore", usable)
        expected = tuple(sorted({p for p in paths if usable and spec.match_file(p)}))
        assert matched == expected, (globs, paths)


# --- manifest -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"schemaVersion": 1,\n "mappings": [\n  {"decision": "ADR-1", "paths": ["x",]}]}',
         "m.json:3:39: not valid JSON"),
        ('{"schemaVersion": 1,\n "mapings": []}',
         "m.json:2:2: unknown key 'mapings' (did you mean 'mappings'?)"),
        ('{"schemaVersion": 1,\n "mappings": [{"decision": "A", "pahts": ["x"]}]}',
         "m.json:2:33: unknown key 'pahts' in a mapping (did you mean 'paths'?)"),
        ('{"schemaVersion": 1, "mappings": [{"decision": "A", "paths": ["/abs/**"]}]}',
         "glob '/abs/**': absolute paths are not allowed"),
        ('{"schemaVersion": 1, "mappings": [{"decision": "A", "paths": ["../up"]}]}',
         "'..' escapes the repository"),
        ('{"schemaVersion": 1, "mappings": [{"decision": "A", "paths": ["bad\\\\"]}]}',
         "not a valid gitwildmatch glob"),
        ('{"schemaVersion": 1, "components": {"api": ["api/**"]},\n'
         ' "mappings": [{"decision": "A", "components": ["apj"]}]}',
         "m.json:2:48: unknown component 'apj' (did you mean 'api'?)"),
        ('{"schemaVersion": 2}', "schemaVersion 2 is not supported; use 1"),
        ('{"mappings": []}', '"schemaVersion": 1 is required'),
        ('{"schemaVersion": 1, "mappings": [{"decision": "A"}]}',
         'a mapping needs "paths" or "components"'),
        ('{"schemaVersion": 1, "schemaVersion": 1}', "key 'schemaVersion' appears twice"),
        ("[1]", "must be a JSON object"),
    ],
)
def test_manifest_problems_name_the_place(text: str, message: str) -> None:
    with pytest.raises(ManifestError) as err:
        parse_manifest("m.json", text.encode())
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_manifest_model_expands_components_before_paths() -> None:
    obj = {"schemaVersion": 1, "components": {"api": ["api/**", "!api/gen/**"]},
           "mappings": [{"decision": "ADR-0001", "components": ["api"],
                         "paths": ["lib/api.py"], "note": "see the API guide"}]}
    lines = json.dumps(obj, indent=2).split("\n")
    line = next(i for i, text in enumerate(lines, 1) if '"decision"' in text)
    m = manifest(obj)
    entry = m.mappings[0]  # type: ignore[attr-defined]
    assert (entry.line, entry.column) == (line, lines[line - 1].index('"decision"') + 1)
    assert entry.note == "see the API guide"
    assert m.globs(entry) == ("api/**", "!api/gen/**", "lib/api.py")  # type: ignore[attr-defined]


# --- analyse --------------------------------------------------------------------------------


def test_analyse_front_matter_manifest_inactive_unknown_and_coverage() -> None:
    c = corpus(RECORDS, FILES)
    m = manifest({"schemaVersion": 1, "mappings": [
        {"decision": "ADR-0002", "paths": ["db/**"]},
        {"decision": "ADR-0042", "paths": ["README.md"]},
        {"decision": "1", "paths": ["src/billing/a.py"], "note": "money is in cents"},
        {"decision": "ADR-0003", "paths": ["nowhere/**"]},
    ]})
    ch = changes(("M", "src/billing/a.py"), ("M", "src/billing/gen/b.py"),
                 ("M", "db/schema.sql"), ("M", "src/search/s.py"),
                 ("R", "docs/adr/0004-search.md", "docs/adr/0004-old.md"))
    impact = analyse(c, ch, m)  # type: ignore[arg-type]
    [money] = impact.affected
    assert money.decision.id == "ADR-0001"
    assert money.files == ("src/billing/a.py",)
    assert money.via == ("front-matter", "manifest")
    assert money.notes == ("money is in cents",)
    issues = {(i.decision, i.problem): i for i in impact.issues}
    assert issues[("ADR-0042", "unknown")].files == ()
    inactive = issues[("ADR-0002", "inactive")]
    assert inactive.successor is not None and inactive.successor.id == "ADR-0003"
    assert inactive.files == ("db/schema.sql",)
    assert impact.coverage.changed == 5
    assert impact.coverage.records == 1
    assert (impact.coverage.governed, impact.coverage.ungoverned) == (1, 3)
    text = "\n".join(impact.uncertainty)
    assert "3 changed files are outside any mapping" in text
    assert "ADR-0004 (proposed) map changed files but only accepted decisions govern" in text
    assert "mapping for ADR-0003 (.adrguard-impact.json:" in text and "matches no file" in text
    data = to_json(impact)
    validator("impact.schema.json").validate(data)
    assert data["statement"].startswith("Impact means: review")


def test_status_widens_and_rename_old_path_counts() -> None:
    c = corpus(RECORDS, FILES)
    ch = changes(("R", "lib/search.py", "src/search/s.py"))
    assert analyse(c, ch, None).affected == ()
    widened = analyse(c, ch, None, {"accepted", "proposed"})
    assert [a.decision.id for a in widened.affected] == ["ADR-0004"]
    assert widened.affected[0].files == ("src/search/s.py",)


def test_no_mappings_at_all_is_said() -> None:
    c = corpus({"docs/adr/0003-mysql.md": NEW_DB}, ("x.py",))
    impact = analyse(c, changes(("M", "x.py")), None)
    assert impact.affected == ()
    assert any("no decision maps any paths" in line for line in impact.uncertainty)


def test_unknown_front_matter_component_is_uncertain() -> None:
    text = "---\nstatus: accepted\naffected-components: [ledger]\n---\n# 5. Ledger\n"
    c = corpus({"docs/adr/0005-ledger.md": text}, ("x.py",))
    impact = analyse(c, changes(("M", "x.py")), None)
    assert any("names component 'ledger'" in line for line in impact.uncertainty)


# --- decision text (ADR505) -----------------------------------------------------------------


def test_decision_text_ignores_status_relationships_links_and_whitespace() -> None:
    before = record("docs/adr/0002-postgres.md",
                    "# 2. Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nUse [it](a.md).\n")
    after = record("docs/adr/0002-postgres.md", OLD_DB + "\n## Decision\n\nUse  [it](b.md).\n")
    opts = Options()
    assert first_difference(decision_text(before, opts), decision_text(after, opts)) is None  # type: ignore[arg-type]
    edited = record("docs/adr/0002-postgres.md", OLD_DB + "\n## Decision\n\nUse MySQL.\n")
    assert first_difference(decision_text(before, opts), decision_text(edited, opts)) == 9  # type: ignore[arg-type]


def _compiled_first(body: str) -> object:
    """What :func:`globs._matcher` gave before literal globs skipped the compile (ADR 44):
    the regex compiled first, then a literal one matched without it; the error text when
    either step refuses the glob."""
    import re

    from adrguard.core.impact import globs

    try:
        regex, include = globs._pattern_class().pattern_to_regex(body)
        if include is None or regex is None:
            return None
        compiled = re.compile(regex, re.DOTALL)
    except Exception as exc:
        return f"error: {globs._reason(exc)}"
    literal = globs._LITERAL.fullmatch(regex)
    if literal is not None:
        return globs._literal(literal)
    return globs._Matcher(globs.literal_prefix(body), compiled)


def _matched(body: str) -> object:
    from adrguard.core.impact import globs

    try:
        return globs._matcher(body)
    except ValueError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("body", [
    "src/billing/**", "src/a.py", "docs/adr/", "a b/c-d_e.f/**", "src/ü/**", "src/#x/y",
    "src/(x)/**", "src/a+b/**", "x{1}/**", "src/$x^/**", "a\\\\b/**", "src/\\d/x", "\\1/x",
    "src/[z-a]/x", "src/[ab]/x", "*.md", "x/**/y", "src/a?/**", "!x", "#x", "\\#x/**", "",
])
def test_literal_globs_skip_the_compile_with_the_same_result(body: str) -> None:
    _assert_same_matcher(body)


def _assert_same_matcher(body: str) -> None:
    """The matcher of ``body`` is the one its compiled regex gave; a name at any depth (a
    matcher without a regex, :func:`globs._any_depth_name`) matches as that regex does on
    paths made of its pieces."""
    from adrguard.core.impact import globs

    got, want = _matched(body), _compiled_first(body)
    if not (isinstance(got, globs._Matcher) and got.name is not None):
        assert got == want
        return
    assert isinstance(want, globs._Matcher) and want.regex is not None and want.prefix == ""
    assert got.prefix == "" and got.regex is None and got.exact is None
    for path in _probe_paths(got.name):
        assert globs._names_match(path, got.name) == bool(want.regex.search(path)), path


def _probe_paths(name: tuple[str, ...]) -> list[str]:
    parts = ["".join(name), "x".join(name), "".join(name)[1:], "".join(name) + "x",
             "xy".join(name) + "\n", "".join(name) + "\n\n"]
    return [f"{before}{part}{after}" for part in parts
            for before in ("", "a/", "/", "//", "a//", "a/b/", "\n/")
            for after in ("", "/", "/b", "\n", "/\n", "x/c")]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab/.*?[]!\\-{}()+^$|d1 é#_", max_size=14))
def test_any_glob_matches_as_when_its_regex_was_compiled_first(body: str) -> None:
    _assert_same_matcher(body)


_NAME_ALPHABET = "aZ9_-.*"
_PATH_PIECES = ["a", "Z", "9", "_", "-", ".", "/", "\n", "test_", ".py", "x.py", "é", "*"]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["", "**/"]), st.text(alphabet=_NAME_ALPHABET, min_size=1, max_size=6),
       st.lists(st.lists(st.sampled_from(_PATH_PIECES), max_size=6).map("".join),
                min_size=1, max_size=6))
def test_a_name_at_any_depth_matches_as_pathspec_says(
    lead: str, name: str, paths: list[str]
) -> None:
    """``**/test_*.py``, ``*.sql``: a name with at most one ``*`` is matched without pathspec,
    on every path as the regex pathspec writes for the glob; the name itself and the path
    with it as its last part are among the paths."""
    import re

    from adrguard.core.impact import globs

    body = lead + name
    shape = globs._any_depth_name(body)
    if shape is None:
        assert name.count("*") > 1 or not set(name) - {".", "*"}
        return
    regex, include = globs._pattern_class().pattern_to_regex(body)
    assert include is True
    compiled = re.compile(regex, re.DOTALL)
    probes = [*paths, name, f"{paths[0]}/{name}", f"{paths[0]}/{name}\n", name.replace("*", "")]
    for path in probes:
        assert globs._names_match(path, shape) == bool(compiled.search(path)), (body, path)
    assert globs.GlobSet([[body]]).match(probes) == [
        tuple(sorted({p for p in probes if compiled.search(p)}))]


@pytest.mark.parametrize(("body", "name"), [
    ("**/test_*.py", ("test_", ".py")), ("*.sql", ("", ".sql")), ("Dockerfile", ("Dockerfile",)),
    ("**/x", ("x",)), ("a*", ("a", "")), ("**/*", None), ("*", None), ("**/.", None),
    ("a*b*c", None), ("**/a/b", None), ("a/*.py", None), ("**/a?", None), ("#a", None),
    ("a b", None), ("**/**/x", None), ("x/", None), ("é*", None),
])
def test_names_at_any_depth_written_out(body: str, name: tuple[str, ...] | None) -> None:
    from adrguard.core.impact import globs

    assert globs._any_depth_name(body) == name
    if name is not None:
        assert globs.glob_problem(body) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet="aZ9_-.", max_size=5), min_size=1, max_size=4))
def test_a_plain_folders_glob_matches_as_pathspec_says(names: list[str]) -> None:
    """``src/billing/**`` is answered without pathspec: the same matcher as from its regex,
    for every folder of plain names, names of dots alone and empty ones included."""
    body = "/".join(names) + "/**"
    assert _matched(body) == _compiled_first(body)


@pytest.mark.parametrize("body", [
    ".github/**", "./x/**", "../x/**", "a/../b/**", "a//b/**", "-x/**", ".../**", "a/./**",
    "/**", "**", "x.y/**", "A-b_9/c/**",
])
def test_plain_folder_globs_and_their_edges(body: str) -> None:
    assert _matched(body) == _compiled_first(body)
