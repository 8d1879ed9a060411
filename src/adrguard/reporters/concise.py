"""One line per finding, ``path:line:col: CODE message``: the form editors and their problem
matchers parse (Vim's ``errorformat`` ``%f:%l:%c: %m``, Emacs' compilation mode, VS Code's
``$gcc``-style matchers), as ``ruff check --output-format concise`` writes it.

```
docs/adr/0006-a.md:3:1: ADR303 supersedes forms a cycle: ADR-0006 -> ADR-0007 -> ADR-0006
docs/adr/0006-a.md:12:5: ADR201 broken link: ./missing.md does not exist
```

Nothing else: no heading, no summary (the CLI says the summary on stderr). A message's line
breaks become spaces, so every finding is exactly one line; ADR text is made inert as in the
text format (:func:`adrguard.core.textsafe.neutralise`). No findings: no output.
"""

from __future__ import annotations

from adrguard.core.findings import Finding, Report
from adrguard.core.textsafe import neutralise
from adrguard.reporters.context import ReportContext, clean, position
from adrguard.reporters.text import message_lines


def line(f: Finding) -> str:
    """``path:line:col: CODE message`` on one line."""
    row, col = position(f)
    message = " ".join(part.strip() for part in message_lines(clean(f.message)))
    return neutralise(f"{clean(f.location.path)}:{row}:{col}: {f.code} {message}")


def render(report: Report, ctx: ReportContext) -> str:
    return "".join(line(f) + "\n" for f in report.findings)
