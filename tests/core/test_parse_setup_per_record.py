"""What a record's parse sets up from its front matter, made with less work, is what it was
(issue 30, parsing per record): the YAML resolver table of each document, made once for the
digits and once for the signs, and the front matter's status values, looked up only under the
status keys the front matter holds. A status word is looked for among the entries that start
with the text's first two characters. The old ways are the oracles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import formats, front_matter, ids, status
from adrguard.core.parse.fields import Fields, _probe
from adrguard.core.parse.markdown import walk

_INT_TAG = "tag:yaml.org,2002:int"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


def _old_table() -> dict[str, Any]:
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    table = dict(base.yaml_implicit_resolvers)
    for first in "+-0123456789":
        table[first] = [
            (tag, front_matter._INT if tag == _INT_TAG else rx)
            for tag, rx in table.get(first, ())
            if tag != _TIMESTAMP_TAG
        ]
    return table


def test_the_resolver_table_is_the_one_made_for_each_character() -> None:
    loader = front_matter._loader("a: 1\n")
    try:
        assert loader.yaml_implicit_resolvers == _old_table()
        for first in "+-0123456789":  # each character's list is its own
            others = [loader.yaml_implicit_resolvers[c] for c in "+-0123456789" if c != first]
            assert all(loader.yaml_implicit_resolvers[first] is not o for o in others)
    finally:
        loader.dispose()


def test_front_matter_still_keeps_leading_zeros_and_dates_as_written() -> None:
    fm = front_matter.split("---\nn: 0002\nm: -0010\nd: 2024-01-02\ni: 12\nk: +3\n---\nx\n")[0]
    assert fm == {"n": "0002", "m": "-0010", "d": "2024-01-02", "i": 12, "k": 3}


def _old_fm_statuses(fields: Fields, options: Options) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for key in _probe(options)[0] if fields.fm else ():
        found = fields.fm_value(key)
        raw = (formats.scalar(found[1]) or formats.flow_text(found[1])) if found else None
        if found and raw:
            out.append((raw, fields.fm_lines.get(found[0], 1)))
    return out


_KEYS = ["Status", "status", "STATE", "Statut", "état", "Stand", "title", "date", "statuses"]
_VALUES = [None, "Accepted", "", "  ", ["Draft", "Review"], {"a": 1}, 3, "proposed [ADR-2](2.md)"]


def _fields(fm: dict[str, Any], options: Options) -> Fields:
    lines = {k: i + 2 for i, k in enumerate(fm)}
    source = SourceFile(path="docs/adr/0001-x.md", root="docs/adr", data=b"")
    name = "0001-x"
    own = (name, ids.parse_name(name))
    return Fields(source, options, fm, lines, walk("# X\n"), "# X\n", own)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYS), st.sampled_from(_VALUES), max_size=6))
def test_front_matter_statuses_are_those_of_every_status_key_in_order(fm: dict[str, Any]) -> None:
    options = Options()
    fields = _fields(fm, options)
    assert fields.fm_statuses == _old_fm_statuses(fields, options)


def test_front_matter_statuses_on_written_front_matter() -> None:
    options = Options()
    fields = _fields({"title": "X", "State": "Draft", "Status": "Accepted"}, options)
    # in the order of the status keys (status before state), not the front matter's
    assert fields.fm_statuses == [("Accepted", 4), ("Draft", 3)]
    assert _fields({"status": None, "date": "2024"}, options).fm_statuses == []
    assert _fields({}, options).fm_statuses == []


def _old_matched_word(folded: str, synonyms: Mapping[str, str]) -> tuple[str, Status] | None:
    """matched_word over the entries grouped by first character alone."""
    grouped: dict[str, list[tuple[str, Status]]] = {}
    for word, value in synonyms.items():
        found = {s.value: s for s in Status}.get(str(value).strip().casefold())
        if found is None:
            continue
        key = " ".join(str(word).split()).casefold()
        if key:
            grouped.setdefault(key[0], []).append((key, found))
        if " " in key:
            for joined in (key.replace(" ", "-"), key.replace(" ", "_")):
                grouped[key[0]].append((joined, found))
    table = {c: sorted(v, key=lambda e: -len(e[0])) for c, v in grouped.items()}
    if not folded:
        return None
    for word, found in table.get(folded[0], ()):
        if folded.startswith(word):
            rest = folded[len(word) : len(word) + 1]
            if not rest or not status._WORD_END.match(rest) or status._unspaced(word[-1]):
                return word.replace("-", " ").replace("_", " "), found
    return None


_WORDS = ["a", "ac", "acc", "accepted", "accept", "in progress", "in", "i", "提议", "提", "x y"]
_STATUSES = ["accepted", "proposed", "draft", "rejected", "nothing"]


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(_WORDS), st.sampled_from(_STATUSES), max_size=8),
    st.lists(st.sampled_from([*_WORDS, " ", "-", "_", "ed", "中", "!"]), max_size=4).map("".join),
)
def test_matched_word_is_the_one_the_first_character_groups_found(
    synonyms: dict[str, str], folded: str
) -> None:
    assert status.matched_word(folded, synonyms) == _old_matched_word(folded, synonyms)


def test_matched_word_on_the_built_in_words() -> None:
    for folded in ["proposal", "proposals", "partly accepted now", "mergée", "stub.", "s", ""]:
        found = status.matched_word(folded, status.STATUS_GUESSES)
        assert found == _old_matched_word(folded, status.STATUS_GUESSES)
    assert status.matched_word("proposal 2", status.STATUS_GUESSES) == (
        "proposal",
        Status.PROPOSED,
    )
    assert status.matched_word("partly accepted", status.STATUS_GUESSES) == (
        "partly accepted",
        Status.ACCEPTED,
    )
