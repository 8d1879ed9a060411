"""`adrguard new` and `adrguard supersede` in logs unlike adr-tools and MADR (issue 28, point 4):
the log's own status words and language, its file-name scheme, its template or the sections its
latest records share, its metadata table, its dated status entries and the case of its words.
Each log is a real temporary git repository of records written here; what was written must read
back as written and leave `adrguard check` clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard import api
from adrguard.api.pipeline.corpus import load_with
from adrguard.cli import main
from adrguard.config import load_config
from adrguard.core.model import Decision, RelKind, Status


def _repo(tmp_path: Path, files: dict[str, str], config: str = "") -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({**files, ".adrguard.toml": "cache = false\n" + config})
    repo.commit("records")
    assert _findings(repo) == []
    return repo


def _findings(repo: GitRepo) -> list[str]:
    report = api.check(repo.path, baseline=False)
    return [f"{f.code} {f.location.path}:{f.location.line} {f.message}" for f in report.findings]


def _run(repo: GitRepo, *args: str) -> int:
    return main([*args, "--repo", str(repo.path), "--today", "2024-06-01"])


def _record(repo: GitRepo, path: str) -> Decision:
    corpus = load_with(repo.path, load_config(repo.path))
    return corpus.by_path[path]


def _text(repo: GitRepo, path: str) -> str:
    return (repo.path / path).read_text("utf-8")


# --- the log's status words, in its language ----------------------------------------------

FRENCH = """# {n}. {title}

* Statut : accepté
* Date : 2023-0{n}-05

## Contexte

Contexte {n}.

## Décision

Décision {n}.
"""
SPANISH = """# {n}. {title}

Estado: aceptada

## Contexto

Contexto {n}.

## Decisión

Decisión {n}.
"""
GERMAN = """# {n}. {title}

## Status

Akzeptiert

## Kontext

Kontext {n}.

## Entscheidung

Entscheidung {n}.
"""


@pytest.mark.parametrize(
    ("template", "proposed", "accepted", "superseded"),
    [
        (FRENCH, "* Statut : proposé", "* Statut : accepté", "* Statut : remplacé par [4. "),
        (SPANISH, "Estado: propuesta", "Estado: aceptada", "Estado: reemplazada por [4. "),
        (GERMAN, "Vorgeschlagen", "Akzeptiert", "Ersetzt durch [4. "),
    ],
    ids=["french", "spanish-feminine", "german"],
)
def test_a_status_the_log_never_wrote_is_written_in_the_logs_language(
    template: str, proposed: str, accepted: str, superseded: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md": template.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "new", "Utiliser Kafka") == 0
    path = capsys.readouterr().out.strip()
    assert proposed in _text(repo, path).splitlines(), _text(repo, path)
    assert _record(repo, path).status is Status.PROPOSED
    assert _findings(repo) == []
    repo.remove([path])
    assert _run(repo, "supersede", "3", "Utiliser Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert accepted in _text(repo, new).splitlines()
    assert any(line.startswith(superseded) for line in _text(repo, old).splitlines())
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _record(repo, new).status is Status.ACCEPTED
    assert _findings(repo) == []


# --- the log's file names --------------------------------------------------------------------

NYGARD = """# {n}. {title}

Date: 2023-01-0{n}

## Status

Accepted

## Context

Context {n}.

## Decision

Decision {n}.
"""


@pytest.mark.parametrize(
    ("names", "new"),
    [
        (("RFC-1.md", "RFC-2.md", "RFC-3.md"), "RFC-4.md"),  # a prefix and a number: no slug
        (("adr-01.md", "adr-02.md", "adr-03.md"), "adr-04.md"),
        (("adr-keep-logs.md", "adr-ship-daily.md", "adr-use-rust.md"), "adr-use-kafka.md"),
        (("2023-01-05_001-keep-logs.md", "2023-02-05_002-ship-daily.md",
          "2023-03-05_003-use-rust.md"), "2024-06-01_004-use-kafka.md"),  # a number after the date
    ],
    ids=["prefix-number", "padded-prefix-number", "plain-prefixed", "date-then-number"],
)
def test_a_new_record_is_named_in_the_logs_scheme(
    names: tuple[str, ...], new: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/{name}": NYGARD.format(n=i + 1, title=f"Record {i + 1}")
             for i, name in enumerate(names)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "new", "Use Kafka") == 0
    assert capsys.readouterr().out.strip() == f"docs/adr/{new}"
    assert _record(repo, f"docs/adr/{new}").title == "Use Kafka"
    assert _findings(repo) == []


# --- the log's sections: its template, else what its latest records share -------------------

RFC = """# {n}. {title}

## Status

Accepted

## Summary

