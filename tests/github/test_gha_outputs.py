"""``$GITHUB_OUTPUT``: the multiline-safe delimiter syntax, and the JSON report round trip."""

from __future__ import annotations

from pathlib import Path

from gha_helpers import parse_outputs

from adrguard.cli.gha import Settings, outcome_code, report_from_json, write_outputs
from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Location
from adrguard.reporters import default_context
from adrguard.reporters.json import report_data


def test_multiline_values_cannot_forge_other_outputs(tmp_path: Path) -> None:
    target = tmp_path / "output"
    target.write_text("", encoding="utf-8")
    tricky = "line 1\nerror-count=999\nEOF\nghadelimiter_x\n"
    write_outputs(Settings({"GITHUB_OUTPUT": str(target)}), {"report-json": tricky, "exit-code": "1"})
    assert parse_outputs(target.read_text(encoding="utf-8")) == {"report-json": tricky,
                                                                 "exit-code": "1"}


def test_no_output_file_is_fine() -> None:
    write_outputs(Settings({}), {"exit-code": "0"})


def test_json_report_round_trip() -> None:
    f = Finding("ADR201", "broken-link", Severity.ERROR, "broken", Location("a.md", 3, 2),
                decision_id="ADR-0001", related=("b.md",))
    report = Report((f,), decisions=2, files=3, profile="strict")
    again = report_from_json(report_data(report, default_context()))
    assert again == report
    assert outcome_code(again, "none") == 1 and outcome_code(again, "error") == 1
    assert outcome_code(Report((), 1, 1), "note") == 0
