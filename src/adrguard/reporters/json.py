"""Machine-readable JSON, described by ``schemas/report.schema.json`` (draft 2020-12).

Sorted keys, two-space indent, a trailing newline; non-ASCII text is kept as UTF-8.
``schemaVersion`` changes only when a field is removed or changes meaning.
"""

from __future__ import annotations

import json
from typing import Any

from adrguard.core.findings import Finding, Gate, Report
from adrguard.core.textsafe import json_safe
from adrguard.reporters.context import ReportContext, clean, finding_fingerprint, position

SCHEMA_VERSION = 1


def finding_data(f: Finding) -> dict[str, Any]:
    line, column = position(f)
    return {
        "code": f.code,
        "name": f.name,
        "severity": f.severity.label,
        "message": clean(f.message),
        "path": clean(f.location.path),
        "line": line,
        "column": column,
        "decision": clean(f.decision_id) if f.decision_id is not None else None,
        "related": [clean(r) for r in f.related],
        "fingerprint": finding_fingerprint(f),
    }


def _findings(report: Report) -> list[dict[str, Any]]:
    """Every finding of the run, sorted: the ones that count, and with a :class:`Gate` also the
    held ones, marked ``"baseline": "known"`` (in the baseline file) or ``"older": true`` (in a
    file the judged change does not touch, reported before it)."""
    gate = report.gate
    if gate is None:
        return [finding_data(f) for f in report.findings]
    fresh = set(gate.untracked)
    rows: list[tuple[Finding, dict[str, Any]]] = []
    for group, marks in (
        (report.findings, {}),
        (gate.known, {"baseline": "known"}),
        (gate.older, {"older": True}),
    ):
        for f in group:
            data = finding_data(f) | marks
            if gate.baseline is not None:
                data.setdefault("baseline", "new")
            if f.location.path in fresh:
                data["untracked"] = True
            rows.append((f, data))
    rows.sort(key=lambda row: (row[0].sort_key, row[0].decision_id or ""))
    return [data for _, data in rows]


def gate_data(gate: Gate) -> dict[str, Any]:
    return {
        "baseline": clean(gate.baseline) if gate.baseline is not None else None,
        "scope": gate.scope,
        "known": len(gate.known),
        "older": len(gate.older),
        "fixed": [clean(f) for f in gate.fixed],
        "untracked": [clean(p) for p in gate.untracked],
    }


def report_data(report: Report, ctx: ReportContext) -> dict[str, Any]:
    s = report.summary
    data = {
        "schemaVersion": SCHEMA_VERSION,
        "tool": {"name": ctx.tool_name, "version": ctx.version},
        "profile": report.profile,
        "summary": {
            "decisions": s.decisions,
            "files": s.files,
            "errors": s.errors,
            "warnings": s.warnings,
            "notes": s.notes,
        },
        "findings": _findings(report),
    }
    if report.gate is not None:
        data["gate"] = gate_data(report.gate)
    return data


def dumps(data: Any) -> str:
    """The one JSON style of adrguard's machine outputs (control, bidi and workflow-command
    characters escaped the JSON way: :func:`adrguard.core.textsafe.json_safe`)."""
    return json_safe(_encode(data) + "\n")


def _encode(data: Any) -> str:
    """``json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)``, byte for byte. The
    standard library's encoder runs in Python once it indents (a second for 20,000 findings);
    msgspec's writes the same text for JSON built of strings, integers, booleans, None, lists
    and string-keyed mappings, so it takes those, and anything else (a float, whose exponent
    msgspec writes its own way, a lone surrogate) goes to the standard library."""
    if _plain(data):
        import msgspec

        try:
            return msgspec.json.format(msgspec.json.encode(data, order="sorted"),
                                       indent=2).decode("utf-8")
        except (msgspec.EncodeError, UnicodeEncodeError):
            pass
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)


def _plain(data: Any) -> bool:
    """Whether ``data`` holds only the JSON both encoders write alike (iteratively: a deep
    value cannot exhaust the stack here)."""
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(k) is str for k in item):
                return False
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind not in (str, int, bool) and item is not None:
            return False
    return True


def render(report: Report, ctx: ReportContext) -> str:
    return dumps(report_data(report, ctx))
