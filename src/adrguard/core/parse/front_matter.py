"""YAML front matter: split it off, load it safely, refuse bombs, remember key lines.

The loader is PyYAML's C safe loader with two changes: timestamps stay strings, and integers
written with leading zeros (``nav_order: 0002``) stay strings instead of turning octal.
"""

from __future__ import annotations

import re
from typing import Any

from adrguard.core.lazyre import lazy
from adrguard.core.model import Problem

_FM_OPEN = lazy(r"\A(?:---)[ \t]*\n")
_FM_CLOSE = lazy(r"^(?:---|\.\.\.)[ \t]*$", re.M)
_FM_KEY = lazy(r"^([^\s#:\-?][^:\n]*?)[ \t]*:(?:[ \t]|$)", re.M)
_FM_BUDGET = 20_000  # nodes visited (aliases count every time: YAML bombs stop here)
_FM_DEPTH = 50
_MAX_FM_CHARS = 256 * 1024

Split = tuple[dict[str, Any], dict[str, int], str, int, Problem | None]


_INT = lazy(r"^(?:[-+]?0b[0-1_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$")


_INT_TAG = "tag:yaml.org,2002:int"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


def _loader(yaml_text: str) -> Any:
    """Safe YAML without surprises: no timestamps, and ``0002`` stays the string "0002"
    (libyaml's loader when it is there). A loader for this one document: its resolver table is
    the safe loader's with those two changes, made here (a few µs) rather than kept in a
    process-wide class (ADR 36). PyYAML registers ints and timestamps under the first
    characters ``+-0-9`` only; the other entries are shared, never changed."""
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = base(yaml_text)
    table = dict(base.yaml_implicit_resolvers)
    # the digits' lists are alike, and so are the signs': each new list is made once and
    # copied for a character whose list equals the one it was made from
    made: tuple[Any, list[Any]] = (None, [])
    for first in "+-0123456789":
        entries = table.get(first, ())
        if entries == made[0]:
            table[first] = list(made[1])
            continue
        table[first] = [
            (tag, _INT if tag == _INT_TAG else rx)
            for tag, rx in entries
            if tag != _TIMESTAMP_TAG
        ]
        made = (entries, table[first])
    loader.yaml_implicit_resolvers = table
    return loader


def _check_shape(value: Any) -> str | None:
    """Walk the loaded YAML with a budget: alias bombs and deep nesting are refused."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > _FM_BUDGET:
            return "front matter expands to too many values (YAML alias bomb?)"
        if depth > _FM_DEPTH:
            return f"front matter is nested deeper than {_FM_DEPTH} levels"
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
            stack.extend((k, depth + 1) for k in item)
        elif isinstance(item, list | tuple | set):
            stack.extend((v, depth + 1) for v in item)
    return None


def split(text: str) -> Split:
    """(mapping, key lines, body, lines taken, problem) for text that may open with ``---``."""
    if not _FM_OPEN.match(text):
        return {}, {}, text, 0, None
    close = _FM_CLOSE.search(text, text.index("\n") + 1)
    if close is None:
        return {}, {}, text, 0, None
    yaml_text = text[text.index("\n") + 1 : close.start()]
    end = text.find("\n", close.end())
    body = "" if end == -1 else text[end + 1 :]
    taken = text.count("\n", 0, close.end()) + (1 if end != -1 else 0)
    if len(yaml_text) > _MAX_FM_CHARS:
        msg = f"front matter is over {_MAX_FM_CHARS // 1024} KiB"
        return {}, {}, body, taken, Problem("ADR002", msg, 1)
    lines: dict[str, int] = {}
    line, pos = 2, 0
    for m in _FM_KEY.finditer(yaml_text):
        line += yaml_text.count("\n", pos, m.start())
        pos = m.start()
        lines.setdefault(m.group(1).strip().strip("\"'"), line)
    flat = _flat(yaml_text)
    if flat is not None:
        return flat, lines, body, taken, None
    import yaml

    try:
        loader = _loader(yaml_text)
        try:
            value = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1
        reason = exc.problem or "invalid YAML"
        return {}, lines, body, taken, Problem("ADR002", f"front matter: {reason}", line)
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        return {}, lines, body, taken, Problem("ADR002", f"front matter: {exc}", 1)
    if value is None:
        return {}, lines, body, taken, None
    if not isinstance(value, dict):
        kind = type(value).__name__
        msg = f"front matter is a {kind}, not a mapping of keys to values"
        return {}, lines, body, taken, Problem("ADR002", msg, 2)
    shape = _check_shape(value)
    if shape:
        return {}, lines, body, taken, Problem("ADR002", shape, 1)
    if "set" in yaml_text:  # a `!!set` (however its tag is spelled) loads as a Python set
        value = _ordered(value)
    return {str(k): v for k, v in value.items()}, lines, body, taken, None


# Flat front matter (most records'): ``key: value`` lines, and keys whose value is a block list
# of items (``key:`` then ``  - item`` lines), where YAML reads every key and value as a string
# whatever its resolvers say. A key is plain; a value starts with a letter (no int, float,
# merge or value resolver is registered for a letter) or is a ``YYYY-MM-DD`` date (the loader
# keeps dates as written; no int or float reads one). No character of either is a YAML
# indicator where it stands: no ``:``, ``#``, quote, bracket, tab or trailing space.
_FLAT_VALUE = r"([A-Za-z](?:[A-Za-z0-9 ,./_*-]*[A-Za-z0-9,./_*-])?|[0-9]{4}-[0-9]{2}-[0-9]{2})"
_FLAT_LINE = lazy(r"([A-Za-z_][A-Za-z0-9_-]*):(?: " + _FLAT_VALUE + ")?")
_FLAT_ITEM = lazy(r"  - " + _FLAT_VALUE)
# Plain scalars a letter starts that YAML 1.1 reads as booleans or null (PyYAML's resolvers)
_NOT_STRINGS = frozenset({
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
})
_FLAT_MAX_LINES = 64


def _flat(yaml_text: str) -> dict[str, Any] | None:
    """What the loader makes of flat front matter (:data:`_FLAT_LINE`, :data:`_FLAT_ITEM`),
    without the loader; None for anything else, which the loader reads. A repeated key keeps
    its first place and its last value, as the loader's mapping does."""
    lines = yaml_text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines or len(lines) > _FLAT_MAX_LINES:
        return None
    out: dict[str, Any] = {}
    line_of, item_of = _FLAT_LINE.fullmatch, _FLAT_ITEM.fullmatch
    i, n = 0, len(lines)
    while i < n:
        m = line_of(lines[i])
        if m is None:
            return None
        key, value = m.groups()
        if key in _NOT_STRINGS or value in _NOT_STRINGS:
            return None
        i += 1
        if value is not None:
            out[key] = value
            continue
        items: list[str] = []  # ``key:`` alone: its block list's items
        while i < n:
            item = item_of(lines[i])
            if item is None:
                break
            if item.group(1) in _NOT_STRINGS:
                return None
            items.append(item.group(1))
            i += 1
        if not items:
            return None  # a key without a value (null), or a list of other items
        out[key] = items
    return out


