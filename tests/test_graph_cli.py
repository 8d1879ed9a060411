"""`adrguard graph` and `adrguard relationships`, in-process, on real files in tmp_path."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from adrguard.cli import main
from adrguard.core.model import Corpus, Decision, Location, Relationship, RelKind, Status
from adrguard.core.schemas import validator

RECORDS = {
    "docs/adr/0001-use-mysql.md": "# 1. Use MySQL\n\n## Status\n\nSuperseded by [3. Use Postgres](0003-use-postgres.md)\n",
    "docs/adr/0002-cache.md": '# 2. Cache "hot" [keys] {a|b} #1 & 5 > 4 < 6\n\n## Status\n\nAccepted\n\nDepends on [1. Use MySQL](0001-use-mysql.md)\n',
    "docs/adr/0003-use-postgres.md": "# 3. Use Postgres\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n",
    "docs/adr/0004-queue.md": "# 4. Queue\n\n## Status\n\nProposed\n\nSupersedes [9. Missing](0009-missing.md)\n",
    "docs/adr/0005-ring-a.md": "# 5. Ring A\n\n## Status\n\nAccepted\n\nDepends on [6. Ring B](0006-ring-b.md)\n",
    "docs/adr/0006-ring-b.md": "# 6. Ring B\n\n## Status\n\nAccepted\n\nDepends on [5. Ring A](0005-ring-a.md)\n",
}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    for rel, text in RECORDS.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_relationships_json_lists_every_declared_edge_with_its_state(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "relationships", "--repo", str(repo), "--format", "json")
    assert code == 0
    data = json.loads(out)
    validator("relationships.schema.json").validate(data)
    states = {(r["source"], r["type"], r["declared"]): r["state"] for r in data["relationships"]}
    assert states == {
        ("ADR-0001", "superseded-by", "0003-use-postgres.md"): "resolved",
        ("ADR-0002", "depends-on", "0001-use-mysql.md"): "inactive",
        ("ADR-0003", "supersedes", "0001-use-mysql.md"): "resolved",
        ("ADR-0004", "supersedes", "0009-missing.md"): "unresolved",
        ("ADR-0005", "depends-on", "0006-ring-b.md"): "cyclic",
        ("ADR-0006", "depends-on", "0005-ring-a.md"): "cyclic",
    }
    missing = next(r for r in data["relationships"] if r["source"] == "ADR-0004")
    assert missing["target"] is None and "does not exist" in missing["reason"]
    codes = sorted(d["code"] for d in data["diagnostics"])
    assert codes == ["ADR301", "ADR303", "ADR310"]


def test_relationships_of_one_record_as_text(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "relationships", "ADR-0001", "--repo", str(repo))
    assert code == 0
    lines = out.splitlines()
    assert any("superseded-by '0003-use-postgres.md' -> ADR-0003  [resolved]" in ln for ln in lines)
    assert any("ADR-0003 supersedes '0001-use-mysql.md' -> ADR-0001" in ln for ln in lines)
    assert not any("ADR-0005" in ln for ln in lines)
    assert "ADR310" in out


def test_unknown_id_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "relationships", "ADR-0099", "--repo", str(repo))
    assert code == 2 and "no decision matches" in err
    code, _, err = run(capsys, "graph", "--repo", str(repo), "--depth", "2")
    assert code == 2 and "--focus" in err


def test_graph_json_validates_and_normalises_edges(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "graph", "--repo", str(repo), "--format", "json", "--all")
    assert code == 0 and out.endswith("}\n") and err == ""
    data = json.loads(out)
    validator("graph.schema.json").validate(data)
    assert len(data["nodes"]) == 6 and data["omitted"] == 0
    edges = {(e["source"], e["kind"], e["target"]): e["declaredBy"] for e in data["edges"]}
    assert edges[("docs/adr/0003-use-postgres.md", "supersedes", "docs/adr/0001-use-mysql.md")] == [
        "docs/adr/0001-use-mysql.md",
        "docs/adr/0003-use-postgres.md",
    ]
    assert len(edges) == 4


def test_graph_leaves_out_records_without_relationships_and_says_so(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ADR-0004's only relationship points at a missing record: it has no edge
    code, out, err = run(capsys, "graph", "--repo", str(repo), "--format", "json")
    assert code == 0
    data = json.loads(out)
    validator("graph.schema.json").validate(data)
    assert [n["id"] for n in data["nodes"]] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0005",
                                                "ADR-0006"]
    assert data["omitted"] == 1
    assert err == ("adrguard: 1 record without relationships left out (5 drawn); "
                   "--all draws every record\n")
    code, _, err = run(capsys, "graph", "--repo", str(repo), "--all", "--focus", "1")
    assert code == 2 and "--all and --focus" in err


def test_graph_focus_and_depth(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "graph", "--repo", str(repo), "--format", "json", "--focus", "3")
    data = json.loads(out)
    assert [n["id"] for n in data["nodes"]] == ["ADR-0001", "ADR-0003"]
    assert (data["focus"], data["depth"]) == ("ADR-0003", 1)
    _, out, _ = run(capsys, "graph", "--repo", str(repo), "--format", "json", "--focus",
                    "ADR-0003", "--depth", "2")
    assert [n["id"] for n in json.loads(out)["nodes"]] == ["ADR-0001", "ADR-0002", "ADR-0003"]


def test_mermaid_is_quoted_and_escaped(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "graph", "--repo", str(repo))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "flowchart LR"
    node = next(ln for ln in lines if "Cache" in ln)
    assert node == (
        '  n1["ADR-0002: Cache #34;hot#34; #91;keys#93; #123;a#124;b#125; #35;1 #38; 5 #62; 4 #60; 6"]'
    )
    for ln in lines[1:]:
        label = re.search(r'\["(.*)"\]', ln)
        if label:
            assert not set(label.group(1)) & set('"[]<>`*_~@$')
    assert "  n2 -->|supersedes| n0" in lines
    assert "  n1 -.->|depends-on| n0" in lines
    assert any(ln.startswith("  classDef st_accepted ") for ln in lines)
    edges = [ln for ln in lines if "|" in ln and "[" not in ln]
    sup = edges.index("  n2 -->|supersedes| n0")
    assert f"  linkStyle {sup} stroke:#cf222e,stroke-width:2px" in lines
    # --focus draws its record with the thick border
    _, out, _ = run(capsys, "graph", "--repo", str(repo), "--focus", "3")
    assert "  class n1 st_accepted_em" in out.splitlines()
    assert "stroke-width:4px" in out


def test_dot_escapes_and_colours(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "graph", "--repo", str(repo), "--format", "dot", "-o",
                       str(repo / "g.dot"))
    assert code == 0 and out == ""
    text = (repo / "g.dot").read_text(encoding="utf-8")
    assert text.startswith("digraph decisions {\n") and text.endswith("}\n")
    assert 'label="ADR-0002\\nCache \\"hot\\" [keys] {a|b} #1 & 5 > 4 < 6"' in text
    assert 'style="rounded,filled,dashed"' in text  # the superseded record
    assert 'fillcolor="#dafbe1", color="#1a7f37"' in text  # accepted
    assert '"docs/adr/0003-use-postgres.md" -> "docs/adr/0001-use-mysql.md" [label="supersedes"' in text


def test_show_gains_resolved_relations(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "ADR-0001", "--repo", str(repo), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["supersededBy"] == ["ADR-0003"]
    assert data["currentSuccessor"] == "ADR-0003"
    # records first (kind: decision), then code and documents citing it (none here)
    assert [(r["kind"], r["id"]) for r in data["referencedBy"]] == [
        ("decision", "ADR-0002"), ("decision", "ADR-0003")]


def test_a_log_without_relationships_says_so_instead_of_an_empty_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `flowchart LR` and nothing else on stdout. Now: nothing to draw, said on stderr
    with the way to draw every record; exit 0. JSON stays data."""
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "r")
    repo.write({f"docs/adr/000{n}-alone.md": f"# {n}. Alone {n}\n\n## Status\n\nAccepted\n"
                for n in (1, 2, 3)})
    repo.commit()
    root = str(repo.path)
    for fmt in ("mermaid", "dot", "html"):
        code, out, err = run(capsys, "graph", "--repo", root, "--format", fmt)
        assert (code, out) == (0, ""), fmt
        assert err == ("adrguard: none of the 3 decision records has a relationship to another, "
                       "so there is no graph to draw; --all draws every record as a node\n")
    code, out, err = run(capsys, "graph", "--repo", root, "-o", str(tmp_path / "g.mmd"))
    assert code == 0 and not (tmp_path / "g.mmd").exists() and "no graph to draw" in err
    code, out, err = run(capsys, "graph", "--repo", root, "--format", "json")
    assert code == 0 and json.loads(out)["nodes"] == [] and "(the JSON below is empty)" in err
    code, out, err = run(capsys, "graph", "--repo", root, "--all")
    assert code == 0 and err == "" and out.count('["ADR-000') == 3


