"""Human-readable text: findings grouped by file, then a summary line.

```
docs/adr/0006-a.md
  3:1   ADR303 relationship-cycle  error    supersedes forms a cycle: ADR-0006 -> ADR-0007
  12:5  ADR201 broken-link         error    link target ./missing.md does not exist

2 errors, 0 warnings, 0 notes in 7 decisions (9 files)
```

The plain rendering is byte-deterministic (it is what the golden file holds). With
``ctx.color`` (the output is a terminal) the same layout is coloured by rich, imported lazily.
ADR text is untrusted: control characters (terminal escapes) are shown as ``\\xNN`` and a
message's line breaks become indented continuation lines.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from itertools import groupby
from typing import TYPE_CHECKING

import msgspec

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.textsafe import neutralise
from adrguard.reporters.context import (
    ReportContext,
    counts,
    gate_lines,
    position,
    rule_counts,
    scope,
)

if TYPE_CHECKING:
    from rich.text import Text

GAP = "  "
STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}


def message_lines(message: str) -> list[str]:
    if "\n" not in message and "\r" not in message:
        return [message]
    # what re.split(r"\r\n|\r|\n", message) gives, without compiling it: CRLF first, then CR, LF
    return message.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class _Row(msgspec.Struct, frozen=True):
    """One finding, laid out."""

    where: str
    rule: str
    severity: Severity
    message: list[str]


def _rows(findings: list[Finding]) -> list[_Row]:
    return [
        _Row(
            where="{}:{}".format(*position(f)),
            rule=f"{f.code} {f.name}",
            severity=f.severity,
            message=[neutralise(part) for part in message_lines(f.message)],
        )
        for f in findings
    ]


def _groups(report: Report) -> list[tuple[str, list[_Row]]]:
    grouped = groupby(report.findings, key=lambda f: f.location.path)
    fresh = set(report.gate.untracked) if report.gate is not None else set()
    return [
        (neutralise(path) + (" (untracked)" if path in fresh else ""), _rows(list(items)))
        for path, items in grouped
    ]


def _summary(report: Report) -> str:
    summary = report.summary
    if not report.findings:
        gate = report.gate
        held = gate is not None and bool(gate.known or gate.older)
        return f"No {'new ' if held else ''}problems found {scope(summary)}"
    return f"{counts(summary)} {scope(summary)}"


def _columns(rows: list[_Row]) -> tuple[int, int, int, str]:
    """The widths of a group's where, rule and severity columns, and the indent of a message's
    further lines (under its first): one layout, plain and coloured."""
    w_where = max(len(r.where) for r in rows)
    w_rule = max(len(r.rule) for r in rows)
    w_sev = max(len(r.severity.label) for r in rows)
    return w_where, w_rule, w_sev, " " * (2 + w_where + w_rule + w_sev + 3 * len(GAP))


def render_plain(report: Report, *, quiet: bool = False) -> str:
    out: list[str] = []
    for path, rows in _groups(report):
        out.append(path)
        w_where, w_rule, w_sev, indent = _columns(rows)
        for r in rows:
            head = GAP.join(
                (r.where.ljust(w_where), r.rule.ljust(w_rule), r.severity.label.ljust(w_sev))
            )
            out.append(f"  {head}{GAP}{r.message[0]}".rstrip())
            out.extend(f"{indent}{more}".rstrip() for more in r.message[1:])
        out.append("")
    if quiet:  # the findings only (-q): no summary, no blank line after the last group
        return "".join(line + "\n" for line in out[:-1])
    out.append(_summary(report))
    out.extend(neutralise(line) for line in gate_lines(report))
    return "\n".join(out) + "\n"


def _styled(report: Report, quiet: bool = False) -> list[Text]:
    from rich.text import Text

    lines: list[Text] = []
    for path, rows in _groups(report):
        lines.append(Text(path, style="bold underline"))
        w_where, w_rule, w_sev, indent = _columns(rows)
        for r in rows:
            line = Text("  ")
            line.append(r.where.ljust(w_where), style="dim")
            line.append(GAP)
            code, _, name = r.rule.partition(" ")
            line.append(code, style="bold")
            line.append(" " + name.ljust(w_rule - len(code) - 1), style="magenta")
            line.append(GAP)
            line.append(r.severity.label.ljust(w_sev), style=STYLES[r.severity])
            line.append(GAP + r.message[0])
            lines.append(line)
            lines.extend(Text(indent + more) for more in r.message[1:])
        lines.append(Text(""))
    if quiet:
        return lines[:-1]
    worst = report.worst()
    lines.append(Text(_summary(report), style=STYLES[worst] if worst else "bold green"))
    lines.extend(Text(neutralise(line), style="dim") for line in gate_lines(report))
    return lines


def render_color(report: Report, *, quiet: bool = False) -> str:
    """The same layout with ANSI colours (rich, imported only here)."""
    return ansi(_styled(report, quiet))


def ansi(lines: Iterable[Text]) -> str:
    """rich ``Text`` lines as ANSI-coloured text, each on one line however long (the text
    format's colours, and ``list``'s and ``show``'s on a terminal)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        color_system="standard",
        width=10_000,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )
    for line in lines:
        console.print(line)
    return buffer.getvalue()


def render(report: Report, ctx: ReportContext) -> str:
    if ctx.color:
        return render_color(report, quiet=ctx.quiet)
    return render_plain(report, quiet=ctx.quiet)


def render_statistics(report: Report, *, quiet: bool = False) -> str:
    """``check --statistics``: one line per rule, ``COUNT  CODE  name  severity``, most
    frequent first, then the summary line (not with ``quiet``)."""
    rows = rule_counts(report)
    out = []
    if rows:
        w_count = max(len(str(r[0])) for r in rows)
        w_code = max(len(r[1]) for r in rows)
        w_name = max(len(r[2]) for r in rows)
        for count, code, name, severity in rows:
            out.append(GAP.join((str(count).rjust(w_count), code.ljust(w_code),
                                 name.ljust(w_name), severity.label)))
        if not quiet:
            out.append("")
    if not quiet:
        out.append(_summary(report))
        out.extend(neutralise(line) for line in gate_lines(report))
    return "".join(line + "\n" for line in out)
