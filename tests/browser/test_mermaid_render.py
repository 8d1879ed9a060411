"""Every diagram adrguard emits, rendered by real Mermaid in real headless Chromium.

Nothing is installed at test time: Chromium is Debian's (``chromium``), Mermaid (several majors,
side by side as npm aliases) and playwright-core come from ``.ci/browser/package-lock.json``,
which ``.ci/run`` installs. Without them the tests skip with one line; CI sets
ADRGUARD_REQUIRE_BROWSER=1, which makes that a failure. All diagrams are rendered in one browser
session (module fixture); the PNGs land in ADRGUARD_BROWSER_OUT (a temporary folder otherwise).

Asserted for every Mermaid version: no error (no exception, no "Syntax error", no "Maximum text
size" box, no "Unsupported markdown"); exactly the expected nodes and edges in the SVG, each
label showing the title as written; the edge and node styles applied; no ``<a>``,
``<script>`` or ``on*=`` attribute; and a 64-record log with 2 relationships under 600 px tall.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adrguard.api import graph as api_graph
from adrguard.api.corpus import load
from adrguard.api.lookup import find_decision
from adrguard.core.graph.graph import build
from adrguard.core.model import Corpus, Decision, Location, Relationship, RelKind, Status
from adrguard.core.textsafe import neutralise
from adrguard.reporters.comment import mermaid as comment_graph
from adrguard.reporters.comment import neighbourhood
from adrguard.reporters.graph import View, view
from adrguard.reporters.mermaid import MAX_TEXT, label_parts, render_mermaid

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
BROWSER = REPO / ".ci" / "browser"
CORPORA = (REPO.parent / "shared" / "corpora").resolve()
REQUIRE = "ADRGUARD_REQUIRE_BROWSER"
SVG = "{http://www.w3.org/2000/svg}"
DOCS_IMAGE = REPO / "docs" / "images" / "decision-graph.png"
MAX_HEIGHT_64 = 600


# -- the logs -------------------------------------------------------------------------------

def nygard(n: int, title: str, status: str, *relations: str, slug: str = "x") -> tuple[str, str]:
    body = "\n\n".join((f"# {n}. {title}", "## Status", status, *relations, "## Context", "Text."))
    return f"docs/adr/{n:04d}-{slug}.md", body + "\n"


def front_matter(n: int, title: str, status: str, *relations: str) -> tuple[str, str]:
    """A record whose title comes from YAML (so it reaches us exactly as written)."""
    head = f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\nstatus: {status}\n---\n\n# Record {n}\n\n"
    return f"docs/adr/{n:04d}-r.md", head + "\n\n".join((*relations, "## Context", "Text.")) + "\n"


HOSTILE_TITLES = (
    "See https://example.com/x and www.example.org or mail a@b.example",
    "- starts like a list item",
    "1. starts like an ordered list",
    "* star list, + plus list",
    "# looks like a heading",
    "> looks like a quote",
    "`code` **bold** __under__ *em* _em_ ~~gone~~ ~x~",
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    '<a href="javascript:alert(3)">click</a> & <b onmouseover="x()">b</b>',
    "Entities &lt;b&gt; &amp; #quot; #35; #lt;i#gt; &#x3C;",
    "[link](http://evil.example) ![img](x.png) <http://auto.example>",
    "Math $$x^2$$ and $y$, fa:fa-user icon, 50% off; 100%% done",
    '"quotes" \'single\' |pipes| {braces} (parens) [brackets] back\\slash',
    "::error::pwned ##[set-output name=x]y \x1b[31mred\x1b[0m",
    '%%{init: {"theme": "dark"}}%% click n0 call alert() style n0 fill:#f00',
    "Ünïcödé 日本語 emoji 🚀 and a title long enough to be cut: " + "word " * 30,
)


def hostile_log() -> dict[str, str]:
    """Each record supersedes the one before (a chain, so all are drawn by default); the
    first two also amend and depend on each other."""
    files = dict([nygard(1, "Plain start", "Superseded")])
    for i, title in enumerate(HOSTILE_TITLES, start=2):
        prev = "0001-x.md" if i == 2 else f"{i - 1:04d}-r.md"
        rel = f"Supersedes [previous]({prev})"
        files.update([front_matter(i, title, "accepted" if i == len(HOSTILE_TITLES) + 1
                                   else "superseded", rel)])
    files.update([nygard(30, "Amends the chain", "Proposed", "Amends [2](0002-r.md)", slug="y"),
                  nygard(31, "Depends on it", "Draft", "Depends on [30](0030-y.md)", slug="z")])
    return files


def hostile_decisions() -> Corpus:
    """The hostile titles (and ids) exactly as written, past any parser: a supersession chain."""
    decisions = []
    ids = ["- 1", "<b>2</b>", "`3`", "ADR-4 https://x.example"]
    for i, title in enumerate(HOSTILE_TITLES, start=1):
        path = f"docs/adr/{i:04d}.md"
        rel = (Relationship(RelKind.SUPERSEDES, "x", f"{i - 1:04d}.md", Location(path, 3)),)
        ident = ids[i - 1] if i <= len(ids) else f"ADR-{i}"
        decisions.append(Decision(id=ident, path=path, root="docs/adr", number=i, title=title,
                                  status=Status.SUPERSEDED, relationships=rel if i > 1 else ()))
    return Corpus(tuple(decisions), ("docs/adr",), frozenset(d.path for d in decisions))


def wide_log(count: int = 64) -> dict[str, str]:
    """``count`` records, 2 relationships (one supersedes, one amends)."""
    files: dict[str, str] = {}
    for n in range(1, count + 1):
        rel = {2: ("Supersedes [1](0001-x.md)",), 5: ("Amends [4](0004-x.md)",)}.get(n, ())
        status = "Superseded by [2](0002-x.md)" if n == 1 else "Accepted"
        files.update([nygard(n, f"Decision number {n} about something", status, *rel)])
    return files


def docs_log() -> dict[str, str]:
    """The sample log drawn in docs/graph.md: every status and every edge kind."""
    return dict([
        nygard(1, "Use MySQL for orders", "Superseded by [3](0003-x.md)"),
        nygard(2, "Record architecture decisions", "Accepted"),
        nygard(3, "Use PostgreSQL for orders", "Accepted", "Supersedes [1](0001-x.md)"),
        nygard(4, "Use read replicas", "Proposed", "Depends on [3](0003-x.md)"),
        nygard(5, "Partition orders by month", "Draft", "Amends [3](0003-x.md)"),
        nygard(6, "Use a document store", "Rejected", "Rejected in favour of [3](0003-x.md)"),
        ("docs/adr/0007-x.md", "---\nrelated-to: 0003-x.md\n---\n\n# 7. Nightly CSV export\n\n"
                               "## Status\n\nDeprecated\n"),
        nygard(8, "Use an event bus", "Accepted"),
    ])


def write(root: Path, files: Mapping[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


# -- the browser ------------------------------------------------------------------------------

def _versions() -> list[str]:
    try:
        deps = json.loads((BROWSER / "package.json").read_text(encoding="utf-8"))["dependencies"]
    except (OSError, ValueError, KeyError):
        return []
    return sorted(name for name in deps if name.startswith("mermaid-"))


def _missing() -> str | None:
    if shutil.which("chromium") is None:
        return "Debian's chromium is not installed (.ci/run installs it)"
    if shutil.which("node") is None:
        return "node is not installed"
    modules = BROWSER / "node_modules"
    needed = ["playwright-core", *_versions()]
    absent = [n for n in needed if not (modules / n / "package.json").is_file()]
    if absent or len(needed) < 3:
        return (f"{', '.join(absent) or 'mermaid'} not installed in {modules} "
                "(cd .ci/browser && npm ci)")
    return None


@dataclass
class Job:
    name: str
    version: str
    diagram: str
    theme: str = "default"
    security: str = "strict"
    png: Path | None = None


@dataclass
class Rendered:
    job: Job
    error: str | None
    svg: ET.Element | None
    width: float
    height: float
    ms: int

    @property
    def text(self) -> str:
        if self.svg is None:
            return ""
        return " ".join(t for e in self.svg.iter() if e.tag != f"{SVG}style"
                        for t in (e.text, e.tail) if t)

    def nodes(self) -> dict[str, str]:
        """Mermaid node name (n0, n1, ...) -> the text the node shows."""
        out = {}
        assert self.svg is not None
        for g in self.svg.iter(f"{SVG}g"):
            m = re.search(r"flowchart-(n\d+)-\d+$", g.get("id") or "")
            if m and "node" in (g.get("class") or "").split():
                out[m.group(1)] = " ".join("".join(g.itertext()).split())
        return out

    def edges(self) -> list[tuple[str, str, str]]:
        """(source, target, style) of every drawn edge."""
        out = []
        assert self.svg is not None
        for p in self.svg.iter(f"{SVG}path"):
            if "flowchart-link" not in (p.get("class") or ""):
                continue
            ident = p.get("id") or ""
            m = re.search(r"L[-_](n\d+)[-_](n\d+)[-_]\d+$", ident)
            loop = re.fullmatch(r"(?:.*-)?(n\d+)-cyclic-special-1", ident)  # 11.0-11.x self-loop
            if m:
                out.append((m.group(1), m.group(2), p.get("style") or ""))
            elif loop:
                out.append((loop.group(1), loop.group(1), p.get("style") or ""))
        return out


def render(jobs: list[Job], work: Path) -> list[Rendered]:
    spec = {"chromium": shutil.which("chromium"), "jobs": [
        {"name": j.name, "version": j.version, "diagram": j.diagram, "theme": j.theme,
         "securityLevel": j.security, "png": str(j.png) if j.png else None} for j in jobs]}
    (work / "jobs.json").write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(BROWSER / "render.mjs"), str(work / "jobs.json"), str(work / "out.json")],
        capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    raw = json.loads((work / "out.json").read_text(encoding="utf-8"))
    return [
        Rendered(job, r["error"], ET.fromstring(r["svg"]) if r["svg"] else None,
                 r.get("width", 0.0), r.get("height", 0.0), r["ms"])
        for job, r in zip(jobs, raw, strict=True)
    ]


@dataclass
class Case:
    """One diagram, what it must show, and its results in every Mermaid version."""

    diagram: str
    labels: dict[str, str]  # node name -> the text it must show
    edges: list[tuple[str, str, str]]  # (source name, target name, kind)
    results: list[Rendered]


def _drawn(v: View) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """What each node of ``v`` must show (as written, cut, one line, made inert) and its
    edges."""
    labels = {}
    for i, d in enumerate(v.nodes):
        ident, title = (" ".join(neutralise(part).split()) for part in label_parts(d))
        labels[f"n{i}"] = f"{ident}: {title}" if ident else title
    names = {d.path: f"n{i}" for i, d in enumerate(v.nodes)}
    return labels, [(names[e.source], names[e.target], e.kind) for e in v.edges]


def _expected(repo: Path, **kw: Any) -> tuple[str, dict[str, str], list[tuple[str, str, str]]]:
    """The Mermaid text adrguard emits for ``repo`` and what each node and edge must be."""
    text = api_graph.graph_text(repo, fmt="mermaid", **kw).text
    _config, corpus = load(repo)
    centre = find_decision(corpus, kw["focus"]) if "focus" in kw else None
    v = view(build(corpus), centre, kw.get("depth"))
    assert render_mermaid(v) == text
    return (text, *_drawn(v))


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("ADRGUARD_BROWSER_OUT")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("browser-out")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, out_dir: Path) -> Iterator[dict[str, Case]]:
    why = _missing()
    if why is not None:
        if os.environ.get(REQUIRE, "") not in ("", "0"):
            pytest.fail(f"browser test tools missing: {why}; {REQUIRE} is set, so this fails")
        pytest.skip(f"browser test tools missing: {why}")
    base = tmp_path_factory.mktemp("browser")
    diagrams: dict[str, tuple[str, dict[str, str], list[tuple[str, str, str]]]] = {}
    lonely = dict(nygard(n, f"Alone {n}", "Accepted") for n in (1, 2, 3))
    for name, files in (("hostile", hostile_log()), ("wide64", wide_log()),
                        ("docs", docs_log()), ("lonely", lonely)):
        diagrams[name] = _expected(write(base / name, files))
    diagrams["docs-focus"] = _expected(base / "docs", focus="ADR-0003", depth=1)
    diagrams["comment"] = _comment_diagram(base / "hostile")
    raw = view(build(hostile_decisions()))
    diagrams["hostile-raw"] = (render_mermaid(raw), *_drawn(raw))
    if CORPORA.is_dir():
        for folder in sorted(p for p in CORPORA.iterdir() if p.is_dir()):
            got = _expected(folder)
            if got[2]:  # a log with relationships
                diagrams[f"corpus:{folder.name}"] = got
    versions = _versions()
    jobs: list[Job] = []
    for version in versions:
        for name, (text, _labels, _edges) in diagrams.items():
            jobs.append(Job(name, version, text))
        jobs.append(Job("hostile-loose", version, diagrams["hostile"][0], security="loose"))
        jobs.append(Job("docs-dark", version, diagrams["docs"][0], theme="dark"))
        head = "flowchart LR\n  a --> b\n  accTitle: "  # comments would not count
        at_limit = head + "x" * (MAX_TEXT - len(head) - 1) + "\n"
        jobs.append(Job("at-limit", version, at_limit))
        jobs.append(Job("over-limit", version, at_limit[:-1] + "x\n"))
    newest = versions[-1]
    pngs = {"docs": "decision-graph.png", "docs-dark": "decision-graph-dark.png",
            "hostile": "hostile-titles.png"}
    for job in jobs:
        if job.version == newest and job.name in pngs:
            job.png = out_dir / pngs[job.name]
    results = render(jobs, base)
    cases = {name: Case(text, labels, edges, [r for r in results if r.job.name == name])
             for name, (text, labels, edges) in diagrams.items()}
    for extra in ("hostile-loose", "docs-dark", "at-limit", "over-limit"):
        source = diagrams.get(extra.split("-")[0], ("", {}, []))
        cases[extra] = Case(source[0], source[1], source[2],
                            [r for r in results if r.job.name == extra])
    summary = {f"{r.job.name} {r.job.version}": {"height": r.height, "width": r.width,
                                                  "ms": r.ms} for r in results}
    (out_dir / "sizes.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    yield cases


def _comment_diagram(repo: Path) -> tuple[str, dict[str, str], list[tuple[str, str, str]]]:
    """The Mermaid fence of the PR comment when hostile records govern a change."""
    _config, corpus = load(repo)
    graph = build(corpus)
    governing = [d for d in corpus.decisions if d.number in (3, 5, 30)]
    lines = comment_graph(graph, governing)
    text = "\n".join(lines[lines.index("```mermaid") + 1: lines.index("```")]) + "\n"
    v = neighbourhood(graph, governing)
    assert len(v.emphasis) == 3 and "stroke-width:4px" in text
    return (text, *_drawn(v))


# -- the checks --------------------------------------------------------------------------------

ERRORS = ("Syntax error", "Maximum text size", "Unsupported markdown", "Parse error")


def _clean(r: Rendered) -> None:
    where = f"{r.job.name} in {r.job.version}"
    assert r.error is None, f"{where}: {r.error}"
    assert r.svg is not None, f"{where}: no SVG"
    shown = r.text
    for sign in ERRORS:
        assert sign not in shown, f"{where}: {sign!r} in the picture"
    for e in r.svg.iter():
        tag = e.tag.rsplit("}", 1)[-1].lower()
        assert tag not in ("a", "script", "iframe", "img", "object", "embed"), f"{where}: <{tag}>"
        events = [k for k in e.attrib if k.rsplit("}", 1)[-1].lower().startswith("on")]
        assert not events, f"{where}: event attribute {events} on <{tag}>"
        href = e.get("href") or e.get("{http://www.w3.org/1999/xlink}href") or ""
        assert not href.lower().startswith("javascript"), f"{where}: {href}"


def _shape(case: Case, r: Rendered) -> None:
    where = f"{r.job.name} in {r.job.version}"
    nodes = r.nodes()
    assert len(nodes) == len(case.labels) or not case.labels, (where, sorted(nodes))
    for name, want in case.labels.items():
        assert "".join(nodes[name].split()) == "".join(want.split()), (where, name, nodes[name])
    drawn = sorted((a, b) for a, b, _style in r.edges())
    assert drawn == sorted((a, b) for a, b, _kind in case.edges), where


def test_real_logs_render_in_every_mermaid_version(rendered: dict[str, Case]) -> None:
    corpora = [name for name in rendered if name.startswith("corpus:")]
    if not corpora:
        pytest.skip(f"no corpus with relationships under {CORPORA}")
    assert len(corpora) >= 5
    for name in corpora:
        case = rendered[name]
        assert len(case.results) == len(_versions())
        for r in case.results:
            _clean(r)
            _shape(case, r)
            # unconnected records are left out: the picture is a few rows, not a column
            assert r.height < 120 * len(case.labels) + 100, (name, r.job.version, r.height)


def test_hostile_titles_show_as_written_and_inject_nothing(rendered: dict[str, Case]) -> None:
    for name in ("hostile", "hostile-loose", "hostile-raw"):
        case = rendered[name]
        assert len(case.labels) == len(HOSTILE_TITLES) + (0 if name == "hostile-raw" else 3)
        for r in case.results:
            _clean(r)
            _shape(case, r)
    raw = rendered["hostile-raw"].labels
    assert raw["n0"] == "- 1: See https://example.com/x and www.example.org or mail a@b.example"
    assert raw["n6"] == "ADR-7: `code` **bold** __under__ *em* _em_ ~~gone~~ ~x~"
    long = next(v for v in rendered["hostile"].labels.values() if "emoji" in v)
    assert long.endswith("…") and len(long) < 90


def test_styles_reach_the_svg(rendered: dict[str, Case]) -> None:
    case = rendered["docs"]
    kinds = {(a, b): k for a, b, k in case.edges}
    colours = {"supersedes": "#cf222e", "amends": "#bc4c00", "depends-on": "#0969da",
               "relates-to": "#6e7781", "in-favour-of": "#8250df"}
    assert set(kinds.values()) == set(colours)
    for r in case.results + rendered["docs-dark"].results:
        _clean(r)
        _shape(case, r)
        for a, b, style in r.edges():
            flat = style.replace(" ", "").lower()
            assert f"stroke:{colours[kinds[(a, b)]]}" in flat, (r.job.version, style)
            assert "stroke-width:2px" in flat, (r.job.version, style)
        svg = ET.tostring(r.svg, encoding="unicode") if r.svg is not None else ""
        assert "stroke-dasharray:6 3" in svg or "stroke-dasharray: 6 3" in svg  # superseded


def test_focus_and_comment_diagrams_render(rendered: dict[str, Case]) -> None:
    for name in ("docs-focus", "comment"):
        case = rendered[name]
        assert case.edges
        for r in case.results:
            _clean(r)
            _shape(case, r)
            svg = ET.tostring(r.svg, encoding="unicode") if r.svg is not None else ""
            assert re.search(r"stroke-width: ?4px", svg), (name, r.job.version)


def test_a_64_record_log_with_2_relationships_is_a_small_picture(
    rendered: dict[str, Case],
) -> None:
    case = rendered["wide64"]
    assert len(case.labels) == 4 and len(case.edges) == 2
    for r in case.results:
        _clean(r)
        _shape(case, r)
        assert r.height < MAX_HEIGHT_64, (r.job.version, r.height)


def test_a_log_without_relationships_is_an_empty_picture_not_an_error(
    rendered: dict[str, Case],
) -> None:
    case = rendered["lonely"]
    assert case.diagram == "flowchart LR\n" and not case.labels
    for r in case.results:
        _clean(r)
        assert r.nodes() == {} and r.edges() == []


def test_mermaid_text_limit_is_the_one_we_guard(rendered: dict[str, Case]) -> None:
    """MAX_TEXT is Mermaid's own limit: at it a diagram renders, one character over it does
    not (so the comment and the CLI refuse to emit more)."""
    for r in rendered["at-limit"].results:
        assert len(r.job.diagram) == MAX_TEXT
        _clean(r)
    for r in rendered["over-limit"].results:
        assert len(r.job.diagram) > MAX_TEXT
        assert "Maximum text size" in r.text, r.job.version


def test_docs_example_is_the_committed_picture(rendered: dict[str, Case], out_dir: Path) -> None:
    """docs/graph.md shows the sample log's Mermaid text and the PNG this test made of it.
    Regenerate the picture: ADRGUARD_WRITE_DOCS_IMAGE=1 python -m pytest tests/browser -k docs"""
    png = out_dir / "decision-graph.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("ADRGUARD_WRITE_DOCS_IMAGE") == "1":
        DOCS_IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, DOCS_IMAGE)
    doc = (REPO / "docs" / "graph.md").read_text(encoding="utf-8")
    assert rendered["docs"].diagram in doc, "docs/graph.md shows an outdated diagram"
    assert "images/decision-graph.png" in doc and DOCS_IMAGE.is_file()


if __name__ == "__main__":  # print the sample log's diagram (for docs/graph.md)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sys.stdout.write(api_graph.graph_text(write(Path(tmp), docs_log())).text)