Summary {n}.
{more}"""
RICH = """
## Motivation

Why {n}.

## Alternatives

Other ways {n}.
"""
TEMPLATE = """# [short title of the decision]

## Status

[proposed | accepted | rejected]

## Summary

## Motivation

## Alternatives

### [option 1]

### Option 2 - $NAME

## Unresolved questions
"""


def test_a_new_record_has_the_sections_of_the_logs_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md": RFC.format(n=n, title=f"Record {n}", more="")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, {**files, "docs/adr/template.md": TEMPLATE})
    assert _run(repo, "new", "Use Kafka") == 0
    headings = [ln for ln in _text(repo, "docs/adr/0004-use-kafka.md").splitlines()
                if ln.startswith("#")]
    assert headings == ["# 4. Use Kafka", "## Status", "## Summary", "## Motivation",
                        "## Alternatives", "## Unresolved questions"]
    assert _findings(repo) == []


def test_a_new_record_has_the_sections_the_logs_latest_records_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/{n:04d}-record-{n}.md":
             RFC.format(n=n, title=f"Record {n}", more=RICH.format(n=n) if n > 10 else "")
             for n in range(1, 17)}  # the layout grew at record 11
    repo = _repo(tmp_path, files)
    assert _run(repo, "new", "Use Kafka") == 0
    headings = [ln for ln in _text(repo, "docs/adr/0017-use-kafka.md").splitlines()
                if ln.startswith("## ")]
    assert headings == ["## Status", "## Summary", "## Motivation", "## Alternatives"]
    assert _findings(repo) == []


# --- a metadata table ----------------------------------------------------------------------

TABLE = """# ADR-{n:03d}: {title}

| Field | Value |
|-------|-------|
| Status | Accepted |
| Date | 2023-0{n}-04 |
| Owner | Team {n} |

## Context

Context {n}.

## Decision

Decision {n}.
"""


def test_a_log_with_a_metadata_table_gets_its_table_and_its_rows_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/{n:03d}-record-{n}.md": TABLE.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "new", "Use Kafka") == 0
    path = capsys.readouterr().out.strip()
    text = _text(repo, path)
    assert ("| Field | Value |\n|-------|-------|\n| Status | Proposed |\n| Date | 2024-06-01 |\n"
            "| Owner |        |\n") in text, text  # the value left to the author
    assert _record(repo, path).status is Status.PROPOSED
    assert _findings(repo) == []
    repo.remove([path])
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert "| Status | Superseded by [4. Use Kafka](004-use-kafka.md) |\n" in _text(repo, old)
    assert "| Status | Accepted |\n| Supersedes | [3. Record 3](003-record-3.md) |\n" in _text(
        repo, new)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert [r.kind for r in _record(repo, new).relationships] == [RelKind.SUPERSEDES]
    assert _findings(repo) == []


# --- what --dry-run prints ends its last line ----------------------------------------------


def test_dry_run_output_ends_its_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = {f"docs/adr/000{n}-record-{n}.md": NYGARD.format(n=n, title=f"Record {n}").rstrip("\n")
            for n in (1, 2, 3)}  # records whose last line (the status) has no line ending
    repo = _repo(tmp_path, {k: v.replace("## Context", "## Zcontext") for k, v in last.items()})
    repo.write({k: v.split("## Status")[0] + "## Status\n\nAccepted" for k, v in last.items()})
    repo.commit("status last")
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted", "--dry-run") == 0
    out = capsys.readouterr().out
    assert out.endswith("\n")
    assert "-Accepted\n\\ No newline at end of file\n+Superseded by [4. Use Kafka]" in out, out
    repo.write({"docs/template.md": "# {{number}}. {{title}}\n\nDate: {{date}}\n\n## Status\n\n"
                "{{status}}",  # a template without a final line ending
                ".adrguard.toml": 'cache = false\ntemplate = "docs/template.md"\n'})
    assert _run(repo, "new", "Use Kafka", "--dry-run") == 0
    assert capsys.readouterr().out.endswith("\n\nProposed\n")
    assert _run(repo, "new", "Use Kafka") == 0
    assert _text(repo, capsys.readouterr().out.strip()).endswith("\n\nProposed\n")


# --- dated status entries and the case of the log's words ----------------------------------

DATED = """# {n}. {title}

## Status

2023-0{n}-01 proposed

2023-0{n}-04 accepted

## Context

Context {n}.

## Decision

Decision {n}.
"""


def test_a_lower_case_log_of_dated_entries_gets_dated_lower_case_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md": DATED.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert "\n## Status\n\n2024-06-01 accepted\n" in _text(repo, new)
    assert ("2023-03-04 accepted\n\n2024-06-01 superseded by [4. Use Kafka](0004-use-kafka.md)\n"
            in _text(repo, old)), _text(repo, old)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _record(repo, new).status is Status.ACCEPTED
    assert _findings(repo) == []


# --- the markup around a status line's label and value -------------------------------------

LABELLED = """# {n}. {title}

