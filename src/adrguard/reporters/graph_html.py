"""The decision graph as one HTML page that Mermaid draws in a browser (``graph --format html``).

The page is self-contained, like coverage.py's ``htmlcov``: the Mermaid text of
:func:`~adrguard.reporters.graph.render_mermaid` (what ``adrguard graph`` prints), each
node's link to its record (a URL relative to the page), a table of the same records with the
same links (readable without JavaScript, or when Mermaid cannot be loaded), and a small script
that draws the diagram and wraps each node in a link to its record (Mermaid's own ``click ...
href`` is not used: Mermaid 11 percent-decodes the URL, which breaks a file name holding ``#``,
``?`` or ``%``). Mermaid itself comes from its CDN (an exact version, with a
Subresource Integrity hash) or, given a local ``mermaid.min.js``, is inlined as a ``data:`` URL
(base64, so no byte of it can end the script element early), and the page then works offline.

Hostile text stays inert: labels are escaped for Mermaid (:func:`~.mermaid.mermaid_text`); the
diagram reaches the script as JSON inside ``<script type="application/json">`` with ``<``, ``>``
and ``&`` written as ``\\u003c``-style escapes (no ``</script>`` can close it, no entity is
decoded); link targets are percent-encoded (only ``A-Z a-z 0-9 - . _ ~ / %`` remain, so a file
name can neither end an HTML attribute nor carry a scheme); the table is HTML-escaped.
Mermaid runs with ``securityLevel: "strict"``. The output is byte-deterministic.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from adrguard.core.model import status_key
from adrguard.core.textsafe import neutralise
from adrguard.core.wording import plural
from adrguard.reporters.graph import MAX_EDGES, MAX_TEXT, View, render_mermaid

# The default Mermaid: one exact release on jsDelivr, pinned by its SRI hash (the same file as
# mermaid-11 in .ci/browser/package.json; tests/browser checks both).
CDN_VERSION = "11.17.2"
CDN_URL = f"https://cdn.jsdelivr.net/npm/mermaid@{CDN_VERSION}/dist/mermaid.min.js"
CDN_INTEGRITY = "sha384-EOXBFmc3gx5mb+vn0vPvvGqACToJD24hhacX5Yx+8NUUQrHIle/Qi5Bg9o3zKwW2"


@dataclass(frozen=True)
class MermaidScript:
    """Where the page gets Mermaid: ``code`` (a local ``mermaid.min.js``, inlined), else
    ``url`` (checked against ``integrity`` when given)."""

    url: str = CDN_URL
    integrity: str | None = CDN_INTEGRITY
    code: bytes | None = None
    name: str = ""  # the local file's name, for the page's footer

    def tag(self) -> str:
        if self.code is not None:
            data = base64.b64encode(self.code).decode("ascii")
            return f'<script src="data:text/javascript;base64,{data}"></script>'
        check = (f' integrity="{html.escape(self.integrity)}" crossorigin="anonymous"'
                 if self.integrity else "")
        return f'<script src="{html.escape(self.url)}"{check}></script>'

    def described(self) -> str:
        if self.code is not None:
            return f"Mermaid inlined from {self.name or 'a local file'}"
        return f"Mermaid from {self.url}"


def href(path: str) -> str:
    """A relative path (POSIX) as a URL: percent-encoded down to ``A-Za-z0-9-._~/%``."""
    return quote(path, safe="/")


def _script_json(data: object) -> str:
    """JSON that may sit inside a ``<script>`` element as is."""
    text = json.dumps(data, ensure_ascii=True, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _url(link: str) -> str:
    """``link`` (from :func:`href`, or a ``file:`` URL) with nothing that could end an HTML
    attribute or start a scheme (percent-encoded again if anything slipped in)."""
    return link if _URL_SAFE.fullmatch(link) else href(link)


_URL_SAFE = re.compile(r"(?:file:///(?:[A-Za-z]:/)?)?[A-Za-z0-9._~/%-]*")


def _e(text: str) -> str:
    return html.escape(neutralise(text), quote=True)


_STYLE = """\
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e;
  --line: #d1d9e0; --link: #0969da; --bad: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #f0f6fc; --bg: #0d1117; --muted: #9198a1;
  --line: #3d444d; --link: #4493f8; --bad: #f85149; } }
body { margin: 0 auto; max-width: 90rem; padding: 1rem 1.5rem; color: var(--fg);
  background: var(--bg); font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
p.meta, footer { color: var(--muted); margin: 0; }
#graph { overflow: auto; border: 1px solid var(--line); border-radius: 6px; padding: 1rem;
  margin-top: 1rem; min-height: 4rem; }
#graph a { cursor: pointer; }
#graph-status.error { color: var(--bad); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25rem .75rem .25rem 0; border-bottom: 1px solid var(--line);
  vertical-align: top; }
