"""A real git repository for ``adrguard verify`` tests: four decision records (one superseded),
a small Python package, and a fitness manifest with one rule of every kind.

Importable from any test (pytest puts ``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitrepo import GitRepo

RECORD = """# {n}. {title}

Date: 2024-01-0{n}

## Status

{status}

## Context

Why.

## Decision

What.

## Consequences

So.
"""

RECORDS = {
    "docs/adr/0001-measure-test-coverage.md": RECORD.format(
        n=1, title="Measure test coverage", status="Accepted"),
    "docs/adr/0002-one-http-client.md": RECORD.format(
        n=2, title="Use the standard library for HTTP",
        status="Superseded by [3. Use httpx for HTTP](0003-use-httpx.md)"),
    "docs/adr/0003-use-httpx.md": RECORD.format(
        n=3, title="Use httpx for HTTP",
        status="Accepted\n\nSupersedes [2. Use the standard library for HTTP]"
               "(0002-one-http-client.md)"),
    "docs/adr/0004-layered-shop.md": RECORD.format(
        n=4, title="Keep the shop layered", status="Accepted"),
    "docs/adr/0005-no-secrets-in-git.md": RECORD.format(
        n=5, title="No secrets in git", status="Accepted"),
}

CODE = {
    "shop/__init__.py": "",
    "shop/api/__init__.py": "",
    "shop/api/views.py": "from ..service import orders\n\n\ndef show():\n    return orders.all()\n",
    "shop/service/__init__.py": "",
    "shop/service/orders.py": "import httpx\n\n\ndef all():\n    return []\n",
    "shop/db/__init__.py": "",
    "shop/db/models.py": "TABLE = 'orders'\n",
    "README.md": "# shop\n",
}

RULES: list[dict[str, Any]] = [
    {"id": "coverage-floor", "decision": "ADR-0001", "kind": "evidence",
     "description": "line coverage stays at 80% or more",
     "evidence": "artifacts/architecture-evidence.json", "pointer": "/coverage/percent",
     "op": ">=", "value": 80},
    {"id": "no-urllib", "decision": "ADR-0002", "kind": "forbidden-import",
     "paths": ["shop/**"], "modules": ["httpx"]},
    {"id": "httpx-only", "decision": "ADR-0003", "kind": "forbidden-text",
     "paths": ["shop/**/*.py"], "pattern": r"\burllib\.request\b"},
    {"id": "api-not-db", "decision": "ADR-0004", "kind": "forbidden-import",
     "paths": ["shop/api/**"], "modules": ["shop.db"]},
    {"id": "layers-exist", "decision": "ADR-0004", "kind": "required-paths",
     "paths": ["shop/api/*.py", "shop/service/*.py", "shop/db/*.py"]},
    {"id": "no-env-files", "decision": "ADR-0005", "kind": "forbidden-paths",
     "paths": ["**/.env", "**/*.pem"]},
]

EVIDENCE = {"coverage": {"percent": 91.5}, "duplication": {"percentage": 1.2}}


def manifest(rules: list[dict[str, Any]] | None = None) -> str:
    return json.dumps({"schemaVersion": 1, "rules": RULES if rules is None else rules},
                      indent=2) + "\n"


def build(path: Path, *, rules: list[dict[str, Any]] | None = None,
          evidence: dict[str, Any] | None = None) -> GitRepo:
    """The repository, committed; the evidence file is left untracked, as CI writes it."""
    repo = GitRepo(path)
    repo.write({**RECORDS, **CODE, ".adrguard-fitness.json": manifest(rules),
                ".gitignore": "artifacts/\n"})
    repo.commit("records, code and fitness rules")
    write_evidence(repo, EVIDENCE if evidence is None else evidence)
    return repo


def write_evidence(repo: GitRepo, data: Any, name: str = "artifacts/architecture-evidence.json"
                   ) -> None:
    repo.write({name: json.dumps(data)})
