"""Publishing for ``adrguard action report``: job summary, annotations, sticky PR comment.

The sticky comment is ours when its **first line** is exactly our marker line, which carries
the run's identity (the ``comment-key`` input, else ``GITHUB_WORKFLOW/GITHUB_JOB``), **and** its
author is the token's own login (``GET /user``), or ``github-actions[bot]`` for an Actions token,
which cannot read ``/user``. A comment that merely contains the marker, another job's comment and
anything someone else wrote are never touched. Of our comments the most recent is updated; older
copies of the same identity (a race between two runs) are removed. Every API problem (a fork's
read-only token, 404, 5xx, no network) becomes a notice, never a failure.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.cli.common import info
from adrguard.cli.gha_env import DEFAULT_BOT, FILES, Settings, append_summary, as_dict, notice
from adrguard.core.errors import UserError
from adrguard.core.findings import Report

if TYPE_CHECKING:
    from adrguard.api import ApiResult, GitHubClient
    from adrguard.cli.gha_verify import Verified
    from adrguard.reporters.comment import Page
    from adrguard.reporters.context import ReportContext


def build_page(settings: Settings, root: Path) -> tuple[Page, ReportContext]:
    """The impact, graph and links the comment and summary show (what can be had)."""
    from adrguard import api
    from adrguard.api.graph import build
    from adrguard.api.impact import impact as impact_of
    from adrguard.config import load_config
    from adrguard.reporters import decisions_of, default_context
    from adrguard.reporters.comment import Page

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
    config_path = Path(settings.get("INPUT_CONFIG")) if settings.get("INPUT_CONFIG") else None
    try:
        root = api.resolve_root(root)
        config = load_config(root, config_path).with_overrides(cache=False)
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
    from dataclasses import replace

    from adrguard.reporters import comment as body

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


def _client(settings: Settings) -> GitHubClient | None:
    from adrguard.api import GitHubClient

    return GitHubClient.from_env(settings.env)


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
    client = _client(settings)
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
