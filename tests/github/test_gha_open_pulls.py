"""The Action's ``open-pull-requests`` input against the loopback fake API: the other open pull
requests' files are read through the API (nothing checked out or fetched), and ADR509 reports
a record of this pull request that takes a number another one adds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fakegithub import State
from gha_helpers import ActionRunner, build_repo

from adrguard.api.claims import CLAIMS_SCHEMA, blob_id
from adrguard.cli.gha import CLAIMS_FILE, text_of_new_file
from adrguard.core.schemas import validator

MINE = "docs/adr/0004-use-kafka.md"
KAFKA = "# 4. Use Kafka\n\nDate: 2024-01-04\n\n## Status\n\nProposed\n\n## Context\n\nEvents.\n"
PULSAR = "# 4. Use Pulsar\n\nDate: 2024-01-05\n\n## Status\n\nProposed\n\n## Context\n\nQueues.\n"


def patch_of(text: str) -> str:
    lines = text.split("\n")[:-1]
    return f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join("+" + ln for ln in lines)


def pull(number: int, title: str, files: dict[str, str]) -> dict[str, Any]:
    return {
        "number": number, "title": title, "head": {"sha": f"{number:040x}"},
        "files": [{"filename": path, "status": "added", "sha": blob_id(text.encode()),
                   "patch": patch_of(text)} for path, text in files.items()],
    }


@pytest.fixture
def runner(tmp_path: Path, github: State, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> ActionRunner:
    fx = build_repo(tmp_path / "repo", head_files={MINE: KAFKA})
    return ActionRunner(fx, tmp_path, github, monkeypatch, capsys)


def _adr509(run_out: Path) -> list[dict[str, Any]]:
    data = json.loads((run_out / "report.json").read_text("utf-8"))
    return [f for f in data["findings"] if f["code"] == "ADR509"]


def test_a_number_another_open_pull_request_adds_is_reported(
    runner: ActionRunner, github: State
) -> None:
    github.pulls = [
        pull(7, "this one", {MINE: KAFKA}),  # the pull request being checked: left out
        pull(9, "Use Pulsar", {"docs/adr/0004-use-pulsar.md": PULSAR, "src/q.py": "q = 1\n"}),
        pull(11, "Use Redis", {"docs/adr/0005-use-redis.md": KAFKA.replace("4.", "5.")}),
    ]
    run = runner(**{"open-pull-requests": "true"})
    assert run.code == 0  # advisory
    found = _adr509(run.out_dir)
    assert [(f["path"], f["line"]) for f in found] == [(MINE, 1)]
    message = found[0]["message"]
    assert "pull request #9 ('Use Pulsar')" in message
    assert "docs/adr/0004-use-pulsar.md" in message and "renumber this record to 6" in message
    assert "ADR509" in run.summary
    calls = [(r.method, r.path) for r in github.requests if "/pulls" in r.path]
    assert calls == [("GET", "/repos/acme/shop/pulls"), ("GET", "/repos/acme/shop/pulls/9/files"),
                     ("GET", "/repos/acme/shop/pulls/11/files")]
    assert all(r.authorization == "Bearer user-token" for r in github.requests)
    written = json.loads((runner.tmp / f"run{runner.runs}" / CLAIMS_FILE).read_text("utf-8"))
    assert not list(validator(CLAIMS_SCHEMA).iter_errors(written))
    assert [p["number"] for p in written["pullRequests"]] == [9, 11]
    assert written["pullRequests"][0]["files"][0]["text"] == PULSAR


def test_a_stacked_pull_request_holding_the_same_file_is_no_collision(
    runner: ActionRunner, github: State
) -> None:
    github.pulls = [pull(12, "stacked on this one", {MINE: KAFKA, "docs/adr/0006-x.md": PULSAR})]
    run = runner(**{"open-pull-requests": "true"})
    assert _adr509(run.out_dir) == []


def test_without_permission_it_degrades_to_a_notice(runner: ActionRunner, github: State) -> None:
    github.pulls = [pull(9, "Use Pulsar", {"docs/adr/0004-use-pulsar.md": PULSAR})]
    github.fail[("GET", "pulls")] = 403
    run = runner(**{"open-pull-requests": "true"})
    assert run.code == 0
    assert "::notice title=adrguard::open-pull-requests: cannot list the open pull requests " \
           "(HTTP 403" in run.prepared
    assert "pull-requests: read" in run.prepared
    assert _adr509(run.out_dir) == []
    assert (run.out_dir / "report.json").is_file()  # the check itself ran


def test_the_input_is_off_by_default(runner: ActionRunner, github: State) -> None:
    github.pulls = [pull(9, "Use Pulsar", {"docs/adr/0004-use-pulsar.md": PULSAR})]
    run = runner()
    assert _adr509(run.out_dir) == []
    assert not [r for r in github.requests if "/pulls" in r.path]


def test_the_text_of_a_new_file_is_rebuilt_from_its_diff() -> None:
    assert text_of_new_file(patch_of(KAFKA)) == KAFKA
    no_newline = "@@ -0,0 +1,2 @@\n+# 1. A\n+\n\\ No newline at end of file"
    assert text_of_new_file(no_newline) == "# 1. A\n"
    assert text_of_new_file("@@ -1,2 +1,3 @@\n # 1. A\n+x\n-y") is None  # an edit, not a file
    assert text_of_new_file(None) is None


def test_a_hostile_pull_request_title_injects_no_workflow_command(
    runner: ActionRunner, github: State
) -> None:
    title = "x\n::error::pwned\r\n::add-mask::y"
    github.pulls = [pull(9, title, {"docs/adr/0004-use-pulsar.md": PULSAR,
                                    "../../etc/0004-passwd.md": PULSAR})]
    run = runner(**{"open-pull-requests": "true"})
    assert len(_adr509(run.out_dir)) == 1  # the path outside the repository is dropped
    annotations = (run.out_dir / "annotations.txt").read_text("utf-8")
    for text in (run.stdout, annotations, run.prepared):
        assert not any(line.startswith(("::error::pwned", "::add-mask::"))
                       for line in text.splitlines())
