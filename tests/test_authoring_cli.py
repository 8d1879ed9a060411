"""`adrguard new` and `adrguard supersede` end to end: real temporary git repositories in each
supported format and naming scheme, the real CLI, and `adrguard check` on what was written."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard import api
from adrguard.api.pipeline.corpus import load_with
from adrguard.cli import main
from adrguard.config import load_config
from adrguard.core.model import Corpus, RelKind, Status

NYGARD = """# {n}. {title}

Date: 2023-0{n}-05

## Status

Accepted

## Context

Context {n}.

## Decision

Decision {n}.

## Consequences

Consequences {n}.
"""

MADR2 = """# {title}

* Status: accepted
* Date: 2020-0{n}-10

## Context and Problem Statement

Problem {n}.

## Considered Options

* A
* B

## Decision Outcome

Chosen option: "A".
"""

MADR3 = """---
status: accepted
date: 2023-0{n}-11
---
# {title}

## Context and Problem Statement

Problem {n}.

## Considered Options

* JSON
* YAML

## Decision Outcome

Chosen option: "JSON".

### Consequences

* Good, because simple.
"""

FRONT = """---
title: "ADR-00{n}: {title}"
status: Accepted
date: 2021-03-0{n}
---

## Context

Context {n}.

## Decision

Decision {n}.
"""


@dataclass(frozen=True)
class Log:
    """A log of two accepted records, and what a new third record of it looks like."""

    names: tuple[str, str]  # the two records' paths
    template: str
    new_path: str  # `new "Use Kafka"` on 2024-06-01
    marker: str  # a line the new record holds, in the log's own form
    old_key: str  # how `supersede` names the second record


LOGS = {
    "nygard": Log(("docs/adr/0001-first-thing.md", "docs/adr/0002-second-thing.md"), NYGARD,
                  "docs/adr/0003-use-kafka.md", "Date: 2024-06-01", "2"),
    "madr2-bullets": Log(("docs/adr/0001-first-thing.md", "docs/adr/0002-second-thing.md"),
                         MADR2, "docs/adr/0003-use-kafka.md", "* Status: proposed", "ADR-0002"),
    "madr3-front-matter": Log(
        ("docs/decisions/0001-first-thing.md", "docs/decisions/0002-second-thing.md"), MADR3,
        "docs/decisions/0003-use-kafka.md", "status: proposed", "2"),
    "log4brains-dated": Log(
        ("docs/adr/20200110-first-thing.md", "docs/adr/20200211-second-thing.md"), MADR2.replace(
            "* Status", "- Status").replace("* Date", "- Date"),
        "docs/adr/20240601-use-kafka.md", "- Status: proposed",
        "docs/adr/20200211-second-thing.md"),
    "prefixed-front-matter-title": Log(
        ("docs/adr/ADR-001-first-thing.md", "docs/adr/ADR-002-second-thing.md"), FRONT,
        "docs/adr/ADR-003-use-kafka.md", 'title: "ADR-003: Use Kafka"', "ADR-002"),
    "unpadded-underscores": Log(("adr/adr_1_first_thing.md", "adr/adr_2_second_thing.md"),
                                NYGARD, "adr/adr_3_use_kafka.md", "Proposed", "2"),
}


def _repo(tmp_path: Path, log: Log) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    titles = ("First thing", "Second thing")
    repo.write({p: log.template.format(n=i + 1, title=t)
                for i, (p, t) in enumerate(zip(log.names, titles, strict=True))})
    repo.write({".adrguard.toml": "cache = false\n"})
    repo.commit("records")
    assert _findings(repo) == []
    return repo


def _corpus(repo: GitRepo) -> Corpus:
    return load_with(repo.path, load_config(repo.path))


def _findings(repo: GitRepo) -> list[str]:
    report = api.check(repo.path, baseline=False)
    return [f"{f.code} {f.location.path}:{f.location.line} {f.message}" for f in report.findings]


def _run(repo: GitRepo, *args: str) -> int:
    return main([*args, "--repo", str(repo.path), "--today", "2024-06-01"])


@pytest.mark.parametrize("name", sorted(LOGS))
def test_new_writes_the_next_record_in_the_logs_style(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = LOGS[name]
    repo = _repo(tmp_path, log)
    assert _run(repo, "new", "Use Kafka") == 0
    out = capsys.readouterr().out
    assert out.strip() == log.new_path
    text = (repo.path / log.new_path).read_text("utf-8")
    assert log.marker in text.splitlines(), text
    d = next(d for d in _corpus(repo).decisions if d.path == log.new_path)
    assert d.status is Status.PROPOSED and d.title and "Use Kafka" in d.title
    assert _findings(repo) == []


@pytest.mark.parametrize("name", sorted(LOGS))
def test_supersede_marks_the_old_record_and_changes_nothing_else(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = LOGS[name]
    repo = _repo(tmp_path, log)
    old_path = log.names[1]
    before = (repo.path / old_path).read_text("utf-8")
    assert _run(repo, "supersede", log.old_key, "Use Kafka", "--status", "accepted") == 0
    written = capsys.readouterr().out.split()
    assert written == [log.new_path, old_path]
    after = (repo.path / old_path).read_text("utf-8")
    removed = [ln for ln in difflib.ndiff(before.splitlines(), after.splitlines())
               if ln.startswith("- ")]
    assert len(removed) == 1 and "accepted" in removed[0].casefold(), removed  # the status
    by_path = {d.path: d for d in _corpus(repo).decisions}
    old, new = by_path[old_path], by_path[log.new_path]
    assert old.status is Status.SUPERSEDED and new.status is Status.ACCEPTED
    assert any(r.kind is RelKind.SUPERSEDES for r in new.relationships)
    assert _findings(repo) == []  # no ADR304/305/307: both sides agree


def test_a_proposed_successor_leaves_the_old_record_in_force_until_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["nygard"])
    old = repo.path / "docs/adr/0002-second-thing.md"
    before = old.read_text("utf-8")
    assert _run(repo, "supersede", "2", "Use Kafka") == 0
    captured = capsys.readouterr()
    assert captured.out.split() == ["docs/adr/0003-use-kafka.md"]
    assert "supersede ADR-0002 --by ADR-0003" in captured.err
    assert old.read_text("utf-8") == before
    assert _findings(repo) == []
    new = repo.path / "docs/adr/0003-use-kafka.md"
    new.write_text(new.read_text("utf-8").replace("\nProposed\n", "\nAccepted\n"), "utf-8")
    assert _run(repo, "supersede", "2", "--by", "3") == 0
    assert capsys.readouterr().out.split() == ["docs/adr/0002-second-thing.md"]
    assert "Superseded by [3. Use Kafka](0003-use-kafka.md)" in old.read_text("utf-8")
    assert _findings(repo) == []


def test_amend_writes_amends_and_keeps_the_old_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["madr2-bullets"])
    assert _run(repo, "supersede", "1", "Also cache", "--amend", "--status", "accepted") == 0
    by_path = {d.path: d for d in _corpus(repo).decisions}
    old, new = by_path["docs/adr/0001-first-thing.md"], by_path["docs/adr/0003-also-cache.md"]
    assert old.status is Status.ACCEPTED
    assert [r.kind for r in new.relationships] == [RelKind.AMENDS]
    assert [r.kind for r in old.relationships] == [RelKind.AMENDED_BY]
    assert _findings(repo) == []


def test_an_empty_repository_gets_an_adr_tools_record_or_the_format_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"README.md": "hi\n", ".adrguard.toml": "cache = false\n"})
    repo.commit()
    assert _run(repo, "new", "Record architecture decisions", "--status", "accepted") == 0
    first = "docs/adr/0001-record-architecture-decisions.md"
    assert capsys.readouterr().out.strip() == first
    assert (repo.path / first).read_text("utf-8").startswith(
        "# 1. Record architecture decisions\n\nDate: 2024-06-01\n\n## Status\n\nAccepted\n")
    assert _findings(repo) == []
    assert _run(repo, "new", "Use MADR", "--format", "madr4", "--root", "docs/decisions") == 0
    path = capsys.readouterr().out.strip()
    assert path == "docs/decisions/0001-use-madr.md"
    text = (repo.path / path).read_text("utf-8")
    assert text.startswith("---\nstatus: proposed\ndate: 2024-06-01\n---\n")
    assert "### Confirmation" in text


def test_archived_records_and_other_refs_keep_their_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["nygard"])
    repo.write({"docs/adr/archive/0007-old-thing.md": NYGARD.format(n=7, title="Old thing")})
    repo.commit("archive")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write({"docs/adr/0008-their-thing.md": NYGARD.format(n=8, title="Their thing")})
    repo.commit("their record")
    repo.git("checkout", "-q", "main")
    assert _run(repo, "new", "Mine", "--dry-run") == 0
    assert "==> docs/adr/0008-mine.md (new) <==" in capsys.readouterr().out
    assert _run(repo, "new", "Mine", "--against", "refs/heads/*") == 0
    assert capsys.readouterr().out.strip() == "docs/adr/0009-mine.md"


def test_never_overwrites_and_writes_nothing_on_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["log4brains-dated"])
    assert _run(repo, "new", "Use Kafka") == 0
    path = repo.path / "docs/adr/20240601-use-kafka.md"
    path.write_text("mine\n", "utf-8")
    assert _run(repo, "new", "Use Kafka") == 2  # the same dated name on the same day
    assert "exists already" in capsys.readouterr().err
    assert path.read_text("utf-8") == "mine\n"
    assert _run(repo, "supersede", "99", "X") == 2
    assert _run(repo, "new", "   ") == 2
    assert _run(repo, "new", "X", "--status", "bogus") == 2
    assert "error:" in capsys.readouterr().err
    assert repo.git("status", "--porcelain") == "?? docs/adr/20240601-use-kafka.md"


def test_the_configured_template_is_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["nygard"])
    repo.write({
        "docs/template.md": "# {{number}} {{title}}\n\nStatus: {{status}} on {{date}}\n\n"
                            "## Why\n\nTODO\n",
        ".adrguard.toml": 'cache = false\ntemplate = "docs/template.md"\nnew-status = "draft"\n',
    })
    assert _run(repo, "new", "Use Kafka") == 0
    text = (repo.path / "docs/adr/0003-use-kafka.md").read_text("utf-8")
    assert text == "# 0003 Use Kafka\n\nStatus: Draft on 2024-06-01\n\n## Why\n\nTODO\n"


def test_a_generated_index_is_refreshed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["nygard"])
    assert main(["index", "--write", "--init", "--repo", str(repo.path)]) == 0
    repo.commit("index")
    capsys.readouterr()
    assert _run(repo, "new", "Use Kafka") == 0
    assert "refreshed docs/adr/INDEX.md" in capsys.readouterr().err
    assert "0003-use-kafka.md" in (repo.path / "docs/adr/INDEX.md").read_text("utf-8")
    assert main(["index", "--check", "--repo", str(repo.path)]) == 0
    assert _findings(repo) == []


def test_a_new_record_goes_where_the_latest_records_live(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "repo")
    old = {f"docs/adr/first-era/{n:04d}-thing-{n}.md": NYGARD.format(n=n % 10, title=f"Thing {n}")
           for n in range(1, 13)}
    new = {f"docs/adr/{n:04d}-thing-{n}.md": NYGARD.format(n=n % 10, title=f"Thing {n}")
           for n in range(13, 16)}
    repo.write({**old, **new, ".adrguard.toml": 'cache = false\nroots = ["docs/adr"]\n'})
    repo.commit()
    assert _run(repo, "new", "Use Kafka", "--dry-run") == 0
    assert "==> docs/adr/0016-use-kafka.md (new) <==" in capsys.readouterr().out
    repo.write({f"docs/adr/first-era/{n:04d}-thing-{n}.md": NYGARD.format(n=n % 10, title="X")
                for n in range(16, 22)})  # the log went back to the subfolder
    assert _run(repo, "new", "Use Kafka", "--dry-run") == 0
    assert "==> docs/adr/first-era/0022-use-kafka.md (new) <==" in capsys.readouterr().out


def test_the_latest_names_say_whether_slugs_are_lower_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "repo")
    files = {f"docs/adr/{n:03d}-{'Old-Thing' if n < 12 else 'new-thing'}-{n}.md":
             NYGARD.format(n=n % 10, title=f"Thing {n}") for n in range(1, 21)}
    repo.write({**files, ".adrguard.toml": "cache = false\n"})
    repo.commit()
    assert _run(repo, "new", "Use Kafka", "--dry-run") == 0
    assert "==> docs/adr/021-use-kafka.md (new) <==" in capsys.readouterr().out


def test_several_logs_need_root_and_root_stays_inside_the_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, LOGS["nygard"])
    repo.write({"services/api/docs/adr/0001-api-thing.md": NYGARD.format(n=1, title="API"),
                ".adrguard.toml": 'cache = false\nroots = ["docs/adr", "services/api/docs/adr"]\n'})
    assert _run(repo, "new", "Use Kafka") == 2
    assert "several ADR folders" in capsys.readouterr().err
    assert _run(repo, "new", "Use Kafka", "--root", "services/api/docs/adr") == 0
    assert capsys.readouterr().out.strip() == "services/api/docs/adr/0002-use-kafka.md"
    assert _run(repo, "new", "Use Kafka", "--root", "../elsewhere") == 2
    assert "inside the repository" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()


def test_a_template_placeholder_in_unusual_letters_is_filled_or_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "ſ" (long s) case-folds to "s"; "ı" (dotless i) matches "i" case-blind but folds to
    # itself: that placeholder names nothing and stays as written (no crash)
    repo = _repo(tmp_path, LOGS["nygard"])
    repo.write({
        "docs/template.md": "# {{number}} {{ TITLE }}\n\nStatus: {{ſtatus}}\n\n{{tıtle}}\n",
        ".adrguard.toml": 'cache = false\ntemplate = "docs/template.md"\nnew-status = "draft"\n',
    })
    assert _run(repo, "new", "Use Kafka") == 0
    text = (repo.path / "docs/adr/0003-use-kafka.md").read_text("utf-8")
    assert text == "# 0003 Use Kafka\n\nStatus: Draft\n\n{{tıtle}}\n"
