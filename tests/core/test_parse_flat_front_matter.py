"""Front matter made only of ``key: value`` lines of strings is read without the YAML loader
(issue 30, the cold check), into what the loader made of it. The loader is the oracle."""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.parse import front_matter

KEYS = ["status", "date", "deciders", "title", "id", "on", "yes", "No", "null", "_x", "a-b",
        "Status", "t", "y", "n", "2", "key ", " key", "k#", "<<", "a:b", "é"]
VALUES = ["accepted", "Accepted.", "2024-08-09", "2024-8-9", "dan, erin", "superseded by ADR-3",
          "yes", "Yes", "no", "NO", "on", "Off", "true", "False", "null", "Null", "~", "", " ",
          "n", "y", "e5", "a  b", "a ", "a #b", "a#b", "a: b", "a:b", "'q'", '"q"', "[a]",
          "{a: 1}", "&a x", "*a", "!x y", "|", ">", "-", "- a", "0002", "12", "1.5", ".5",
          "x/y.md", "x(y)", "tab\there", "ü", "a, b,", "a-", "b_c", "%x", "@x", "`x`", "x,"]
LINES = st.one_of(
    st.tuples(st.sampled_from(KEYS), st.sampled_from([": ", ":", " : ", ":  "]),
              st.sampled_from(VALUES)).map("".join),
    st.sampled_from(["", "# comment", "  - item", "---", "...", "%YAML 1.1", "paths:", "k:",
                     "  - services/svc-01/src/pkg_0000/**", "  - a", "  - yes", "  -  a",
                     "    - a", "- a", "  - 'a'", "  - a: b", "  - 12", "  - 2024-01-02",
                     "  - *a", "  - a*", "  -", "   - a", "\t- a", "  - [a]"]),
)
DOCS = st.lists(LINES, max_size=8).map(lambda ls: "".join(f"{x}\n" for x in ls))


def _loaded(yaml_text: str) -> Any:
    loader = front_matter._loader(yaml_text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


@settings(max_examples=1500, deadline=None)
@given(DOCS)
def test_flat_front_matter_is_what_the_loader_makes_of_it(yaml_text: str) -> None:
    flat = front_matter._flat(yaml_text)
    if flat is None:
        return  # the loader reads it
    value = _loaded(yaml_text)
    assert isinstance(value, dict)
    assert list(flat.items()) == [(str(k), v) for k, v in value.items()]
    assert all(
        type(v) is str or (type(v) is list and all(type(x) is str for x in v))
        for v in value.values()
    )


@settings(max_examples=800, deadline=None)
@given(DOCS, st.sampled_from(["", "# Title\n\nText\n"]))
def test_split_is_what_it_was_with_the_loader_alone(yaml_text: str, body: str) -> None:
    text = f"---\n{yaml_text}---\n{body}"
    got = front_matter.split(text)
    with mock.patch.object(front_matter, "_flat", lambda _text: None):
        want = front_matter.split(text)
    assert got == want
    assert [type(v) for v in got[0].values()] == [type(v) for v in want[0].values()]


def test_flat_front_matter_with_a_list() -> None:
    text = "status: accepted\naffected-paths:\n  - services/a/**\n  - b.md\ndate: 2024-01-02\n"
    assert front_matter._flat(text) == {
        "status": "accepted", "affected-paths": ["services/a/**", "b.md"], "date": "2024-01-02"
    }
    assert front_matter._flat(text) == _loaded(text)


def test_flat_front_matter_on_written_lines() -> None:
    text = "status: accepted\ndate: 2024-08-09\ndeciders: dan, erin\nstatus: proposed\n"
    assert front_matter._flat(text) == {
        "status": "proposed", "date": "2024-08-09", "deciders": "dan, erin"
    }
    assert list(front_matter._flat(text) or {}) == ["status", "date", "deciders"]
    for other in ["draft: yes\n", "on: x\n", "n: 12\n", "a: 'q'\n", "a: b # c\n", "a: b \n",
                  "", "\n", "a: b\n\nc: d\n", "a:\n", "a:\n- b\n", "a:\n  - no\n",
                  "a:\n  - b\n   - c\n"]:
        assert front_matter._flat(other) is None, other
