"""Evaluate fitness rules over what the api read for them. Pure: no file is opened here.

:func:`needed_files` says which tracked files the repository rules need (the api reads them
safely, as bytes or a reason); :func:`evaluate` turns one rule, its decision and those inputs
into a :class:`~adrguard.core.fitness.result.RuleResult`. Only an accepted decision's rules
are evaluated; a missing, unreadable or ill-typed input is ``unknown``, never ``pass``.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adrguard.core.fitness import imports as imp
from adrguard.core.fitness.manifest import FitnessRule
from adrguard.core.fitness.pointer import Document, compare, measured, resolve
from adrguard.core.fitness.result import (
    NOT_APPLICABLE,
    PASS,
    UNKNOWN,
    VIOLATION,
    Item,
    RuleResult,
)
from adrguard.core.graph import graph
from adrguard.core.impact.globs import match_globs
from adrguard.core.model import INACTIVE_STATUSES, Corpus, Decision, Status
from adrguard.core.saferegex import compile_user
from adrguard.core.wording import decision_name

TEXT_CHARS = 200  # characters of a matching line kept as evidence


@dataclass(frozen=True)
class Inputs:
    """What the api read for the rules of one run."""

    files: frozenset[str]  # the repository's tracked files
    documents: Mapping[str, Document] = field(default_factory=dict)  # evidence, by path
    given: frozenset[str] | None = None  # evidence paths the run was given (None: all named)
    texts: Mapping[str, tuple[bytes | None, str | None]] = field(default_factory=dict)


def applies(d: Decision) -> bool:
    """Whether a decision's rules are evaluated: only accepted decisions are checked."""
    return d.status is Status.ACCEPTED


def needed_files(rule: FitnessRule, files: frozenset[str]) -> tuple[str, ...]:
    """The tracked files a text or import rule reads."""
    if rule.kind == "forbidden-text":
        return match_globs(rule.paths, files)
    if rule.kind == "forbidden-import":
        return tuple(p for p in match_globs(rule.paths, files) if p.endswith(imp.PYTHON_SUFFIXES))
    return ()


def evaluate(rule: FitnessRule, decision: Decision, corpus: Corpus, inputs: Inputs) -> RuleResult:
    if not applies(decision):
        return _not_applicable(rule, decision, corpus)
    if rule.kind == "evidence":
        return _evidence(rule, decision, inputs)
    if rule.kind == "forbidden-text":
        return _text(rule, decision, inputs)
    if rule.kind == "forbidden-import":
        return _imports(rule, decision, inputs)
    return _paths(rule, decision, inputs)


def _not_applicable(rule: FitnessRule, d: Decision, corpus: Corpus) -> RuleResult:
    status = d.status.value if d.status is not None else "without a stated status"
    successor = None
    if d.status in INACTIVE_STATUSES:
        successor = graph.build(corpus).current_successor(d)
        then = (f"move the rule to its successor {decision_name(successor)}, or remove it"
                if successor is not None else
                "move the rule to the decision now in force, or remove it")
    else:
        then = "it is checked once the decision is accepted"
    return RuleResult(rule, d, NOT_APPLICABLE, "high",
                      f"{decision_name(d)} is {status}: only accepted decisions are verified; "
                      f"{then}", successor=successor)


def _key(rule: FitnessRule, *parts: str) -> str:
    raw = "\0".join((rule.id, *parts))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:24]


# --- evidence ---------------------------------------------------------------------------------


