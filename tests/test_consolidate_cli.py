"""`adrguard consolidate ID... --title T` and `--accept NEW` (issue 33, point 1), and
`compaction --mode consolidate`: one proposed record in the log's own style that quotes and
links each source's decision and consequences and lists the open conflicts; accepting it marks
every source superseded in one step. Real temporary git repositories, through the CLI
in-process; what is written is read back by `relationships` and `check`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from compactionrepo import build, status
from gitrepo import GitRepo

from adrguard.cli import main

DRAFT = "docs/adr/0011-expose-a-versioned-paginated-rest-api.md"
TITLE = "Expose a versioned, paginated REST API"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _relations(capsys: pytest.CaptureFixture[str], repo: GitRepo,
               state: str = "resolved") -> set[tuple[str, str, str]]:
    """Relations in ``state`` (a proposal's supersedes: "inconsistent" until it is accepted
    and the old side says so)."""
    code, out, _ = run(capsys, "relationships", "--repo", str(repo.path), "--format", "json",
                       "--no-cache")
    assert code == 0
    return {(r["source"], r["type"], r["target"]) for r in json.loads(out)["relationships"]
            if r["state"] == state}


def _findings(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> list[str]:
    _code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--no-cache", "--format",
                        "concise", "--no-baseline")
    return [line for line in out.splitlines() if line]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path)


def test_draft_then_accept_in_a_nygard_log(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    where = ("--repo", str(repo.path), "--today", "2024-03-01")
    before = {p: (repo.path / p).read_bytes() for p in (
        "docs/adr/0003-expose-a-rest-api.md", "docs/adr/0005-version-the-api.md",
        "docs/adr/0007-paginate-the-api.md")}
    findings_before = _findings(capsys, repo)
    code, out, err = run(capsys, "consolidate", "3", "ADR-0005", "docs/adr/0007-paginate-the-api.md",
                         "--title", TITLE, *where)
    assert code == 0 and out == f"{DRAFT}\n", err
    assert "review docs/adr/0011" in err and "no open conflict" in err
    text = (repo.path / DRAFT).read_text(encoding="utf-8")
    # the log's own layout, the relation lines in its form, one section per source
    assert text.startswith("# 11. Expose a versioned, paginated REST API\n\nDate: 2024-03-01\n\n"
                           "## Status\n\nProposed\n\n"
                           "Supersedes [3. Expose a REST API](0003-expose-a-rest-api.md)\n\n"
                           "Supersedes [5. Version the API](0005-version-the-api.md)\n\n"
                           "Supersedes [7. Paginate the API](0007-paginate-the-api.md)\n\n"
                           "## Context\n")
    assert "### ADR-0005: Version the API\n\nIts decision ([5. Version the API]" \
           "(0005-version-the-api.md#decision), accepted):\n\n> We version the api.\n" in text
    assert "Its consequences ([7. Paginate the API](0007-paginate-the-api.md#consequences)):" \
           "\n\n> We live with it.\n" in text
    assert "### Open conflicts\n\nNone that adrguard can see" in text
    assert text.index("## Decision\n") < text.index("### ADR-0003") < text.index("## Consequences")
    # the sources are untouched while the draft is a proposal; the draft adds no finding
    assert {p: (repo.path / p).read_bytes() for p in before} == before
    added = [f for f in _findings(capsys, repo) if f not in findings_before]
    assert [f for f in added if not f.startswith("docs/adr/CURRENT.md")] == [], added
    assert {("ADR-0011", "supersedes", f"ADR-000{n}") for n in (3, 5, 7)} <= _relations(
        capsys, repo, "inconsistent")

    # accepting: refused while the draft marker is there
    code, _, err = run(capsys, "consolidate", "--accept", "11", *where)
    assert code == 2 and "draft marker" in err
    (repo.path / DRAFT).write_text(text.replace("<!-- adrguard:consolidation-draft -->\n\n", ""),
                                   encoding="utf-8")
    code, out, err = run(capsys, "consolidate", "--accept", "11", *where)
    assert code == 0, err
    assert sorted(out.splitlines()) == sorted([DRAFT, *before])
    accepted = (repo.path / DRAFT).read_text(encoding="utf-8")
    assert "## Status\n\nAccepted\n\nSupersedes [3." in accepted
    for path in before:
        assert "Superseded by [11. Expose a versioned, paginated REST API]" \
               "(0011-expose-a-versioned-paginated-rest-api.md)" in \
               (repo.path / path).read_text(encoding="utf-8")
    rels = _relations(capsys, repo)
    assert {(f"ADR-000{n}", "superseded-by", "ADR-0011") for n in (3, 5, 7)} <= rels
    assert {("ADR-0011", "supersedes", f"ADR-000{n}") for n in (3, 5, 7)} <= rels
    # no relation problem, no broken link: only the CURRENT view is stale (it covered them)
    after = [f for f in _findings(capsys, repo) if f not in findings_before]
    assert all(f.startswith("docs/adr/CURRENT.md") and " ADR407 " in f for f in after), after
    # accepting again does nothing
    code, out, err = run(capsys, "consolidate", "--accept", "11", *where)
    assert (code, out) == (0, "") and "nothing to do" in err
    # git puts everything back
    repo.git("checkout", "--", ".")
    (repo.path / DRAFT).unlink()
    assert status(repo) == ""


def test_the_draft_is_deterministic_and_compaction_mode_writes_the_same(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "copy"
    shutil.copytree(repo.path, other)
    code, out, _ = run(capsys, "consolidate", "3,5", "7", "--title", TITLE, "--repo",
                       str(repo.path), "--today", "2024-03-01", "--dry-run")
    assert code == 0 and out.startswith(f"==> {DRAFT} (new) <==\n")
    assert not (repo.path / DRAFT).exists()
    assert run(capsys, "consolidate", "3", "5", "7", "--title", TITLE, "--repo",
               str(repo.path), "--today", "2024-03-01")[0] == 0
    code, _, err = run(capsys, "compaction", "--mode", "consolidate", "--sources", "3,5,7",
                       "--title", TITLE, "--today", "2024-03-01", "--repo", str(other))
    assert code == 0, err
    assert (repo.path / DRAFT).read_bytes() == (other / DRAFT).read_bytes()
    assert out.split("<==\n", 1)[1] == (other / DRAFT).read_text(encoding="utf-8")


MADR = """---
status: {status}
date: 2023-0{n}-11
{extra}---
# {title}