td:first-child { white-space: nowrap; }
a { color: var(--link); }
footer { margin-top: 1.5rem; font-size: 12px; }
"""

_DRAW = """\
(function () {
  var box = document.getElementById("graph");
  var status = document.getElementById("graph-status");
  function fail(why) {
    status.textContent = why;
    status.className = "error";
    box.setAttribute("data-state", "error");
  }
  var mermaid = window.mermaid;
  if (!mermaid || typeof mermaid.render !== "function") {
    fail("Mermaid could not be loaded (offline, or not a browser build of mermaid.js), so the " +
         "graph is not drawn; the records are listed below. Run adrguard graph --format html " +
         "--mermaid-js PATH with a local copy of mermaid.min.js to draw it offline.");
    return;
  }
  var source = JSON.parse(document.getElementById("graph-source").textContent);
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  mermaid.initialize({
    startOnLoad: false, securityLevel: "strict", theme: dark ? "dark" : "default",
    maxTextSize: source.maxTextSize, maxEdges: source.maxEdges
  });
  mermaid.render("decision-graph", source.diagram).then(function (out) {
    box.innerHTML = out.svg;
    if (out.bindFunctions) { out.bindFunctions(box); }
    var svg = box.querySelector("svg");
    var view = svg && svg.viewBox && svg.viewBox.baseVal;
    if (view && view.width) {  // natural size: a long chain scrolls instead of shrinking
      svg.style.maxWidth = "none";
      svg.setAttribute("width", String(view.width));
      svg.setAttribute("height", String(view.height));
    }
    // each node in a link to its record (Mermaid's own `click` decodes the URL in 11+)
    var nodes = box.querySelectorAll("svg g.node");
    for (var i = 0; i < nodes.length; i++) {
      var m = /flowchart-(n[0-9]+)-[0-9]+$/.exec(nodes[i].id || "");
      if (!m || !Object.prototype.hasOwnProperty.call(source.links, m[1])) { continue; }
      var a = document.createElementNS("http://www.w3.org/2000/svg", "a");
      a.setAttribute("href", source.links[m[1]]);
      nodes[i].parentNode.insertBefore(a, nodes[i]);
      a.appendChild(nodes[i]);
    }
    box.setAttribute("data-state", "drawn");
  }, function (error) {
    fail("Mermaid could not draw the graph: " + (error && error.message ? error.message : error));
  });
})();
"""


def render_html(v: View, links: Mapping[str, str], mermaid: MermaidScript,
                *, version: str = "") -> str:
    """The page for ``v``; ``links`` maps a record's path to its URL from the page
    (:func:`href`)."""
    text = render_mermaid(v)
    source = {
        "diagram": text,
        "links": {f"n{i}": _url(links[d.path]) for i, d in enumerate(v.nodes) if d.path in links},
        "maxEdges": max(MAX_EDGES, len(v.edges) + 1),
        "maxTextSize": max(MAX_TEXT, len(text.encode("utf-16-le")) // 2 + 1),
    }
    what = f"{plural(len(v.nodes), 'record')}, {plural(len(v.edges), 'relationship')}"
    if v.focus is not None:
        what += f" around {_e(v.focus.id)} (depth {v.depth})"
    if v.omitted:
        what += f"; {v.omitted} without relationships left out (--all draws them)"
    rows = []
    for i, d in enumerate(v.nodes):
        link = links.get(d.path)
        ident = _e(d.id)
        cell = f'<a href="{_url(link)}">{ident}</a>' if link is not None else ident
        rows.append(f'<tr id="record-n{i}"><td>{cell}</td><td>{_e(d.title or "(untitled)")}'
                    f'</td><td>{_e(status_key(d))}</td><td><code>{_e(d.path)}</code></td></tr>')
    generator = f"adrguard {version}".strip()
    return "\n".join([
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="{_e(generator)}">',
        "<title>Decision graph</title>",
        f"<style>\n{_STYLE}</style>",
        "</head>",
        "<body>",
        "<h1>Decision graph</h1>",
        f'<p class="meta">{what}. Click a record to open it.</p>',
        '<div id="graph" data-state="pending" role="img" aria-label="decision graph">'
        '<p id="graph-status">Drawing the graph…</p></div>',
        "<h2>Records</h2>",
        '<table id="records">',
        "<thead><tr><th>Record</th><th>Title</th><th>Status</th><th>File</th></tr></thead>",
        "<tbody>",
        *rows,
        "</tbody>",
        "</table>",
        f"<footer>Written by {_e(generator)}; {_e(mermaid.described())}.</footer>",
        f'<script type="application/json" id="graph-source">{_script_json(source)}</script>',
        mermaid.tag(),
        f"<script>\n{_DRAW}</script>",
        "</body>",
        "</html>",
        "",
    ])
