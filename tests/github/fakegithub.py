"""A real HTTP server on 127.0.0.1 that answers the GitHub REST calls the Action makes.

It implements ``GET /user``, ``GET``/``POST /repos/{o}/{r}/issues/{n}/comments`` (with
``per_page``/``page`` pagination and a ``Link`` header), ``PATCH``/``DELETE
/repos/{o}/{r}/issues/comments/{id}``, ``GET /repos/{o}/{r}/pulls`` and ``GET
/repos/{o}/{r}/pulls/{n}/files`` (from ``State.pulls``), and records every request. Failures are switched on per
test: ``fail[("POST", "comments")] = 403`` makes that call answer 403.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

LIST = re.compile(r"^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$")
ONE = re.compile(r"^/repos/([^/]+/[^/]+)/issues/comments/(\d+)$")
PULLS = re.compile(r"^/repos/([^/]+/[^/]+)/pulls$")
PULL_FILES = re.compile(r"^/repos/([^/]+/[^/]+)/pulls/(\d+)/files$")


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    authorization: str


@dataclass
class State:
    tokens: dict[str, str] = field(default_factory=dict)  # token -> login (GET /user)
    comments: list[dict[str, Any]] = field(default_factory=list)
    # open pull requests: {"number", "title", "head": {"sha"}, "files": [pulls/{n}/files items]}
    pulls: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    fail: dict[tuple[str, str], int] = field(default_factory=dict)  # (method, what) -> status
    next_id: int = 1000
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, login: str, body: str, number: int = 7, repo: str = "acme/shop") -> int:
        self.next_id += 1
        self.comments.append({"id": self.next_id, "body": body, "user": {"login": login},
                              "repo": repo, "number": number})
        return self.next_id

    def of(self, method: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method]


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _send(self, status: int, data: Any = None, headers: dict[str, str] | None = None) -> None:
        raw = b"" if data is None else json.dumps(data).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)

    def _handle(self, method: str) -> None:
        state = self.server.state
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        with state.lock:
            state.requests.append(Recorded(method, parts.path, parse_qs(parts.query), body,
                                           self.headers.get("Authorization", "")))
            self._route(state, method, parts.path, parse_qs(parts.query), body)

    def _login(self, state: State) -> str | None:
        auth = self.headers.get("Authorization", "")
        return state.tokens.get(auth.removeprefix("Bearer ").strip())

    def _route(self, state: State, method: str, path: str, query: dict[str, list[str]],
               body: Any) -> None:
        what = ("user" if path == "/user" else "comments" if LIST.match(path)
                else "pulls" if PULLS.match(path) else "pull-files" if PULL_FILES.match(path)
                else "comment")
        status = state.fail.get((method, what))
        if status:
            self._send(status, {"message": "Resource not accessible by integration"
                                if status == 403 else "Server Error"})
            return
        login = self._login(state)
        if path == "/user" and method == "GET":
            if login is None:
                self._send(403, {"message": "Resource not accessible by integration"})
            else:
                self._send(200, {"login": login, "id": 1})
            return
        if PULLS.match(path) and method == "GET":
            self._send(200, [{k: v for k, v in p.items() if k != "files"} for p in state.pulls])
            return
        m = PULL_FILES.match(path)
        if m and method == "GET":
            found = [p for p in state.pulls if p["number"] == int(m.group(2))]
            self._send(200, found[0]["files"]) if found else self._send(404, {"message": "Not Found"})
            return
        m = LIST.match(path)
        if m and method == "GET":
            repo, number = m.group(1), int(m.group(2))
            items = [c for c in state.comments if c["repo"] == repo and c["number"] == number]
            per_page = min(int(query.get("per_page", ["30"])[0]), 100)
            page = int(query.get("page", ["1"])[0])
            chunk = items[(page - 1) * per_page : page * per_page]
            headers = {}
            if page * per_page < len(items):
                nxt = f"{state.base_url}{path}?per_page={per_page}&page={page + 1}"
                last = f"{state.base_url}{path}?per_page={per_page}&page={-(-len(items) // per_page)}"
                headers["Link"] = f'<{nxt}>; rel="next", <{last}>; rel="last"'
            self._send(200, [self._public(c) for c in chunk], headers)
            return
        if m and method == "POST":
            who = login or "github-actions[bot]"
            new_id = state.add(who, body["body"], int(m.group(2)), m.group(1))
            self._send(201, self._public(state.comments[-1]) | {"id": new_id})
            return
        m = ONE.match(path)
        if m:
            found = [c for c in state.comments if c["id"] == int(m.group(2))]
            if not found:
                self._send(404, {"message": "Not Found"})
            elif method == "PATCH":
                found[0]["body"] = body["body"]
                self._send(200, self._public(found[0]))
            elif method == "DELETE":
                state.comments.remove(found[0])
                self._send(204)
            return
        self._send(404, {"message": "Not Found"})

    @staticmethod
    def _public(c: dict[str, Any]) -> dict[str, Any]:
        return {"id": c["id"], "body": c["body"], "user": c["user"]}

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_DELETE(self) -> None:
        self._handle("DELETE")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: State) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.state = state
        state.base_url = f"http://127.0.0.1:{self.server_address[1]}"
