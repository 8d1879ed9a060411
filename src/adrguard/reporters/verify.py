"""``adrguard verify`` as text, JSON (``schemas/verify.schema.json``), Markdown (the Action's
job summary and comment) or SARIF; ``--audit`` as text, JSON or Markdown. Pure and
deterministic. Rule ids are constrained by the manifest's schema; titles, messages, matched
lines and paths are untrusted and go through :func:`adrguard.reporters.markdown.escape`
(Markdown) or :func:`adrguard.reporters.context.clean` (JSON, SARIF).
"""

from __future__ import annotations

import hashlib
from typing import Any

from adrguard import __version__
from adrguard.core.fitness import audit as audit_mod
from adrguard.core.fitness.result import (
    NOT_APPLICABLE,
    PASS,
    UNKNOWN,
    VIOLATION,
    Item,
    RuleResult,
    Verification,
    shown_value,
    to_json,
)
from adrguard.core.wording import decision_name, plural
from adrguard.reporters.context import clean
from adrguard.reporters.formats import renderer
from adrguard.reporters.json import dumps
from adrguard.reporters.markdown import escape
from adrguard.reporters.sarif import (
    FINGERPRINT_KEY,
    baseline_suppression,
    physical_location,
    sarif_log,
)

LABELS = {PASS: "pass", VIOLATION: "VIOLATION", UNKNOWN: "unknown", NOT_APPLICABLE: "n/a"}
ICONS = {PASS: "✅", VIOLATION: "❌", UNKNOWN: "❔", NOT_APPLICABLE: "➖"}
ITEMS_TEXT = 20  # evidence lines shown per result in text
ITEMS_MARKDOWN = 5
HEADING = "### Fitness rules (adrguard verify)"


def render(name: str, v: Verification) -> str:
    """``v`` in the ``verify`` format ``name`` (the registry names its function)."""
    return renderer("verify", name)(v)


def render_json(v: Verification) -> str:
    return dumps(to_json(v))


def _summary(v: Verification) -> str:
    parts = [f"{v.count(PASS)} pass", plural(v.count(VIOLATION), "violation"),
             f"{v.count(UNKNOWN)} unknown", f"{v.count(NOT_APPLICABLE)} not applicable"]
    return ", ".join(parts)


def _verdict(v: Verification) -> str:
    why = []
    if v.new_violations:
        known = " the drift baseline does not know" if v.drift is not None else ""
        rules = sum(1 for r in v.results if any(i.baseline != "known" for i in r.violations))
        why.append(f"{plural(v.new_violations, 'violation')}{known}, in {plural(rules, 'rule')}")
    if v.inconclusive:
        why.append("inconclusive (a rule has no verdict)")
    if v.policy == "enforce":
        return ("policy enforce: FAILED: " + "; ".join(why)) if why else "policy enforce: passed"
    return "policy advisory: reported, not enforced" + (f" ({'; '.join(why)})" if why else "")


def _item_text(i: Item) -> str:
    place = f"{i.file}:{i.line}" if i.line is not None else (i.file or "")
    bits = [place] if place else []
    if i.pointer is not None:
        bits.append(i.pointer or "(document)")
    if i.has_value:
        copied, value, summary = shown_value(i.value)
        bits.append(f"= {dumps(value).strip()}" if copied else f"= {summary}")
    if i.text is not None:
        bits.append(i.text)
    if i.problem is not None:
        bits.append(f"({i.problem})")
    state = f" [{i.baseline}]" if i.baseline else ""
    return f"{i.verdict}: {'  '.join(bits)}{state}"


def render_text(v: Verification) -> str:
    out = [f"verify {v.manifest} (policy {v.policy}): {v.coverage_line}", ""]
    for r in v.results:
        state = f" [{r.baseline}]" if r.baseline else ""
        out.append(f"{LABELS[r.status]:<9} {r.rule.id}  {decision_name(r.decision)}  "
                   f"confidence {r.confidence}{state}")
        out.append(f"          {r.message}")
        shown = [i for i in r.items if i.verdict != PASS or r.status == PASS][:ITEMS_TEXT]
        out += [f"            {_item_text(i)}" for i in shown]
        hidden = len([i for i in r.items if i.verdict != PASS or r.status == PASS]) - len(shown)
        if hidden > 0:
            out.append(f"            ... and {hidden} more (--format json lists them)")
    if not v.results:
        out.append("the manifest has no rules")
    out += ["", f"summary: {_summary(v)}" + ("; inconclusive" if v.inconclusive else "")]
    if v.drift is not None:
        d = v.drift
        out.append(f"drift baseline {d.path}: {d.new} new, {d.known} known, {d.fixed} fixed"
                   + (f", {d.stale} stale" if d.stale else ""))
    out += [f"note: {n}" for n in v.notes]
    out.append(_verdict(v))
    return "\n".join(out) + "\n"


