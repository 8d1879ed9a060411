"""A small GitHub REST client for the Action's sticky pull-request comment and its list of
the records other open pull requests add (urllib only).

It never raises on an HTTP or network problem: every call returns an :class:`ApiResult`
whose ``status`` the caller turns into a notice (a fork's read-only token answers 403, a
missing pull request 404, an outage 5xx). The token is only ever sent to the API origin
(``GITHUB_API_URL``): a pagination ``Link`` pointing anywhere else is not followed.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DEFAULT_API_URL = "https://api.github.com"
API_VERSION = "2022-11-28"
TIMEOUT = 15.0  # seconds per request
PER_PAGE = 100
MAX_PAGES = 50  # 5,000 comments: enough for any pull request, bounded for a broken server
_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="?([^";]+)"?')


@dataclass(frozen=True)
class ApiResult:
    """What one request (or one paginated listing) returned. ``status`` 0: no HTTP answer."""

    status: int
    data: Any = None
    error: str = ""  # a short, single-line reason when the request did not succeed
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def next_link(header: str | None) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header (RFC 8288), or None."""
    for url, rels in _LINK.findall(header or ""):
        if "next" in rels.split():
            return str(url)
    return None


def _origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def _reason(status: int, body: bytes) -> str:
    try:
        message = json.loads(body.decode("utf-8", "replace")).get("message", "")
    except (ValueError, AttributeError):
        message = ""
    text = " ".join(str(message).split())[:200]
    return f"HTTP {status}" + (f": {text}" if text else "")


class GitHubClient:
    """Calls ``base_url`` with ``token``; paths are API paths (``/repos/o/r/issues/1/comments``)."""

    def __init__(self, base_url: str, token: str, *, timeout: float = TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/") or DEFAULT_API_URL
        self.token = token
        self.timeout = timeout

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> GitHubClient | None:
        """A client for ``GITHUB_API_URL`` with the token in ``GITHUB_TOKEN``; None without one."""
        token = env.get("GITHUB_TOKEN", "").strip()
        if not token:
            return None
        return cls(env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL, token)

    def url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else self.base_url + path

    def request(self, method: str, path: str, body: Any = None) -> ApiResult:
        url = self.url(path)
        if _origin(url) != _origin(self.base_url):
            return ApiResult(0, error=f"refusing to send the token to {_origin(url)[1] or url}")
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Accept", "application/vnd.github+json")
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("X-GitHub-Api-Version", API_VERSION)
        req.add_header("User-Agent", "adrguard-action")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                status = resp.status
                raw = resp.read()
                headers = {k.lower(): v for k, v in resp.headers.items()}
        except urllib.error.HTTPError as exc:
            raw = exc.read() if exc.fp is not None else b""
            headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
            return ApiResult(exc.code, error=_reason(exc.code, raw), headers=headers)
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            return ApiResult(0, error=f"no answer from {self.base_url}: {reason}")
        if not raw.strip():
            return ApiResult(status, None, headers=headers)
        try:
            return ApiResult(status, json.loads(raw.decode("utf-8")), headers=headers)
        except ValueError:
            return ApiResult(0, error=f"{method} {path}: the answer is not JSON", headers=headers)

    def paginate(self, path: str, *, max_pages: int = MAX_PAGES) -> ApiResult:
        """Every item of a list endpoint, following ``Link: rel="next"`` (at most ``max_pages``)."""
        sep = "&" if "?" in path else "?"
        url: str | None = f"{path}{sep}per_page={PER_PAGE}"
        items: list[Any] = []
        pages = 0
        last = ApiResult(0)
        while url is not None and pages < max_pages:
            last = self.request("GET", url)
            if not last.ok:
                return last
            if not isinstance(last.data, list):
                return ApiResult(0, error=f"GET {path}: expected a list")
            items.extend(last.data)
            pages += 1
            url = next_link(last.headers.get("link"))
        return ApiResult(last.status, items, headers=last.headers)

    # The calls the sticky comment needs ----------------------------------------------------

    def login(self) -> ApiResult:
        """``GET /user``: the token's own login (an Actions token answers 403 here)."""
        return self.request("GET", "/user")

    def list_comments(self, repo: str, number: int) -> ApiResult:
        return self.paginate(f"/repos/{repo}/issues/{number}/comments")

    def create_comment(self, repo: str, number: int, body: str) -> ApiResult:
        return self.request("POST", f"/repos/{repo}/issues/{number}/comments", {"body": body})

    def update_comment(self, repo: str, comment_id: int, body: str) -> ApiResult:
        return self.request("PATCH", f"/repos/{repo}/issues/comments/{comment_id}", {"body": body})

    def delete_comment(self, repo: str, comment_id: int) -> ApiResult:
        return self.request("DELETE", f"/repos/{repo}/issues/comments/{comment_id}")

    # The calls ADR509 across open pull requests needs (read-only) ------------------------

    def list_open_pulls(self, repo: str) -> ApiResult:
        """``GET /repos/{repo}/pulls?state=open``: the most recently updated first (one page)."""
        return self.paginate(f"/repos/{repo}/pulls?state=open&sort=updated&direction=desc",
                             max_pages=1)

    def list_pull_files(self, repo: str, number: int) -> ApiResult:
        """``GET /repos/{repo}/pulls/{number}/files``: each file's name, status, blob and patch
        (GitHub lists at most 3,000 files)."""
        return self.paginate(f"/repos/{repo}/pulls/{number}/files", max_pages=30)
