"""The façade every front end uses (CLI, MCP server, GitHub Action helper).

The api is a façade of subject packages: the one run (:mod:`.check`: sources → engine →
:mod:`.gate` → report), the one pipeline (:mod:`.pipeline`: source → discover → records →
corpus → citation scan), the agent surface (:mod:`.agent`), and the feature services by subject
(:mod:`.archive`, :mod:`.authoring`, verify, impact, graph, generated, baseline, compaction,
claims, lookup). Besides its own functions it hands the front ends the few things of adapters
and core they need (a writer, the GitHub client, the status words): the CLI imports no adapter
and no core subject (an import-linter contract, ADR 38).

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
    from adrguard.adapters.github_api import ApiResult, GitHubClient
    from adrguard.adapters.write import write_atomic
    from adrguard.api.check import CheckRequest, check, check_result, run_check
    from adrguard.api.pipeline.corpus import load, load_corpus, load_with, resolve_root
    from adrguard.core.impact.analysis import configured_statuses, statuses_from
    from adrguard.core.model import STATUS_CHOICES
    from adrguard.core.parse.status import normalise as normalise_status

# name -> "module" (the same name there) or "module:name"
_HOMES = {
    "CheckRequest": "adrguard.api.check",
    "check": "adrguard.api.check",
    "check_result": "adrguard.api.check",
    "run_check": "adrguard.api.check",
    "load": "adrguard.api.pipeline.corpus",
    "load_corpus": "adrguard.api.pipeline.corpus",
    "load_with": "adrguard.api.pipeline.corpus",
    "resolve_root": "adrguard.api.pipeline.corpus",
    # what a front end needs besides the api's own functions (the CLI imports no adapter and no
    # core subject: the import-linter contract "cli goes through the api", ADR 38)
    "write_atomic": "adrguard.adapters.write",  # every file a command writes
    "ApiResult": "adrguard.adapters.github_api",  # the Action's REST calls
    "GitHubClient": "adrguard.adapters.github_api",
    "STATUS_CHOICES": "adrguard.core.model",  # the status words --status accepts
    "configured_statuses": "adrguard.core.impact.analysis",
    "statuses_from": "adrguard.core.impact.analysis",
    "normalise_status": "adrguard.core.parse.status:normalise",  # a word of the log's language
}

__all__ = [
    "STATUS_CHOICES",
    "ApiResult",
    "CheckRequest",
    "GitHubClient",
    "check",
    "check_result",
    "configured_statuses",
    "load",
    "load_corpus",
    "load_with",
    "normalise_status",
    "resolve_root",
    "run_check",
    "statuses_from",
    "write_atomic",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attr = home.partition(":")
    value = getattr(importlib.import_module(module), attr or name)
    setattr(sys.modules[__name__], name, value)
    return value


class _Api(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name == "check" and isinstance(value, types.ModuleType):
            value = value.check  # the function of the submodule, never the submodule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Api
