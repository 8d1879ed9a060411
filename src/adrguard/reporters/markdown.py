"""A Markdown report for a pull request comment or a job summary (GitHub-flavoured).

ADR text, titles and paths are attacker-controlled: a pull request can add a record whose
title pings a team or embeds HTML. Every untrusted string goes through :func:`escape`, which
keeps it inert in a table cell: Markdown and HTML specials are escaped, ``@mentions``,
``#123``/``GH-123`` references and bare URLs are broken with a zero-width space so GitHub
neither pings, links nor previews them, and line breaks become ``<br>``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import quote

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.wording import plural
from adrguard.reporters.context import (
    ReportContext,
    clean,
    counts,
    gate_lines,
    position,
    scope,
)

ZWSP = "&#8203;"  # zero-width space: GitHub renders nothing, but no longer sees a mention/link
ICONS = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.NOTE: "🔵"}
HEADING = "## adrguard"

_UNSAFE = re.compile(
    r"""
    (?P<nl>\r\n|\r|\n)
  | (?P<ctl>[\x00-\x0c\x0e-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069])
  | (?P<html>[&<>])
  | (?P<md>[\\`*_{}\[\]|~$])
  | (?P<at>@)
  | (?P<ref>\#(?=\d)|\b[Gg][Hh]-(?=\d))
  | (?P<url>\b(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp])(?=:)|\b[Ww][Ww][Ww](?=\.))
    """,
    re.VERBOSE,
)
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _neutralise(m: re.Match[str]) -> str:
    kind, value = m.lastgroup, m.group()
    if kind == "nl":
        return "<br>"
    if kind == "ctl":
        return " " if value == "\t" else "\ufffd"
    if kind == "html":
        return _ENTITIES[value]
    if kind == "md":
        return "\\" + value
    if kind == "ref" and value != "#":
        return value[:-1] + ZWSP + "-"
    return value + ZWSP  # "@", "#" before a digit, a URL scheme or "www"


def escape(value: str) -> str:
    """Untrusted text -> inert inline Markdown, safe inside a table cell."""
    return _UNSAFE.sub(_neutralise, clean(value))


def _rule_cell(f: Finding, ctx: ReportContext) -> str:
    return f"[{escape(f.code)}]({ctx.help_uri(f.code)}) {escape(f.name)}"


def _location_cell(f: Finding, ctx: ReportContext) -> str:
    line, _column = position(f)
    label = escape(f"{f.location.path}:{line}")
    if not ctx.repo_url or not f.location.path:
        return label
    target = f"{ctx.repo_url.rstrip('/')}/blob/HEAD/{quote(f.location.path, safe='/')}#L{line}"
    return f"[{label}]({target})"


def _decision_cell(f: Finding, ctx: ReportContext) -> str:
    if f.decision_id is None:
        return ""
    info = ctx.decisions.get(f.decision_id)
    if info is None or not info.title:
        return escape(f.decision_id)
    return f"{escape(f.decision_id)}: {escape(info.title)}"


TABLE_HEAD = (
    "| Severity | Rule | Location | Decision | Message |",
    "| --- | --- | --- | --- | --- |",
)


def _rows(report: Report, ctx: ReportContext) -> list[str]:
    rows = []
    ordered = sorted(report.findings, key=lambda f: -f.severity)  # stable: keeps report order
    for f in ordered:
        cells = (
            f"{ICONS[f.severity]} {f.severity.label}",
            _rule_cell(f, ctx),
            _location_cell(f, ctx),
            _decision_cell(f, ctx),
            escape(f.message),
        )
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _statuses(ctx: ReportContext) -> list[str]:
    if not ctx.decisions:
        return []
    tally = Counter(d.status or "no status" for d in ctx.decisions.values())
    parts = [
        f"{n} {escape(status)}"
        for status, n in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    return [f"Decisions by status: {', '.join(parts)}.", ""]


def byte_size(lines: Sequence[str]) -> int:
    """The bytes ``lines`` take as UTF-8, each with its line end."""
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def _fit(rows: list[str], head: list[str], tail: list[str], max_bytes: int) -> list[str]:
    """As many table rows as fit in ``max_bytes`` with a note saying how many were left out."""
    budget = max_bytes - byte_size(head) - byte_size(tail) - 200  # 200: room for the note
    kept: list[str] = []
    for row in rows:
        budget -= len(row.encode("utf-8")) + 1
        if budget < 0:
            break
        kept.append(row)
    left = len(rows) - len(kept)
    note = [
        "",
        f"**{plural(left, 'more finding')} not shown** to keep this report under "
        f"{max_bytes:,} bytes; the full report (text, JSON or SARIF) lists every finding.",
    ]
    return kept + note


def render(report: Report, ctx: ReportContext, *, max_bytes: int | None = None) -> str:
    """The report; with ``max_bytes`` (a PR comment allows 65,536 characters, a job summary
    1 MiB) the findings table is cut so the whole text fits, and a note says so."""
    summary = report.summary
    lines = [HEADING, ""]
    held = [escape(line) for line in gate_lines(report)]
    held = [*held, ""] if held else []
    if not report.findings:
        gate = report.gate
        new = "new " if gate is not None and (gate.known or gate.older) else ""
        lines += [
            f"✅ No {new}problems found {scope(summary)} · profile {escape(report.profile)}",
            "",
        ]
        lines += held + _statuses(ctx)
        return "\n".join(lines)
    worst = report.worst() or Severity.NOTE
    lines += [
        f"{ICONS[worst]} **{counts(summary)}** {scope(summary)} · profile {escape(report.profile)}",
        "",
    ]
    lines += held + _statuses(ctx)
    lines += TABLE_HEAD
    tail = [
        "",
        f"<sub>{escape(ctx.tool_name)} {escape(ctx.version)} · "
        f"[what each rule checks and how to fix it]({ctx.help_base})</sub>",
        "",
    ]
    rows = _rows(report, ctx)
    if max_bytes is not None and byte_size(lines) + byte_size(rows) + byte_size(tail) > max_bytes:
        rows = _fit(rows, lines, tail, max_bytes)
    return "\n".join(lines + rows + tail)
