"""Rewrite ``schemas/config.schema.json`` from the settings' declaration
(:mod:`adrguard.core.settings`); ``--check`` only says whether the file is out of date (exit 1).

    python scripts/config_schema.py          # after adding or changing a setting
    python scripts/config_schema.py --check
"""

from __future__ import annotations

import sys
from pathlib import Path

from adrguard.core.settings_schema import config_schema_text

TARGET = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.json"


def main(argv: list[str]) -> int:
    text = config_schema_text()
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else ""
    if "--check" in argv:
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/config_schema.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        tmp = TARGET.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(TARGET)  # atomic: never a half-written schema
        print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
