"""An import of our own modules sits inside a function only to keep a module out of a light run
(ADR 49).

The light runs are declared once, here (:data:`LIGHT_RUNS`): ``adrguard --version``,
``adrguard --help``, ``adrguard check`` and ``adrguard check --hook FILE`` (one record staged),
cold and warm (record cache empty, then filled), on two logs: a minimal one (a few records, no
configuration) and one with the opt-ins (a configuration, an impact manifest, a fitness
manifest, a baseline, an index: the benchmark generator's log, then ``adrguard baseline`` and
``adrguard index --write --init``); and the start of the MCP server (``adrguard mcp`` on an
input that ends at once). Each runs in a fresh interpreter on real files in a real git
repository and reports the ``adrguard`` modules it imported.

The rule: an import of module ``T`` inside a function of module ``M`` stays there only if
some light run imports ``M`` but not ``T``; everywhere else the import goes to the top of
``M``, where it shows the dependency. (An import in a module no light run imports costs them
nothing at the top.) Heavy third-party libraries stay lazy where they are used; this file only
judges our own modules. :data:`KEPT_OUT` lists, per light run, the modules the lazy imports
keep out of it: a run that starts to import one of them, or a new lazy import that keeps out a
module not listed, fails, so the set of modules a light run imports cannot grow unseen.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
BENCH = ROOT / "benchmarks"
PACKAGE = "adrguard"

# name -> (log, argv); "{staged}" is the record the hook runs are given. A run named "-cold"
# starts with an empty record cache, "-warm" follows it with the cache the cold run filled.
LIGHT_RUNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "version": ("minimal", ("--version",)),
    "help": ("minimal", ("--help",)),
    "check-minimal-cold": ("minimal", ("check",)),
    "check-minimal-warm": ("minimal", ("check",)),
    "hook-minimal-cold": ("minimal", ("check", "--hook", "{staged}")),
    "hook-minimal-warm": ("minimal", ("check", "--hook", "{staged}")),
    "check-opt-ins-cold": ("opt-ins", ("check",)),
    "check-opt-ins-warm": ("opt-ins", ("check",)),
    "hook-opt-ins-cold": ("opt-ins", ("check", "--hook", "{staged}")),
    "hook-opt-ins-warm": ("opt-ins", ("check", "--hook", "{staged}")),
    "mcp-start": ("minimal", ("mcp",)),
}

# run -> the modules the lazy imports of src/ keep out of it (exactly: those the target of a
# function-level import in a module the run imports, and the run does not import).
KEPT_OUT: dict[str, set[str]] = {
    "version": {
        "adrguard.adapters.write", "adrguard.api.pipeline.corpus", "adrguard.api.pipeline.helpers",
        "adrguard.config", "adrguard.core.textsafe", "adrguard.pathguard",
        "adrguard.reporters.formats", "adrguard.reporters.json",
    },
    "help": {
        "adrguard.adapters.write", "adrguard.api.pipeline.corpus", "adrguard.api.pipeline.helpers",
        "adrguard.config", "adrguard.core.textsafe", "adrguard.pathguard",
        "adrguard.reporters.formats", "adrguard.reporters.json",
    },
    "check-minimal-cold": {
        "adrguard.adapters.cache.manifest",
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.impact.analysis", "adrguard.core.impact.globs",
        "adrguard.core.impact.history", "adrguard.core.impact.mapping", "adrguard.core.schemas",
        "adrguard.core.typed", "adrguard.core.userschema", "adrguard.reporters.catalogue",
        "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "check-minimal-warm": {
        "adrguard.adapters.cache.manifest",
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.impact.analysis", "adrguard.core.impact.globs",
        "adrguard.core.impact.history", "adrguard.core.impact.mapping", "adrguard.core.schemas",
        "adrguard.core.typed", "adrguard.core.userschema", "adrguard.reporters.catalogue",
        "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "hook-minimal-cold": {
        "adrguard.adapters.cache.manifest",
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.typed", "adrguard.core.userschema", "adrguard.reporters.catalogue",
        "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "hook-minimal-warm": {
        "adrguard.adapters.cache.manifest",
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.typed", "adrguard.core.userschema", "adrguard.reporters.catalogue",
        "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "check-opt-ins-cold": {
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.impact.history", "adrguard.core.userschema",
        "adrguard.reporters.catalogue", "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "check-opt-ins-warm": {
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.impact.history", "adrguard.core.userschema",
        "adrguard.reporters.catalogue", "adrguard.reporters.json", "adrguard.reporters.markdown",
    },
    "hook-opt-ins-cold": {
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.userschema", "adrguard.reporters.catalogue", "adrguard.reporters.json",
        "adrguard.reporters.markdown",
    },
    "hook-opt-ins-warm": {
        "adrguard.adapters.cache.runs", "adrguard.adapters.write", "adrguard.api.citation_answers",
        "adrguard.api.claims", "adrguard.api.compaction", "adrguard.api.generated",
        "adrguard.api.lookup", "adrguard.core.authoring.claims",
        "adrguard.core.citations.document", "adrguard.core.fitness.manifest",
        "adrguard.core.userschema", "adrguard.reporters.catalogue", "adrguard.reporters.json",
        "adrguard.reporters.markdown",
    },
    "mcp-start": {
        "adrguard.adapters.citing", "adrguard.adapters.models", "adrguard.adapters.write",
        "adrguard.api.agent.guard", "adrguard.api.check", "adrguard.api.citation_answers",
        "adrguard.api.generated", "adrguard.api.pipeline.parsing",
        "adrguard.api.pipeline.sources", "adrguard.core.agent.succession",
        "adrguard.core.agent.summary", "adrguard.core.citations.document",
        "adrguard.core.parse.status", "adrguard.core.serialize", "adrguard.core.textsafe",
        "adrguard.core.typed", "adrguard.core.userschema", "adrguard.reporters.formats",
        "adrguard.reporters.json",
    },
}

# The heavy third-party libraries (and what they bring): an own import that would bring one of
# them into a module that does not load it at import time stays where it is, inside a function.
HEAVY_LIBRARIES = frozenset({
    "git", "pathspec", "re2", "yaml", "pyromark", "jsonschema", "referencing", "rich", "mcp",
    "mcp_types", "pydantic", "anyio", "truststore",
})

GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@b", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}


# --- the function-level imports of src/ -----------------------------------------------------


class LazyImport(NamedTuple):
    path: str  # relative to src/
    line: int
    module: str  # where the import is
    targets: frozenset[str]  # our modules it loads


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _lazy_homes(path: Path) -> dict[str, str]:
    """A package that loads its names on first use (``__getattr__`` over a ``_HOMES`` table):
    name -> the module it comes from."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign | ast.Assign) and node.value is not None
                and "_HOMES" in ast.unparse(node.targets[0] if isinstance(node, ast.Assign)
                                            else node.target)):
            table = ast.literal_eval(node.value)
            return {name: home.partition(":")[0] for name, home in table.items()}
    return {}


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: Mapping[str, Path], homes: Mapping[str, Mapping[str, str]]) -> set[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module if is_package else module.rpartition(".")[0]
        for _ in range(max(node.level - 1, 0)):
            base = base.rpartition(".")[0]
        target = (f"{base}.{node.module}" if node.module else base) if node.level else (
            node.module or "")
        names = []
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            names.append(sub if sub in known else homes.get(target, {}).get(alias.name, target))
    out = set()
    for name in names:
        while name and name not in known:  # `import a.b.c` where c is a name: a.b
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)
    return out


