"""No import cycles between adrguard's modules (ADR 36).

The graph is read with the standard library's ``ast`` from every ``.py`` file under ``src/``,
with every import counted: at module level, inside functions and under ``TYPE_CHECKING``. An
import placed inside a function still ties the two modules together; hiding it there is how
the cycles of the past (``api.corpus`` → ``api.citations`` → ``api.lookup`` → ``api.citations``,
the Action's four helper modules, ``reporters.graph`` ↔ ``reporters.mermaid``) went unseen.
The ``acyclic_siblings`` contract of ``pyproject.toml`` says the same for packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: Mapping[str, Path]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module if is_package else module.rpartition(".")[0]
        for _ in range(max(node.level - 1, 0)):
            base = base.rpartition(".")[0]
        target = (f"{base}.{node.module}" if node.module else base) if node.level else (
            node.module or "")
        # `from pkg import mod` names the module; `from mod import name` the module itself
        names = [f"{target}.{a.name}" if f"{target}.{a.name}" in known else target
                 for a in node.names]
    for name in names:
        while name and name not in known:  # `import a.b.c` where c is a name: a.b
            name = name.rpartition(".")[0]
        if name and name != module:
            yield name


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same tree it imports, anywhere in its body."""
    files = {module_name(root, p): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[module] = {
            target
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for target in _targets(node, module, path.name == "__init__.py", files)
        }
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (iterative Tarjan: linear)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_adrguard_has_no_import_cycles() -> None:
    graph = import_graph(SRC)
    assert graph.get("adrguard.api.check")
    assert cycles(graph) == []


def test_the_check_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import thing\n")
    (pkg / "b.py").write_text("def thing():\n    from . import c\n    return c\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    import pkg.a\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path)
    assert graph["pkg.b"] == {"pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
