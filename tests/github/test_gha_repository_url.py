"""The Action knows which repository it checks (``GITHUB_REPOSITORY`` and the event's default
branch) and passes it to the check as ``--repository-url``: links into the repository at its
default branch are checked as paths, URLs at other refs are not, and a local run with the same
``--repository-url`` gives the same findings. No git remote is involved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakegithub import State
from gha_helpers import ADRS, ActionRunner, build_repo

from adrguard.cli import main

URL = "https://github.com/acme/shop"
LINKED = ADRS["docs/adr/0003-use-event-store.md"] + (
    f"\nSee [the old store]({URL}/blob/main/docs/adr/0009-gone.md), "
    f"[a draft]({URL}/blob/feature/x/docs/adr/0008-draft.md) and "
    f"[a permalink]({URL}/blob/0123456789abcdef0123456789abcdef01234567/docs/adr/0001-x.md).\n"
)


def test_the_action_checks_urls_at_the_default_branch_like_a_local_run(
    tmp_path: Path, github: State, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fx = build_repo(tmp_path / "repo", head_files={"docs/adr/0003-use-event-store.md": LINKED})
    run = ActionRunner(fx, tmp_path / "runs", github, monkeypatch, capsys)
    (tmp_path / "runs").mkdir()
    done = run()
    report = json.loads((done.out_dir / "report.json").read_text(encoding="utf-8"))
    in_action = sorted((f["code"], f["path"], f["message"]) for f in report["findings"])
    broken = [f for f in in_action if f[0] == "ADR201"]
    assert len(broken) == 1 and "docs/adr/0009-gone.md" in broken[0][2]  # other refs: external

    monkeypatch.delenv("GITHUB_ACTIONS")  # a local run, on the same tree
    capsys.readouterr()
    main(["check", "--repo", str(fx.repo.path), "--no-cache", "--base", fx.base, "--format",
          "json", "--repository-url", f"{URL}/tree/main"])
    local = json.loads(capsys.readouterr().out)
    assert sorted((f["code"], f["path"], f["message"]) for f in local["findings"]) == in_action
