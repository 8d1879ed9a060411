"""What a Python file imports, read with :mod:`ast` (the code is parsed, never imported or run).

``import a.b``, ``from a import b`` (both ``a`` and ``a.b`` count: ``b`` may be a module),
relative imports resolved against the file's package (the folders above it that hold an
``__init__.py``), and ``importlib.import_module("a.b")`` / ``__import__("a.b")`` with a literal
name. Imports made any other way at run time are invisible to a static read.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from adrguard.core.saferegex import Regex, compile_user

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(frozen=True, slots=True)
class Import:
    module: str  # absolute dotted name
    line: int
    names: tuple[str, ...] = ()  # ``from module import names`` (each may be a submodule)
    type_checking: bool = False  # under ``if TYPE_CHECKING:``


@dataclass(frozen=True, slots=True)
class Imports:
    """The imports of one file, or why it could not be read (a syntax error, ...)."""

    found: tuple[Import, ...] = ()
    problem: str | None = None
    unresolved: tuple[int, ...] = ()  # lines of relative imports above the top package


def package_of(path: str, packages: Collection[str]) -> tuple[str, ...]:
    """The dotted package a file belongs to: the folders above it that hold an
    ``__init__.py`` (``packages``: those folders), up to the first that does not. A file in a
    folder without one is a top-level module: its package is empty."""
    parts: list[str] = []
    folder = posixpath.dirname(path)
    while folder and folder in packages:
        parts.append(posixpath.basename(folder))
        folder = posixpath.dirname(folder)
    return tuple(reversed(parts))


def package_folders(files: Collection[str]) -> frozenset[str]:
    """Folders holding an ``__init__.py`` (or ``__init__.pyi``)."""
    return frozenset(
        posixpath.dirname(f) for f in files if posixpath.basename(f) in ("__init__.py",
                                                                       "__init__.pyi")
    )


def read_imports(text: str, path: str, package: Sequence[str]) -> Imports:
    """Every import of ``text`` (the file at ``path`` in ``package``)."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        return Imports(problem=f"not valid Python (line {exc.lineno}: {exc.msg}): its imports "
                               "cannot be read")
    except (ValueError, RecursionError, MemoryError) as exc:
        return Imports(problem=f"cannot be parsed ({type(exc).__name__}): its imports cannot "
                               "be read")
    found: list[Import] = []
    unresolved: list[int] = []
    for node, guarded in _walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(a.name, node.lineno, (), guarded) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            if base is None:
                unresolved.append(node.lineno)
                continue
            names = tuple(a.name for a in node.names if a.name != "*")
            found.append(Import(base, node.lineno, names, guarded))
        elif isinstance(node, ast.Call):
            name = _dynamic(node)
            if name is not None:
                found.append(Import(name, node.lineno, (), guarded))
    return Imports(tuple(found), None, tuple(unresolved))


def _walk(tree: ast.AST) -> Iterator[tuple[ast.AST, bool]]:
    """Every node (iteratively: no recursion on deep code), with whether it sits under an
    ``if TYPE_CHECKING:`` block."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, guarded = stack.pop()
        yield node, guarded
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, guarded) for child in reversed(node.orelse))
            stack.extend((child, True) for child in reversed(node.body))  # walked first
            continue
        stack.extend((child, guarded) for child in reversed(list(ast.iter_child_nodes(node))))


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _absolute(node: ast.ImportFrom, package: Sequence[str]) -> str | None:
    """The absolute module of a ``from`` import; None for a relative import that climbs above
    the top-level package (or is made in a module outside every package)."""
    if node.level == 0:
        return node.module or ""
    climb = node.level - 1
    if climb >= len(package):
        return None
    base = list(package[: len(package) - climb])
    if node.module:
        base += node.module.split(".")
    return ".".join(base)


def _dynamic(node: ast.Call) -> str | None:
    """The literal module name of ``importlib.import_module("x")`` or ``__import__("x")``."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        name = first.value
        if re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name):
            return name
    return None


def pattern_regex(pattern: str) -> Regex:
    """A module pattern (``a.b``, ``a.*.c``, ``a.**``) as a regex matching the module and its
    submodules (RE2: linear time whatever the names). The manifest's schema has validated it
    (names, ``*``, ``**``)."""
    parts = []
    for segment in pattern.split("."):
        if segment == "**":
            parts.append(r"[^.]+(?:\.[^.]+)*")
        elif segment == "*":
            parts.append(r"[^.]+")
        else:
            parts.append(re.escape(segment))
    return compile_user(r"\.".join(parts) + r"(?:\..+)?")


def forbidden(imp: Import, patterns: Sequence[Regex]) -> str | None:
    """The first name ``imp`` brings in that a pattern forbids (the module, or for ``from m
    import n`` the submodule ``m.n``), or None."""
    candidates = [imp.module] + [f"{imp.module}.{n}" if imp.module else n for n in imp.names]
    for name in candidates:
        if name and any(p.fullmatch(name) for p in patterns):
            return name
    return None
