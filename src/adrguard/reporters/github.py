"""GitHub Actions workflow commands: one annotation per finding.

```
::error file=docs/adr/0006-a.md,line=3,col=1,title=adrguard ADR303 (relationship-cycle)::message
```

GitHub shows at most 10 annotations of each level per step, so at most 10 are written per level,
most severe first, and one final ``::notice::`` says how many more the job summary holds (when
anything was left out, notices stop at 9 so that last notice is never the one dropped).

Escaping follows the runner's rules: in data ``%``, CR and LF become ``%25``, ``%0D``, ``%0A``;
in property values ``:`` and ``,`` also become ``%3A`` and ``%2C``. ADR text can therefore
never end a command early or start a new one.
"""

from __future__ import annotations

import re

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.textsafe import SPECIAL
from adrguard.core.wording import plural
from adrguard.reporters.context import LEVELS, ReportContext, clean, position

PER_LEVEL = 10
COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


# C0 but tab, LF and CR (escaped the runner's way below), and every character textsafe
# neutralises: C1, the bidi marks and controls, invisible format characters, separators.
_CONTROL = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{SPECIAL}]")


def escape_data(value: str) -> str:
    """Workflow-command data. Beyond the runner's rules, terminal escapes, bidi marks and
    controls and invisible format characters become U+FFFD and tabs spaces, so the log line
    shows what the annotation says."""
    text = _CONTROL.sub("\ufffd", clean(value).replace("\t", " "))
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str | int) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def annotation(f: Finding, ctx: ReportContext) -> str:
    line, column = position(f)
    return command(
        COMMANDS[f.severity],
        f.message,
        file=f.location.path,
        line=line,
        col=column,
        title=f"{ctx.tool_name} {f.code} ({f.name})",
    )


def render(report: Report, ctx: ReportContext) -> str:
    levels = {s: [f for f in report.findings if f.severity == s] for s in LEVELS}
    overflow = any(len(found) > PER_LEVEL for found in levels.values())
    limits = {s: PER_LEVEL for s in LEVELS}
    if overflow:
        limits[Severity.NOTE] = PER_LEVEL - 1
    lines: list[str] = []
    hidden: dict[Severity, int] = {}
    for level in LEVELS:
        found = levels[level]
        lines += [annotation(f, ctx) for f in found[: limits[level]]]
        if len(found) > limits[level]:
            hidden[level] = len(found) - limits[level]
    if hidden:
        total = sum(hidden.values())
        detail = ", ".join(plural(n, s.label) for s, n in hidden.items())
        lines.append(
            command(
                "notice",
                f"{plural(total, 'more finding')} ({detail}) not shown as annotations: GitHub "
                f"shows at most {PER_LEVEL} per level. The job summary and the full report "
                "list every finding.",
                title=f"{ctx.tool_name}: {plural(total, 'more finding')}",
            )
        )
    return "".join(line + "\n" for line in lines)
