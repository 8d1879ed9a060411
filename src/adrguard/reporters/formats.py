"""Every output format of every report kind, in one registry.

``KINDS`` maps a report kind (``check``, ``verify``, ``verify-audit``, ``impact``, ``graph``) to
its formats in ``--format`` order, the first being the default; ``PLAIN`` does the same for the
plain text/JSON output of the other commands (``list``, ``show``, ``rules``, ...), which write it
themselves. An entry names the function that
writes it (``module:function`` in :mod:`adrguard.reporters`, imported only when used), says how
standard output treats its text and what its reporter reads. The command line's ``--format``
choices and help, the reporters' dispatch and the docs' lists all come from here
(``tests/reporters/test_formats.py`` keeps them so).

Adding an output format: one entry here, the function it names, a test and a line in the
docs page of its command (docs/output-formats.md for ``check``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

Stream = Literal["text", "json", "commands"]


class OutputFormat(msgspec.Struct, frozen=True):
    """One ``--format NAME`` of one report kind."""

    name: str
    target: str  # "module:function" in adrguard.reporters that writes it
    about: str = ""  # what it is, when its name does not say (shown in --format's help)
    # how standard output treats the text: plain text (neutralised), JSON (kept as is), or
    # commands written on purpose (GitHub's workflow commands, escaped by their reporter)
    stream: Stream = "text"
    catalogue: bool = False  # reads the rule catalogue (ReportContext.rules / descriptions)


def _f(name: str, target: str, about: str = "", **flags: Any) -> OutputFormat:
    return OutputFormat(name, target, about, **flags)


KINDS: Mapping[str, tuple[OutputFormat, ...]] = {
    "check": (
        _f("text", "text:render"),
        _f("concise", "concise:render",
           "one `path:line:col: CODE message` line per finding, for editors"),
        _f("json", "json:render", stream="json"),
        _f("markdown", "markdown:render"),
        _f("github", "github:render", stream="commands"),
        _f("sarif", "sarif:render", stream="json", catalogue=True),
    ),
    "verify": (
        _f("text", "verify:render_text"),
        _f("json", "verify:render_json", stream="json"),
        _f("markdown", "verify:render_markdown"),
        _f("sarif", "verify:render_sarif", stream="json"),
    ),
    "verify-audit": (
        _f("text", "verify:audit_text"),
        _f("json", "verify:audit_json", stream="json"),
        _f("markdown", "verify:audit_markdown"),
    ),
    "impact": (
        _f("text", "impact:render_text"),
        _f("json", "impact:render_json", stream="json"),
        _f("markdown", "impact:render_markdown"),
    ),
    "graph": (
        _f("mermaid", "graph:render_mermaid"),
        _f("dot", "graph:render_dot"),
        _f("json", "graph:render_json", stream="json"),
        _f("html", "graph_html:render_html",
           "one page that draws the graph with Mermaid, nodes linked to their records relative "
           "to the page (-o PATH; on stdout: relative to the current directory)"),
    ),
}


# The plain outputs of the other commands: each command writes its text or JSON itself (no
# reporter function), but its ``--format`` choices and default come from here all the same.
_TEXT = _f("text", "")
_JSON = _f("json", "", stream="json")
_MARKDOWN = _f("markdown", "")
PLAIN: Mapping[str, tuple[OutputFormat, ...]] = {
    "list": (_TEXT, _JSON, _MARKDOWN),
    "show": (_TEXT, _JSON),
    "rules": (_TEXT, _JSON, _MARKDOWN),
    "relationships": (_TEXT, _JSON),
    "citations": (_TEXT, _JSON),
    "compaction": (_TEXT, _JSON),
    "current-status": (_TEXT, _JSON),
    "agent": (_TEXT, _JSON),  # find, context, search, validate
    "archive-plan": (_JSON, _TEXT),  # JSON first: the plan is for the apply step
}


def entries(kind: str) -> tuple[OutputFormat, ...]:
    return KINDS[kind] if kind in KINDS else PLAIN[kind]


def names(kind: str) -> tuple[str, ...]:
    """The format names of ``kind`` (a report kind or a command's plain output) in ``--format``
    order (the first is the default)."""
    return tuple(f.name for f in entries(kind))


def default(kind: str) -> str:
    return entries(kind)[0].name


def entry(kind: str, name: str) -> OutputFormat:
    for f in entries(kind):
        if f.name == name:
            return f
    raise KeyError(f"{kind} has no format {name!r}")


def renderer(kind: str, name: str) -> Callable[..., str]:
    """The function that writes ``name`` for ``kind`` (its module imported now)."""
    module, _, function = entry(kind, name).target.partition(":")
    found: Callable[..., str] = getattr(
        importlib.import_module(f"adrguard.reporters.{module}"), function)
    return found


def help_text(kind: str, *, last: str = ", ") -> str:
    """``--format``'s list of names: ``text (default), concise (what it is), json, ...``;
    ``last`` joins the final name (``", or "`` reads better before a long description)."""
    parts = []
    for i, f in enumerate(entries(kind)):
        note = ", ".join(x for x in ("default" if i == 0 else "", f.about) if x)
        parts.append(f"{f.name} ({note})" if note else f.name)
    return ", ".join(parts[:-1]) + last + parts[-1] if len(parts) > 1 else parts[0]


def stream(name: str) -> Stream:
    """How standard output treats the text of the format ``name`` (of any kind: a name means
    the same stream in every kind; names no kind registers, such as ``list``'s, are text)."""
    for kind in KINDS.values():
        for f in kind:
            if f.name == name:
                return f.stream
    return "text"
