"""Exit codes have one home (``adrguard.core.outcome``, issue 29): no module of the command line
returns a bare 0, 1, 2 or 3; each names ``EXIT_OK``, ``EXIT_FINDINGS``, ``EXIT_USAGE`` or
``EXIT_INTERNAL``."""

from __future__ import annotations

import ast
from pathlib import Path

from adrguard.core import outcome

CLI = Path(__file__).resolve().parent.parent / "src" / "adrguard" / "cli"
CODES = (0, 1, 2, 3)


def bare_codes(source: str) -> list[int]:
    """The lines of ``source`` where a ``return`` gives a literal exit code (also as a branch
    of a conditional expression)."""

    def literals(node: ast.expr) -> list[ast.Constant]:
        if isinstance(node, ast.IfExp):
            return literals(node.body) + literals(node.orelse)
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value in CODES:
            return [node]
        return []

    return sorted(
        c.lineno
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Return) and n.value is not None
        for c in literals(n.value)
    )


def test_the_scan_finds_a_bare_exit_code() -> None:
    planted = (
        "def run(args):\n"
        "    if args.quiet:\n"
        "        return 0\n"
        "    return EXIT_FINDINGS if args.strict else 2\n"
        "def count(args):\n"
        "    return len(args) or 7\n"
    )
    assert bare_codes(planted) == [3, 4]


def test_no_command_returns_a_bare_exit_code() -> None:
    found = {
        str(path.relative_to(CLI)): lines
        for path in sorted(CLI.rglob("*.py"))
        if (lines := bare_codes(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"name the exit code (adrguard.core.outcome.EXIT_*): {found}"


def test_the_names_are_the_documented_codes() -> None:
    named = (outcome.EXIT_OK, outcome.EXIT_FINDINGS, outcome.EXIT_USAGE, outcome.EXIT_INTERNAL)
    assert named == CODES