def _md_result(r: RuleResult) -> str:
    details = escape(r.message)
    shown = [i for i in r.items if i.verdict in (VIOLATION, UNKNOWN)][:ITEMS_MARKDOWN]
    for i in shown:
        details += "<br>" + escape(_item_text(i))
    extra = len([i for i in r.items if i.verdict in (VIOLATION, UNKNOWN)]) - len(shown)
    if extra > 0:
        details += f"<br>… and {extra} more"
    decision = escape(decision_name(r.decision))
    return (f"| {ICONS[r.status]} {r.status} | `{r.rule.id}` | {decision} | {r.confidence} | "
            f"{r.baseline or '—'} | {details} |")


def render_markdown(v: Verification) -> str:
    out = [
        HEADING,
        "",
        f"{_summary(v)}" + (" — **inconclusive**" if v.inconclusive else "") + ". "
        f"{escape(v.coverage_line)}.",
        "",
        f"_{escape(_verdict(v))}._",
        "",
    ]
    if v.results:
        out += ["| Status | Rule | Decision | Confidence | Baseline | Details |",
                "| --- | --- | --- | --- | --- | --- |"]
        rank = {VIOLATION: 0, UNKNOWN: 1, PASS: 2, NOT_APPLICABLE: 3}
        out += [_md_result(r) for r in sorted(v.results, key=lambda r: rank[r.status])]
        out.append("")
    if v.drift is not None:
        d = v.drift
        out += [f"Drift baseline `{escape(d.path)}`: {d.new} new, {d.known} known, "
                f"{d.fixed} fixed.", ""]
    out += [f"- {escape(n)}" for n in v.notes]
    return "\n".join(out).rstrip("\n") + "\n"


# --- audit ------------------------------------------------------------------------------------


def render_audit(name: str, a: audit_mod.Audit) -> str:
    """The audit in the ``verify-audit`` format ``name``."""
    return renderer("verify-audit", name)(a)


def audit_json(a: audit_mod.Audit) -> str:
    return dumps(audit_mod.to_json(a))


def audit_text(a: audit_mod.Audit) -> str:
    out = [f"audit of {a.manifest}: {a.line}", ""]
    out.append("accepted decisions with fitness rules:" if a.covered else
               "accepted decisions with fitness rules: none")
    for d, rules in a.covered:
        listed = ", ".join(f"{r.id} ({r.kind})" for r in rules)
        out.append(f"  {decision_name(d)}  {d.path}: {listed}")
    out.append("accepted decisions without fitness rules:" if a.uncovered else
               "accepted decisions without fitness rules: none")
    out += [f"  {decision_name(d)}  {d.path}" for d in a.uncovered]
    if a.inactive:
        out.append("rules on decisions no longer in force (not evaluated):")
        for r, d, s in a.inactive:
            status = d.status.value if d.status else "inactive"
            then = f"; its successor is {decision_name(s)}" if s is not None else ""
            out.append(f"  {r.id}: {decision_name(d)} is {status}{then}")
    if a.pending:
        out.append("rules on decisions not accepted yet (evaluated once accepted):")
        out += [f"  {r.id}: {decision_name(d)}" for r, d in a.pending]
    return "\n".join(out) + "\n"


def audit_markdown(a: audit_mod.Audit) -> str:
    out = ["### Fitness rule coverage", "", f"{escape(a.line)}.", ""]
    if a.covered or a.uncovered:
        out += ["| Decision | Rules |", "| --- | --- |"]
        out += [f"| {escape(decision_name(d))} | "
                f"{', '.join(f'`{r.id}` ({r.kind})' for r in rules)} |" for d, rules in a.covered]
        out += [f"| {escape(decision_name(d))} | — |" for d in a.uncovered]
        out.append("")
    for r, d, s in a.inactive:
        then = f" (successor: {escape(decision_name(s))})" if s is not None else ""
        out.append(f"- `{r.id}` enforces {escape(decision_name(d))}, which is not in force"
                   f"{then}")
    return "\n".join(out).rstrip("\n") + "\n"


# --- SARIF ----------------------------------------------------------------------------------
# ``adrguard verify --format sarif``: SARIF 2.1.0 for code scanning.
#
# One run whose driver rules are the manifest's fitness rules. Each violation is a result (kind
# ``fail``) at the line it was found, or at the rule in the manifest when it has no place of its
# own (evidence values, missing required paths); a rule without a verdict is one ``warning``
# result at the rule. ``error`` under the enforce policy, ``warning`` under advisory. With a drift
# baseline each violation carries ``baselineState`` (``new`` or ``unchanged``), and a known one a
# ``suppressions`` entry naming the baseline file, so code scanning opens no alert for it.


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
        where = physical_location(item.file, startLine=max(item.line or 1, 1))
    else:
        where = physical_location(v.manifest, startLine=max(r.rule.line, 1))
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
    log = sarif_log(
        "adrguard verify", __version__,
        "https://github.com/adrguard/adrguard/blob/main/docs/verify.md", rules,
        "The root of the verified repository.", results=results,
        properties={"policy": v.policy, "inconclusive": v.inconclusive,
                    "policyFailed": v.policy_failed, "manifest": clean(v.manifest)},
    )
    return dumps(log)
