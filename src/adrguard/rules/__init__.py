"""Rule registry: every rule class, sorted by code. Codes are never renumbered or reused."""

from __future__ import annotations

from adrguard.rules import (
    changes,
    citations,
    fitness,
    generated,
    links,
    meta,
    relationships,
    structure,
)
from adrguard.rules.base import BaseRule, Catalogue, Rule, RuleContext, RuleMeta

# Retired codes stay listed with the reason they were retired.
RETIRED: dict[str, str] = {}


def _load() -> tuple[type[BaseRule], ...]:
    """Every family module exports RULES; the registry is this explicit list of families."""
    families = (meta, structure, links, relationships, generated, changes, citations, fitness)
    rules = [rule for family in families for rule in family.RULES]
    return tuple(sorted(rules, key=lambda r: r.meta.code))


ALL_RULES: tuple[type[BaseRule], ...] = _load()
RULES_BY_CODE: dict[str, type[BaseRule]] = {r.meta.code: r for r in ALL_RULES}
RULES_BY_NAME: dict[str, type[BaseRule]] = {r.meta.name: r for r in ALL_RULES}
CATALOGUE = Catalogue(ALL_RULES, RETIRED)  # what the engine runs unless given another

__all__ = [
    "ALL_RULES",
    "CATALOGUE",
    "RETIRED",
    "RULES_BY_CODE",
    "RULES_BY_NAME",
    "BaseRule",
    "Catalogue",
    "Rule",
    "RuleContext",
    "RuleMeta",
]
