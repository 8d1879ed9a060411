"""The Action's ``open-pull-requests`` input: the records other open pull requests add.

``adrguard action prepare`` lists the repository's other open pull requests through the API
(``GET /repos/{repo}/pulls``, then ``GET .../pulls/{n}/files`` for each: read-only calls a
token with ``pull-requests: read`` may make) and writes what each adds into a claims file
(``schemas/claims.schema.json``) for the one ``adrguard check --claims FILE`` of the Action,
where ADR509 reports a record of this pull request that takes a number another one adds.
Nothing is checked out or fetched: an added file's text is rebuilt from the diff the API
returns (every line of a new file is an added line); a file without one (too large, binary)
is known by its name alone. A token that may not read pull requests, or an API error, becomes a
notice, and the check runs without claims.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.cli.common import info
from adrguard.core.wording import plural

if TYPE_CHECKING:
    from adrguard.api import GitHubClient
    from adrguard.cli.gha_env import Settings

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
    from adrguard.api import GitHubClient, write_atomic
    from adrguard.cli.gha_env import notice

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
