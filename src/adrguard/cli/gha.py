"""``adrguard action``: the GitHub Action's helper (used by ``action.yml``; not for people).

The Action runs three steps: ``adrguard action prepare`` picks the base to compare with
(deepening a shallow checkout when needed), one ``adrguard check`` writes the JSON, GitHub,
SARIF and Markdown reports, and ``adrguard action report`` publishes them: the job summary,
the annotations, the sticky pull-request comment and the step outputs. Every setting comes
from the environment ``action.yml`` sets (``INPUT_*`` and GitHub's own variables), never from
a ``${{ }}`` expression inside a script. Problems publishing (a read-only token on a fork, an
API error) become notices; the step fails only when ``fail-on`` says so.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adrguard.cli.common import info
from adrguard.cli.gha_env import (
    FILES,
    Settings,
    append_summary,
    as_dict,
    notice,
    write_outputs,
)
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Location
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, reaches
from adrguard.core.wording import plural


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "action",
        help="used by the GitHub Action (action.yml): prepare the base, publish the reports",
        description="The GitHub Action's helper. `prepare` chooses the base to compare with and "
        "deepens a shallow checkout until the merge base appears; `report` writes the job "
        "summary, the annotations, the sticky pull-request comment and the step outputs from "
        "the files one `adrguard check` wrote. Settings come from the environment action.yml "
        "sets (INPUT_*, GITHUB_*); see docs/github-action.md.",
    )
    p.add_argument("phase", choices=("prepare", "report"))
    p.add_argument("--root", type=Path, default=None, metavar="DIR",
                   help="repository root (default: the work tree around the current directory)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings(os.environ)
    root = args.root or Path(settings.get("GITHUB_WORKSPACE") or ".")
    if args.phase == "prepare":
        return prepare(settings, root)
    return report(settings, root)


# prepare --------------------------------------------------------------------------------------


def prepare(settings: Settings, root: Path) -> int:
    """Choose the base (input, else the pull request's base) and make its merge base present;
    list what other open pull requests add when the ``open-pull-requests`` input asks."""
    settings.fail_on  # noqa: B018 - validate the input before anything runs
    base = choose_base(settings, root)
    claims = ""
    if base:  # the records other open pull requests add (input open-pull-requests; ADR509)
        from adrguard.cli.gha_claims import prepare_claims

        claims = prepare_claims(settings)
    url = repository_url(settings)
    write_outputs(settings, {"base": base or "", "claims": claims, "repository-url": url})
    if base:
        info(f"adrguard: comparing with {base}")
    if url:
        info(f"adrguard: links into {url} are checked as paths; to get the same findings "
             f"locally: adrguard check --repository-url {url}")
    return EXIT_OK


def repository_url(settings: Settings) -> str:
    """The repository this run checks, as ``--repository-url`` takes it:
    ``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY``, with ``/tree/BRANCH`` for the default branch the
    event names. Empty outside a repository's workflow (or for a name that is no repository)."""
    from adrguard.core.repository import parse_repository

    repo = settings.get("GITHUB_REPOSITORY")
    if not repo:
        return ""
    server = (settings.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    branch = str(as_dict(settings.event().get("repository")).get("default_branch") or "")
    try:
        return parse_repository(f"{server}/{repo}" + (f"/tree/{branch}" if branch else "")).label
    except ValueError:
        return ""


def choose_base(settings: Settings, root: Path) -> str | None:
    from adrguard.api.impact import reach_base
    from adrguard.core.wording import revision

    wanted = settings.get("INPUT_BASE")
    branch = ""
    if not wanted:
        pr = settings.pull_request()
        base = as_dict(pr.get("base"))
        wanted = str(base.get("sha") or "")
        branch = str(base.get("ref") or "")
    if not wanted:
        info("adrguard: not a pull request and no base input: change-aware rules (ADR5xx) and "
             "the governing decisions are skipped")
        return None
    try:
        reached = reach_base(root, wanted, branch)
    except UserError as exc:
        notice(f"no merge base with {revision(wanted)}, so ADR5xx rules and the governing "
               f"decisions are skipped ({exc}). Check out with fetch-depth: 0 to avoid this.")
        return None
    if reached.fetched:
        info(f"adrguard: fetched more history ({plural(reached.fetched, 'fetch', 'fetches')}) "
             f"to find the merge base {reached.merge_base[:12]}")
    return reached.base


# report ---------------------------------------------------------------------------------------


def _finding(f: Mapping[str, Any]) -> Finding:
    return Finding(
        code=str(f["code"]),
        name=str(f["name"]),
        severity=Severity.parse(str(f["severity"])),
        message=str(f["message"]),
        location=Location(str(f["path"]), int(f["line"]), int(f["column"])),
        decision_id=f.get("decision"),
        related=tuple(str(r) for r in f.get("related", ())),
    )


def report_from_json(data: Mapping[str, Any]) -> Report:
    """The :class:`Report` a ``--format json`` file describes: the findings that count, and
    the ones held back (known to the baseline, older than the change) in its gate."""
    from adrguard.core.findings import Gate

    rows = [f for f in data.get("findings", ()) if isinstance(f, dict)]
    counted = tuple(
        _finding(f) for f in rows if f.get("baseline") != "known" and not f.get("older")
    )
    summary = data.get("summary", {})
    raw = data.get("gate")
    gate = None
    if isinstance(raw, dict):
        gate = Gate(
            known=tuple(_finding(f) for f in rows if f.get("baseline") == "known"),
            older=tuple(_finding(f) for f in rows if f.get("older")),
            fixed=tuple(str(x) for x in raw.get("fixed") or ()),
            baseline=raw.get("baseline"),
            scope=raw.get("scope"),
            untracked=tuple(str(x) for x in raw.get("untracked") or ()),
        )
    return Report(counted, int(summary.get("decisions", 0)), int(summary.get("files", 0)),
                  str(data.get("profile", "standard")), gate=gate)


def outcome_code(report: Report, fail_on: str) -> int:
    """The Action's ``exit-code`` output, which reports what was found even when the step may
    not fail: 1 when a finding reaches ``fail-on`` (``error`` when it is ``none``), else 0.
    Whether the step fails is :func:`report`'s business (never for ``none``)."""
    return EXIT_FINDINGS if reaches(report.worst(), fail_on if fail_on != "none" else "error") \
        else EXIT_OK


def report(settings: Settings, root: Path) -> int:
    out = settings.out_dir
    fail_on = settings.fail_on
    raw_exit = settings.get("ADRGUARD_CHECK_EXIT", "0") or "0"
    check_exit = int(raw_exit) if raw_exit.isdigit() else 3
    json_path = out / FILES["json"]
    sarif_path = publish_sarif(settings, out / FILES["sarif"], root)
    outputs = {"report-json": str(json_path) if json_path.is_file() else "",
               "sarif-file": str(sarif_path) if sarif_path else ""}
    from adrguard.cli.gha_verify import run_verify

    verified = run_verify(settings, root, out)  # the `verify` input (None when it is off)
    if verified is not None:
        outputs.update(verified.outputs)
    if check_exit not in (EXIT_OK, EXIT_FINDINGS, EXIT_INTERNAL) or not json_path.is_file():
        notice(f"adrguard check failed (exit {check_exit}); see its error in the log above. "
               f"fail-on is {fail_on}, so the step " + ("fails." if fail_on != "none" else
                                                        "does not fail."), "error")
        code = check_exit if check_exit not in (EXIT_OK, EXIT_FINDINGS) else EXIT_INTERNAL
        append_summary(settings, f"## adrguard\n\n❌ adrguard could not check this change (exit "
                       f"{code}): its error is in the step's log.\n"
                       + (f"\n{verified.section}" if verified is not None else ""))
        write_outputs(settings, {"exit-code": str(code), "error-count": "0",
                                 "warning-count": "0", "note-count": "0", **outputs})
        return code if fail_on != "none" else EXIT_OK
    rep = report_from_json(json.loads(json_path.read_text(encoding="utf-8")))
    from adrguard.cli.gha_publish import publish

    if check_exit == EXIT_INTERNAL:  # a rule crashed: its ADR000 finding says which; the rest
        # is published
        notice("adrguard hit an internal error (ADR000 in the report); every other finding "
               "is reported. Please report the bug.", "error")
    publish(settings, root, rep, out, verified)
    code = EXIT_INTERNAL if check_exit == EXIT_INTERNAL else outcome_code(rep, fail_on)
    s = rep.summary
    write_outputs(settings, {"exit-code": str(code), "error-count": str(s.errors),
                             "warning-count": str(s.warnings), "note-count": str(s.notes),
                             **outputs})
    if code and fail_on != "none":
        info(f"adrguard: failing the step: findings at or above fail-on {fail_on}")
        return code
    if verified is not None and verified.failed:
        info("adrguard: failing the step: verify-policy enforce (a new violation, or no verdict)")
        return EXIT_FINDINGS
    return EXIT_OK


def publish_sarif(settings: Settings, written: Path, root: Path) -> Path | None:
    """Copy the SARIF file to the ``sarif-file`` input (relative to the workspace). Only a
    path inside the workspace or ``$RUNNER_TEMP`` is written, never through a symlink (and never
    through a symlink inside the checked-out repository ``root``, even one that stays in the
    workspace: it could lead into ``.git``)."""
    if not written.is_file():
        return None
    wanted = settings.get("INPUT_SARIF_FILE")
    if not wanted:
        return written
    from adrguard.api import write_atomic

    workspace = Path(settings.get("GITHUB_WORKSPACE") or ".")
    places = [workspace] + ([Path(t)] if (t := settings.get("RUNNER_TEMP")) else [])
    target = Path(wanted)
    if not target.is_absolute():
        target = workspace / target
    from adrguard.pathguard import output_problem

    problem = output_problem(target, root)
    if problem is not None:
        notice(f"cannot write sarif-file {wanted}: {problem}", "warning")
        return written
    try:
        write_atomic(target, written.read_bytes(), within=places)
    except OSError as exc:
        notice(f"cannot write sarif-file {wanted}: {exc.strerror or exc}", "warning")
        return written
    return target
