"""A real repository with a log worth compacting: a supersession chain, amendments, a premature
supersession, an archived record, a domain sub-folder, a translation mirror, a generated INDEX
and a reviewed, stamped CURRENT view. Text written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

from gitrepo import GitRepo

from adrguard.cli import main


def record(n: int, slug: str, title: str, status: str, extra: str = "", front: str = "") -> str:
    fm = f"---\n{front}---\n" if front else ""
    return (
        f"{fm}# {n}. {title}\n\nDate: 2024-02-{n + 1:02d}\n\n## Status\n\n{status}\n\n"
        f"## Context\n\nWhy {title.lower()} came up.\n\n## Decision\n\nWe {title.lower()}."
        f"{extra}\n\n## Consequences\n\nWe live with it.\n"
    )


FILES = {
    "docs/adr/0001-record-architecture-decisions.md": record(
        1, "record-architecture-decisions", "Record architecture decisions", "Accepted"),
    "docs/adr/0002-use-mysql.md": record(
        2, "use-mysql", "Use MySQL", "Superseded by [4. Use PostgreSQL](0004-use-postgresql.md)",
        " We follow [the process](0001-record-architecture-decisions.md#decision)."),
    "docs/adr/0003-expose-a-rest-api.md": record(
        3, "expose-a-rest-api", "Expose a REST API", "Accepted"),
    "docs/adr/0004-use-postgresql.md": record(
        4, "use-postgresql", "Use PostgreSQL",
        "Superseded by [6. Use PostgreSQL 16](0006-use-postgresql-16.md)\n\n"
        "Supersedes [2. Use MySQL](0002-use-mysql.md)"),
    "docs/adr/0005-version-the-api.md": record(
        5, "version-the-api", "Version the API",
        "Accepted\n\nAmends [3. Expose a REST API](0003-expose-a-rest-api.md)"),
    "docs/adr/0006-use-postgresql-16.md": record(
        6, "use-postgresql-16", "Use PostgreSQL 16",
        "Accepted\n\nSupersedes [4. Use PostgreSQL](0004-use-postgresql.md)",
        " Earlier: [MySQL][mysql], kept for history.\n\n"
        "[mysql]: ./0002-use-mysql.md \"the first choice\""),
    "docs/adr/0007-paginate-the-api.md": record(
        7, "paginate-the-api", "Paginate the API",
        "Accepted\n\nAmends [3. Expose a REST API](0003-expose-a-rest-api.md)"),
    "docs/adr/0008-use-a-queue.md": record(
        8, "use-a-queue", "Use a queue", "Superseded by [9. Use Kafka](0009-use-kafka.md)"),
    "docs/adr/0009-use-kafka.md": record(
        9, "use-kafka", "Use Kafka", "Proposed\n\nSupersedes [8. Use a queue](0008-use-a-queue.md)"),
    "docs/adr/security/0010-encrypt-backups.md": record(
        10, "encrypt-backups", "Encrypt backups", "Accepted", "",
        "tags: [security, operations]\n"),
    "docs/adr/archive/0000-use-flat-files.md": record(
        0, "use-flat-files", "Use flat files", "Rejected"),
    "docs/adr/zh/0001-record-architecture-decisions.md": "# 1. 记录架构决策\n\n## 状态\n\n已接受\n",
    "docs/guide.md": "# Guide\n\nWhy we left [MySQL](adr/0002-use-mysql.md) behind.\n",
    "src/app.py": "x = 1\n",
    ".gitignore": "/plans/\n",
}

VIEW = """# Decisions in force

We record decisions ([ADR-0001](0001-record-architecture-decisions.md)), store data in
PostgreSQL 16 ([ADR-0006](0006-use-postgresql-16.md)) and expose a versioned, paginated REST API
([ADR-0003](0003-expose-a-rest-api.md), [ADR-0005](0005-version-the-api.md),
[ADR-0007](0007-paginate-the-api.md)). Backups are encrypted
([ADR-0010](security/0010-encrypt-backups.md)).
"""


def build(tmp_path: Path) -> GitRepo:
    """The repository, committed, with INDEX files generated and CURRENT.md reviewed and
    stamped (coverage set by the reviewer on two members)."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.write({"docs/adr/CURRENT.md": VIEW})
    where = ["--repo", str(repo.path), "--no-cache"]
    assert main(["index", "--write", "--init", *where]) == 0
    assert main(["current", "stamp", *where]) == 0
    manifest = repo.path / "docs/adr/CURRENT.sources.json"
    data = json.loads(manifest.read_text())
    coverage = {"0006-use-postgresql-16.md": "summarized", "0001-record-architecture-decisions.md": "kept"}
    for member in data["members"]:
        member["coverage"] = coverage.get(member["path"].rsplit("/", 1)[-1], member["coverage"])
    manifest.write_text(json.dumps(data))
    assert main(["current", "stamp", *where]) == 0  # digest again, coverage kept
    repo.commit("a log worth compacting")
    return repo


def status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--ignored", "--untracked-files=all")