def _evidence(rule: FitnessRule, d: Decision, inputs: Inputs) -> RuleResult:
    items = [_judge_file(rule, path, inputs) for path in rule.evidence]
    verdicts = {i.verdict for i in items}
    expect = f"{rule.op} {_json(rule.value)}"
    what = f"{'length of ' if rule.measure == 'length' else ''}{rule.pointer or '(document)'}"
    if UNKNOWN in verdicts:
        why = "; ".join(f"{i.file}: {i.problem}" for i in items if i.problem)
        return RuleResult(rule, d, UNKNOWN, "none",
                          f"no verdict ({why}); missing evidence is never a pass", tuple(items))
    if verdicts == {PASS, VIOLATION}:
        said = ", ".join(f"{i.file} says {i.verdict} ({_json(i.value)})" for i in items)
        return RuleResult(rule, d, UNKNOWN, "none",
                          f"contradictory evidence: {said}; expected {what} {expect}",
                          tuple(items))
    found = _values(items)
    if verdicts == {PASS}:
        return RuleResult(rule, d, PASS, "medium", f"{what} is {found}, which is {expect}",
                          tuple(items))
    return RuleResult(rule, d, VIOLATION, "medium", f"{what} is {found}, which is not {expect}",
                      tuple(items))


def _values(items: list[Item]) -> str:
    """``91.3 in a.json`` for each file (one file: ``91.3 (a.json)``)."""
    if len(items) == 1:
        return f"{_json(items[0].value)} ({items[0].file})"
    return ", ".join(f"{_json(i.value)} in {i.file}" for i in items)


