"""Rule registry: every rule class, sorted by code. Codes are never renumbered or reused."""

from __future__ import annotations

from adrguard.rules.base import BaseRule, Rule, RuleContext, RuleMeta

# Each family module exports RULES: tuple[type[BaseRule], ...]. Families register here.
_FAMILIES: list[tuple[type[BaseRule], ...]] = []

# Retired codes stay listed with the reason they were retired.
RETIRED: dict[str, str] = {}


def _load() -> tuple[type[BaseRule], ...]:
    from adrguard.rules import meta, structure

    families: list[tuple[type[BaseRule], ...]] = [meta.RULES, structure.RULES]
    for optional in ("links", "relationships", "generated", "changes"):
        try:
            module = __import__(f"adrguard.rules.{optional}", fromlist=["RULES"])
        except ModuleNotFoundError as exc:  # family not built yet
            if exc.name != f"adrguard.rules.{optional}":
                raise
            continue
        families.append(module.RULES)
    rules = [r for fam in families for r in fam]
    return tuple(sorted(rules, key=lambda r: r.meta.code))


ALL_RULES: tuple[type[BaseRule], ...] = _load()
RULES_BY_CODE: dict[str, type[BaseRule]] = {r.meta.code: r for r in ALL_RULES}
RULES_BY_NAME: dict[str, type[BaseRule]] = {r.meta.name: r for r in ALL_RULES}

__all__ = [
    "ALL_RULES",
    "RETIRED",
    "RULES_BY_CODE",
    "RULES_BY_NAME",
    "BaseRule",
    "Rule",
    "RuleContext",
    "RuleMeta",
]