{status}
- **Date:** 2023-0{n}-04

## Context

Context {n}.
"""


@pytest.mark.parametrize(
    ("accepted", "proposed", "superseded"),
    [
        ("- **Status:** Accepted", "- **Status:** Proposed", "- **Status:** Superseded by [4. "),
        ("- Status: **accepted**", "- Status: **proposed**", "- Status: **superseded by [4. "),
        ("- **Status**: Accepted", "- **Status**: Proposed", "- **Status**: Superseded by [4. "),
    ],
    ids=["emphasis-closes-after-colon", "emphasised-value", "emphasised-label"],
)
def test_the_markup_of_a_status_line_is_kept(
    accepted: str, proposed: str, superseded: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md":
             LABELLED.format(n=n, title=f"Record {n}", status=accepted) for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "new", "Use Kafka") == 0
    path = capsys.readouterr().out.strip()
    assert proposed in _text(repo, path).splitlines(), _text(repo, path)
    assert _findings(repo) == []
    repo.remove([path])
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert any(line.startswith(superseded) for line in _text(repo, old).splitlines()), _text(
        repo, old)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _record(repo, new).status is Status.ACCEPTED
    assert _findings(repo) == []


# --- a front-matter relation key the log keeps empty -----------------------------------------

EMPTY_KEY = """---
status: accepted
date: 2023-0{n}-04
superseded_by: ''
---

# {title}

## Context

Context {n}.
"""


def test_an_empty_relation_key_of_the_old_record_is_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md": EMPTY_KEY.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert "\nstatus: superseded\n" in _text(repo, old)
    assert "\nsuperseded_by: 'ADR-0004'\n" in _text(repo, old), _text(repo, old)
    assert "\nsupersedes: ADR-0003\n" in _text(repo, new), _text(repo, new)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert [r.kind for r in _record(repo, old).relationships] == [RelKind.SUPERSEDED_BY]
    assert _findings(repo) == []


LISTED = """# {n}. {title}

## Status

- 2023-0{n}-01: Proposed
- 2023-0{n}-04: Accepted
- 2023-0{n}-09: Edited (typos)

## Context

Context {n}.
"""


def test_a_history_kept_as_a_list_gets_a_list_entry_after_its_last_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/000{n}-record-{n}.md": LISTED.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert "\n## Status\n\n- 2024-06-01: Accepted\n" in _text(repo, new)
    assert ("- 2023-03-09: Edited (typos)\n- 2024-06-01: Superseded by [4. Use Kafka]"
            "(0004-use-kafka.md)\n\n## Context") in _text(repo, old), _text(repo, old)
    assert _record(repo, new).status is Status.ACCEPTED
    assert [r.kind for r in _record(repo, old).relationships] == [RelKind.SUPERSEDED_BY]


# --- front matter: what the latest records carry, and always the title ----------------------

STUB = """---
rfc: {n}
status: Moved
---

Moved to the other repository.
"""
FRONT = """---
rfc: {n}
title: {title}
status: Final
created: 2023-01-0{n}
---

## Abstract

Abstract {n}.
"""


def test_a_log_that_writes_titles_in_front_matter_gets_a_title_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"rfcs/rfc-{n}.md": (STUB if n < 6 else FRONT).format(n=n, title=f"Record {n}")
             for n in range(1, 10)}  # five early stubs without a title, then four records
    repo = GitRepo(tmp_path / "repo")
    repo.write({**files, ".adrguard.toml": 'cache = false\nroots = ["rfcs"]\n'})
    repo.commit("records")
    before = _findings(repo)  # the stubs have no title: ADR101
    assert _run(repo, "new", "Use Kafka") == 0
    path = capsys.readouterr().out.strip()
    assert path == "rfcs/rfc-10.md"
    assert _text(repo, path).startswith(
        "---\nrfc: 10\ntitle: Use Kafka\nstatus: Proposed\ncreated: 2024-06-01\n---\n"), _text(
        repo, path)
    assert _record(repo, path).title == "Use Kafka"
    assert _findings(repo) == before


def test_a_table_value_keeps_its_emphasis_and_its_column_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shape = TABLE.replace("| Status | Accepted |", "| State  | **ACCEPTED**     |").replace(
        "| Field | Value |\n|-------|-------|", "| Field  | Value            |\n|--------|------------------|")
    files = {f"docs/adr/{n:03d}-record-{n}.md": shape.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert "\n| State  | **ACCEPTED**     |\n" in _text(repo, new), _text(repo, new)
    assert "\n| State  | **SUPERSEDED BY [4. Use Kafka](004-use-kafka.md)** |\n" in _text(
        repo, old), _text(repo, old)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _record(repo, new).status is Status.ACCEPTED
    assert _findings(repo) == []


# --- a relation line the log keeps with no value yet ----------------------------------------

PLACEHOLDER_LINES = """# ADR-{n:03d}: {title}

