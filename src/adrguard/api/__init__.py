"""The façade every front end uses (CLI, MCP server, GitHub Action helper).

The names below are imported when first used (PEP 562), so that a front end importing one api
module (``adrguard.api.agent.guard``, run before every tool call of an agent) does not pay
for the whole check pipeline at start-up. ``adrguard.api.check`` is the function, as it always was,
even once its submodule is imported (the import system then sets the package's attribute to the
submodule; :class:`_Api` keeps the function)."""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adrguard.api.check import CheckRequest, CheckResult, check, check_result, run_check
    from adrguard.api.pipeline.corpus import (
        build_corpus,
        load,
        load_corpus,
        load_with,
        resolve_root,
    )

_HOMES = {
    "CheckRequest": "check",
    "CheckResult": "check",
    "check": "check",
    "check_result": "check",
    "run_check": "check",
    "build_corpus": "pipeline.corpus",
    "load": "pipeline.corpus",
    "load_corpus": "pipeline.corpus",
    "load_with": "pipeline.corpus",
    "resolve_root": "pipeline.corpus",
}

__all__ = [
    "CheckRequest",
    "CheckResult",
    "build_corpus",
    "check",
    "check_result",
    "load",
    "load_corpus",
    "load_with",
    "resolve_root",
    "run_check",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"adrguard.api.{home}"), name)
    setattr(sys.modules[__name__], name, value)
    return value


class _Api(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name == "check" and isinstance(value, types.ModuleType):
            value = value.check  # the function of the submodule, never the submodule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Api
