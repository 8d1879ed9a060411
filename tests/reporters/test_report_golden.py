"""Every reporter against its golden file, for a hostile report and a clean one."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from adrguard.core.findings import Report, fingerprint
from adrguard.core.schemas import validator
from adrguard.reporters import REPORTERS, ReportContext
from adrguard.reporters.text import render_color, render_plain

EXTENSIONS = {"text": "txt", "concise": "concise", "json": "json", "markdown": "md", "github": "github", "sarif": "sarif"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_registry_has_every_format() -> None:
    assert sorted(REPORTERS) == ["concise", "github", "json", "markdown", "sarif", "text"]


@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
def test_tricky_report_matches_golden(
    fmt: str, tricky: Report, ctx: ReportContext, golden: Callable[[str, str], None]
) -> None:
    out = REPORTERS[fmt](tricky, ctx)
    assert out == REPORTERS[fmt](tricky, ctx)  # deterministic
    golden(f"tricky.{EXTENSIONS[fmt]}", out)


@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
def test_clean_report_matches_golden(
    fmt: str, clean: Report, ctx: ReportContext, golden: Callable[[str, str], None]
) -> None:
    golden(f"clean.{EXTENSIONS[fmt]}", REPORTERS[fmt](clean, ctx))


def test_text_layout(tricky: Report, ctx: ReportContext) -> None:
    out = REPORTERS["text"](tricky, ctx)
    lines = out.splitlines()
    assert lines[0] == "docs/adr/0001-use kafka, v2: final.md"
    assert lines[-1] == "3 errors, 1 warning, 1 note in 4 decisions (5 files)"
    assert "\x1b" not in out and "\u202e" not in out and "\r" not in out
    assert "\\x1b[31mred\\x1b[0m" in out and "\\u202eevil" in out
    # a multi-line message continues under the message column, never at column 0, and a
    # continuation line that would open with `::` (a workflow command after blanks) shows `\x3a`
    first = next(i for i, line in enumerate(lines) if "ADR303" in line)
    column = lines[first].index("supersedes")
    assert lines[first + 1].startswith(" " * column + "\\x3a:error file=x")
    assert not any(line.lstrip().startswith("::") for line in lines)
    assert all(line == line.rstrip() for line in lines)


def test_concise_is_one_parseable_line_per_finding(tricky: Report, ctx: ReportContext) -> None:
    out = REPORTERS["concise"](tricky, ctx)
    lines = out.splitlines()
    assert len(lines) == len(tricky.findings) and out.endswith("\n")
    pattern = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>ADR\d{3}) (?P<msg>.+)$")
    for line, f in zip(lines, tricky.findings, strict=True):
        m = pattern.match(line)
        assert m is not None, line
        assert (int(m["line"]), int(m["col"]), m["code"]) == (f.location.line, f.location.column,
                                                             f.code)
    assert lines[1].startswith("docs/adr/0001-use kafka, v2: final.md:4:3: ADR303 supersedes")
    assert "\x1b" not in out and not any(ln.lstrip().startswith("::") for ln in lines)
    assert REPORTERS["concise"](Report((), 3, 3), ctx) == ""


def test_text_clean_says_no_problems(clean: Report, ctx: ReportContext) -> None:
    assert REPORTERS["text"](clean, ctx) == "No problems found in 1 decision (1 file)\n"


def test_text_colour_is_the_same_layout(tricky: Report, ctx: ReportContext) -> None:
    coloured = render_color(tricky)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == render_plain(tricky)
    assert ANSI.sub("", render_color(Report((), 2, 3))) == render_plain(Report((), 2, 3))


def test_plain_text_does_not_import_rich() -> None:
    code = (
        "import sys\n"
        "from adrguard.reporters import REPORTERS, ReportContext\n"
        "from adrguard.core.findings import Report\n"
        "REPORTERS['text'](Report((), 0, 0), ReportContext(version='1'))\n"
        "print('rich' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_json_validates_and_carries_fingerprints(tricky: Report, ctx: ReportContext) -> None:
    out = REPORTERS["json"](tricky, ctx)
    assert out.endswith("}\n")
    data = json.loads(out)
    validator("report.schema.json").validate(data)
    assert data["schemaVersion"] == 1
    assert data["tool"] == {"name": "adrguard", "version": "9.8.7"}
    assert data["summary"] == {"decisions": 4, "files": 5, "errors": 3, "warnings": 1, "notes": 1}
    assert [f["fingerprint"] for f in data["findings"]] == [fingerprint(f) for f in tricky.findings]
    assert [f["message"] for f in data["findings"]] == [f.message for f in tricky.findings]
    assert "café" in out  # UTF-8 kept, not \u-escaped
    assert list(data) == sorted(data)


def test_json_schema_rejects_what_it_should(clean: Report, ctx: ReportContext) -> None:
    check = validator("report.schema.json")
    data = json.loads(REPORTERS["json"](clean, ctx))
    check.validate(data)
    bad_finding: dict[str, Any] = {
        "code": "ADR303",
        "name": "relationship-cycle",
        "severity": "fatal",
        "message": "m",
        "path": "a.md",
        "line": 1,
        "column": 1,
        "decision": None,
        "related": [],
        "fingerprint": "0" * 32,
    }
    assert not check.is_valid({**data, "findings": [bad_finding]})
    assert check.is_valid({**data, "findings": [{**bad_finding, "severity": "note"}]})
    assert not check.is_valid({**data, "schemaVersion": 2})
    assert not check.is_valid({**data, "extra": True})


def test_lone_surrogates_are_replaced(ctx: ReportContext, tricky: Report) -> None:
    from msgspec.structs import replace

    broken = replace(tricky.findings[0], message="bad \udcff byte")
    report = Report((broken,), 1, 1)
    for fmt, render in REPORTERS.items():
        out = render(report, ctx)
        out.encode("utf-8")  # would raise on a lone surrogate
        assert "\ufffd" in out or "%EF%BF%BD" in out, fmt
