"""``adrguard graph --format html``: the page, opened offline in Debian's headless Chromium.

The pages are written by the CLI (in-process) for logs written for this test: the hostile
titles of browser_logs plus a record whose file name holds every character a URL or Mermaid
gives a meaning to. Each page inlines a local Mermaid (every version pinned in
.ci/browser/package.json, through ``--mermaid-js``) and must draw offline: no request leaves
the machine, no dialog opens, every node shows its title as written and links to its record
(relative to the page, resolving to the record's file; clicking a node opens it), and the
records table carries the same links. A page left on the default CDN cannot load Mermaid
offline: it says so and still lists the records. The CDN default is pinned by version and
SRI hash to the same file as the mermaid-11 copy.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_driver import BROWSER, PageJob, missing, open_pages, versions
from browser_logs import docs_log, hostile_log, nygard, write

from adrguard.api.pipeline.corpus import load
from adrguard.cli import main
from adrguard.core.graph.graph import build
from adrguard.core.textsafe import neutralise
from adrguard.reporters.graph import label_parts, view
from adrguard.reporters.graph_html import CDN_INTEGRITY, CDN_URL, CDN_VERSION

pytestmark = pytest.mark.slow

REQUIRE = "ADRGUARD_REQUIRE_BROWSER"
# every character a URL, an HTML attribute or a Mermaid string gives a meaning to
ODD_NAME = "docs/adr/0040-a b#c%41\"d'e<f>&g:h?i.md"


def _tools() -> None:
    why = missing()
    if why is not None:
        if os.environ.get(REQUIRE, "") not in ("", "0"):
            pytest.fail(f"browser test tools missing: {why}; {REQUIRE} is set, so this fails")
        pytest.skip(f"browser test tools missing: {why}")


def _mermaid_js(version: str) -> Path:
    return BROWSER / "node_modules" / version / "dist" / "mermaid.min.js"


def _write_page(repo: Path, page: Path, *extra: str) -> None:
    code = main(["graph", "--repo", str(repo), "--format", "html", "-o", str(page), *extra])
    assert code == 0 and page.is_file()


def _expected(repo: Path, everything: bool = False) -> dict[str, tuple[str, Path]]:
    """Node name -> (the text it must show, the record file it must link to)."""
    _config, corpus = load(repo)
    v = view(build(corpus), everything=everything)
    out = {}
    for i, d in enumerate(v.nodes):
        ident, title = (" ".join(neutralise(part).split()) for part in label_parts(d))
        out[f"n{i}"] = (f"{ident}: {title}" if ident else title, repo / d.path)
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    _tools()
    base = tmp_path_factory.mktemp("pages")
    hostile = dict(hostile_log())
    hostile[ODD_NAME] = "# 40. Odd file name\n\n## Status\n\nAccepted\n\nDepends on [30](0030-y.md)\n"
    hostile_repo = write(base / "hostile", hostile)
    lonely_repo = write(base / "lonely", dict(nygard(n, f"Alone {n}", "Accepted") for n in (1, 2)))
    docs_repo = write(base / "docs", docs_log())
    jobs: list[PageJob] = []
    pinned = versions()
    for version in pinned:
        page = base / "site" / f"hostile-{version}.html"
        _write_page(hostile_repo, page, "--mermaid-js", str(_mermaid_js(version)))
        jobs.append(PageJob(f"hostile {version}", page, click=version == pinned[-1]))
    page = base / "site" / "lonely.html"
    _write_page(lonely_repo, page, "--all", "--mermaid-js", str(_mermaid_js(pinned[-1])))
    jobs.append(PageJob("lonely", page))
    page = docs_repo / "decisions.html"
    _write_page(docs_repo, page)  # the CDN default: offline, Mermaid cannot load
    jobs.append(PageJob("cdn", page))
    out_dir = os.environ.get("ADRGUARD_BROWSER_OUT")
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        jobs[len(pinned) - 1].png = Path(out_dir) / "graph-page.png"
    results = open_pages(jobs, base)
    results["_repos"] = {"hostile": hostile_repo, "lonely": lonely_repo, "docs": docs_repo}
    yield results


def _drawn_safely(result: dict[str, Any]) -> None:
    name = result["name"]
    assert result["state"] == "drawn", (name, result["status"], result["errors"])
    assert result["errors"] == [] and result["alerts"] == [] and result["dialogs"] == [], name
    assert all(url.startswith("file:") for url in result["requests"]), (name, result["requests"])
    assert result["svg"], name
    for e in ET.fromstring(result["svg"]).iter():
        tag = e.tag.rsplit("}", 1)[-1].lower()
        assert tag not in ("script", "iframe", "img", "object", "embed"), (name, tag)
        events = [k for k in e.attrib if k.rsplit("}", 1)[-1].lower().startswith("on")]
        assert not events, (name, tag, events)
        link = e.get("href") or e.get("{http://www.w3.org/1999/xlink}href") or ""
        assert tag == "a" or not link, (name, tag, link)  # only the record links
        assert re.fullmatch(r"[A-Za-z0-9._~/%-]*", link), (name, link)


def test_the_page_draws_offline_with_every_node_linked_to_its_record(
    pages: dict[str, Any],
) -> None:
    repo = pages["_repos"]["hostile"]
    expected = _expected(repo)
    assert len(expected) == 20  # the chain of hostile titles, 30, 31 and the odd file name
    for version in versions():
        result = pages[f"hostile {version}"]
        _drawn_safely(result)
        nodes = {n["name"]: n for n in result["nodes"]}
        assert sorted(nodes) == sorted(expected), version
        for name, (text, record) in expected.items():
            node = nodes[name]
            assert "".join(node["text"].split()) == "".join(text.split()), (version, name, node)
            assert node["href"] and not node["href"].startswith(("/", "file:")), node
            assert node["resolved"] == record.as_uri(), (version, name, node)
            assert record.is_file()
        odd = next(n for n in result["nodes"] if "Odd file name" in n["text"])
        assert odd["href"] == "../hostile/docs/adr/0040-a%20b%23c%2541%22d%27e%3Cf%3E%26g%3Ah%3Fi.md"


def test_clicking_a_node_opens_its_record(pages: dict[str, Any]) -> None:
    repo = pages["_repos"]["hostile"]
    newest = pages[f"hostile {versions()[-1]}"]
    first = _expected(repo)["n0"][1]
    assert newest["clicked"] == first.as_uri()


def test_the_records_table_lists_every_node_with_the_same_link(pages: dict[str, Any]) -> None:
    repo = pages["_repos"]["hostile"]
    _config, corpus = load(repo)
    titles = {d.path: d.title for d in corpus.decisions}
    result = pages[f"hostile {versions()[-1]}"]
    nodes = {n["name"]: n for n in result["nodes"]}
    assert [r["id"] for r in result["rows"]] == [f"record-{n}" for n in sorted(
        nodes, key=lambda x: int(x[1:]))]
    for row in result["rows"]:
        node = nodes[row["id"].removeprefix("record-")]
        assert row["href"] == node["href"] and row["resolved"] == node["resolved"]
        path = row["cells"][3]
        assert row["cells"][1] == neutralise(titles[path] or "")  # the whole title, as written


def test_all_draws_records_without_relationships(pages: dict[str, Any]) -> None:
    result = pages["lonely"]
    _drawn_safely(result)
    repo = pages["_repos"]["lonely"]
    want = _expected(repo, everything=True)
    assert {n["name"]: n["resolved"] for n in result["nodes"]} == {
        k: v[1].as_uri() for k, v in want.items()}


def test_the_cdn_page_offline_says_so_and_still_lists_the_records(
    pages: dict[str, Any],
) -> None:
    result = pages["cdn"]
    assert result["state"] == "error" and "Mermaid could not be loaded" in result["status"]
    assert CDN_URL in result["requests"]
    repo = pages["_repos"]["docs"]
    want = _expected(repo)
    assert [r["resolved"] for r in result["rows"]] == [p.as_uri() for _t, p in want.values()]
    assert all(r["href"].startswith("docs/adr/") for r in result["rows"])  # page at the root


def test_the_cdn_default_is_the_pinned_mermaid_11() -> None:
    _tools()
    deps = json.loads((BROWSER / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps["mermaid-11"] == f"npm:mermaid@{CDN_VERSION}"
    digest = hashlib.sha384(_mermaid_js("mermaid-11").read_bytes()).digest()
    assert "sha384-" + base64.b64encode(digest).decode("ascii") == CDN_INTEGRITY