HOSTILE_TITLE = '</script><script>alert(1)</script> & <b onmouseover="x()">'


def test_graph_html_is_one_escaped_page_linking_each_node_to_its_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "r")
    repo.write({
        "docs/adr/0001-a.md": f"---\ntitle: {json.dumps(HOSTILE_TITLE)}\nstatus: superseded\n"
                              "---\n\nSuperseded by [2](0002-b.md)\n",
        "docs/adr/0002-b.md": "# 2. B\n\n## Status\n\nAccepted\n\nSupersedes [1](0001-a.md)\n",
    })
    repo.commit()
    page = tmp_path / "site" / "graph.html"
    code, out, err = run(capsys, "graph", "--repo", str(repo.path), "--format", "html", "-o",
                         str(page))
    assert code == 0 and out == "" and f"wrote {page}" in err
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and text.count("<script") == 3
    assert text.count("</script>") == 3  # a title never closes a script element
    tags = _elements(text)
    assert {t for t, _a in tags} <= {"html", "head", "meta", "title", "style", "body", "h1", "p",
                                     "div", "h2", "table", "thead", "tbody", "tr", "th", "td",
                                     "a", "code", "footer", "script"}
    assert not [a for _t, attrs in tags for a in attrs if a.startswith("on")]
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b" in text
    assert '<a href="../r/docs/adr/0001-a.md">ADR-0001</a>' in text
    assert '"links": {"n0": "../r/docs/adr/0001-a.md", "n1": "../r/docs/adr/0002-b.md"}' in text
    assert 'src="https://cdn.jsdelivr.net/npm/mermaid@' in text and 'integrity="sha384-' in text
    # the diagram the page draws is exactly what `adrguard graph` prints
    source = json.loads(re.search(r'id="graph-source">(.*?)</script>', text).group(1))  # type: ignore[union-attr]
    _, mermaid, _ = run(capsys, "graph", "--repo", str(repo.path))
    assert source["diagram"] == mermaid
    # on stdout the links are relative to the current directory; the page is byte-stable
    monkeypatch.chdir(repo.path)
    _, first, _ = run(capsys, "graph", "--format", "html")
    _, second, _ = run(capsys, "graph", "--format", "html")
    assert first == second and '<a href="docs/adr/0002-b.md">ADR-0002</a>' in first
    # a local Mermaid is inlined (base64), so the page needs no network
    js = tmp_path / "mermaid.min.js"
    js.write_text('globalThis["mermaid"] = {render: function () {}};\n', encoding="utf-8")
    _, inlined, _ = run(capsys, "graph", "--format", "html", "--mermaid-js", str(js))
    assert "cdn.jsdelivr" not in inlined and 'src="data:text/javascript;base64,' in inlined


