"""Walk one request through the call graph of ``src/`` (issue 29's measure of the upper half).

Start at a function and one of its parameters (``adrguard.cli.check:run_check`` and ``args``:
what ``main`` hands the ``check`` command), then follow every call of our own code that is
given the tracked value, or a value made from it (a name assigned from an expression that
uses a tracked name is tracked too; the callee tracks the parameter the value lands in). Calls
are resolved statically: a name imported at the top of the module or inside the function, a
module attribute (``engine.run``), a function of the same module, ``self.method``.

It prints the places visited (functions), the modules and packages they are in, and the climbs
back up: calls into a module the walk had already left (the chain returns to where it was).

    python benchmarks/callwalk.py                       # check, from the CLI
    python benchmarks/callwalk.py --src OTHER/src       # the same walk over another checkout
    python benchmarks/callwalk.py --start adrguard.api.check:run_check --param request -v
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass, field
from pathlib import Path

Func = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class Module:
    name: str
    functions: dict[str, Func] = field(default_factory=dict)  # "f" and "Class.m"
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target


def load(src: Path) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mod = Module(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        _imports(tree.body, mod.imports, package)
        for node in tree.body:
            if isinstance(node, Func):
                mod.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, Func):
                        mod.functions[f"{node.name}.{item.name}"] = item
        modules[name] = mod
    return modules


def _imports(body: list[ast.stmt], into: dict[str, str], package: str) -> None:
    for node in body:
        for sub in ast.walk(node) if not isinstance(node, Func | ast.ClassDef) else ():
            if isinstance(sub, ast.Import):
                for a in sub.names:
                    into[a.asname or a.name.split(".")[0]] = a.name
            elif isinstance(sub, ast.ImportFrom):
                base = sub.module or ""
                if sub.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - sub.level + 1]
                                    + ([base] if base else []))
                for a in sub.names:
                    into[a.asname or a.name] = f"{base}.{a.name}"


def _local_imports(fn: Func, package: str) -> dict[str, str]:
    out: dict[str, str] = {}
    _imports([s for s in ast.walk(fn) if isinstance(s, ast.Import | ast.ImportFrom)], out,
             package)
    return out


def resolve(dotted: str, modules: dict[str, Module]) -> tuple[str, str] | None:
    """(module, function) for a dotted name: a function of a module, or a re-export."""
    for _ in range(6):  # follow re-exports
        mod, _, attr = dotted.rpartition(".")
        if mod in modules:
            m = modules[mod]
            if attr in m.functions:
                return mod, attr
            if attr in m.imports:
                dotted = m.imports[attr]
                continue
            if f"{dotted}" in modules:  # a module, not a function
                return None
        return None
    return None


def callee(call: ast.Call, mod: Module, local: dict[str, str], owner: str | None,
           modules: dict[str, Module]) -> tuple[str, str] | None:
    f = call.func
    names = {**mod.imports, **local}
    if isinstance(f, ast.Name):
        if f.id in mod.functions:
            return mod.name, f.id
        if f.id in names:
            return resolve(names[f.id], modules)
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        base = f.value.id
        if base == "self" and owner is not None and f"{owner}.{f.attr}" in mod.functions:
            return mod.name, f"{owner}.{f.attr}"
        if base in names:
            target = names[base]
            if target in modules:
                m = modules[target]
                return (target, f.attr) if f.attr in m.functions else resolve(
                    f"{target}.{f.attr}", modules)
    return None


def uses(node: ast.AST, tracked: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in tracked for n in ast.walk(node))


def params(fn: Func) -> list[str]:
    a = fn.args
    return [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]


@dataclass
class Walk:
    modules: dict[str, Module]
    places: list[tuple[str, str]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # modules in the order they are entered
    climbs: list[tuple[str, str]] = field(default_factory=list)
    seen: set[tuple[str, str, frozenset[str]]] = field(default_factory=set)
    derive: bool = True

    def visit(self, modname: str, fname: str, tracked: set[str], caller: str | None) -> None:
        key = (modname, fname, frozenset(tracked))
        if key in self.seen:
            return
        self.seen.add(key)
        if (modname, fname) not in self.places:
            self.places.append((modname, fname))
        if caller is not None and modname != caller:
            if modname in self.order and self.order[-1] != modname:
                self.climbs.append((caller, modname))
            self.order.append(modname)
        mod = self.modules[modname]
        fn = mod.functions[fname]
        owner = fname.split(".")[0] if "." in fname else None
        local = _local_imports(fn, modname.rpartition(".")[0] if modname.count(".") else modname)
        names = set(tracked)
        for stmt in ast.walk(fn) if self.derive else ():  # names made from a tracked one
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None \
                    and uses(stmt.value, names):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        calls = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Call)),
                       key=lambda n: (n.lineno, n.col_offset))
        for call in calls:
            target = callee(call, mod, local, owner, self.modules)
            if target is None:
                continue
            tmod, tname = target
            tfn = self.modules[tmod].functions[tname]
            ps = params(tfn)
            if ps and ps[0] in ("self", "cls"):
                ps = ps[1:]
            got: set[str] = set()
            for i, arg in enumerate(call.args):
                if uses(arg, names) and i < len(ps):
                    got.add(ps[i])
            for kw in call.keywords:
                if kw.arg is not None and uses(kw.value, names) and kw.arg in ps:
                    got.add(kw.arg)
                elif kw.arg is None and uses(kw.value, names):  # **request
                    got |= set(ps)
            if got:
                self.visit(tmod, tname, got, modname)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", type=Path, default=Path(__file__).parent.parent / "src")
    ap.add_argument("--start", default="adrguard.cli.check:run_check")
    ap.add_argument("--param", default="args")
    ap.add_argument("--no-derive", action="store_true",
                    help="follow the parameter itself only, not names made from it")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    modules = load(a.src)
    modname, fname = a.start.split(":")
    walk = Walk(modules, derive=not a.no_derive)
    walk.visit(modname, fname, {a.param}, None)
    mods = {m for m, _ in walk.places}
    packages = {m.rpartition(".")[0] for m in mods}
    if a.verbose:
        for m, f in walk.places:
            print(f"  {m}:{f}")
        for c in walk.climbs:
            print(f"  climb {c[0]} -> {c[1]}")
    api_entries = sum(1 for m in walk.order if m.startswith("adrguard.api"))
    print(f"places {len(walk.places)}  modules {len(mods)}  packages {len(packages)}  "
          f"climbs back up {len(walk.climbs)}  module entries {len(walk.order)} "
          f"(api {api_entries})")


if __name__ == "__main__":
    main()
