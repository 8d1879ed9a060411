"""The rule catalogue as text, JSON or Markdown, and one docs page per rule.

A rule's class docstring is its documentation: ``docs/rules/<CODE>.md`` is rendered from it and a
test fails when the committed pages drift.
"""

from __future__ import annotations

import inspect
import json

from adrguard.rules import ALL_RULES, RETIRED, RULES_BY_CODE, RULES_BY_NAME, BaseRule

PROFILE_NOTE = (
    "Severity is the default under the `standard` profile; `advisory` caps it at warning, "
    "`strict` turns warnings into errors and enables rules that are off."
)


def _severity(rule: type[BaseRule]) -> str:
    return rule.meta.default_severity.label if rule.meta.enabled_by_default else "off"


def _doc(rule: type[BaseRule]) -> str:
    return inspect.cleandoc(rule.__doc__ or rule.meta.summary)


def page(rule: type[BaseRule]) -> str:
    m = rule.meta
    lines = [
        f"# {m.code} {m.name}",
        "",
        f"- **Summary:** {m.summary}",
        f"- **Default severity:** {_severity(rule)}",
    ]
    if m.needs_changes:
        lines.append("- **Needs:** `--base REF` (change-aware)")
    lines += [
        f'- **Disable:** `ignore = ["{m.code}"]` in config, or '
        f"`<!-- adrguard-disable {m.code} -->` in one record",
        "",
        _doc(rule),
        "",
    ]
    return "\n".join(lines)


def explain(key: str) -> str | None:
    rule = RULES_BY_CODE.get(key.upper()) or RULES_BY_NAME.get(key.lower())
    if rule is None:
        return None
    return page(rule)


def _index() -> str:
    lines = [
        "# Rules",
        "",
        PROFILE_NOTE,
        "",
        "| code | name | severity | summary |",
        "|---|---|---|---|",
    ]
    for rule in ALL_RULES:
        m = rule.meta
        lines.append(f"| [{m.code}]({m.code}.md) | {m.name} | {_severity(rule)} | {m.summary} |")
    if RETIRED:
        lines += ["", "## Retired codes", ""]
        lines += [f"- {code}: {why}" for code, why in sorted(RETIRED.items())]
    return "\n".join(lines) + "\n"


def render(fmt: str) -> str:
    if fmt == "json":
        rows = [
            {
                "code": r.meta.code,
                "name": r.meta.name,
                "severity": _severity(r),
                "summary": r.meta.summary,
                "needsChanges": r.meta.needs_changes,
            }
            for r in ALL_RULES
        ]
        return json.dumps({"schemaVersion": 1, "rules": rows}, indent=2, sort_keys=True) + "\n"
    if fmt == "markdown":
        return _index()
    width = max((len(r.meta.name) for r in ALL_RULES), default=10)
    return "".join(
        f"{r.meta.code}  {r.meta.name:<{width}}  {_severity(r):<7}  {r.meta.summary}\n"
        for r in ALL_RULES
    )


def expected_docs() -> dict[str, str]:
    """File name -> content of every page under docs/rules/."""
    docs = {f"{r.meta.code}.md": page(r) for r in ALL_RULES}
    docs["README.md"] = _index()
    return docs