def _elements(page: str) -> list[tuple[str, list[str]]]:
    """Every element of an HTML page: its tag and its attribute names."""
    from html.parser import HTMLParser

    found: list[tuple[str, list[str]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, [k for k, _v in attrs]))

    Collect().feed(page)
    return found


@pytest.mark.parametrize(("name", "content", "says"), [
    ("missing.js", None, "not a file"),
    ("mermaid.esm.min.mjs", "export default mermaid;", "ES module build"),
    ("other.js", "console.log(1);", "does not look like Mermaid"),
])
def test_graph_mermaid_js_must_be_a_browser_build(
    repo: Path, capsys: pytest.CaptureFixture[str], name: str, content: str | None, says: str
) -> None:
    js = repo / name
    if content is not None:
        js.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "graph", "--repo", str(repo), "--format", "html",
                         "--mermaid-js", str(js))
    assert (code, out) == (2, "") and says in err
    code, _, err = run(capsys, "graph", "--repo", str(repo), "--mermaid-js", str(js))
    assert code == 2 and "--mermaid-js is for --format html" in err


def _chain(n: int) -> Corpus:
    """n records, each superseding the one before (both ends declared)."""
    decisions = []
    for i in range(1, n + 1):
        path = f"docs/adr/{i:05d}-r.md"
        rels = []
        if i > 1:
            rels.append(Relationship(RelKind.SUPERSEDES, f"ADR-{i}", f"{i - 1:05d}-r.md",
                                     Location(path, 5)))
        if i < n:
            rels.append(Relationship(RelKind.SUPERSEDED_BY, f"ADR-{i}", f"{i + 1:05d}-r.md",
                                     Location(path, 6)))
        status = Status.ACCEPTED if i == n else Status.SUPERSEDED
        decisions.append(Decision(id=f"ADR-{i}", path=path, root="docs/adr", number=i,
                                  title=f"Record {i}", status=status, relationships=tuple(rels)))
    decisions.sort(key=lambda d: (d.id, d.path))
    return Corpus(tuple(decisions), ("docs/adr",), frozenset(d.path for d in decisions))


def test_graph_of_10000_records_renders_in_under_a_second() -> None:
    from adrguard.core.graph import graph
    from adrguard.reporters import graph as render

    chain = _chain(10_000)
    timings = {}
    for fmt in ("json", "dot"):
        best = float("inf")
        for _ in range(3):
            # a fresh Corpus object each time, so the graph is built inside the timing
            corpus = Corpus(chain.decisions, chain.roots, chain.repo_files)
            start = time.process_time()  # CPU time: robust against a busy machine
            text = render.render(fmt, render.view(graph.build(corpus)))
            best = min(best, time.process_time() - start)
        timings[fmt] = best
        assert text.count("supersedes") >= 9_999
    assert max(timings.values()) < 1.0, timings