- **Date:** 2023-0{n}-04
- **Status:** Accepted
- **Supersedes:** None
- **Superseded by:** _n/a_

## Context

Context {n}.
"""


def test_a_relation_line_the_log_keeps_empty_is_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"docs/adr/ADR-{n:03d}-record-{n}.md":
             PLACEHOLDER_LINES.format(n=n, title=f"Record {n}") for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    text = _text(repo, old)
    assert ("- **Status:** Superseded\n- **Supersedes:** None\n"
            "- **Superseded by:** [4. Use Kafka](ADR-004-use-kafka.md)\n") in text, text
    assert [r.kind for r in _record(repo, old).relationships] == [RelKind.SUPERSEDED_BY]
    assert [r.kind for r in _record(repo, new).relationships] == [RelKind.SUPERSEDES]
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _findings(repo) == []


# --- a status stated twice; subsections under their section ---------------------------------

TWICE = """---
title: {title}
status: Accepted
---

# {n}. {title}

## Status

Accepted

## Context

Context {n}.

## Consequences

{more}
"""


def test_a_log_that_states_its_status_twice_gets_both_written_and_both_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    more = ("Nothing.", "### Positive\n\nFast.\n\n### Negative\n\nCostly.")
    files = {f"docs/adr/000{n}-record-{n}.md":
             TWICE.format(n=n, title=f"Record {n}", more=more[n > 1]) for n in (1, 2, 3)}
    repo = _repo(tmp_path, files)
    assert _run(repo, "supersede", "3", "Use Kafka", "--status", "accepted") == 0
    new, old = capsys.readouterr().out.split()
    text = _text(repo, new)
    assert text.startswith("---\ntitle: Use Kafka\nstatus: Accepted\n---\n\n# 4. Use Kafka\n\n"
                           "## Status\n\nAccepted\n"), text
    headings = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert headings == ["# 4. Use Kafka", "## Status", "## Context", "## Consequences",
                        "### Positive", "### Negative", "## Links"]  # subsections in place
    successor = "Superseded by [4. Use Kafka](0004-use-kafka.md)"
    assert f"\nstatus: {successor}\n" in _text(repo, old)
    assert f"\n## Status\n\n{successor}\n" in _text(repo, old)
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _findings(repo) == []


HEADER_ROW = """# {title}

| Status      | Accepted |
:------------ |:-------- |
| **Author**  | Team {n} |

## Objective

Objective {n}.
"""


def test_a_table_headed_by_its_status_row_gets_relation_rows_below_its_delimiter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f"rfcs/2023010{n}-record-{n}.md": HEADER_ROW.format(n=n, title=f"Record {n}")
             for n in (1, 2, 3)}
    repo = _repo(tmp_path, files, 'roots = ["rfcs"]\n')
    assert _run(repo, "supersede", "rfcs/20230103-record-3.md", "Use Kafka", "--status",
                "accepted") == 0
    new, old = capsys.readouterr().out.split()
    assert ("| Status      | Accepted |\n:------------ |:-------- |\n| Supersedes | [Record 3]"
            "(20230103-record-3.md) |\n| **Author**  |        |\n") in _text(repo, new), _text(
        repo, new)
    assert _record(repo, new).status is Status.ACCEPTED
    assert _record(repo, old).status is Status.SUPERSEDED
    assert _findings(repo) == []


def test_a_status_line_one_record_writes_is_no_habit_of_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "# Record {n}\n\n## Summary\n\nSummary {n}.\n\n## Design\n\nDesign {n}.\n"
    files = {f"docs/adr/000{n}-record-{n}.md": body.format(n=n) for n in range(1, 6)}
    files["docs/adr/0003-record-3.md"] += "\n- Steps:\n    - State: accepted, then running\n"
    repo = GitRepo(tmp_path / "repo")
    repo.write({**files, ".adrguard.toml": "cache = false\n"})
    repo.commit("records")
    assert _record(repo, "docs/adr/0003-record-3.md").statuses  # the parser reads one there
    assert _run(repo, "new", "Use Kafka") == 0
    path = capsys.readouterr().out.strip()
    text = _text(repo, path)
    assert "State" not in text and "\n## status\n\nproposed\n" in text.casefold(), text
    assert _record(repo, path).status is Status.PROPOSED
