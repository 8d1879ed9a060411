"""A link's meaning never depends on the machine (issue 28.2): whether a git remote is configured
changes no finding. A URL into this repository is checked as a path only when the repository's
URL and default branch are known from the repository (``repository-url``), from
``--repository-url`` or from the Action; a URL at another branch, a tag or a commit is never a
work-tree path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

BASE = "https://github.com/acme/shop"
RECORD = "# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\n{body}\n\n" \
         "## Decision\n\nD.\n\n## Consequences\n\nE.\n"
LINKS = "\n".join([
    f"- [B at the default branch]({BASE}/blob/main/docs/adr/0002-b.md)",
    f"- [HEAD, the forge's name for it]({BASE}/blob/HEAD/docs/adr/0002-b.md)",
    f"- [gone at the default branch]({BASE}/blob/main/docs/adr/0009-gone.md)",
    f"- [a record on another branch]({BASE}/blob/feature/new-api/docs/adr/0007-draft.md)",
    f"- [a permalink to an old commit]({BASE}/blob/0123456789abcdef0123456789abcdef01234567"
    "/docs/adr/0003-old-name.md#context)",
    f"- [a tag]({BASE}/tree/v1.0/docs/adr/old)",
    "- [another repository](https://github.com/acme/other/blob/main/docs/adr/0009-gone.md)",
])
FILES = {
    "docs/adr/0001-a.md": RECORD.format(n=1, title="A", body=LINKS),
    "docs/adr/0002-b.md": RECORD.format(n=2, title="B", body="C."),
}


def _findings(capsys: pytest.CaptureFixture[str], repo: GitRepo, *extra: str) -> list[Any]:
    capsys.readouterr()
    code = main(["check", "--repo", str(repo.path), "--no-cache", "--format", "json", *extra])
    assert code in (0, 1)
    return [(f["code"], f["path"], f["line"], f["message"])
            for f in json.loads(capsys.readouterr().out)["findings"]]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "shop")
    r.write(FILES)
    r.commit("records")
    return r


def test_the_same_tree_gives_the_same_findings_with_and_without_a_remote(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = _findings(capsys, repo)
    for remote in (f"{BASE}.git", "git@github.com:acme/shop.git"):
        repo.git("remote", "add", "origin", remote)
        assert _findings(capsys, repo) == alone, remote
        repo.git("remote", "remove", "origin")
    assert not [f for f in alone if f[0] == "ADR201"]  # no URL is a path without the setting


def test_only_urls_at_the_default_branch_are_work_tree_paths(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.git("remote", "add", "origin", f"{BASE}.git")
    told = _findings(capsys, repo, "--repository-url", f"{BASE}/tree/main")
    broken = [f for f in told if f[0] == "ADR201"]
    assert len(broken) == 1 and "docs/adr/0009-gone.md" in broken[0][3]
    assert not any("0007-draft" in f[3] or "0003-old-name" in f[3] or "v1.0" in f[3]
                   for f in told)
    # the setting in the repository's config gives the same result as the option
    repo.write({".adrguard.toml": f'repository-url = "{BASE}/tree/main"\n'})
    assert _findings(capsys, repo) == told
    # without the default branch only HEAD URLs name the work tree: main's are not checked
    head_only = _findings(capsys, repo, "--repository-url", BASE)
    assert not [f for f in head_only if f[0] == "ADR201"]


def test_a_repository_url_that_is_no_url_is_a_usage_error(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["check", "--repo", str(repo.path), "--repository-url", "acme/shop"]) == 2
    assert "--repository-url 'acme/shop'" in capsys.readouterr().err
    repo.write({".adrguard.toml": 'repository-url = "ftp://example.org/x"\n'})
    assert main(["check", "--repo", str(repo.path)]) == 2
    assert "repository-url" in capsys.readouterr().err