def _ordered(value: Any) -> Any:
    """``value`` with every set as a sorted list: a set's order follows the hash seed, and a
    value reaches messages and fingerprints, which must never depend on it (depth is bounded
    by :func:`_check_shape`)."""
    if isinstance(value, dict):
        return {k: _ordered(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_ordered(v) for v in value), key=lambda v: (type(v).__name__, repr(v)))
    return value


_TOP_LINE = lazy(r"^([^\s#:\-?'\"][^:]*?)[ \t]*:[ \t]+(\S.*?)[ \t]*$")


def salvage(text: str, taken: int) -> dict[str, tuple[str, int]]:
    """The top-level ``key: value`` lines of front matter that YAML could not load (a
    template's ``status: {proposed | accepted | … [ADR-0005](x.md)}``), as written: casefolded
    key -> (value, line). Only for reading what the author meant; the front matter stays
    invalid (ADR002)."""
    out: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.split("\n", taken)[1 : max(taken - 1, 1)], start=2):
        m = _TOP_LINE.match(line)
        if m:
            out.setdefault(m.group(1).strip().casefold(), (m.group(2), number))
    return out


# A preamble written as a code block at the top of the body (``## Preamble`` then a fence of
# ``Title: Bump Sequence`` / ``Status: Final`` lines, as EIP-style processes do): metadata.
_PREAMBLE = lazy(
    r"\A(?:[ \t]*(?:#{1,6}[^\n]*|<!--[^\n]*-->)?[ \t]*\n){0,4}[ \t]*(?P<fence>```|~~~)"
    r"(?:text|txt|yaml|yml|preamble)?[ \t]*\n"
    r"(?P<lines>[ \t]*[A-Za-z][\w \-()/]{0,40}:[^\n]*\n(?:(?![ \t]*(?:```|~~~))[^\n]*\n){1,60})"
    r"[ \t]*(?P=fence)[ \t]*(?:\n|\Z)"
)
_PREAMBLE_KEY = lazy(r"[A-Za-z][\w \-()/]{0,40}")
_PREAMBLE_MIN_KEYS = 2
_PREAMBLE_KEYS = frozenset({"title", "status", "created", "date"})


def _fence_near_top(body: str) -> bool:
    """Whether ````` or ``~~~`` is in the body's first five lines: a _PREAMBLE match opens its
    fence after at most four whole lines, so a body without one there has no match."""
    end = 0
    for _ in range(5):
        end = body.find("\n", end) + 1
        if end == 0:
            end = len(body)
            break
    head = body[:end]
    return "```" in head or "~~~" in head


def preamble(body: str, offset: int) -> tuple[dict[str, str], dict[str, int]] | None:
    """``Key: value`` lines of a code block that opens the body (at most a heading or a comment
    before it), as metadata: (values, lines), keys as written. The block opens with a key line;
    indented continuation lines (a second author) and lines of no key (``Version 2.5.0``) are
    read past. None unless it holds two keys, one of them a title, status or date."""
    if not _fence_near_top(body):
        return None  # most bodies: the pattern stays uncompiled
    m = _PREAMBLE.match(body, 0, 64 * 1024)
    if m is None:
        return None
    start_line = offset + body.count("\n", 0, m.start("lines")) + 1
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    block = m.group("lines").splitlines()
    margin = len(block[0]) - len(block[0].lstrip())  # the key lines' indentation
    for i, line in enumerate(block):
        if len(line) - len(line.lstrip()) > margin or ":" not in line:
            continue  # an indented continuation (a second author) or a line of no key
        key, _, value = line.strip().partition(":")
        key, value = key.strip(), value.strip()
        if _PREAMBLE_KEY.fullmatch(key) and value and key not in values:
            values[key] = value
            lines[key] = start_line + i
    if len(values) < _PREAMBLE_MIN_KEYS or not {k.casefold() for k in values} & _PREAMBLE_KEYS:
        return None
    return values, lines
