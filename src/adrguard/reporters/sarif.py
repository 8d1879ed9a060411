"""SARIF 2.1.0 for code scanning (``github/codeql-action/upload-sarif`` and other viewers).

One run; ``tool.driver.rules`` lists every rule of the catalogue (so a viewer can show rules that
found nothing), each result points at its rule by ``ruleId`` and ``ruleIndex``. Locations are
repository-relative URIs under ``%SRCROOT%``; ``partialFingerprints["adrguard/v1"]`` is the
finding's line-independent fingerprint, so code scanning keeps an alert's identity across runs.
A finding the baseline file lists carries ``baselineState: unchanged`` and a ``suppressions``
entry (``kind: external``, ``status: accepted``, the baseline file as its location), so code
scanning records it as suppressed instead of opening an alert for it.
Deterministic JSON: sorted keys, no timestamps, no absolute paths.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from adrguard.core.findings import Finding, Report, Severity
from adrguard.reporters.context import ReportContext, clean, finding_fingerprint, position
from adrguard.reporters.json import dumps

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "adrguard/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _rule(ctx: ReportContext, code: str) -> dict[str, Any]:
    meta = next(m for m in ctx.rules if m.code == code)
    config: dict[str, Any] = {"level": LEVELS[meta.default_severity]}
    if not meta.enabled_by_default:
        config["enabled"] = False
    return {
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": ctx.description(meta)},
        "helpUri": ctx.help_uri(meta.code),
        "defaultConfiguration": config,
        "properties": {"tags": ["adr", f"family/ADR{meta.code[3:4]}xx"]},
    }


def _unknown_rule(f: Finding, ctx: ReportContext) -> dict[str, Any]:
    """A descriptor for a finding whose code the catalogue lacks (keeps ruleIndex valid)."""
    return {
        "id": f.code,
        "name": f.name,
        "shortDescription": {"text": f.name},
        "helpUri": ctx.help_uri(f.code),
    }


def _rules(report: Report, ctx: ReportContext) -> tuple[list[dict[str, Any]], dict[str, int]]:
    codes = sorted({m.code for m in ctx.rules})
    rules = [_rule(ctx, code) for code in codes]
    held = (*report.gate.known, *report.gate.older) if report.gate is not None else ()
    for f in (*report.findings, *held):
        if f.code not in codes:
            codes.append(f.code)
            rules.append(_unknown_rule(f, ctx))
    return rules, {code: i for i, code in enumerate(codes)}


def artifact_uri(path: str) -> str:
    """A repository-relative path as a relative URI reference (spaces, ``%``, ``#`` encoded)."""
    return quote(clean(path).lstrip("/"), safe="/-._~!$&'()*+,;=@")


def physical_location(path: str, **region: int) -> dict[str, Any]:
    """A location in a repository-relative file, under ``%SRCROOT%``; ``region``: where in
    it (``startLine``, ``startColumn``), if anywhere."""
    where: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(path), "uriBaseId": SRCROOT}}
    if region:
        where["region"] = region
    return {"physicalLocation": where}


def sarif_log(
    name: str, version: str, information_uri: str, rules: list[dict[str, Any]], root: str,
    **run: Any,
) -> dict[str, Any]:
    """A SARIF log of one run of the tool ``name``: its driver's ``rules``, ``root`` the
    description of ``%SRCROOT%``, ``run`` the run's other fields (``results``, ...)."""
    driver = {"name": name, "version": version, "semanticVersion": version,
              "informationUri": information_uri, "rules": rules}
    head = {"tool": {"driver": driver},
            "originalUriBaseIds": {SRCROOT: {"description": {"text": root}}}}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [head | run]}


def baseline_suppression(baseline: str, what: str = "finding") -> dict[str, Any]:
    """SARIF's suppression of a result a baseline file accepts: persisted outside the file the
    result is in (``external``), accepted, with the baseline file named twice: in the
    justification and as the suppression's location."""
    path = clean(baseline)
    return {
        "kind": "external",
        "status": "accepted",
        "justification": f"accepted: the {what} is listed in the baseline file {path}",
        "location": physical_location(path),
    }


def _results(report: Report, index: dict[str, int]) -> list[dict[str, Any]]:
    """Every finding; with a :class:`Gate` each carries SARIF's ``baselineState``: ``new`` for
    the ones that count, ``unchanged`` for the ones the baseline file lists or that were
    reported before the judged change (in files it does not touch). The ones the baseline
    lists also carry a ``suppressions`` entry (:func:`baseline_suppression`): they were
    accepted, so code scanning must not raise them as alerts. Baseline entries that no longer
    occur are not written as ``absent`` results: code scanning would show them as alerts;
    ``run.properties.baselineFixed`` lists them."""
    gate = report.gate
    if gate is None:
        return [_result(f, index[f.code]) for f in report.findings]
    rows = [(f, "new", False) for f in report.findings]
    rows += [(f, "unchanged", True) for f in gate.known]
    rows += [(f, "unchanged", False) for f in gate.older]
    rows.sort(key=lambda row: (row[0].sort_key, row[0].decision_id or ""))
    out: list[dict[str, Any]] = []
    for f, state, known in rows:
        result = _result(f, index[f.code]) | {"baselineState": state}
        if known and gate.baseline is not None:
            result["suppressions"] = [baseline_suppression(gate.baseline)]
        out.append(result)
    return out


def _result(f: Finding, index: int) -> dict[str, Any]:
    line, column = position(f)
    properties: dict[str, Any] = {"name": f.name}
    if f.decision_id is not None:
        properties["decision"] = clean(f.decision_id)
    if f.related:
        properties["related"] = [clean(r) for r in f.related]
    return {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": LEVELS[f.severity],
        "message": {"text": clean(f.message) or f.name},
        "locations": [physical_location(f.location.path, startLine=line, startColumn=column)],
        "partialFingerprints": {FINGERPRINT_KEY: finding_fingerprint(f)},
        "properties": properties,
    }


def sarif_data(report: Report, ctx: ReportContext) -> dict[str, Any]:
    rules, index = _rules(report, ctx)
    s = report.summary
    gate = report.gate
    properties: dict[str, Any] = {"profile": report.profile, "decisions": s.decisions,
                                  "files": s.files}
    if gate is not None:
        properties["baselineFixed"] = [clean(f) for f in gate.fixed]
    return sarif_log(ctx.tool_name, ctx.version, ctx.information_uri, rules,
                     "The root of the checked repository.", columnKind="unicodeCodePoints",
                     results=_results(report, index), properties=properties)


def render(report: Report, ctx: ReportContext) -> str:
    return dumps(sarif_data(report, ctx))