## Context and Problem Statement

Problem {n}.

## Decision Outcome

{decision}

### Positive Consequences

* Good {n}.

### Negative Consequences

* Bad {n}.
"""


def _madr(n: int, title: str, status: str, extra: str = "", decision: str = "") -> str:
    return MADR.format(n=n, title=title, status=status, extra=extra,
                       decision=decision or f'Chosen option: "{title}".')


def test_conflicts_front_matter_lists_and_a_fenced_quote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "madr")
    repo.write({
        ".adrguard.toml": "cache = false\n",
        "docs/decisions/0001-use-json.md": _madr(1, "Use JSON", "accepted",
                                                 "amended-by: 0004-no-bom.md\n"),
        "docs/decisions/0002-use-utf-8.md": _madr(2, "Use UTF-8", "accepted", "",
                                                  "We use UTF-8. This supersedes 0009-old.md."),
        "docs/decisions/0003-try-yaml.md": _madr(3, "Try YAML", "proposed",
                                                 "depends-on: 0007-gone.md\n"),
        "docs/decisions/0004-no-bom.md": _madr(4, "No BOM", "accepted",
                                               "amends: 0001-use-json.md\n"),
    })
    repo.commit("records")
    where = ("--repo", str(repo.path), "--today", "2023-06-01")
    code, out, err = run(capsys, "consolidate", "1", "2", "3", "--title", "Text formats", *where)
    assert code == 0, err
    path = repo.path / out.strip()
    text = path.read_text(encoding="utf-8")
    assert "supersedes: [0001-use-json.md, 0002-use-utf-8.md, 0003-try-yaml.md]\n" in text
    assert text.startswith("---\nstatus: proposed\n")
    assert "**Positive Consequences**" in text and "> * Bad 1." in text
    # a quote that would declare a relation in the draft is fenced, not blockquoted
    assert "```markdown\nWe use UTF-8. This supersedes 0009-old.md.\n```" in text
    found = text.split("### Open conflicts\n\n", 1)[1]
    assert "- ADR-0001 is amended by ADR-0004 (accepted), not a source" in found
    assert "- ADR-0003 is proposed: it was never in force" in found
    assert "- ADR-0003 declares depends-on '0007-gone.md', which is unresolved" in found
    assert "ADR-0002 declares supersedes '0009-old.md', which is unresolved" in found
    assert "4 open conflict(s) listed in the draft" in err
    assert {("ADR-0005", "supersedes", f"ADR-000{n}") for n in (1, 2, 3)} <= _relations(
        capsys, repo, "inconsistent")

    # accept: the draft's status, and each source in force marked (the proposal left as it is)
    path.write_text(text.replace("<!-- adrguard:consolidation-draft -->\n", ""), encoding="utf-8")
    code, out, err = run(capsys, "consolidate", "--accept", "ADR-0005", *where)
    assert code == 0, err
    assert "ADR-0003 is proposed: left as it is" in err
    assert path.read_text(encoding="utf-8").startswith("---\nstatus: accepted\n")
    json_rec = (repo.path / "docs/decisions/0001-use-json.md").read_text(encoding="utf-8")
    assert json_rec.startswith("---\nstatus: superseded\n")
    assert "superseded-by: 0005-text-formats.md\n" in json_rec
    rels = _relations(capsys, repo)
    assert {("ADR-0001", "superseded-by", "ADR-0005"),
            ("ADR-0002", "superseded-by", "ADR-0005")} <= rels


def test_refusals(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    where = ("--repo", str(repo.path))
    for argv, says in (
        (["3", "--title", "X"], "two or more records"),
        (["3", "3", "--title", "X"], "named twice"),
        (["3", "ADR-0000", "--title", "X"], "is archived"),
        (["3", "5"], "give the new record's title"),
        (["3", "5", "--title", "X", "--status", "accepted"], "written as a proposal"),
        (["--accept", "3"], "supersedes no record"),
        (["--accept", "3", "5"], "give no ID or --title"),
    ):
        code, out, err = run(capsys, "consolidate", *argv, *where)
        assert (code, out) == (2, "") and says in err, (argv, err)
    assert status(repo) == ""


def test_a_record_of_one_piece_is_quoted_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record without sections (its body under the title and the header lines decides) is
    quoted from below its header lines: its status line is not quoted into the draft."""
    one = "# Use tabs\n\n- Status: accepted\n- Date: 2020-01-02\n\nWe indent with tabs.\nAlways.\n"
    two = "# Use spaces in YAML\n\n- Status: accepted\n- Date: 2020-01-03\n\nYAML needs spaces.\n"
    repo = GitRepo(tmp_path / "l4b")
    repo.write({".adrguard.toml": "cache = false\n",
                "docs/adr/20200102-use-tabs.md": one,
                "docs/adr/20200103-use-spaces-in-yaml.md": two})
    repo.commit("records")
    code, out, err = run(capsys, "consolidate", "20200102-use-tabs", "20200103-use-spaces-in-yaml",
                         "--title", "Indentation", "--repo", str(repo.path), "--today",
                         "2020-02-01")
    assert code == 0, err
    text = (repo.path / out.strip()).read_text(encoding="utf-8")
    assert "What it says ([20200102-use-tabs](20200102-use-tabs.md), accepted):\n\n" \
           "> We indent with tabs.\n> Always.\n" in text
    assert "> - Status" not in text
