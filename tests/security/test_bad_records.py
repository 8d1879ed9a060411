"""Attack 3: one bad record never hides the findings of the others. A glob that cannot be
compiled is a finding (front matter) or a ``path:line:col`` error (the impact manifest), and a
rule that crashes on one record is contained to it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from hostile import make_repo, record, run

from adrguard.core.findings import Finding
from adrguard.rules import RULES_BY_CODE, RuleContext

BAD_GLOBS = """---
affected-paths: ["src/[z-a]/**"]
scope: ["lib/[9-0]*.py", "payments"]
---
""" + record(2, "Reversed ranges")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    r = make_repo(tmp_path / "repo", {
        "docs/adr/0001-a.md": record(1) + "\nSee [gone](0009-gone.md).\n",
        "docs/adr/0002-b.md": BAD_GLOBS,
        "src/app.py": "x = 1\n",
    })
    r.write({"src/app.py": "x = 2\n"})
    r.commit("change code")
    monkeypatch.chdir(r.path)
    return r.path


def _findings(out: str) -> list[tuple[str, str, int]]:
    return [(f["code"], f["path"], f["line"]) for f in json.loads(out)["findings"]]


def test_reversed_range_in_front_matter_is_a_finding(repo: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--base", "HEAD~1"]):
        result = run(capsys, "check", "--format", "json", *extra)
        # with --base the change touches only src/app.py: both records' findings are older than
        # it, so they are reported (marked older) without failing the run
        assert result.code == (0 if extra else 1), result.err
        found = _findings(result.out)
        assert ("ADR201", "docs/adr/0001-a.md", 21) in found  # the other record still reports
        bad = [f for f in json.loads(result.out)["findings"] if f["code"] == "ADR110"]
        assert {f["line"] for f in bad} == {2}
        assert sorted(f["message"].split("'")[1] for f in bad) == ["lib/[9-0]*.py", "src/[z-a]/**"]
        assert all("range in brackets must go from low to high" in f["message"] for f in bad)


def test_impact_command_reports_the_bad_glob_as_uncertainty(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(capsys, "impact", "--base", "HEAD~1")
    assert result.code == 0 and "src/[z-a]/**" in result.out and "is ignored" in result.out


def test_reversed_range_in_the_impact_manifest_is_a_located_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = '{"schemaVersion": 1, "mappings": [\n  {"paths": ["src/[z-a]"], "decision": "ADR-0001"}]}'
    (repo / ".adrguard-impact.json").write_text(manifest, encoding="utf-8")
    GitRepo(repo, init=False).commit("map")
    result = run(capsys, "check", "--base", "HEAD~2")
    assert result.code == 2
    assert result.err.startswith("error: .adrguard-impact.json:2:")
    assert "src/[z-a]" in result.err and result.err.count("\n") == 1


def test_a_rule_crashing_on_one_record_hides_nothing_else(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = RULES_BY_CODE["ADR104"]
    original = rule.check

    def crash_on_the_second(self: object, ctx: RuleContext) -> Iterator[Finding]:
        for d in ctx.corpus.decisions:
            if d.number == 2:
                raise KeyError("planted")
        yield from original(self, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(rule, "check", crash_on_the_second)
    result = run(capsys, "check", "--format", "json", "--format", "sarif:out.sarif")
    assert result.code == 3
    assert result.err.startswith("internal error: rule ADR104 failed")
    found = _findings(result.out)
    assert ("ADR000", "docs/adr/0002-b.md", 1) in found
    assert ("ADR201", "docs/adr/0001-a.md", 21) in found
    assert ("ADR110", "docs/adr/0002-b.md", 2) in found
    sarif = json.loads((repo / "out.sarif").read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"ADR000", "ADR201", "ADR110"}


def test_an_id_whose_prefix_is_folded_from_a_non_ascii_letter_is_read_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log whose file names use the prefix KDR, and a note that writes the K as the Kelvin
    sign (U+212A): the case-insensitive id search folds it to k, and the id used to be decoded
    as ASCII (exit 3). It is now read as written and cites the record."""
    r = make_repo(tmp_path / "repo", {
        "docs/adr/KDR-0001-use-k.md": record(1, "Use K"),
        "notes.md": "See \u212aDR-0001 here.\n",
        ".adrguard.toml": "[citations]\nenabled = true\n",
    })
    monkeypatch.chdir(r.path)
    result = run(capsys, "check", "--format", "json", "--no-cache")
    assert result.code == 0, result.err
    shown = run(capsys, "citations", "--format", "json", "--no-cache")
    assert shown.code == 0, shown.err
    assert "\u212aDR-0001" in shown.out
