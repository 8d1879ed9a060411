"""State lives as long as the run that made it (ADR 36): ``core`` and ``rules`` keep no
process-wide caches (the MCP server is one long process: a module-level memo there would grow
with every repository it is asked about, and could be keyed by a file's whole contents).
Derived state goes on the corpus (``Corpus.derived``), the options (``Options.derived``) or the
rule context (``RuleContext.derived``)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import msgspec

from adrguard.core.impact.globs import GlobSet, glob_problem
from adrguard.core.model import Corpus
from adrguard.core.options import Options, Vocabulary
from adrguard.core.parse import status

SRC = Path(__file__).resolve().parent.parent / "src" / "adrguard"
CACHES = {"cache", "lru_cache"}


def _name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def memos_and_globals(root: Path) -> set[str]:
    found: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if any(_name(d) in CACHES for d in node.decorator_list):
                    found.add(f"{rel}:{node.name}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
                if _name(node.func) in CACHES:  # lru_cache(maxsize=...)(function)
                    found.add(f"{rel}:{ast.unparse(node.args[0]) if node.args else '?'}")
            elif isinstance(node, ast.Global):
                found.add(f"{rel}:global {', '.join(node.names)}")
    return found


def test_core_and_rules_keep_no_process_wide_caches() -> None:
    found = {m for m in memos_and_globals(SRC) if m.startswith(("core/", "rules/"))}
    assert found == set()  # not even of constants we ship (the schemas, the YAML loader)


def test_the_scan_sees_decorators_wrapped_functions_and_globals(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import functools\nfrom functools import cache\n\n@functools.lru_cache(maxsize=2)\n"
        "def a(x):\n    return x\n\n@cache\ndef b(x):\n    return x\n\n"
        "c = functools.lru_cache(maxsize=9)(a)\n_SEEN = {}\n\ndef d():\n    global _SEEN\n"
    )
    assert memos_and_globals(tmp_path) == {"m.py:a", "m.py:b", "m.py:global _SEEN"}


def test_derived_state_lives_on_the_run_objects() -> None:
    words = Vocabulary({"agreed": "accepted"})
    assert status.normalise("Agreed", words).value == "accepted"
    assert words.derived("status groups", dict)  # the grouped table the parser built, kept here
    assert words.derived("folded", dict) == {"Agreed": "agreed"}  # each value folded once a run
    again = Vocabulary({"agreed": "accepted"})
    assert again.derived("status groups", dict) == {}  # a new run's vocabulary starts empty
    options = Options()
    assert options.derived("x", lambda: 1) == 1 and options.derived("x", lambda: 2) == 1
    assert Options().derived("x", lambda: 2) == 2
    corpus = Corpus(())
    assert corpus.derived("x", lambda: "a") == "a" and Corpus(()).derived("x", lambda: "b") == "b"


def test_the_options_memo_is_no_field_and_never_travels() -> None:
    """``Options`` is a frozen msgspec struct (ADR 43) whose memo is no field: a replaced copy,
    an unpickled copy (what a parse worker gets) and an equal new value each start with an
    empty memo, the memo takes no part in equality or the repr, and a replaced or unpickled
    copy still holds its status words as a :class:`Vocabulary`."""
    options = Options(status_synonyms={"agreed": "accepted"}, today="2030-01-01")
    assert options.derived("x", lambda: 1) == 1
    moved = msgspec.structs.replace(options, today=None)
    sent = pickle.loads(pickle.dumps(options))
    assert sent == options and "derived" not in repr(options)
    assert msgspec.structs.replace(moved, today="2030-01-01") == options
    for copy in (moved, sent):
        assert isinstance(copy.status_synonyms, Vocabulary)
        assert copy.derived("x", lambda: 2) == 2
    with_dict = msgspec.structs.replace(options, status_synonyms={"done": "accepted"})
    assert isinstance(with_dict.status_synonyms, Vocabulary)  # __post_init__ runs on replace
    assert with_dict.status_synonyms == {"done": "accepted"}


def test_a_glob_set_compiles_each_glob_once_and_skips_bad_ones() -> None:
    globs = [["src/**/*.py", "!src/gen/**"], ["src/**/*.py"], ["../out", "[z-a]"]]
    assert glob_problem("../out") and glob_problem("[z-a]")
    matched = GlobSet(globs).match(["src/a.py", "src/gen/b.py", "docs/c.md"])
    assert matched == [("src/a.py",), ("src/a.py", "src/gen/b.py"), ()]
    assert len(GlobSet(globs)._matchers) == 2  # src/**/*.py once, src/gen/** once


def test_the_status_words_views_and_lookups_are_the_mappings() -> None:
    """Vocabulary answers items, keys, values, get and ``in`` from its words directly (issue
    30: a run reads every word several times); each answers what Mapping's own would."""
    words = {"agreed": "accepted", "on hold": "proposed", "mergé": "accepted"}
    vocabulary = Vocabulary(words)
    assert list(vocabulary.items()) == list(words.items())
    assert list(vocabulary.keys()) == list(words) and list(vocabulary.values()) == list(
        words.values())
    assert vocabulary.get("agreed") == "accepted" and vocabulary.get("nope", "x") == "x"
    assert vocabulary.get("nope") is None
    assert "on hold" in vocabulary and "accepted" not in vocabulary and 1 not in vocabulary
    assert dict(vocabulary) == words and vocabulary == words
    assert vocabulary.items() == words.items() and vocabulary.keys() == words.keys()
