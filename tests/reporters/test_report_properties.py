"""Any text an ADR can hold, through every reporter: escaping is total and reversible where it
should be, and the structured outputs stay valid."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Location
from adrguard.core.schemas import validator
from adrguard.reporters import REPORTERS, ReportContext
from adrguard.reporters.markdown import escape

TEXT = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from(list("%:,\r\n@#|<>`")),
    max_size=60,
)
FINDINGS = st.lists(
    st.builds(
        Finding,
        code=st.just("ADR201"),
        name=st.just("broken-link"),
        severity=st.sampled_from(list(Severity)),
        message=TEXT,
        location=st.builds(
            Location,
            path=TEXT.filter(bool),
            line=st.integers(1, 10_000),
            column=st.integers(1, 500),
        ),
        decision_id=st.none() | TEXT,
        related=st.lists(TEXT, max_size=2).map(tuple),
    ),
    max_size=6,
).map(lambda fs: Report(tuple(sorted(fs, key=lambda f: f.sort_key)), len(fs), len(fs)))
COMMAND = re.compile(
    r"^::(error|warning|notice) file=([^,:]*),line=(\d+),col=(\d+),title=([^,:]*)::(.*)$"
)
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]")
RELAXED = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _unescape(value: str, prop: bool = False) -> str:
    if prop:
        value = value.replace("%3A", ":").replace("%2C", ",")
    return value.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def _expected(text: str) -> str:
    return CONTROL.sub("\ufffd", text.replace("\t", " "))


@RELAXED
@given(FINDINGS)
def test_github_commands_round_trip(report: Report) -> None:
    ctx = ReportContext(version="1")
    lines = REPORTERS["github"](report, ctx).splitlines()
    assert len(lines) == len(report.findings)
    for line, finding in zip(
        lines, sorted(report.findings, key=lambda f: -f.severity), strict=True
    ):
        m = COMMAND.match(line)
        assert m is not None, line
        assert _unescape(m.group(2), prop=True) == _expected(finding.location.path)
        assert _unescape(m.group(6)) == _expected(finding.message)


@RELAXED
@given(TEXT)
def test_markdown_escape_leaves_nothing_active(value: str) -> None:
    out = escape(value).replace("<br>", " ")
    assert "\n" not in out and "\r" not in out
    assert re.search(r"(?<!\\)[|`<>*_\[\]]", out) is None
    assert re.search(r"@(?!&#8203;)", out) is None
    assert re.search(r"(?<!&)#\d", out) is None


@RELAXED
@given(report=FINDINGS)
def test_json_and_sarif_stay_valid(sarif_schema: dict[str, Any], report: Report) -> None:
    ctx = ReportContext(version="1")
    data = json.loads(REPORTERS["json"](report, ctx))
    validator("report.schema.json").validate(data)
    assert [f["message"] for f in data["findings"]] == [f.message for f in report.findings]
    Draft7Validator(sarif_schema).validate(json.loads(REPORTERS["sarif"](report, ctx)))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_the_json_style_is_the_standard_librarys_byte_for_byte(value: Any) -> None:
    """The fast encoder takes what it writes alike and leaves the rest (floats, lone
    surrogates) to the standard library: either way the text is json.dumps's."""
    from adrguard.reporters.json import _encode

    assert _encode(value) == json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


UNSAFE_TEXT = st.lists(st.sampled_from(["a", "é", "#", "##[", "\u202e", "\x85", "\x1b", "\n",
                                        "\ud800", "::", "\u2028"]), max_size=6).map("".join)
LISTED = st.recursive(
    st.none() | st.booleans() | st.integers() | UNSAFE_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(UNSAFE_TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(LISTED)
def test_list_and_show_print_json_as_they_wrote_it(value: Any) -> None:
    """``list --format json`` and ``show --format json`` print through ``print_json``; the
    oracle is what they wrote before: the standard library's text, made safe as JSON."""
    import contextlib
    import io
    import os
    from unittest import mock

    from adrguard.cli.common import print_json, write_stdout

    def printed(write: Any) -> str:
        buffer = io.StringIO()  # outside GitHub Actions (no ::stop-commands:: line)
        with contextlib.redirect_stdout(buffer), mock.patch.dict(os.environ,
                                                                 {"GITHUB_ACTIONS": ""}):
            write()
        return buffer.getvalue()

    old = printed(lambda: write_stdout(
        json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n", "json"))
    assert printed(lambda: print_json(value)) == old
