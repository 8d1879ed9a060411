"""core.fitness, pure parts: the manifest's validation, safe evidence JSON, JSON Pointer,
comparisons, Python imports read with ast, the drift baseline."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.fitness import drift, imports
from adrguard.core.fitness.manifest import (
    FitnessManifestError,
    outside_repository,
    parse_manifest,
)
from adrguard.core.fitness.pointer import compare, load_document, measured, resolve, tokens
from adrguard.core.fitness.result import VIOLATION, Item, RuleResult

EVIDENCE_RULE = {"id": "cov", "decision": "ADR-0001", "kind": "evidence",
                 "evidence": "a.json", "pointer": "/x", "op": ">=", "value": 1}


def _manifest(*rules: dict[str, Any], **top: Any) -> bytes:
    return json.dumps({"schemaVersion": 1, "rules": list(rules), **top}, indent=2).encode()


def test_a_valid_manifest_keeps_every_field() -> None:
    m = parse_manifest("f.json", _manifest(
        EVIDENCE_RULE,
        {"id": "imp", "decision": "2", "kind": "forbidden-import", "paths": [" src/** "],
         "modules": ["a.*.b", "c.**"], "ignoreTypeChecking": True},
    ))
    cov, imp = m.rules
    assert cov.evidence == ("a.json",) and cov.op == ">=" and cov.value == 1
    assert cov.line == 5 and cov.decision_line == 6
    assert imp.paths == ("src/**",) and imp.ignore_type_checking is True
    assert m.evidence_files() == ("a.json",)


@pytest.mark.parametrize(("data", "words"), [
    (_manifest(schemaVersion=2), "schemaVersion 2 is not supported"),
    (b'{"rules": []}', "'schemaVersion' is a required property"),
    (_manifest({**EVIDENCE_RULE, "kind": "evidense"}), "did you mean 'evidence'"),
    (_manifest({**EVIDENCE_RULE, "pointr": "/x"}), "did you mean 'pointer'"),
    (_manifest({**EVIDENCE_RULE, "op": "=~"}), "rules/0/op"),
    (_manifest({**EVIDENCE_RULE, "op": "in", "value": 3}), "needs a non-empty array"),
    (_manifest({**EVIDENCE_RULE, "measure": "length", "value": 1.5}), "whole number"),
    (_manifest({**EVIDENCE_RULE, "pointer": "/a~2"}), "~0"),
    (_manifest({**EVIDENCE_RULE, "evidence": "reports/*.json"}), "not a glob"),
    (_manifest({**EVIDENCE_RULE, "evidence": ["a.json", "a.json"]}), "named twice"),
    (_manifest({**EVIDENCE_RULE, "id": "has space"}), "a rule id is"),
    (_manifest({"id": "t", "decision": "1", "kind": "forbidden-text", "paths": ["[z-a]"],
                "pattern": "x"}), "glob '[z-a]'"),
    (_manifest({"id": "t", "decision": "1", "kind": "forbidden-paths", "paths": ["!a"]}),
     "'!negation'"),
    (_manifest({"id": "t", "decision": "1", "kind": "forbidden-import", "paths": ["a"],
                "modules": ["a..b"]}), "not a dotted module name"),
    (b'{"schemaVersion": 1, "schemaVersion": 1, "rules": []}', "appears twice"),
    (b"[" * 100_000, "nested too deeply"),
    (b"\xff", "not UTF-8"),
])
def test_manifest_problems_name_the_place_and_the_fix(data: bytes, words: str) -> None:
    with pytest.raises(FitnessManifestError) as caught:
        parse_manifest("f.json", data)
    assert words in str(caught.value), str(caught.value)
    assert str(caught.value).startswith(f"f.json:{caught.value.line}:{caught.value.column}: ")


def test_outside_repository() -> None:
    assert outside_repository("artifacts/a.json") is None
    assert outside_repository("a..b.json") is None
    assert outside_repository("/abs.json") and outside_repository("C:\\x.json")
    assert outside_repository("a/../../b.json")


def test_pointer_tokens_and_resolution() -> None:
    doc = {"files": {"calc/ops.py": {"n": [10, 20]}}, "a~b": 1, "": {"": 2}}
    assert tokens("/files/calc~1ops.py/n/1") == ("files", "calc/ops.py", "n", "1")
    assert resolve(doc, "/files/calc~1ops.py/n/1").value == 20
    assert resolve(doc, "/a~0b").value == 1
    assert resolve(doc, "//").value == 2
    assert resolve(doc, "").value is doc
    assert "has 2 items" in (resolve(doc, "/files/calc~1ops.py/n/2").problem or "")
    assert "not an index" in (resolve(doc, "/files/calc~1ops.py/n/01").problem or "")
    assert "not an index" in (resolve(doc, "/files/calc~1ops.py/n/-").problem or "")
    assert "a number, which has no members" in (resolve(doc, "/a~0b/c").problem or "")


@pytest.mark.parametrize(("actual", "op", "expected", "verdict"), [
    (80, ">=", 80, True), (79.9, ">=", 80, False), (1, "==", 1.0, True),
    (True, "==", 1, "expected number, found a boolean"),
    ("MIT", "in", ["MIT", "BSD"], True), ("GPL", "not-in", ["MIT"], True),
    ([1, 2], "==", [1, 2], True), ({"a": 1}, "!=", {"a": 1}, False), (None, "==", None, True),
    ("x", "==", None, False), (3, "<", "x", "cannot order by a string"),
    (None, ">", 1, "expected a number, found null"),
])
def test_compare_is_json_typed(actual: Any, op: str, expected: Any, verdict: Any) -> None:
    got = compare(actual, op, expected)
    if isinstance(verdict, str):  # no verdict: why the two cannot be compared
        assert got == verdict
    else:
        assert got is verdict


def test_measure_length() -> None:
    assert measured([1, 2, 3], "length").value == 3
    assert measured("abc", "length").value == 3
    assert measured({"a": 1}, "length").value == 1
    assert measured(3, "length").problem


@pytest.mark.parametrize(("raw", "words"), [
    (b'{"a": 1, "a": 2}', "appears twice"), (b'{"a": NaN}', "NaN is not a JSON number"),
    (b'{"a": -Infinity}', "not a JSON number"), (b"[" * 70 + b"]" * 70, "deeper than 64"),
    (b"9" * 5000, "not usable JSON"), (b"\xfe", "not UTF-8"), (b"{", "not valid JSON"),
])
def test_unsafe_evidence_json_is_a_reason(raw: bytes, words: str) -> None:
    doc = load_document("e.json", raw)
    assert doc.problem is not None and words in doc.problem


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_value_or_a_reason(raw: bytes) -> None:
    doc = load_document("e.json", raw)
    assert (doc.problem is None) or isinstance(doc.problem, str)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(JSON, st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not-in"]), JSON)
def test_compare_never_raises_and_a_type_mismatch_is_never_a_verdict(
    actual: Any, op: str, expected: Any
) -> None:
    if op in ("<", "<=", ">", ">=") and (isinstance(expected, bool)
                                        or not isinstance(expected, int | float)):
        return  # the manifest refuses these
    if op in ("in", "not-in") and (not isinstance(expected, list) or not expected):
        return
    got = compare(actual, op, expected)
    if op in ("<", "<=", ">", ">=") and (isinstance(actual, bool)
                                        or not isinstance(actual, int | float)):
        assert isinstance(got, str)


def _imports(text: str, path: str = "pkg/sub/mod.py") -> imports.Imports:
    packages = frozenset({"pkg", "pkg/sub"})
    return imports.read_imports(text, path, imports.package_of(path, packages))


def test_imports_absolute_relative_and_dynamic() -> None:
    got = _imports("import a.b as c, d\nfrom . import sibling\nfrom ..other import thing\n"
                   "from ... import too_far\nimportlib.import_module('e.f')\n"
                   "__import__('g')\nimport_module(name)\n"
                   "if TYPE_CHECKING:\n    import typed.only\nelse:\n    import runtime\n")
    found = [(i.module, i.names, i.line, i.type_checking) for i in got.found]
    assert found == [
        ("a.b", (), 1, False), ("d", (), 1, False), ("pkg.sub", ("sibling",), 2, False),
        ("pkg.other", ("thing",), 3, False), ("e.f", (), 5, False), ("g", (), 6, False),
        ("typed.only", (), 9, True), ("runtime", (), 11, False)]
    assert got.unresolved == (4,)


def test_forbidden_module_patterns() -> None:
    patterns = [imports.pattern_regex(p) for p in ("shop.db", "requests", "x.*.internal",
                                                   "y.**")]

    def hit(module: str, names: tuple[str, ...] = ()) -> str | None:
        return imports.forbidden(imports.Import(module, 1, names), patterns)

    assert hit("shop.db") == "shop.db" and hit("shop.db.models") == "shop.db.models"
    assert hit("shop", ("db",)) == "shop.db"
    assert hit("shop.dbx") is None and hit("shop", ("api",)) is None
    assert hit("requests.adapters") == "requests.adapters"
    assert hit("x.a.internal") == "x.a.internal" and hit("x.a.b.internal") is None
    assert hit("y") is None and hit("y.a.b") == "y.a.b"
    long_name = ".".join(["y"] * 5_000)
    assert hit(long_name) == long_name  # RE2: linear whatever the name


@pytest.mark.parametrize("text", ["def f(:\n", "x = 1\x00\n", "(" * 300 + ")" * 300])
def test_unparsable_python_is_a_reason(text: str) -> None:
    got = _imports(text)
    assert got.problem is not None and got.found == ()


def test_a_module_outside_every_package_cannot_import_relatively() -> None:
    assert imports.package_of("scripts/run.py", frozenset({"pkg"})) == ()
    assert _imports("from . import x", "scripts/run.py").unresolved == (1,)


def _result(rule_id: str, keys: list[str], status: str = VIOLATION) -> RuleResult:
    from adrguard.core.fitness.manifest import FitnessRule
    from adrguard.core.model import Decision

    rule = FitnessRule(rule_id, "1", "forbidden-paths", None, 1, 1, 1)
    d = Decision(id="ADR-0001", path="docs/adr/0001-a.md", root="docs/adr")
    items = tuple(Item(VIOLATION, file=k, key=k) for k in keys)
    return RuleResult(rule, d, status, "high", "m", items)


def test_drift_judges_known_new_and_fixed() -> None:
    old = [drift.Entry("r", "a"), drift.Entry("r", "b"), drift.Entry("gone", "z")]
    (result,), counts = drift.judge([_result("r", ["a", "c"])], old, "d.json")
    assert [i.baseline for i in result.items] == ["known", "new"]
    assert result.baseline == "new" and result.fixed == 1
    assert (counts.new, counts.known, counts.fixed, counts.stale) == (1, 1, 1, 1)
    (passed,), counts = drift.judge([_result("r", [], "pass")], old[:2], "d.json")
    assert passed.baseline == "fixed" and counts.fixed == 2


def test_drift_round_trip() -> None:
    entries = drift.entries_of([_result("r", ["0" * 24, "f" * 24])])
    text = drift.render(entries, "m.json")
    assert drift.parse(text.encode(), "d.json") == entries
    with pytest.raises(Exception, match="write it again"):
        drift.parse(b'{"schemaVersion": 1, "violations": [{"rule": "r"}]}', "d.json")
