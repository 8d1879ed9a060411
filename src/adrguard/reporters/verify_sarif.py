"""``adrguard verify --format sarif``: SARIF 2.1.0 for code scanning.

One run whose driver rules are the manifest's fitness rules. Each violation is a result (kind
``fail``) at the line it was found, or at the rule in the manifest when it has no place of its
own (evidence values, missing required paths); a rule without a verdict is one ``warning``
result at the rule. ``error`` under the enforce policy, ``warning`` under advisory. With a drift
baseline each violation carries ``baselineState`` (``new`` or ``unchanged``), and a known one a
``suppressions`` entry naming the baseline file, so code scanning opens no alert for it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from adrguard import __version__
from adrguard.core.fitness.result import UNKNOWN, Item, RuleResult, Verification, decision_name
from adrguard.reporters.context import clean
from adrguard.reporters.json import dumps
from adrguard.reporters.sarif import (
    FINGERPRINT_KEY,
    SARIF_SCHEMA,
    SARIF_VERSION,
    SRCROOT,
    artifact_uri,
    baseline_suppression,
)


def _location(path: str, line: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(path), "uriBaseId": SRCROOT},
            "region": {"startLine": max(line, 1)},
        }
    }


def _driver_rule(r: RuleResult) -> dict[str, Any]:
    text = r.rule.description or f"{r.rule.kind} rule enforcing {decision_name(r.decision)}"
    return {
        "id": r.rule.id,
        "name": r.rule.id,
        "shortDescription": {"text": clean(text)},
        "properties": {"kind": r.rule.kind, "decision": clean(r.decision.id)},
    }


def _result(v: Verification, r: RuleResult, index: int, item: Item | None) -> dict[str, Any]:
    level = "error" if v.policy == "enforce" else "warning"
    if item is not None and item.file is not None and item.pointer is None:
        where = _location(item.file, item.line or 1)
    else:
        where = _location(v.manifest, r.rule.line)
    message = r.message
    if item is not None:
        detail = item.text or item.file or ""
        message = f"{r.rule.id}: {detail} ({r.message})" if detail else r.message
    key = item.key if item is not None and item.key else hashlib.sha256(
        f"{r.rule.id}\0{r.status}".encode()).hexdigest()[:24]
    out: dict[str, Any] = {
        "ruleId": r.rule.id,
        "ruleIndex": index,
        "kind": "fail",
        "level": level if r.status != UNKNOWN else "warning",
        "message": {"text": clean(message)},
        "locations": [where],
        "partialFingerprints": {FINGERPRINT_KEY: key},
        "properties": {"status": r.status, "confidence": r.confidence,
                       "decision": clean(r.decision.id)},
    }
    if item is not None and item.baseline is not None:
        out["baselineState"] = "new" if item.baseline == "new" else "unchanged"
        if item.baseline == "known" and v.drift is not None:
            out["suppressions"] = [baseline_suppression(v.drift.path, "violation")]
    return out


def render_sarif(v: Verification) -> str:
    rules = [_driver_rule(r) for r in v.results]
    results: list[dict[str, Any]] = []
    for index, r in enumerate(v.results):
        if r.status == UNKNOWN:
            results.append(_result(v, r, index, None))
        results += [_result(v, r, index, i) for i in r.violations]
    run = {
        "tool": {
            "driver": {
                "name": "adrguard verify",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": "https://github.com/adrguard/adrguard/blob/main/docs/verify.md",
                "rules": rules,
            }
        },
        "originalUriBaseIds": {
            SRCROOT: {"description": {"text": "The root of the verified repository."}}
        },
        "results": results,
        "properties": {"policy": v.policy, "inconclusive": v.inconclusive,
                       "policyFailed": v.policy_failed, "manifest": clean(v.manifest)},
    }
    return dumps({"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]})
