"""Helpers for the GitHub Action tests: a realistic fixture repository with a base and a head
commit, and a runner that drives the Action's three steps in-process the way action.yml does
(prepare, one check, report) with GitHub's environment files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from fakegithub import State
from gitrepo import GitRepo

from adrguard.cli import main

ADRS = {
    "docs/adr/0001-record-architecture-decisions.md": """# 1. Record architecture decisions

Date: 2024-01-01

## Status

Accepted

## Context

We need to record the architectural decisions made on this project.

## Decision

We will use Architecture Decision Records, as described by Michael Nygard.

## Consequences

Every significant decision gets a short record.
""",
    "docs/adr/0002-use-postgres.md": """# 2. Use PostgreSQL for payments

Date: 2024-01-02

## Status

Superseded by [3. Use an event store for payments](0003-use-event-store.md)

## Context

Payments need a transactional store.

## Decision

We will use PostgreSQL.

## Consequences

One more database to run.
""",
    "docs/adr/0003-use-event-store.md": """---
affected-paths: ["src/payments/**"]
---
# 3. Use an event store for payments

Date: 2024-01-03

## Status

Accepted

Supersedes [2. Use PostgreSQL for payments](0002-use-postgres.md)

## Context

Auditors want every change to a payment.

## Decision

Payments are an append-only event stream.

## Consequences

Reads go through projections.
""",
}
HOSTILE = """# 4. Use ::error::pwned @org/team <img src=x onerror=alert(1)> and #123

Date: 2024-01-04

## Status

Frobnicated ::error::pwned @org/team <img src=x onerror=alert(1)>

## Context

See [the spec](https://evil.example/phish) and [missing](0009-missing.md).

## Decision

Cache the search index.
"""
HOSTILE_PATH = "docs/adr/0005-a,b::error::c.md"
CODE = {"src/payments/ledger.py": "x = 1\n", "src/search/index.py": "y = 1\n"}


@dataclass
class Fixture:
    repo: GitRepo
    base: str
    head: str


def build_repo(path: Path, *, head_files: dict[str, str] | None = None) -> Fixture:
    """Base: three records and some code. Head: a hostile new record, an edit to an accepted
    record, and a change to code ADR-0003 governs."""
    r = GitRepo(path)
    r.write({**ADRS, **CODE})
    base = r.commit("base")
    r.git("checkout", "-q", "-b", "feature")
    edited = ADRS["docs/adr/0003-use-event-store.md"].replace(
        "append-only event stream.", "append-only event stream, compacted nightly."
    )
    r.write(head_files if head_files is not None else {
        "docs/adr/0004-hostile.md": HOSTILE,
        HOSTILE_PATH: "# 5. A file name with commas and colons\n\nDate: 2024-01-05\n\n## Status\n\n"
                      "Proposed\n\n## Context\n\nSee [nothing](nothing.md).\n\n## Decision\n\nNone."
                      "\n\n## Consequences\n\nNone.\n",
        "docs/adr/0003-use-event-store.md": edited,
        "src/payments/ledger.py": "x = 2\n",
    })
    head = r.commit("feature")
    return Fixture(r, base, head)


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str
    out_dir: Path
    prepared: str  # what `adrguard action prepare` printed (notices)


def parse_outputs(text: str) -> dict[str, str]:
    """``$GITHUB_OUTPUT`` as the runner reads it: ``name=value`` and ``name<<DELIM`` blocks."""
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            j = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1 : j])
            i = j + 1
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
            i += 1
        else:
            i += 1
    return out


class ActionRunner:
    """Runs the Action's steps the way action.yml does, with a fresh set of env files."""

    def __init__(self, fx: Fixture, tmp: Path, state: State | None, monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str]) -> None:
        self.fx, self.tmp, self.state, self.mp, self.capsys = fx, tmp, state, monkeypatch, capsys
        self.runs = 0
        self.event = {
            "action": "synchronize",
            "number": 7,
            "pull_request": {
                "number": 7,
                "base": {"sha": fx.base, "ref": "main"},
                "head": {"sha": fx.head, "ref": "feature"},
            },
            "repository": {"full_name": "acme/shop", "default_branch": "main"},
        }

    def __call__(self, token: str = "user-token", **inputs: str) -> Run:
        self.runs += 1
        work = self.tmp / f"run{self.runs}"
        work.mkdir()
        event_path = work / "event.json"
        event_path.write_text(json.dumps(self.event), encoding="utf-8")
        env = {
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_REPOSITORY": "acme/shop",
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_RUN_ID": "4242",
            "GITHUB_WORKFLOW": "adrguard",
            "GITHUB_JOB": "adrs",
            "GITHUB_SHA": self.fx.head,
            "GITHUB_WORKSPACE": str(self.fx.repo.path),
            "GITHUB_OUTPUT": str(work / "output"),
            "GITHUB_STEP_SUMMARY": str(work / "summary"),
            "GITHUB_API_URL": self.state.base_url if self.state else "http://127.0.0.1:9",
            "GITHUB_TOKEN": token,
            "RUNNER_TEMP": str(work),
        }
        defaults = {"fail-on": "none", "base": "", "config": "", "profile": "", "comment": "true",
                    "comment-key": "", "annotations": "true", "sarif-file": "",
                    "open-pull-requests": "false"}
        for name, value in {**defaults, **inputs}.items():
            env["INPUT_" + name.upper().replace("-", "_")] = value
        for k, v in env.items():
            self.mp.setenv(k, v)
        for name in ("GITHUB_BASE_REF", "GITHUB_HEAD_REF", "ADRGUARD_COMMENT_AUTHOR"):
            self.mp.delenv(name, raising=False)
        self.mp.chdir(self.fx.repo.path)
        (work / "output").write_text("", encoding="utf-8")
        self.capsys.readouterr()
        # step 2: prepare
        assert main(["action", "prepare"]) == 0
        prepared = self.capsys.readouterr().out
        prepared_outputs = parse_outputs((work / "output").read_text(encoding="utf-8"))
        base = prepared_outputs.get("base", "")
        claims = prepared_outputs.get("claims", "")
        repository = prepared_outputs.get("repository-url", "")
        # step 3: the one check invocation (as action.yml builds it)
        out = work / "adrguard.out"
        out.mkdir()
        args = ["check", "--no-cache", "--exit-zero",
                "--format", f"json:{out}/report.json", "--format", f"github:{out}/annotations.txt",
                "--format", f"sarif:{out}/adrguard.sarif", "--format", f"markdown:{out}/report.md"]
        if base:
            args += ["--base", base]
        if claims:
            args += ["--claims", claims]
        if repository:
            args += ["--repository-url", repository]
        if inputs.get("config"):
            args += ["--config", inputs["config"]]
        check_exit = main(args)
        # step 4: report
        self.mp.setenv("ADRGUARD_BASE", base)
        self.mp.setenv("ADRGUARD_CHECK_EXIT", str(check_exit))
        self.mp.setenv("ADRGUARD_OUT_DIR", str(out))
        self.capsys.readouterr()
        code = main(["action", "report"])
        captured = self.capsys.readouterr()
        outputs = parse_outputs((work / "output").read_text(encoding="utf-8"))
        summary_path = work / "summary"
        summary = summary_path.read_text(encoding="utf-8") if summary_path.exists() else ""
        return Run(code, captured.out, captured.err, outputs, summary, out, prepared)


