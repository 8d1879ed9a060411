"""``adrguard action``: the GitHub Action's helper (used by ``action.yml``; not for people).

The Action runs three steps: ``adrguard action prepare`` picks the base to compare with
(deepening a shallow checkout when needed), one ``adrguard check`` writes the JSON, GitHub,
SARIF and Markdown reports, and ``adrguard action report`` publishes them: the job summary,
the annotations, the sticky pull-request comment and the step outputs. Every setting comes
from the environment ``action.yml`` sets (``INPUT_*`` and GitHub's own variables), never from
a ``${{ }}`` expression inside a script. Problems publishing (a read-only token on a fork, an
API error) become notices; the step fails only when ``fail-on`` says so.

One module, in sections: the Action's environment (its inputs, GitHub's context and the places
a step writes to), the command (``prepare``, ``report``), the ``open-pull-requests`` input, the
``verify`` input and publishing (the job summary, the annotations, the sticky comment).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard import api
from adrguard.api import GitHubClient, write_atomic
from adrguard.api import verify as verify_api
from adrguard.api.graph import build
from adrguard.api.impact import impact as impact_of
from adrguard.api.impact import reach_base
from adrguard.cli import add_command
from adrguard.cli.common import info
from adrguard.config import load_config
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding, Gate, Report, Severity
from adrguard.core.model import Location
from adrguard.core.outcome import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, FAIL_ON, reaches
from adrguard.core.repository import parse_repository
from adrguard.core.schemas import load_json
from adrguard.core.wording import plural, revision
from adrguard.pathguard import output_problem
from adrguard.reporters import comment as body
from adrguard.reporters import decisions_of, default_context
from adrguard.reporters import verify as reporter
from adrguard.reporters.comment import Page
from adrguard.reporters.github import command
from adrguard.reporters.markdown import escape

if TYPE_CHECKING:
    from adrguard.api import ApiResult
    from adrguard.config import Config
    from adrguard.reporters.context import ReportContext


# --- the environment ------------------------------------------------------------------------
# The GitHub Action's environment: its inputs and GitHub's context (read from the
# variables ``action.yml`` sets) and the places a step writes to (notices on standard output, step
# outputs, the job summary): every section below uses it.

PULL_EVENTS = ("pull_request", "pull_request_target")
DEFAULT_BOT = "github-actions[bot]"  # who an Actions token comments as (GET /user answers 403)
FILES = {"json": "report.json", "github": "annotations.txt", "sarif": "adrguard.sarif",
         "markdown": "report.md"}


@dataclass(frozen=True)
class Settings:
    """The Action's inputs and GitHub's context, read from the environment."""

    env: Mapping[str, str]

    def get(self, name: str, default: str = "") -> str:
        return self.env.get(name, default).strip()

    def flag(self, name: str, default: bool = True) -> bool:
        value = self.get(name).lower()
        return default if not value else value in ("true", "1", "yes", "on")

    @property
    def fail_on(self) -> str:
        value = self.get("INPUT_FAIL_ON", "none").lower() or "none"
        if value not in FAIL_ON:
            raise UserError(f"input fail-on {value!r}: choose one of {', '.join(FAIL_ON)}")
        return value

    @property
    def out_dir(self) -> Path:
        value = self.get("ADRGUARD_OUT_DIR")
        if not value:
            raise UserError("ADRGUARD_OUT_DIR is not set: run this from action.yml")
        return Path(value)

    def event(self) -> dict[str, Any]:
        path = self.get("GITHUB_EVENT_PATH")
        if not path:
            return {}
        try:
            data = load_json(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def pull_request(self) -> dict[str, Any]:
        if self.get("GITHUB_EVENT_NAME") not in PULL_EVENTS:
            return {}
        return as_dict(self.event().get("pull_request"))

    def config(self, root: Path) -> tuple[Path, Config]:
        """The repository around ``root`` and its configuration (the ``config`` input, else
        the repository's own), with the record cache off."""
        given = self.get("INPUT_CONFIG")
        root = api.resolve_root(root)
        return root, load_config(root, Path(given) if given else None).with_overrides(cache=False)


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (event payloads vary)."""
    return value if isinstance(value, dict) else {}


def notice(message: str, level: str = "notice") -> None:
    sys.stdout.write(command(level, message, title="adrguard") + "\n")
    sys.stdout.flush()


def write_outputs(settings: Settings, values: Mapping[str, str]) -> None:
    """Append step outputs to ``$GITHUB_OUTPUT`` with the multiline-safe delimiter syntax."""
    target = settings.get("GITHUB_OUTPUT")
    if not target:
        return
    chunks = []
    for name, value in values.items():
        delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        while delimiter in value:
            delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        chunks.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("".join(chunks))


def append_summary(settings: Settings, text: str) -> None:
    """Append Markdown to ``$GITHUB_STEP_SUMMARY``; a problem writing it is a notice."""
    target = settings.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        notice(f"cannot write the job summary: {exc.strerror or exc}", "warning")

# --- the command ----------------------------------------------------------------------------

def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "action", rewrap=True,
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

    workspace = Path(settings.get("GITHUB_WORKSPACE") or ".")
    places = [workspace] + ([Path(t)] if (t := settings.get("RUNNER_TEMP")) else [])
    target = Path(wanted)
    if not target.is_absolute():
        target = workspace / target

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

# --- the open-pull-requests input -----------------------------------------------------------
# The Action's ``open-pull-requests`` input: the records other open pull requests add.
#
# ``adrguard action prepare`` lists the repository's other open pull requests through the API
# (``GET /repos/{repo}/pulls``, then ``GET .../pulls/{n}/files`` for each: read-only calls a
# token with ``pull-requests: read`` may make) and writes what each adds into a claims file
# (``schemas/claims.schema.json``) for the one ``adrguard check --claims FILE`` of the Action,
# where ADR509 reports a record of this pull request that takes a number another one adds.
# Nothing is checked out or fetched: an added file's text is rebuilt from the diff the API
# returns (every line of a new file is an added line); a file without one (too large, binary)
# is known by its name alone. A token that may not read pull requests, or an API error, becomes a
# notice, and the check runs without claims.

MAX_PULLS = 100  # the most recently updated open pull requests looked at
MAX_TEXT = 1_048_576  # characters of one file's text kept (the schema's limit)
ADDED = ("added", "renamed", "copied")
MARKDOWN = (".md", ".markdown")
CLAIMS_FILE = "adrguard-claims.json"


def text_of_new_file(patch: Any) -> str | None:
    """The text of an added file from its unified diff (one hunk ``@@ -0,0 +1,N @@``), or None
    when the diff is not one of a whole new file."""
    if not isinstance(patch, str) or not patch.startswith("@@ -0,0 +"):
        return None
    lines = patch.split("\n")
    body: list[str] = []
    newline_at_end = True
    for line in lines[1:]:
        if line.startswith("+"):
            body.append(line[1:])
        elif line.startswith("\\"):
            newline_at_end = False  # "\ No newline at end of file"
        elif line:
            return None  # a context or removed line: not a whole new file
    text = "\n".join(body) + ("\n" if newline_at_end and body else "")
    return text if len(text) <= MAX_TEXT else None


def _files(raw: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in raw:
        if not isinstance(f, dict) or f.get("status") not in ADDED:
            continue
        path = f.get("filename")
        if not isinstance(path, str) or not path or len(path) > 1024:
            continue
        if not path.lower().endswith(MARKDOWN):
            continue
        entry: dict[str, Any] = {"path": path}
        sha = f.get("sha")
        if isinstance(sha, str) and len(sha) in (40, 64) and all(
            c in "0123456789abcdef" for c in sha
        ):
            entry["blob"] = sha
        entry["text"] = text_of_new_file(f.get("patch")) if f.get("status") == "added" else None
        out.append(entry)
    return out


def collect(client: GitHubClient, repo: str, own: int | None) -> tuple[dict[str, Any] | None, str]:
    """The claims of ``repo``'s open pull requests other than ``own``, or None and why not."""
    listed = client.list_open_pulls(repo)
    if not listed.ok:
        return None, f"cannot list the open pull requests ({listed.error or listed.status})"
    pulls: list[dict[str, Any]] = []
    for pr in listed.data[:MAX_PULLS]:
        number = pr.get("number") if isinstance(pr, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or number < 1 or number == own:
            continue
        files = client.list_pull_files(repo, number)
        if not files.ok:
            return None, f"cannot list the files of pull request #{number} " \
                         f"({files.error or files.status})"
        entry: dict[str, Any] = {"number": number, "files": _files(files.data)}
        title = pr.get("title")
        if isinstance(title, str):
            entry["title"] = title[:200]
        head = pr.get("head")
        if isinstance(head, dict) and isinstance(head.get("sha"), str):
            entry["head"] = head["sha"][:64]
        pulls.append(entry)
    return {"schemaVersion": 1, "repository": repo, "pullRequests": pulls}, ""


def prepare_claims(settings: Settings) -> str:
    """Write the claims file when the ``open-pull-requests`` input asks for it; its path, or ""
    (skipped, with a notice saying why)."""
    if not settings.flag("INPUT_OPEN_PULL_REQUESTS", default=False):
        return ""
    skip = "numbers other open pull requests take (ADR509) are not checked"
    repo = settings.get("GITHUB_REPOSITORY")
    temp = settings.get("RUNNER_TEMP")
    client = GitHubClient.from_env(settings.env)
    if client is None or not repo or not temp:
        notice(f"open-pull-requests: no token, repository or RUNNER_TEMP, so the {skip}")
        return ""
    pr = settings.pull_request()
    own = pr.get("number") if isinstance(pr.get("number"), int) else None
    data, why = collect(client, repo, own)
    if data is None:
        notice(f"open-pull-requests: {why}, so the {skip}; give the job `pull-requests: read`")
        return ""
    target = Path(temp) / CLAIMS_FILE
    try:
        write_atomic(target, json.dumps(data, ensure_ascii=False).encode("utf-8"),
                     within=[Path(temp)])
    except OSError as exc:
        notice(f"open-pull-requests: cannot write {target}: {exc.strerror or exc}", "warning")
        return ""
    others = plural(len(data["pullRequests"]), "other open pull request")
    info(f"adrguard: read the files of {others}")
    return str(target)

# --- the verify input -----------------------------------------------------------------------
# ``adrguard action report`` with the ``verify`` input: run ``adrguard verify`` in-process and
# hand its Markdown section to the job summary and the sticky comment.
#
# Inputs (from the environment action.yml sets): ``INPUT_VERIFY`` (``true`` runs it),
# ``INPUT_VERIFY_RULES`` (the manifest), ``INPUT_VERIFY_EVIDENCE`` (evidence files, separated by
# whitespace or newlines), ``INPUT_VERIFY_POLICY`` (``advisory`` or ``enforce``). Under enforce a
# new violation, an inconclusive run or a manifest that cannot be used fails the step; under
# advisory the step never fails because of verify.

VERIFY_FILE = "verify.json"


@dataclass(frozen=True)
class Verified:
    section: str  # trusted Markdown (untrusted parts escaped by the reporter)
    failed: bool  # enforce: fail the step
    news: bool  # a violation or an unknown: worth a comment
    outputs: dict[str, str] = field(default_factory=dict)


def _not_verified(what: str, policy: str | None) -> Verified:
    """The section of a verify that did not run (``what``: trusted Markdown); under enforce
    the step fails."""
    enforced = policy == "enforce"
    return Verified(f"{reporter.HEADING}\n\n❌ adrguard verify {what}\n", enforced, True,
                    {"verify-json": "", "verify-policy-failed": str(enforced).lower()})


def run_verify(settings: Settings, root: Path, out: Path) -> Verified | None:
    """The verify section, or None when the ``verify`` input is off."""
    if not settings.flag("INPUT_VERIFY", default=False):
        return None

    policy = settings.get("INPUT_VERIFY_POLICY").lower() or None
    evidence = settings.get("INPUT_VERIFY_EVIDENCE").split() or None
    try:
        root, config = settings.config(root)
        policy = policy or config.options.verify.policy
        result = verify_api.verify(root, config=config, rules=settings.get("INPUT_VERIFY_RULES")
                                   or None, evidence=evidence, policy=policy)
    except UserError as exc:
        notice(f"adrguard verify could not run: {exc}", "error")
        return _not_verified(f"could not run: {escape(str(exc))}", policy)
    except Exception as exc:  # our bug: say so, and let the check's report still be published
        reason = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        notice(f"adrguard verify hit an internal error ({reason}); please report it", "error")
        return _not_verified(f"hit an internal error: {escape(reason)}. Please report it.",
                             policy)
    target = out / VERIFY_FILE

    write_atomic(target, reporter.render("json", result))
    news = any(r.status in ("violation", "unknown") for r in result.results)
    outputs = {"verify-json": str(target),
               "verify-policy-failed": str(result.policy_failed).lower()}
    return Verified(reporter.render_markdown(result), result.policy_failed, news, outputs)

# --- publishing -----------------------------------------------------------------------------
# Publishing for ``adrguard action report``: job summary, annotations, sticky PR comment.
#
# The sticky comment is ours when its **first line** is exactly our marker line, which carries
# the run's identity (the ``comment-key`` input, else ``GITHUB_WORKFLOW/GITHUB_JOB``), **and** its
# author is the token's own login (``GET /user``), or ``github-actions[bot]`` for an Actions token,
# which cannot read ``/user``. A comment that merely contains the marker, another job's comment and
# anything someone else wrote are never touched. Of our comments the most recent is updated; older
# copies of the same identity (a race between two runs) are removed. Every API problem (a fork's
# read-only token, 404, 5xx, no network) becomes a notice, never a failure.

def build_page(settings: Settings, root: Path) -> tuple[Page, ReportContext]:
    """The impact, graph and links the comment and summary show (what can be had)."""
    server = settings.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repo = settings.get("GITHUB_REPOSITORY")
    run_id = settings.get("GITHUB_RUN_ID")
    sha = settings.get("GITHUB_SHA")
    repo_url = f"{server}/{repo}" if repo else None
    run_url = f"{repo_url}/actions/runs/{run_id}" if repo_url and run_id else None
    pr = settings.pull_request()
    head = as_dict(pr.get("head"))
    blob_sha = str(head.get("sha") or sha)
    blob_url = f"{repo_url}/blob/{blob_sha}" if repo_url and blob_sha else None
    notes: list[str] = []
    try:
        root, config = settings.config(root)
        corpus = api.load_with(root, config)
    except UserError as exc:
        notice(f"cannot load the decisions for the summary: {exc}", "warning")
        return Page(run_url=run_url, blob_url=blob_url), default_context()
    base = settings.get("ADRGUARD_BASE")
    found = None
    if base:
        try:
            found = impact_of(root, base=base, config=config)
        except UserError as exc:
            notes.append(f"The governing decisions are unknown: {exc}")
    else:
        notes.append("No base to compare with, so the governing decisions are not shown "
                     "(see the action's `base` input and `fetch-depth: 0`).")
    # No repo_url: the Markdown reporter links findings to the default branch (blob/HEAD),
    # where a file the pull request adds does not exist yet.
    ctx = default_context(decisions=decisions_of(corpus))
    page = Page(impact=found, graph=build(corpus), notes=tuple(notes), run_url=run_url,
                blob_url=blob_url)
    return page, ctx


def publish(settings: Settings, root: Path, report: Report, out: Path,
            verified: Verified | None = None) -> None:
    page, ctx = build_page(settings, root)
    if verified is not None:
        page = replace(page, sections=(verified.section,))
    if settings.get("GITHUB_STEP_SUMMARY"):
        append_summary(settings, body.summary(report, ctx, page))
    annotations = out / FILES["github"]
    if settings.flag("INPUT_ANNOTATIONS") and annotations.is_file():
        sys.stdout.write(annotations.read_text(encoding="utf-8"))
        sys.stdout.flush()
    if not settings.flag("INPUT_COMMENT"):
        return
    number = settings.pull_request().get("number")
    repo = settings.get("GITHUB_REPOSITORY")
    if not isinstance(number, int) or not repo:
        info("adrguard: not a pull request: no comment to write")
        return
    identity = comment_identity(settings)
    news = body.has_news(report, page.impact) or (verified is not None and verified.news)
    wanted = body.comment(report, ctx, page, identity=identity) if news else None
    problem = sticky(settings, repo, number, wanted, body.resolved(page, identity),
                     body.marker(identity))
    if problem:
        notice(f"the pull-request comment was skipped: {problem}. The job summary has the "
               "full report.")


def _why(what: str, result: ApiResult) -> str:
    if result.status in (401, 403):
        return (f"{what}: {result.error} (the token may not write to pull requests: a fork's "
                "token is read-only; grant `pull-requests: write`, or set comment: false)")
    if result.status == 404:
        return f"{what}: {result.error} (pull request or repository not found for this token)"
    return f"{what}: {result.error or f'HTTP {result.status}'}"


def own_login(settings: Settings, client: GitHubClient) -> str:
    configured = settings.get("ADRGUARD_COMMENT_AUTHOR")
    if configured:
        return configured
    who = client.login()
    if who.ok and isinstance(who.data, dict) and who.data.get("login"):
        return str(who.data["login"])
    return DEFAULT_BOT


def comment_identity(settings: Settings) -> str:
    """Which run owns the sticky comment: the ``comment-key`` input, else workflow/job."""
    key = settings.get("INPUT_COMMENT_KEY")
    if key:
        return key
    parts = [settings.get("GITHUB_WORKFLOW"), settings.get("GITHUB_JOB")]
    return "/".join(p for p in parts if p)


def sticky(settings: Settings, repo: str, number: int, wanted: str | None, done: str,
           marker_line: str) -> str:
    """Create, update or resolve the one adrguard comment; the problem (for a notice) or ''."""
    client = GitHubClient.from_env(settings.env)
    if client is None:
        return "no github-token was given"
    login = own_login(settings, client)
    listing = client.list_comments(repo, number)
    if not listing.ok:
        return _why("listing the comments failed", listing)
    mine = [c for c in listing.data if _is_ours(c, login, marker_line)]
    if not mine:
        if wanted is None:
            return ""
        made = client.create_comment(repo, number, wanted)
        if made.ok:
            info(f"adrguard: commented on #{number}")
        return "" if made.ok else _why("creating the comment failed", made)
    *older, latest = sorted(mine, key=lambda c: int(c["id"]))
    text = done if wanted is None else wanted
    if latest.get("body") != text:
        changed = client.update_comment(repo, int(latest["id"]), text)
        if not changed.ok:
            return _why("updating the comment failed", changed)
        info(f"adrguard: updated comment {latest['id']} on #{number}")
    for dup in older:  # our own copies from a run that raced this one: keep a single comment
        client.delete_comment(repo, int(dup["id"]))
    return ""


def _is_ours(c: Any, login: str, marker_line: str) -> bool:
    """Written by ``login`` and opening with exactly ``marker_line`` (our identity)."""
    if not isinstance(c, dict) or not isinstance(c.get("body"), str):
        return False
    if not isinstance(c.get("id"), int):
        return False
    user = as_dict(c.get("user"))
    first = c["body"].split("\n", 1)[0].rstrip("\r")
    return first == marker_line and str(user.get("login", "")) == login
