"""SARIF output: valid against the official SARIF 2.1.0 schema (OASIS, errata 01), complete
rule metadata, stable fingerprints, repository-relative URIs."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema import Draft4Validator, Draft7Validator

from adrguard.core.findings import Finding, Report, Severity, fingerprint
from adrguard.core.model import Location
from adrguard.reporters import REPORTERS, ReportContext, default_context
from adrguard.reporters.sarif import artifact_uri

URI_REFERENCE = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=@/%]*$")


def _sarif(report: Report, ctx: ReportContext) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REPORTERS["sarif"](report, ctx))
    return data


@pytest.mark.parametrize("cls", [Draft4Validator, Draft7Validator])
def test_valid_against_sarif_schema(
    cls: type[Draft7Validator],
    sarif_schema: dict[str, Any],
    tricky: Report,
    clean: Report,
    ctx: ReportContext,
) -> None:
    cls.check_schema(sarif_schema)
    check = cls(sarif_schema)
    for report in (tricky, clean):
        errors = sorted(check.iter_errors(_sarif(report, ctx)), key=str)
        assert errors == [], errors[0].message if errors else ""


def test_schema_really_checks(
    sarif_schema: dict[str, Any], tricky: Report, ctx: ReportContext
) -> None:
    check = Draft7Validator(sarif_schema)
    data = _sarif(tricky, ctx)
    data["runs"][0]["results"][0]["level"] = "fatal"
    assert not check.is_valid(data)
    data = _sarif(tricky, ctx)
    del data["runs"][0]["results"][0]["message"]
    assert not check.is_valid(data)


def test_driver_lists_every_catalogue_rule(tricky: Report, ctx: ReportContext) -> None:
    driver = _sarif(tricky, ctx)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "adrguard" and driver["version"] == "9.8.7"
    assert driver["informationUri"] == "https://github.com/adrguard/adrguard"
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [m.code for m in ctx.rules]
    by_id = {r["id"]: r for r in rules}
    assert by_id["ADR303"]["helpUri"] == (
        "https://github.com/adrguard/adrguard/blob/main/docs/rules/ADR303.md"
    )
    assert by_id["ADR303"]["fullDescription"]["text"].startswith("Records supersede each other")
    assert by_id["ADR104"]["fullDescription"]["text"] == "A required section is absent."
    assert by_id["ADR105"]["defaultConfiguration"] == {"level": "warning", "enabled": False}
    assert by_id["ADR501"]["defaultConfiguration"] == {"level": "note"}
    assert all(r["name"] and r["shortDescription"]["text"] for r in rules)


def test_results_point_at_rules_and_files(tricky: Report, ctx: ReportContext) -> None:
    run = _sarif(tricky, ctx)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) == len(tricky.findings)
    for result, finding in zip(results, tricky.findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding.code
        assert (
            result["level"]
            == {"error": "error", "warning": "warning", "note": "note"}[finding.severity.label]
        )
        assert result["message"]["text"] == finding.message
        assert result["partialFingerprints"] == {"adrguard/v1": fingerprint(finding)}
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        uri = loc["artifactLocation"]["uri"]
        assert URI_REFERENCE.match(uri), uri
        parts = urlsplit(uri)
        assert not parts.scheme and not parts.netloc and not parts.query and not parts.fragment
        assert unquote(uri) == finding.location.path
        assert loc["region"] == {
            "startLine": finding.location.line,
            "startColumn": finding.location.column,
        }


def test_fingerprints_survive_line_moves(ctx: ReportContext) -> None:
    a = Finding("ADR303", "relationship-cycle", Severity.ERROR, "m", Location("a.md", 3, 1), "X")
    b = Finding("ADR303", "relationship-cycle", Severity.ERROR, "m", Location("a.md", 40, 7), "X")
    fa = _sarif(Report((a,), 1, 1), ctx)["runs"][0]["results"][0]["partialFingerprints"]
    fb = _sarif(Report((b,), 1, 1), ctx)["runs"][0]["results"][0]["partialFingerprints"]
    assert fa == fb


def test_unknown_code_gets_a_descriptor(sarif_schema: dict[str, Any], ctx: ReportContext) -> None:
    f = Finding("ADR999", "from-the-future", Severity.WARNING, "m", Location("a.md", 0, 0))
    data = _sarif(Report((f,), 1, 1), ctx)
    Draft7Validator(sarif_schema).validate(data)
    run = data["runs"][0]
    result = run["results"][0]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "ADR999"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1,
        "startColumn": 1,
    }


def test_artifact_uri_encoding() -> None:
    assert artifact_uri("docs/adr/0001-a b.md") == "docs/adr/0001-a%20b.md"
    assert artifact_uri("docs/x#1?.md") == "docs/x%231%3F.md"
    assert artifact_uri("c:/x/100%.md") == "c%3A/x/100%25.md"
    assert artifact_uri("docs/café.md") == "docs/caf%C3%A9.md"


def test_default_context_covers_every_registered_rule(
    sarif_schema: dict[str, Any], tricky: Report
) -> None:
    from adrguard import __version__
    from adrguard.rules import ALL_RULES

    ctx = default_context()
    assert ctx.version == __version__
    assert [m.code for m in ctx.rules] == sorted(r.meta.code for r in ALL_RULES)
    data = _sarif(tricky, ctx)
    Draft7Validator(sarif_schema).validate(data)
    rules = data["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {r.meta.code for r in ALL_RULES}
    assert all(r["fullDescription"]["text"] for r in rules)