def _judge_file(rule: FitnessRule, path: str, inputs: Inputs) -> Item:
    def unknown(problem: str, value: Any = None, has_value: bool = False) -> Item:
        return Item(UNKNOWN, file=path, pointer=rule.pointer, problem=problem, value=value,
                    has_value=has_value)

    if inputs.given is not None and path not in inputs.given:
        return unknown("not among the evidence files given (--evidence / evidencePaths)")
    doc = inputs.documents.get(path)
    if doc is None or doc.problem is not None:
        return unknown(doc.problem if doc is not None and doc.problem else "not read")
    found = resolve(doc.value, rule.pointer)
    if found.problem is not None:
        return unknown(f"pointer {rule.pointer}: {found.problem}")
    value = measured(found.value, rule.measure)
    if value.problem is not None:
        return unknown(value.problem, found.value, True)
    verdict = compare(value.value, rule.op, rule.value)
    if isinstance(verdict, str):
        return unknown(f"wrong type at {rule.pointer or 'the top'}: {verdict}", value.value, True)
    if verdict:
        return Item(PASS, file=path, pointer=rule.pointer, value=value.value, has_value=True)
    return Item(VIOLATION, file=path, pointer=rule.pointer, value=value.value, has_value=True,
                key=_key(rule, path, rule.pointer))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _json(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


# --- the repository ---------------------------------------------------------------------------


def _texts(rule: FitnessRule, inputs: Inputs) -> tuple[list[tuple[str, str]], list[Item], int]:
    """The files a rule reads, as text; unreadable ones as unknown items; binary ones counted."""
    out: list[tuple[str, str]] = []
    problems: list[Item] = []
    binary = 0
    for path in needed_files(rule, inputs.files):
        data, why = inputs.texts.get(path, (None, "not read"))
        if data is None:
            problems.append(Item(UNKNOWN, file=path, problem=why or "not read"))
        elif b"\0" in data:
            binary += 1
        else:
            out.append((path, data.decode("utf-8", "replace")))
    return out, problems, binary


def _verdict(rule: FitnessRule, d: Decision, found: list[Item], problems: list[Item],
             checked: int, what: str, pass_confidence: str) -> RuleResult:
    items = tuple(found + problems)
    if found:
        files = len({i.file for i in found})
        return RuleResult(rule, d, VIOLATION, "high",
                          f"{_count(len(found), what)} in {_count(files, 'file')}", items)
    if problems:
        return RuleResult(rule, d, UNKNOWN, "none",
                          f"{len(problems)} of {checked + len(problems)} files could not be read "
                          f"({problems[0].file}: {problems[0].problem}); unread files are never "
                          "a pass", items)
    if not checked:
        return RuleResult(rule, d, UNKNOWN, "none",
                          "the globs match no tracked file that could be read: nothing was "
                          "checked, which is never a pass (fix the paths)", items)
    return RuleResult(rule, d, PASS, pass_confidence,
                      f"none in {_count(checked, 'file')}", items)


def _text(rule: FitnessRule, d: Decision, inputs: Inputs) -> RuleResult:
    from bisect import bisect_right

    regex = compile_user(rule.pattern, line_local=True)
    texts, problems, binary = _texts(rule, inputs)
    found: list[Item] = []
    for path, text in texts:
        starts: list[int] | None = None
        seen_lines: set[int] = set()
        seen: Counter[str] = Counter()
        for m in regex.finditer(text):
            if starts is None:
                starts = [0, *(n.end() for n in re.finditer("\n", text))]
            line = bisect_right(starts, m.start())
            if line in seen_lines:
                continue
            seen_lines.add(line)
            end = starts[line] - 1 if line < len(starts) else len(text)
            content = text[starts[line - 1]:end].strip()
            seen[content] += 1
            found.append(Item(VIOLATION, file=path, line=line, text=content[:TEXT_CHARS],
                              key=_key(rule, path, content, str(seen[content]))))
    result = _verdict(rule, d, found, problems, len(texts), "matching line", "high")
    if binary:
        note = f" ({binary} binary file{'s' * (binary != 1)} skipped)"
        return RuleResult(result.rule, d, result.status, result.confidence,
                          result.message + note, result.items)
    return result


def _imports(rule: FitnessRule, d: Decision, inputs: Inputs) -> RuleResult:
    patterns = [imp.pattern_regex(p) for p in rule.modules]
    packages = imp.package_folders(inputs.files)
    texts, problems, _binary = _texts(rule, inputs)
    found: list[Item] = []
    for path, text in texts:
        got = imp.read_imports(text, path, imp.package_of(path, packages))
        if got.problem is not None:
            problems.append(Item(UNKNOWN, file=path, problem=got.problem))
            continue
        seen: Counter[str] = Counter()
        for i in got.found:
            if rule.ignore_type_checking and i.type_checking:
                continue
            name = imp.forbidden(i, patterns)
            if name is not None:
                seen[name] += 1
                found.append(Item(VIOLATION, file=path, line=i.line, text=name,
                                  key=_key(rule, path, name, str(seen[name]))))
        problems += [Item(UNKNOWN, file=path, line=n, problem="a relative import above the "
                          "top-level package: what it imports cannot be told") for n in
                     got.unresolved]
    return _verdict(rule, d, found, problems, len(texts), "forbidden import", "medium")


def _paths(rule: FitnessRule, d: Decision, inputs: Inputs) -> RuleResult:
    if rule.kind == "forbidden-paths":
        hits = match_globs(rule.paths, inputs.files)
        items = tuple(Item(VIOLATION, file=p, key=_key(rule, p)) for p in hits)
        if hits:
            verb = "matches" if len(hits) == 1 else "match"
            return RuleResult(rule, d, VIOLATION, "high",
                              f"{_count(len(hits), 'tracked file')} {verb} a forbidden path "
                              f"({hits[0]}{', ...' if len(hits) > 1 else ''})", items)
        return RuleResult(rule, d, PASS, "high", "no tracked file matches the forbidden paths")
    negations = [g for g in rule.paths if g.startswith("!")]
    checked: list[Item] = []
    for glob in rule.paths:
        if glob.startswith("!"):
            continue
        hits = match_globs([glob, *negations], inputs.files)
        if hits:
            checked.append(Item(PASS, file=hits[0], text=glob, value=len(hits), has_value=True))
        else:
            checked.append(Item(VIOLATION, text=glob, key=_key(rule, glob)))
    missing = [i.text for i in checked if i.verdict == VIOLATION]
    if missing:
        return RuleResult(rule, d, VIOLATION, "high",
                          f"no tracked file matches {', '.join(repr(g) for g in missing)}",
                          tuple(checked))
    return RuleResult(rule, d, PASS, "high", "every required path is present", tuple(checked))
