"""Templates left in a log, from text written for these tests: a file that its name calls a
template in any case or language is not a record, and a date field that still holds a template's
help text is no date (so ADR109 does not ask to rewrite it on every record); a bare
document-type label (``RFC: ``) is not part of a title."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adrguard.cli import main
from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import formats
from adrguard.core.parse.record import parse

RECORD = "# {n}. Pick {n}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"


def rec(text: str) -> Decision:
    data = text.encode()
    return parse(SourceFile(path="docs/adr/0004-pick.md", root="docs/adr", data=data), Options())


@pytest.mark.parametrize(
    "name",
    [
        "TEMPLATE.md", "Template.md", "_template.md", "adr_Template.md", "ADR-TEMPLATE.md",
        "0000-Template.md", "000-modele.md", "Vorlage.md", "PLANTILLA.md", "00-sjabloon.md",
        "模板.md", "decision-record.template.md",
    ],
)
def test_a_name_that_says_template(name: str) -> None:
    assert formats.template_name(f"docs/adr/{name}")


@pytest.mark.parametrize(
    "name",
    [
        "0012-use-a-template-engine.md",  # a record about templates has its number
        "0003-choose-a-modele-for-the-api.md",
        "templates.md",  # another word
        "0007-templated-emails.md",
        "2024-05-01-template-cache.md",
    ],
)
def test_a_record_about_templates_stays_a_record(name: str) -> None:
    assert not formats.template_name(f"docs/adr/{name}")


@pytest.mark.parametrize(
    "value",
    [
        "[YYYY-MM-DD when the decision was written]",
        "{date}",
        "<date of the decision>",
        "AAAA-MM-JJ",
        "TT.MM.JJJJ",
        "dd/mm/yyyy",
        "yyyy-mm-dd (fill in)",
    ],
)
def test_a_date_that_is_template_help_text_is_no_date(value: str) -> None:
    assert formats.date_placeholder(value)
    d = rec(f"# 4. Pick\n\n- Status: proposed\n- Date: {value}\n\n## Context\n\nC.\n")
    assert d.date is None
    d = rec(f"---\nstatus: proposed\ndate: \"{value}\"\n---\n\n# 4. Pick\n")
    assert d.date is None


@pytest.mark.parametrize(
    "value", ["2021-03-04", "[2021-03-04]", "March 4, 2021", "04/03/2021", "TBD", "soon"]
)
def test_a_written_date_is_kept_as_written(value: str) -> None:
    assert not formats.date_placeholder(value)
    assert rec(f"# 4. Pick\n\n- Status: proposed\n- Date: {value}\n").date == value


def test_a_log_with_a_template_and_template_dates_is_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs" / "adr"
    folder.mkdir(parents=True)
    for n in (1, 2, 3):
        text = RECORD.format(n=n).replace(
            "Accepted\n", "Accepted\n\n- Date: [YYYY-MM-DD when it was decided]\n"
        )
        (folder / f"{n:04d}-pick-{n}.md").write_text(text, "utf-8")
    (folder / "TEMPLATE.md").write_text(
        "---\nstatus: {proposed | accepted}\n---\n\n# {short title}\n", "utf-8"
    )
    (folder / "_Template.md").write_text("# [Title]\n\n## Status\n\n[Status]\n", "utf-8")
    assert main(["list", "--repo", str(tmp_path), "--format", "json"]) == 0
    listed = [d["path"] for d in json.loads(capsys.readouterr().out)["decisions"]]
    assert listed == [f"docs/adr/{n:04d}-pick-{n}.md" for n in (1, 2, 3)]
    main(["check", "--repo", str(tmp_path), "--format", "json", "--no-cache"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [f for f in findings if f["severity"] != "note"] == []


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# RFC: Keep one queue per tenant", "Keep one queue per tenant"),
        ("# ADR: Keep one queue per tenant", "Keep one queue per tenant"),
        ("# pep:Keep one queue per tenant", "Keep one queue per tenant"),
        ("# RFC 4: Keep one queue per tenant", "Keep one queue per tenant"),
        ("# RFCs are kept in one folder", "RFCs are kept in one folder"),
    ],
)
def test_a_bare_document_type_label_leaves_the_title(heading: str, title: str) -> None:
    assert rec(f"{heading}\n\n## Status\n\nAccepted\n").title == title
