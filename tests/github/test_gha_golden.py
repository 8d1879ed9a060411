"""What users get, committed: the PR comment, the job summary and the annotations the Action
produces for the realistic fixture repository (tests/github/conftest.py). The adrguard version
is written as VERSION so a release does not change them. ADRGUARD_UPDATE_GOLDEN=1 rewrites."""

from __future__ import annotations

import os
from pathlib import Path

from fakegithub import State
from gha_helpers import ActionRunner

from adrguard import __version__

GOLDEN = Path(__file__).resolve().parent / "golden"


def _check(name: str, text: str) -> None:
    text = text.replace(f"adrguard {__version__}", "adrguard VERSION")
    path = GOLDEN / name
    if os.environ.get("ADRGUARD_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    assert path.read_text(encoding="utf-8") == text, (
        f"{name} differs from its golden file (ADRGUARD_UPDATE_GOLDEN=1 updates)"
    )


def test_pull_request_outputs_match_golden(action: ActionRunner, github: State) -> None:
    run = action()
    (posted,) = github.of("POST")
    _check("pr-comment.md", posted.body["body"])
    _check("job-summary.md", run.summary)
    _check("annotations.txt", run.stdout)
    # ADR text cannot start a command: every line is one of ours, hostile text stays inside it
    assert "file=docs/adr/0005-a%2Cb%3A%3Aerror%3A%3Ac.md," in run.stdout
    assert "'Frobnicated ::error::pwned @org/team <img src=x onerror=alert(1)>'" in run.stdout
    assert run.stdout.count("\n") == 8 and all(line.startswith("::") for line in run.stdout.splitlines())
