"""Layering and start-up: the pure core loads no I/O libraries, and `adrguard --version` loads
none of the slow ones (pallets/click tests/test_imports.py does the same)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = {"git", "jsonschema", "rich", "pathspec", "mcp", "subprocess_tee"}
IO_MODULES = {"git", "rich", "mcp", "adrguard.adapters", "adrguard.cli", "adrguard.api"}


def _loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nimport json\nprint('MODULES=' + json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("MODULES="))
    return set(json.loads(line.removeprefix("MODULES=")))


def test_core_and_rules_load_no_io_modules() -> None:
    loaded = _loaded_after("import adrguard.core.parse.record, adrguard.core.model, adrguard.rules")
    assert not {m for m in loaded if m.split(".")[0] in {"git", "rich", "mcp"}}
    assert not {
        m for m in loaded if m.startswith(("adrguard.adapters", "adrguard.cli", "adrguard.api"))
    }


def test_version_imports_nothing_heavy() -> None:
    loaded = _loaded_after(
        "from adrguard.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass"
    )
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