def _function_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    def walk(node: ast.AST, inside: bool) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, ast.Import | ast.ImportFrom):
                yield child
            yield from walk(child, inside or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))
    yield from walk(tree, False)


def lazy_imports(src: Path = SRC) -> list[LazyImport]:
    """Every import of our own modules inside a function (methods and nested functions
    included), read with ``ast``."""
    files = {module_name(p, src): p for p in sorted(src.rglob("*.py"))}
    homes = {m: h for m, p in files.items() if p.name == "__init__.py" if (h := _lazy_homes(p))}
    found = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _function_imports(tree):
            targets = _targets(node, module, path.name == "__init__.py", files, homes)
            if any(t.split(".")[0] == PACKAGE for t in targets):
                found.append(LazyImport(path.relative_to(src).as_posix(), node.lineno,
                                        module, frozenset(targets)))
    return found


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _import_time_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: outside functions and classes' methods,
    not under ``if TYPE_CHECKING``."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        elif not (_type_checking(child) or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)):
            yield from _import_time_imports(child)


def heavy_libraries(src: Path = SRC) -> dict[str, frozenset[str]]:
    """Module -> the heavy libraries importing it loads (through our modules it imports at
    import time, their packages included)."""
    files = {module_name(p, src): p for p in sorted(src.rglob("*.py"))}
    homes = {m: h for m, p in files.items() if p.name == "__init__.py" if (h := _lazy_homes(p))}
    edges: dict[str, set[str]] = {}
    direct: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges[module] = {p for p in (module.rpartition(".")[0],) if p}
        direct[module] = set()
        for node in _import_time_imports(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                names = []
            else:
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""])
            direct[module] |= {n.split(".")[0] for n in names} & HEAVY_LIBRARIES
            edges[module] |= _targets(node, module, path.name == "__init__.py", files, homes)
    out: dict[str, frozenset[str]] = {}
    for module in files:
        seen, todo = {module}, [module]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[module] = frozenset().union(*(direct.get(m, set()) for m in seen))
    return out


