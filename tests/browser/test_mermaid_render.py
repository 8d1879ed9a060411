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
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_driver import Job, Rendered, missing, render, versions
from browser_logs import (
    HOSTILE_TITLES,
    docs_log,
    hostile_decisions,
    hostile_log,
    nygard,
    wide_log,
    write,
)

from adrguard.api import graph as api_graph
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load
from adrguard.core.graph.graph import build
from adrguard.core.textsafe import neutralise
from adrguard.reporters.comment import mermaid as comment_graph
from adrguard.reporters.comment import neighbourhood
from adrguard.reporters.graph import MAX_TEXT, View, label_parts, render_mermaid, view

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
CORPORA = (REPO.parent / "shared" / "corpora").resolve()
REQUIRE = "ADRGUARD_REQUIRE_BROWSER"
DOCS_IMAGE = REPO / "docs" / "images" / "decision-graph.png"
MAX_HEIGHT_64 = 600


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
    why = missing()
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
    pinned = versions()
    jobs: list[Job] = []
    for version in pinned:
        for name, (text, _labels, _edges) in diagrams.items():
            jobs.append(Job(name, version, text))
        jobs.append(Job("hostile-loose", version, diagrams["hostile"][0], security="loose"))
        jobs.append(Job("docs-dark", version, diagrams["docs"][0], theme="dark"))
        head = "flowchart LR\n  a --> b\n  accTitle: "  # comments would not count
        at_limit = head + "x" * (MAX_TEXT - len(head) - 1) + "\n"
        jobs.append(Job("at-limit", version, at_limit))
        jobs.append(Job("over-limit", version, at_limit[:-1] + "x\n"))
    newest = pinned[-1]
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
        assert len(case.results) == len(versions())
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
