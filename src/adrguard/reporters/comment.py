"""The body of the sticky pull-request comment and of the job summary (GitHub Action).

One Markdown document: the findings report (:mod:`adrguard.reporters.markdown`), the decisions
governing the change with links, and a Mermaid graph of those decisions (thick border) and their
supersede/amend neighbours. ADR titles, paths and messages are untrusted: they go through
:func:`adrguard.reporters.markdown.escape` (no pings, no ``#123`` links, no HTML, images or
links to other sites) or, inside the Mermaid fence, :func:`adrguard.reporters.graph.mermaid_text`.
The document always fits ``limit`` bytes (a PR comment allows 65,536 characters, a job summary
1 MiB): long messages are shortened, then the table is cut, then optional sections are dropped,
each time with a note saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

from msgspec.structs import replace

from adrguard.core.findings import Report
from adrguard.core.graph.graph import Edge, Graph
from adrguard.core.impact.analysis import Affected, Impact
from adrguard.core.model import Decision
from adrguard.core.wording import plural
from adrguard.reporters import markdown
from adrguard.reporters.context import ReportContext
from adrguard.reporters.graph import View, render_mermaid, too_large

MARKER = "<!-- adrguard:sticky -->"  # the marker line without a run identity
_IDENTITY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-")


def marker(identity: str = "") -> str:
    """The hidden first line of the sticky comment: the marker and the identity of the run that
    owns it (``workflow/job``, or the action's ``comment-key``). Characters outside
    ``[A-Za-z0-9._/-]`` become ``_``, so the identity can never end the HTML comment."""
    key = "".join(ch if ch in _IDENTITY_CHARS else "_" for ch in identity.strip())[:200]
    return f"<!-- adrguard:sticky {key} -->" if key else MARKER
COMMENT_LIMIT = 65_536 - 1_536  # characters GitHub accepts, less room for our own notes
SUMMARY_LIMIT = 1024 * 1024 - 16_384  # bytes a job summary step may add
MESSAGE_LIMIT = 1_000  # characters of one finding message shown in the table
FILES_SHOWN = 5
GRAPH_NODES = 40
GRAPH_KINDS = ("supersedes", "amends")
esc = markdown.escape


@dataclass(frozen=True)
class Page:
    """What the Action knows besides the report: the change's impact, the graph, notes."""

    impact: Impact | None = None
    graph: Graph | None = None
    notes: tuple[str, ...] = ()  # trusted, already-Markdown lines (e.g. "no merge base")
    run_url: str | None = None  # link to the workflow run (trusted: built from GitHub's env)
    blob_url: str | None = None  # <server>/<repo>/blob/<sha>, for links to decision records
    sections: tuple[str, ...] = ()  # Markdown sections of other reports (verify), escaped already


def shorten(report: Report) -> Report:
    """The report with every message cut to :data:`MESSAGE_LIMIT` characters (a note says it
    was cut)."""
    cut = []
    for f in report.findings:
        if len(f.message) > MESSAGE_LIMIT:
            hidden = len(f.message) - MESSAGE_LIMIT
            f = replace(f, message=f"{f.message[:MESSAGE_LIMIT]}… ({hidden:,} more characters)")
        cut.append(f)
    return replace(report, findings=tuple(cut))


def _decision_link(d: Decision, page: Page) -> str:
    label = esc(f"{d.id}: {d.title}" if d.title else d.id)
    if not page.blob_url:
        return label
    return f"[{label}]({page.blob_url.rstrip('/')}/{quote(d.path, safe='/')})"


def _files(files: Sequence[str]) -> str:
    shown = [esc(f) for f in files[:FILES_SHOWN]]
    if len(files) > FILES_SHOWN:
        shown.append(f"… and {len(files) - FILES_SHOWN} more")
    return "<br>".join(shown)


def _row(a: Affected, page: Page) -> str:
    d = a.decision
    status = d.status.value if d.status is not None else "no status"
    notes = "".join(f"<br><sub>{esc(n)}</sub>" for n in a.notes)
    via = " + ".join(esc(v) for v in a.via)
    return f"| {_decision_link(d, page)}{notes} | {status} | {via} | {_files(a.files)} |"


def governing(impact: Impact, page: Page, max_rows: int | None = None) -> list[str]:
    """The decisions to review for this change, as a Markdown section."""
    cov = impact.coverage
    out = [
        "### Decisions governing this change",
        "",
        f"_{esc(impact.statement)}_",
        "",
        f"{plural(cov.changed, 'changed file')}: {cov.governed} governed, "
        f"{cov.ungoverned} not governed, {plural(cov.records, 'decision record')}.",
        "",
    ]
    if not impact.affected:
        statuses = "/".join(sorted(impact.statuses))
        return [*out, f"No {esc(statuses)} decision governs the changed files.", ""]
    rows = [_row(a, page) for a in impact.affected]
    if max_rows is not None and len(rows) > max_rows:
        rows = [*rows[:max_rows], f"| … and {len(rows) - max_rows} more decisions | | | |"]
    out += ["| Decision | Status | Via | Changed files |", "| --- | --- | --- | --- |", *rows, ""]
    for line in impact.uncertainty[:10]:
        out.append(f"- {esc(line)}")
    return [*out, ""] if impact.uncertainty else out


def _groups(graph: Graph, focus: Sequence[Decision]) -> tuple[list[list[str]], list[Edge]]:
    """Each governing decision that has a supersedes/amends edge, followed by the records one
    such edge away (paths, in drawing priority), and the edges of those kinds."""
    edges = [e for e in graph.edges if e.kind in GRAPH_KINDS and e.source != e.target]
    wanted = {d.path for d in focus}
    near: dict[str, set[str]] = {}
    for e in edges:
        if e.source in wanted:
            near.setdefault(e.source, set()).add(e.target)
        if e.target in wanted:
            near.setdefault(e.target, set()).add(e.source)
    groups: list[list[str]] = []
    seen: set[str] = set()
    for d in focus:
        if d.path in near and d.path not in seen:
            group = [p for p in (d.path, *sorted(near[d.path])) if p not in seen]
            groups.append(group)
            seen.update(group)
    return groups, edges


def neighbourhood(graph: Graph, focus: Sequence[Decision], limit: int = GRAPH_NODES) -> View:
    """The governing decisions that supersede, amend or are superseded or amended by another
    record (drawn with a thick border), those records, and the edges among them, in at most
    ``limit`` nodes. Governing decisions without such a relationship are left out: a column of
    unconnected boxes would repeat the table. A cut keeps whole neighbourhoods, in ``focus``
    order (only the first is ever cut short)."""
    groups, edges = _groups(graph, focus)
    kept: set[str] = set()
    for group in groups:
        room = limit - len(kept)
        if len(group) <= room or (not kept and room > 0):
            kept.update(group[:room])
    nodes = tuple(d for d in graph.corpus.decisions if d.path in kept)
    wanted = frozenset(d.path for d in focus) & kept
    return View(nodes, tuple(e for e in edges if e.source in kept and e.target in kept),
                emphasis=wanted)


def mermaid(graph: Graph, focus: Sequence[Decision]) -> list[str]:
    """The graph section, or nothing when no governing decision has a relationship to draw
    (boxes without edges would repeat the table)."""
    v = neighbourhood(graph, focus)
    if not v.edges:
        return []
    text = render_mermaid(v).rstrip("\n")
    why = too_large(text, len(v.edges))
    if why is not None:
        return [f"The decision graph is not drawn here ({why}): run "
                "`adrguard graph --focus ID --depth 1` locally for one decision's neighbourhood.",
                ""]
    left = len({d.path for d in focus} - v.emphasis)
    return [
        "<details><summary>Decision graph: the governing decisions (thick border) and what "
        "supersedes or amends them</summary>",
        "",
        "```mermaid",
        text,
        "```",
        "",
        *([f"{plural(left, 'governing decision')} not drawn (no supersedes or amends "
           f"relationship, or past {GRAPH_NODES} records): see the table.", ""] if left else []),
        "</details>",
        "",
    ]


def _footer(page: Page) -> list[str]:
    out = [f"- {line}" for line in page.notes]
    if page.run_url:
        out.append(f"<sub>[Workflow run]({page.run_url}) · updated on every push</sub>")
    return ["", *out] if out else []


def document(report: Report, ctx: ReportContext, page: Page, limit: int) -> str:
    """The report, the governing decisions and the graph, in at most ``limit`` bytes."""
    short = shorten(report)
    extra = [line for section in page.sections for line in [*section.rstrip("\n").split("\n"), ""]]
    focus: list[Decision] = []
    if page.impact is not None:
        extra += governing(page.impact, page)
        focus = [a.decision for a in page.impact.affected]
    if page.graph is not None and focus:
        extra += mermaid(page.graph, focus)
    footer = _footer(page)
    budget = limit - markdown.byte_size(extra) - markdown.byte_size(footer)
    if budget < 4_096 and page.impact is not None:  # the impact section is too large: trim it
        extra = governing(page.impact, page, max_rows=50)
        extra.append("The decision graph is left out to keep this report short.")
        budget = limit - markdown.byte_size(extra) - markdown.byte_size(footer)
    if budget < 4_096:
        extra = ["The decisions governing this change are left out to keep this report short."]
        budget = limit - markdown.byte_size(extra) - markdown.byte_size(footer)
    head = markdown.render(short, ctx, max_bytes=budget).rstrip("\n")
    body = "\n".join([head, "", *extra]).rstrip("\n")
    return "\n".join([body, *footer]) + "\n"


def has_news(report: Report, impact: Impact | None) -> bool:
    """Whether a comment has anything to say: findings, governing decisions or bad mappings."""
    return bool(report.findings) or (
        impact is not None and bool(impact.affected or impact.issues)
    )


def comment(report: Report, ctx: ReportContext, page: Page, identity: str = "") -> str:
    """The sticky comment: the hidden marker line (:func:`marker`), then :func:`document`."""
    head = marker(identity)
    return f"{head}\n{document(report, ctx, page, COMMENT_LIMIT - len(head) - 1)}"


def resolved(page: Page, identity: str = "") -> str:
    """What the sticky comment becomes once there is nothing left to say."""
    lines = [
        marker(identity),
        markdown.HEADING,
        "",
        "✅ Nothing left to report: the ADR findings an earlier run listed here are resolved "
        "and no decision governs the changed files.",
        *_footer(page),
    ]
    return "\n".join(lines) + "\n"


def summary(report: Report, ctx: ReportContext, page: Page) -> str:
    """The job summary (``$GITHUB_STEP_SUMMARY``): the same document, with the 1 MiB budget."""
    return document(report, ctx, page, SUMMARY_LIMIT)