# --- the light runs ---------------------------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    """The environment of a run: none of the settings a CI system, a hook runner or the tests
    pass on (they would change which reporter or which source a run picks)."""
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("GIT_", "GITHUB_", "PRE_COMMIT", "ADRGUARD_"))}
    return {**keep, **GIT_ENV, "NO_COLOR": "1", **extra}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=_env())


def _minimal_log(root: Path) -> str:
    """Three records, no configuration, one commit; the third record edited and staged."""
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, status in ((1, "Accepted"), (2, "Superseded by [3](0003-pick-a-queue.md)"),
                      (3, "Accepted")):
        name = ("0001-record-decisions.md", "0002-use-a-cron-job.md", "0003-pick-a-queue.md")[
            n - 1]
        (adr / name).write_text(
            f"# {n}. {name[5:-3].replace('-', ' ').capitalize()}\n\nDate: 2024-02-0{n}\n\n"
            f"## Status\n\n{status}\n\n## Context\n\nWe must choose.\n\n## Decision\n\n"
            "We choose.\n\n## Consequences\n\nWe live with it.\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "records")
    staged = adr / "0003-pick-a-queue.md"
    staged.write_text(staged.read_text(encoding="utf-8") + "\nOne more line.\n",
                      encoding="utf-8")
    return staged.relative_to(root).as_posix()


def _generator() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        import generate
    finally:
        sys.path.remove(str(BENCH))
    return generate


def _opt_in_log(root: Path) -> str:
    """The benchmark generator's log (a configuration naming three roots, an impact manifest,
    a fitness manifest, records in four formats, front matter, two commits), with a baseline
    and an index written by adrguard and committed; one record edited and staged."""
    generate = _generator()
    generate.generate(root, 24, seed=2, git=generate.GitPlan(changed=6, mappings=5))
    env = _env(ADRGUARD_NO_CACHE="1")
    for argv in (["baseline"], ["index", "--write", "--init"]):
        subprocess.run([sys.executable, "-m", PACKAGE, *argv], cwd=root, env=env,
                       capture_output=True, check=False)
    assert (root / ".adrguard-baseline.json").is_file()
    assert list(root.rglob("INDEX.md")) or list(root.rglob("README.md"))
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "baseline and index")
    staged = sorted((root / "docs" / "adr").glob("0*.md"))[-1]
    staged.write_text(staged.read_text(encoding="utf-8") + "\nOne more line.\n",
                      encoding="utf-8")
    return staged.relative_to(root).as_posix()


_SCRIPT = """\
import json, sys
from adrguard.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
print("\\nMODULES=" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "adrguard")))
"""


def _modules_after(cwd: Path, argv: list[str], cache: Path) -> set[str]:
    out = subprocess.run([sys.executable, "-c", _SCRIPT.format(argv=argv)], cwd=cwd,
                         env=_env(ADRGUARD_CACHE_DIR=str(cache)),
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, check=True)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("MODULES="))
    return set(json.loads(line.removeprefix("MODULES=")))


def light_runs(tmp: Path) -> dict[str, set[str]]:
    """Each light run in a fresh interpreter, in the order of :data:`LIGHT_RUNS` (a cold run
    before its warm one): run -> the adrguard modules it imported."""
    logs: dict[str, tuple[Path, str]] = {}
    for name, make in (("minimal", _minimal_log), ("opt-ins", _opt_in_log)):
        root = tmp / name
        root.mkdir()
        logs[name] = (root, make(root))
    staged_once: set[str] = set()
    out = {}
    for run, (log, argv) in LIGHT_RUNS.items():
        root, staged = logs[log]
        if "{staged}" in argv and log not in staged_once:
            _git(root, "add", staged)
            staged_once.add(log)
        args = [a.format(staged=staged) for a in argv]
        out[run] = _modules_after(root, args, tmp / f"cache-{log}")
    return out


# --- the rule ---------------------------------------------------------------------------------


def judge(imports: list[LazyImport], runs: Mapping[str, set[str]],
          heavy: Mapping[str, frozenset[str]]) -> tuple[list[str], dict[str, set[str]]]:
    """The needless lazy imports (``path:line`` and why), and run -> the modules the others keep
    out of it. An import is needed when a light run imports its module but not its target, or
    when its target would bring a heavy library its module does not load."""
    needless = []
    kept: dict[str, set[str]] = {run: set() for run in runs}
    for imp in imports:
        here = heavy.get(imp.module, frozenset())
        if any(heavy.get(t, frozenset()) - here for t in imp.targets):
            continue
        keeps = {run: imp.targets - loaded for run, loaded in runs.items()
                 if imp.module in loaded and imp.targets - loaded}
        for run, targets in keeps.items():
            kept[run] |= targets
        if keeps:
            continue
        users = [run for run, loaded in runs.items() if imp.module in loaded]
        why = (f"every light run that imports {imp.module} ({', '.join(users)}) imports "
               f"{', '.join(sorted(imp.targets))} too" if users
               else f"no light run imports {imp.module}")
        needless.append(f"src/{imp.path}:{imp.line}: move the import to the top: {why}")
    return needless, kept


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    return light_runs(tmp_path_factory.mktemp("light-runs"))


def test_the_light_runs_ran(runs: dict[str, set[str]]) -> None:
    """The runs did what they are named for: a check runs the rules, a cold run parses records
    and a warm one takes them from the cache, the hook compares with the base, the MCP server
    was built."""
    for run, loaded in runs.items():
        assert "adrguard.cli" in loaded, run
        if run.startswith(("check-", "hook-")):
            assert "adrguard.engine" in loaded and "adrguard.cli.check" in loaded, run
        if run.startswith("check-"):
            assert ("adrguard.core.parse.record" in loaded) == run.endswith("-cold"), run
    assert "adrguard.mcp.server" in runs["mcp-start"]
    assert "adrguard.cli.check" not in runs["version"] | runs["help"]
    assert "adrguard.core.impact.mapping" in runs["check-opt-ins-warm"]
    assert "adrguard.core.impact.mapping" not in runs["check-minimal-warm"]


def test_an_own_import_is_inside_a_function_only_to_keep_a_module_out_of_a_light_run(
    runs: dict[str, set[str]],
) -> None:
    needless, _kept = judge(lazy_imports(), runs, heavy_libraries())
    assert needless == []


def test_the_light_runs_import_no_module_the_lazy_imports_keep_out(
    runs: dict[str, set[str]],
) -> None:
    """What the lazy imports keep out of each run is declared: a run that now imports one of
    those modules (it grew) or a new lazy import that keeps a module out (declare it, with the
    reason in ADR 49's terms) fails."""
    _needless, kept = judge(lazy_imports(), runs, heavy_libraries())
    grown = {run: sorted(KEPT_OUT.get(run, set()) & loaded) for run, loaded in runs.items()}
    assert {run: mods for run, mods in grown.items() if mods} == {}
    assert {run: sorted(mods) for run, mods in kept.items() if mods} == {
        run: sorted(mods) for run, mods in KEPT_OUT.items() if mods}


def test_the_rule_finds_a_needless_lazy_import_and_keeps_a_needed_one(tmp_path: Path) -> None:
    """On a package written here: ``a`` imports ``b`` inside a function, though the run that
    imports ``a`` imports ``b`` anyway (needless); ``a`` imports ``c`` lazily and the run does
    not import ``c`` (kept out); ``d``, which no run imports, imports ``b`` lazily (needless);
    ``e`` imports ``f``, which loads yaml, lazily (kept: yaml stays lazy in ``e``)."""
    pkg = tmp_path / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("import adrguard.b\n\ndef f():\n    from adrguard import b, c\n"
                              "    return b, c\n")
    (pkg / "b.py").write_text("X = 1\n")
    (pkg / "c.py").write_text("def g():\n    from . import b\n    return b\n")
    (pkg / "d.py").write_text("def h():\n    from .b import X\n    return X\n")
    (pkg / "e.py").write_text("def k():\n    from adrguard.f import Y\n    return Y\n")
    (pkg / "f.py").write_text("from typing import TYPE_CHECKING\nimport yaml\nY = yaml\n"
                              "if TYPE_CHECKING:\n    import rich\n")
    found = lazy_imports(tmp_path)
    heavy = heavy_libraries(tmp_path)
    assert heavy["adrguard.f"] == heavy["adrguard.e"] | {"yaml"} == {"yaml"}
    assert [(i.module, i.line, sorted(i.targets)) for i in found] == [
        ("adrguard.a", 4, ["adrguard.b", "adrguard.c"]),
        ("adrguard.c", 2, ["adrguard.b"]),
        ("adrguard.d", 2, ["adrguard.b"]),
        ("adrguard.e", 2, ["adrguard.f"]),
    ]
    run = {"r": {"adrguard", "adrguard.a", "adrguard.b"}}
    needless, kept = judge(found, run, heavy)
    assert kept == {"r": {"adrguard.c"}}
    assert needless == [
        "src/adrguard/c.py:2: move the import to the top: no light run imports adrguard.c",
        "src/adrguard/d.py:2: move the import to the top: no light run imports adrguard.d",
    ]
    needless, kept = judge(found, {"r": run["r"] | {"adrguard.c"}}, heavy)
    assert kept == {"r": set()}
    assert needless[0] == ("src/adrguard/a.py:4: move the import to the top: every light run that "
                           "imports adrguard.a (r) imports adrguard.b, adrguard.c too")
