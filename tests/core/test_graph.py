"""Reference resolution and the decision graph, on corpora built by hand (pure, no files)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.findings import Finding
from adrguard.core.graph import graph
from adrguard.core.graph.resolve import Resolver, normalise, parse_target
from adrguard.core.model import Corpus, Decision, Link, Location, Relationship, RelKind, Status
from adrguard.core.options import Options
from adrguard.core.repository import parse_repository
from adrguard.rules.base import RuleContext
from adrguard.rules.links import RULES as LINK_RULES
from adrguard.rules.relationships import RULES as REL_RULES


def rec(
    path: str,
    number: int | None = None,
    status: Status | None = Status.ACCEPTED,
    rels: tuple[tuple[RelKind, str], ...] = (),
    root: str = "docs/adr",
    links: tuple[Link, ...] = (),
    title: str | None = None,
) -> Decision:
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    ident = f"ADR-{number:04d}" if number is not None else stem
    return Decision(
        id=ident,
        path=path,
        root=root,
        number=number,
        title=title or stem,
        status=status,
        status_line=3,
        relationships=tuple(
            Relationship(kind, ident, target, Location(path, 5 + i))
            for i, (kind, target) in enumerate(rels)
        ),
        links=links,
    )


def corpus(
    *decisions: Decision, files: tuple[str, ...] = (), repo_url: str | None = None
) -> Corpus:
    """``repo_url`` is the ``repository-url`` setting (``URL/tree/BRANCH`` names the default
    branch)."""
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    return Corpus(
        decisions=ordered,
        roots=tuple(sorted({d.root for d in decisions})),
        repo_files=frozenset({d.path for d in decisions} | set(files)),
        repository=parse_repository(repo_url) if repo_url else None,
    )


def run(c: Corpus, code_prefix: str = "ADR", options: Options | None = None) -> list[Finding]:
    ctx = RuleContext(c, options or Options())
    out: list[Finding] = []
    for rule in (*LINK_RULES, *REL_RULES):
        if rule.meta.code.startswith(code_prefix):
            out.extend(rule().check(ctx))
    return out


# -- link targets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "kind", "repo_path"),
    [
        ("0005-x.md", "path", "docs/adr/0005-x.md"),
        ("./0005-x.md", "path", "docs/adr/0005-x.md"),
        ("../adr/0005-x.md", "path", "docs/adr/0005-x.md"),
        ("<my notes.md>", "path", "docs/adr/my notes.md"),
        ("my%20notes.md?raw=true#part", "path", "docs/adr/my notes.md"),
        ("/docs/infra/x.md", "path", "docs/infra/x.md"),
        ("2023-03-02-slug/", "path", "docs/adr/2023-03-02-slug"),
        ("https://example.com/x.md", "external", None),
        ("mailto:a@b.c", "external", None),
        ("ftp://x", "external", None),
        ("//cdn.example.com/x.png", "external", None),
        ("#considered-options", "anchor", None),
        ("", "empty", None),
        ("  ", "empty", None),
    ],
)
def test_parse_target(raw: str, kind: str, repo_path: str | None) -> None:
    t = parse_target(raw, "docs/adr/0001-a.md")
    assert t.kind == kind
    assert t.repo_path == repo_path


def test_parse_target_keeps_the_decoded_fragment() -> None:
    t = parse_target("0002-b.md#decision%20outcome", "docs/adr/0001-a.md")
    assert t.fragment == "decision outcome"


def test_urls_to_this_repository_become_paths() -> None:
    repo = parse_repository("https://github.com/Owner/Repo/tree/main")
    t = parse_target("https://github.com/owner/repo/blob/main/docs/adr/0002-b.md", "x.md", repo)
    assert (t.kind, t.repo_path, t.from_url) == ("path", "docs/adr/0002-b.md", True)
    head = parse_target("http://github.com/owner/repo/tree/HEAD/docs/adr", "x.md", repo)
    assert (head.kind, head.repo_path) == ("path", "docs/adr")
    other = parse_target("https://github.com/other/repo/blob/main/docs/x.md", "x.md", repo)
    assert other.kind == "external"
    assert parse_target("https://github.com/owner/repo/blob/main/x.md", "x.md").kind == "external"


@pytest.mark.parametrize("url", [
    "https://github.com/o/r/blob/release/2.x/docs/adr/0002-b.md",  # another branch
    "https://github.com/o/r/blob/v1.0.0/docs/adr/0002-b.md",  # a tag
    "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/docs/adr/0002-b.md",
    "https://github.com/o/r/blob/main2/docs/adr/0002-b.md",  # a branch that starts like main
    "https://github.com/o/r/commits/main/docs/adr/0002-b.md",  # history, not the file
])
def test_urls_at_other_refs_are_never_work_tree_paths(url: str) -> None:
    assert parse_target(url, "x.md", parse_repository("https://github.com/o/r/tree/main")).kind \
        == "external"


def test_a_default_branch_with_a_slash_and_gitlab_urls() -> None:
    repo = parse_repository("git@gitlab.example.org:group/sub/r.git")
    assert repo.url == "https://gitlab.example.org/group/sub/r" and repo.default_branch is None
    assert repo.web_path("https://gitlab.example.org/group/sub/r/-/blob/HEAD/a/b.md") == "a/b.md"
    assert repo.web_path("https://gitlab.example.org/group/sub/r/-/blob/main/a/b.md") is None
    slash = parse_repository("https://github.com/o/r/tree/release/2.x")
    assert slash.default_branch == "release/2.x" and slash.label.endswith("/tree/release/2.x")
    assert slash.web_path("https://github.com/o/r/blob/release/2.x/a.md#top") == "a.md"
    for bad in ("o/r", "https://github.com/o", "ftp://h/o/r", "https://h/o/../r"):
        with pytest.raises(ValueError):
            parse_repository(bad)


def test_normalise_reports_escapes() -> None:
    assert normalise("docs/adr", "../../x.md") == ("x.md", False)
    assert normalise("docs/adr", "../../../x.md") == (None, True)
    assert normalise("docs", "/a/./b/../c") == ("a/c", False)


# -- references ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    ["ADR-0005", "ADR 5", "ADR005", "adr-5", "#5", "5", "0005-use-x.md", "./0005-use-x.md",
     "../adr/0005-use-x.md", "0005-use-x", "Use X"],
)
def test_every_way_of_naming_a_record_resolves(raw: str) -> None:
    target = rec("docs/adr/0005-use-x.md", 5, title="Use X")
    source = rec("docs/adr/0001-a.md", 1)
    r = Resolver(corpus(source, target)).resolve(source, raw)
    assert r.state == "resolved", r.reason
    assert r.decision is not None and r.decision.path == target.path


def test_link_text_resolves_when_the_target_is_empty() -> None:
    target = rec("docs/adr/0005-use-x.md", 5)
    source = rec("docs/adr/0001-a.md", 1)
    r = Resolver(corpus(source, target)).resolve(source, "", "5. Use X")
    assert r.decision is target


def test_folder_records_and_slugs_resolve() -> None:
    edc = rec("docs/dr/2023-03-02-slug/README.md", None, root="docs/dr")
    src = rec("docs/dr/2024-01-01-other/README.md", None, root="docs/dr")
    c = corpus(edc, src)
    res = Resolver(c)
    assert res.resolve(src, "../2023-03-02-slug/").decision is edc
    assert res.resolve(src, "../2023-03-02-slug").decision is edc
    assert res.resolve(src, "2023-03-02-slug").decision is edc


def test_ids_resolve_in_their_own_root_first_then_anywhere() -> None:
    main = rec("docs/adr/0001-a.md", 1)
    pay1 = rec("services/pay/adr/0001-p.md", 1, root="services/pay/adr")
    pay2 = rec("services/pay/adr/0002-q.md", 2, root="services/pay/adr")
    res = Resolver(corpus(main, pay1, pay2))
    assert res.resolve(pay2, "ADR-1").decision is pay1
    assert res.resolve(main, "ADR-1").decision is main
    assert res.resolve(main, "ADR-2").decision is pay2


def test_duplicates_are_ambiguous_and_missing_ones_unresolved() -> None:
    a = rec("docs/adr/0025-a.md", 25)
    b = rec("docs/adr/0025-b.md", 25)
    src = rec("docs/adr/0026-c.md", 26)
    res = Resolver(corpus(a, b, src))
    amb = res.resolve(src, "ADR-25")
    assert amb.state == "ambiguous" and len(amb.decisions) == 2
    assert res.resolve(src, "ADR-99").state == "unresolved"
    assert res.resolve(src, "0099-missing.md").state == "unresolved"
    assert res.resolve(src, "https://example.com/adr/1").state == "external"
    case = res.resolve(src, "0025-A.md")
    assert case.state == "unresolved" and "case" in case.reason


# -- graph ---------------------------------------------------------------------------------------


def test_tarjan_finds_components_without_recursion() -> None:
    n = 20_000
    nodes = [f"n{i:05d}" for i in range(n)]
    succ = {nodes[i]: [nodes[(i + 1) % n]] for i in range(n)}
    comps = graph.strongly_connected(nodes, succ)
    assert len(comps) == 1 and len(comps[0]) == n
    chain = {nodes[i]: [nodes[i + 1]] for i in range(n - 1)}
    assert len(graph.strongly_connected(nodes, chain)) == n


def test_normalised_edges_merge_both_declarations() -> None:
    old = rec("docs/adr/0002-b.md", 2, Status.SUPERSEDED, ((RelKind.SUPERSEDED_BY, "0005-e.md"),))
    new = rec("docs/adr/0005-e.md", 5, rels=((RelKind.SUPERSEDES, "0002-b.md"),))
    g = graph.build(corpus(old, new))
    assert [(e.kind, e.source, e.target, len(e.declared)) for e in g.edges] == [
        ("supersedes", new.path, old.path, 2)
    ]
    assert g.successors(old) == (new,)
    assert graph.describe(g.corpus, old)["currentSuccessor"] == "ADR-0005"
    assert {g.state(d) for d in g.declared} == {"resolved"}


def test_amends_never_counts_as_supersession() -> None:
    old = rec("docs/adr/0002-b.md", 2)
    new = rec("docs/adr/0005-e.md", 5, rels=((RelKind.AMENDS, "0002-b.md"),))
    c = corpus(old, new)
    assert graph.build(c).successors(old) == ()
    assert run(c, "ADR3") == []


def test_current_successor_follows_the_chain_to_its_end() -> None:
    a = rec("docs/adr/0001-a.md", 1, Status.SUPERSEDED, ((RelKind.SUPERSEDED_BY, "2"),))
    b = rec("docs/adr/0002-b.md", 2, Status.SUPERSEDED, ((RelKind.SUPERSEDED_BY, "3"),))
    c3 = rec("docs/adr/0003-c.md", 3)
    c = corpus(a, b, c3)
    g = graph.build(c)
    assert g.current_successor(a) is c3
    assert g.current_successor(c3) is None
    assert graph.describe(c, c3) == {"supersedes": ["ADR-0002"], "referencedBy": ["ADR-0002"]}


def _chain(n: int) -> Corpus:
    ds = []
    for i in range(1, n + 1):
        rels = ((RelKind.SUPERSEDES, f"{i - 1:05d}-r.md"),) if i > 1 else ()
        status = Status.ACCEPTED if i == n else Status.SUPERSEDED
        back = ((RelKind.SUPERSEDED_BY, f"{i + 1:05d}-r.md"),) if i < n else ()
        ds.append(rec(f"docs/adr/{i:05d}-r.md", i, status, rels + back))
    return corpus(*ds)


def test_a_10000_record_chain_is_checked_quickly_and_cleanly() -> None:
    c = _chain(10_000)
    start = time.process_time()  # CPU time: noise from other jobs does not count
    findings = run(c)
    elapsed = time.process_time() - start
    assert findings == []
    first, last = c.by_path["docs/adr/00001-r.md"], c.by_path["docs/adr/10000-r.md"]
    assert graph.build(c).current_successor(first) is last
    assert elapsed < 5, f"ADR2xx/3xx on a 10,000-record chain took {elapsed:.2f}s"


def test_a_10000_record_ring_is_one_cycle_finding() -> None:
    n = 10_000
    ds = [
        rec(f"docs/adr/{i:05d}-r.md", i, rels=((RelKind.SUPERSEDES, f"{i % n + 1:05d}-r.md"),))
        for i in range(1, n + 1)
    ]
    findings = run(corpus(*ds), "ADR303")
    assert len(findings) == 1
    assert len(findings[0].related) == n
    assert "10000 records involved" not in findings[0].message or "..." in findings[0].message


def test_a_record_superseding_itself() -> None:
    d = rec("docs/adr/0005-e.md", 5, rels=((RelKind.SUPERSEDES, "0005-e.md"),))
    found = run(corpus(d), "ADR3")
    assert [f.code for f in found] == ["ADR309"]
    assert graph.build(corpus(d)).state(graph.build(corpus(d)).declared[0]) == "cyclic"


def test_a_thousand_records_superseding_one() -> None:
    old = rec("docs/adr/0001-a.md", 1)
    news = [
        rec(f"docs/adr/{i:04d}-n.md", i, rels=((RelKind.SUPERSEDES, "0001-a.md"),))
        for i in range(2, 1002)
    ]
    found = run(corpus(old, *news), "ADR3", Options(supersession_both_sides=True))
    codes = sorted({f.code for f in found})
    assert codes == ["ADR304", "ADR306", "ADR308"]
    multiple = [f for f in found if f.code == "ADR308"]
    assert len(multiple) == 1 and len(multiple[0].related) == 1000
    assert "1000 accepted records supersede ADR-0001" in multiple[0].message
    assert len([f for f in found if f.code == "ADR304"]) == 1000


def test_one_sided_message_names_both_ends_and_the_fix() -> None:
    old = rec("docs/adr/0002-use-mysql.md", 2, Status.SUPERSEDED,
              ((RelKind.SUPERSEDED_BY, "0005-use-postgres.md"),), title="Use MySQL")
    new = rec("docs/adr/0005-use-postgres.md", 5, title="Use Postgres")
    (finding,) = run(corpus(old, new), "ADR304", Options(supersession_both_sides=True))
    assert finding.message == (
        "ADR-0002 says it is superseded by ADR-0005, but ADR-0005 does not list ADR-0002 in "
        "supersedes: add `Supersedes [2. Use MySQL](0002-use-mysql.md)` to "
        "docs/adr/0005-use-postgres.md"
    )
    assert finding.location == Location(old.path, 5)


def test_states_of_declared_edges() -> None:
    a = rec("docs/adr/0001-a.md", 1, Status.SUPERSEDED, ((RelKind.SUPERSEDED_BY, "0002-b.md"),))
    b = rec("docs/adr/0002-b.md", 2, Status.PROPOSED)
    dep = rec(
        "docs/adr/0003-c.md", 3, rels=((RelKind.DEPENDS_ON, "ADR-1"), (RelKind.DEPENDS_ON, "9"))
    )
    g = graph.build(corpus(a, b, dep))
    states = {(d.source.number, d.rel.target_raw): g.state(d) for d in g.declared}
    assert states == {
        (1, "0002-b.md"): "inconsistent",
        (3, "ADR-1"): "inactive",
        (3, "9"): "unresolved",
    }


def test_referenced_by_counts_links_and_relationships() -> None:
    a = rec("docs/adr/0001-a.md", 1)
    b = rec("docs/adr/0002-b.md", 2, links=(Link("0001-a.md#x", "A", 4),))
    c3 = rec("docs/adr/0003-c.md", 3, rels=((RelKind.DEPENDS_ON, "ADR-1"),))
    info = graph.describe(corpus(a, b, c3), a)
    assert info["referencedBy"] == ["ADR-0002", "ADR-0003"]


def test_broken_links_in_a_hand_built_corpus() -> None:
    links = (
        Link("0002-b.md", "B", 3),
        Link("missing.md", "M", 4),
        Link("img/x.png", "", 5, kind="image", is_image=True),
        Link("0002-B.md", "B", 6),
        Link("../../../out.md", "O", 7),
        Link("mailto:x@y.z", "", 8, kind="autolink"),
    )
    c = corpus(rec("docs/adr/0001-a.md", 1, links=links), rec("docs/adr/0002-b.md", 2))
    found = {(f.code, f.location.line): f.message for f in run(c, "ADR20")}
    assert set(found) == {("ADR201", 4), ("ADR201", 5), ("ADR201", 6), ("ADR203", 7)}
    assert "image" in found[("ADR201", 5)]
    assert "only if case is ignored" in found[("ADR201", 6)]


def test_any_target_text_resolves_without_raising() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    a = rec("docs/adr/0001-a.md", 1)
    b = rec("docs/adr/sub/0002-b.md", 2, root="docs/adr")
    c = corpus(a, b, repo_url="https://github.com/o/r/tree/main")
    res = Resolver(c)

    @settings(max_examples=300, deadline=None)
    @given(st.text(), st.text(max_size=20))
    def check(raw: str, text: str) -> None:
        t = parse_target(raw, a.path, c.repository)
        assert t.kind in {"empty", "anchor", "external", "path"}
        r = res.resolve(a, raw, text)
        assert r.state in {"resolved", "unresolved", "ambiguous", "external"}
        assert (r.decision is not None) == (r.state == "resolved")

    check()


def test_relationships_by_url_resolve_only_for_this_repository() -> None:
    old = rec("docs/adr/0001-a.md", 1, Status.SUPERSEDED, (
        (RelKind.SUPERSEDED_BY, "https://github.com/o/r/blob/main/docs/adr/0002-b.md"),
        (RelKind.SUPERSEDED_BY, "https://github.com/other/r/blob/main/docs/adr/0002-b.md"),
        (RelKind.SUPERSEDED_BY, "https://github.com/o/r/blob/v2/docs/adr/0002-b.md"),
    ))
    new = rec("docs/adr/0002-b.md", 2, rels=((RelKind.SUPERSEDES, "0001-a.md"),))
    c = corpus(old, new, repo_url="https://github.com/o/r/tree/main")
    g = graph.build(c)
    # this repository at its default branch; another repository; another ref (a tag)
    assert [d.resolution.state for d in g.declared[:3]] == ["resolved", "external", "external"]
    assert g.declared[0].target is new
    assert run(c, "ADR30") == []  # an external target is not checked, not "unresolved"


def _walk(g: graph.Graph, d: Decision) -> Decision | None:
    """The supersession walk, step by step: the best successor (accepted first, then by path),
    stopping at a record with none or before one the walk already passed."""
    seen = {d.path}
    current = d
    while True:
        nxt = g.successors(current)
        if not nxt:
            break
        step = min(nxt, key=lambda s: (s.status is not Status.ACCEPTED, s.path))
        if step.path in seen:
            break
        seen.add(step.path)
        current = step
    return None if current is d else current


@given(
    st.lists(st.tuples(st.integers(1, 12), st.integers(1, 12)), max_size=30),
    st.lists(st.booleans(), min_size=12, max_size=12),
)
@settings(max_examples=300, deadline=None)
def test_chain_ends_resolved_at_once_equal_the_walk(
    edges: list[tuple[int, int]], accepted: list[bool]
) -> None:
    """Every record's current successor comes from one pass over the graph (linear), and is
    the record the step-by-step walk ends at, cycles included."""
    rels: dict[int, list[tuple[RelKind, str]]] = {i: [] for i in range(1, 13)}
    for new, old in edges:
        rels[new].append((RelKind.SUPERSEDES, f"{old:04d}-r.md"))
    ds = [
        rec(f"docs/adr/{i:04d}-r.md", i, Status.ACCEPTED if accepted[i - 1] else Status.SUPERSEDED,
            tuple(rels[i]))
        for i in range(1, 13)
    ]
    g = graph.build(corpus(*ds))
    for d in ds:
        assert g.current_successor(d) == _walk(g, d), d.path


def test_current_successor_of_a_10000_record_ring_is_linear() -> None:
    n = 10_000
    ds = [
        rec(f"docs/adr/{i:05d}-r.md", i, rels=((RelKind.SUPERSEDES, f"{i % n + 1:05d}-r.md"),))
        for i in range(1, n + 1)
    ]
    g = graph.build(corpus(*ds))
    started = time.process_time()
    ends = [g.current_successor(d) for d in ds]
    assert time.process_time() - started < 5.0
    # on a ring the walk stops before the record it started from: at its own predecessor
    assert ends[0] is not None and ends[0].path == f"docs/adr/{2:05d}-r.md"


def _later_paths(g: graph.Graph, d: Decision) -> set[str]:
    """The records that supersede ``d``, directly or through others (a search per record)."""
    seen: set[str] = set()
    todo = [d]
    while todo:
        for s in g.successors(todo.pop()):
            if s.path not in seen:
                seen.add(s.path)
                todo.append(s)
    return seen


@given(
    st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), max_size=25),
    st.lists(st.lists(st.integers(1, 10), min_size=1, max_size=4), min_size=1, max_size=12),
)
@settings(max_examples=300, deadline=None)
def test_a_line_citing_a_successor_is_answered_from_bit_sets(
    edges: list[tuple[int, int]], lines: list[list[int]]
) -> None:
    """line_successors (bit sets over the graph, once per run) agrees with a search of the
    supersession graph from every cited record, cycles included."""
    from adrguard.core.citations.resolve import index, line_successors
    from adrguard.core.model import Citation, Citations, CitingFile

    rels: dict[int, list[tuple[RelKind, str]]] = {i: [] for i in range(1, 11)}
    for new, old in edges:
        rels[new].append((RelKind.SUPERSEDES, f"{old:04d}-r.md"))
    ds = [rec(f"docs/adr/{i:04d}-r.md", i, Status.SUPERSEDED, tuple(rels[i])) for i in range(1, 11)]
    cites = tuple(
        Citation(line=n + 1, column=1 + 10 * k, form="id", text=f"ADR-{i}", excerpt="",
                 prefix="adr", number=i)
        for n, numbers in enumerate(lines) for k, i in enumerate(numbers)
    )
    base = corpus(*ds)
    c = Corpus(decisions=base.decisions, roots=base.roots, repo_files=base.repo_files,
               citations=Citations((CitingFile("src/app.py", "code", cites),), 1))
    g = graph.build(c)
    for cited in index(c).all:
        d = cited.decision
        assert d is not None
        on_line = {o.decision.path for o in index(c).all
                   if o.citation.line == cited.citation.line and o.decision is not None}
        expected = bool(_later_paths(g, d) & on_line)
        assert line_successors(c).holds(cited) is expected, (d.path, cited.citation.line)


_SEGMENT = st.sampled_from(["docs", "adr", "a", "b", "x y", "ü", ""])


@settings(max_examples=200, deadline=None)
@given(
    records=st.lists(st.lists(_SEGMENT, min_size=0, max_size=4), max_size=8),
    tracked=st.lists(st.lists(_SEGMENT, min_size=0, max_size=4), max_size=8),
)
def test_the_resolvers_folders_are_every_parent_of_a_file_or_a_record(
    records: list[list[str]], tracked: list[list[str]]
) -> None:
    """Tracked or not (a record git does not track yet), every folder above a record counts;
    the walk up that stops at a known folder gives what listing every parent gives."""
    paths = {"/".join([*folder, f"{i:04d}-r.md"]) for i, folder in enumerate(records)}
    files = tuple("/".join([*folder, "f.py"]) for folder in tracked)
    c = Corpus(
        decisions=tuple(rec(p, i) for i, p in enumerate(sorted(paths))),
        repo_files=frozenset(files),
    )
    expected = {""}
    for path in [*paths, *files]:
        parts = path.split("/")[:-1]
        expected.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    assert Resolver(c).dirs == expected


_CASED = st.text(alphabet="aAbBß-", min_size=1, max_size=3)


@settings(max_examples=200, deadline=None)
@given(
    records=st.lists(st.lists(_CASED, min_size=0, max_size=3), max_size=8),
    tracked=st.lists(st.lists(_CASED, min_size=1, max_size=3), max_size=8),
)
def test_the_case_insensitive_paths_name_the_first_real_path_in_sorted_order(
    records: list[list[str]], tracked: list[list[str]]
) -> None:
    """``Resolver.folded`` (files and folders by their case-folded path, for a link that
    matches only if case is ignored) keeps, of the paths that fold alike, the first in
    sorted order: what folding every path in sorted order gives, without sorting them."""
    paths = {"/".join([*folder, f"{i:04d}-R.md"]) for i, folder in enumerate(records)}
    c = Corpus(
        decisions=tuple(rec(p, i) for i, p in enumerate(sorted(paths))),
        repo_files=frozenset("/".join(parts) for parts in tracked),
    )
    resolver = Resolver(c)
    expected: dict[str, str] = {}
    for p in sorted(resolver.files | resolver.dirs):
        expected.setdefault(p.casefold(), p)
    assert resolver.folded == expected


def test_a_logs_route_keys_are_worked_out_only_when_a_route_is_looked_up() -> None:
    """Whether a log is a site's asks for no route keys when its links hold no root-relative
    route: a log of relative links never takes its records' names apart for routes. A log
    whose links are routes learns its scheme from the same keys an eager index holds."""
    from adrguard.core.graph.routes import _Index
    from adrguard.core.parse import formats

    plain = corpus(
        rec("docs/adr/0001-a.md", 1, links=(Link("0002-b.md", "b", 3, 1),)),
        rec("docs/adr/0002-b.md", 2, links=(Link("0009-gone.md", "gone", 3, 1),)),
    )
    routes = graph.build(plain).resolver.routes
    assert not routes.is_site("docs/adr")
    assert all("index" not in vars(log) for log in routes._logs.values())

    site = corpus(
        rec("docs/adr/0001-a.md", 1, links=(Link("/decisions/2", "b", 3, 1),)),
        rec("docs/adr/0002-b.md", 2, links=(Link("/decisions/1", "a", 3, 1),)),
        rec("docs/adr/0003-c.md", 3, links=(Link("/decisions/1", "a", 3, 1),)),
    )
    routes = graph.build(site).resolver.routes
    assert routes.is_site("docs/adr")
    log = routes._logs["docs/adr"]
    assert log.bases == frozenset({"/decisions"})
    assert log.index == _Index.of(list(site.decisions), formats.names_of(site))
    reading = routes.read(site.by_path["docs/adr/0001-a.md"], "/decisions/3")
    assert reading is not None and reading.kind == "route"
    assert reading.records == (site.by_path["docs/adr/0003-c.md"],)


def test_link_targets_are_taken_apart_once_a_run_for_exactly_a_records_links() -> None:
    """The link rules share each record's targets on the rule context; a record of the same
    path with other links (a corpus a crashed rule's retry narrowed, or another state of the
    record) gets its own targets, never those of the record it replaced."""
    import dataclasses

    from msgspec.structs import replace

    from adrguard.rules.links import _checked_links

    first = rec("docs/adr/0001-a.md", 1, links=(Link("0002-b.md", "b", 3, 1),))
    other = rec("docs/adr/0002-b.md", 2)
    ctx = RuleContext(corpus(first, other), Options())
    seen = [(d.path, link.target, t.repo_path) for d, link, t in _checked_links(ctx)]
    assert seen == [("docs/adr/0001-a.md", "0002-b.md", "docs/adr/0002-b.md")]
    again = [t for _d, _link, t in _checked_links(ctx)]
    kept: dict[str, tuple[object, ...]] = ctx.derived("link targets", dict)
    assert again[0] is kept["docs/adr/0001-a.md"][0]
    changed = replace(first, links=(Link("../x.md", "x", 4, 1),))
    ctx2 = dataclasses.replace(ctx, corpus=corpus(changed, other))  # as contain.py narrows
    assert ctx2.derived("link targets", dict) is ctx.derived("link targets", dict)  # shared
    assert [(link.target, t.repo_path) for _d, link, t in _checked_links(ctx2)] == [
        ("../x.md", "docs/x.md")
    ]


def test_a_record_is_readable_unless_a_problem_says_it_could_not_be_read() -> None:
    """``is_readable`` answers a record without problems at once, and otherwise looks for the
    unreadable-file problem (ADR001) among them: a parse problem (ADR002) leaves it readable."""
    from msgspec.structs import replace

    from adrguard.core.model import Problem

    d = rec("docs/adr/0001-a.md", 1)
    assert d.is_readable
    assert replace(d, problems=(Problem("ADR002", "bad front matter"),)).is_readable
    unreadable = (Problem("ADR002", "x"), Problem("ADR001", "not UTF-8"))
    assert not replace(d, problems=unreadable).is_readable


def test_a_number_only_one_record_has_is_no_duplicate_whatever_its_family() -> None:
    """ADR106 skips a number that one record of its root has before taking ids apart; records
    of two roots with one number, and two families of one number, are no duplicates, while
    two records of one root and family are."""
    from msgspec.structs import replace

    from adrguard.rules.numbering import DuplicateId

    c = corpus(
        rec("docs/adr/0001-a.md", 1),
        rec("other/adr/0001-b.md", 1, root="other/adr"),
        replace(rec("docs/adr/API-0002-c.md", 2), id="API-0002"),
        replace(rec("docs/adr/ARC-0002-d.md", 2), id="ARC-0002"),
        rec("docs/adr/0003-e.md", 3),
        rec("docs/adr/0003-f.md", 3),
    )
    found = list(DuplicateId().check(RuleContext(c, Options())))
    assert sorted(f.location.path for f in found) == ["docs/adr/0003-e.md", "docs/adr/0003-f.md"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 4)), max_size=12),
       st.lists(st.integers(0, 11), max_size=4))
def test_grouping_records_gives_what_lists_made_tuples_give(
    pairs: list[tuple[str, int]], repeats: list[int]
) -> None:
    """``grouped`` (the corpus's and the resolver's maps, ADR106's shared ids) makes a list only
    for a key several records share; it gives what grouping every record into a list and
    making each a tuple gives: the same keys in the same order, the same records in order (a
    record met twice counted twice); ``shared`` keeps the keys of several records."""
    from adrguard.core.model import grouped

    records = [rec(f"{root}/{i:04d}-r.md", n, root=root) for i, (root, n) in enumerate(pairs)]
    records += [records[i] for i in repeats if i < len(records)]

    def key(d: Decision) -> tuple[str, int]:
        return (d.root, d.number or 0)

    lists: dict[tuple[str, int], list[Decision]] = {}
    for d in records:
        lists.setdefault(key(d), []).append(d)
    expected = {k: tuple(v) for k, v in lists.items()}
    got = grouped(records, key)
    assert list(got) == list(expected) and got == expected
    assert all(a is b for k in got for a, b in zip(got[k], expected[k], strict=True))
    several = grouped(records, key, shared=True)
    assert several == {k: v for k, v in expected.items() if len(v) > 1}
    assert list(several) == [k for k in expected if len(expected[k]) > 1]
