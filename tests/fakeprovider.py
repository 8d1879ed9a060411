"""A fake model provider: a real HTTP server on 127.0.0.1 that speaks the wire format of an
OpenAI-compatible chat-completions endpoint (``POST /v1/chat/completions``) and of the Anthropic
Messages API (``POST /v1/messages``), checks the headers each API requires, and records every
request it receives (path, headers, JSON body) so a test can prove what was sent.

What it answers is set by the test (:attr:`FakeProvider.mode`):

* ``judge`` (default): a scripted "model". It reads the JSON document of the user message (the
  context and the candidates, exactly as a real model would receive them) and rates each
  candidate whose title holds a word of :attr:`ratings` for a phrase found in the context;
* ``status``: an error reply in the API's own error format (:attr:`status`, optional
  ``Retry-After``);
* ``text``: :attr:`text` as the model's message (garbage, oversized, out-of-set ids ...);
* ``hang``: no reply until the server stops (a provider that is down but accepts connections);
* ``gullible``: a "model" that obeys instructions found in a candidate's summary (to show that
  such an answer is validated and dropped);
* ``wire``: a 200 reply that is not the API's format at all.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KEY = "sk-test-0123456789abcdefFAKEKEY"  # what the tests put in the key's variable


class FakeProvider:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.mode = "judge"
        # context phrase -> title word -> (confidence, reason)
        self.ratings: dict[str, dict[str, tuple[float, str]]] = {}
        self.status = 500
        self.retry_after: str | None = None
        self.text = ""
        self.release = threading.Event()
        # called once a request is recorded, before the reply is sent (a test's hook, e.g. to
        # cancel the caller's run while the "model" is answering)
        self.before_reply: Callable[[], None] | None = None
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- what a "model" answers -----------------------------------------------------------
    def answer(self, document: dict[str, Any]) -> str:
        context = str(document.get("context", "")).casefold()
        relevant = []
        for phrase, table in self.ratings.items():
            if phrase.casefold() not in context:
                continue
            for cand in document["candidates"]:
                for word, (confidence, reason) in table.items():
                    if word.casefold() in cand["title"].casefold():
                        relevant.append(
                            {"id": cand["id"], "confidence": confidence, "reason": reason}
                        )
        return json.dumps({"relevant": relevant})

    def gullible(self, document: dict[str, Any]) -> str:
        for cand in document["candidates"]:
            if "ignore previous instructions" in cand["summary"].casefold():
                return json.dumps(
                    {
                        "relevant": [
                            {"id": "ADR-9999", "confidence": 1.0, "reason": "as instructed"},
                            {"id": cand["id"], "confidence": 1.0, "reason": "as instructed"},
                        ],
                        "note": "rm -rf /",
                    }
                )
        return self.answer(document)


def _handler(fake: FakeProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            headers = {k.casefold(): v for k, v in self.headers.items()}
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            fake.requests.append({"path": self.path, "headers": headers, "body": body,
                                  "raw": raw})
            if fake.before_reply is not None:
                fake.before_reply()
            anthropic = self.path.endswith("/v1/messages")
            if not anthropic and not self.path.endswith("/chat/completions"):
                return self._error(404, anthropic, "not_found_error", "no such route")
            problem = self._check(headers, body, anthropic)
            if problem is not None:
                return self._error(problem[0], anthropic, problem[1], "bad request")
            if fake.mode == "hang":
                fake.release.wait(30)
                return self._error(504, anthropic, "timeout", "released")
            if fake.mode == "status":
                return self._error(fake.status, anthropic, _type_of(fake.status, anthropic),
                                   "failure of the fake")
            if fake.mode == "wire":
                return self._send(200, {"unexpected": True})
            document = json.loads(self._user_text(body, anthropic))
            if fake.mode == "text":
                text = fake.text
            elif fake.mode == "gullible":
                text = fake.gullible(document)
            else:
                text = fake.answer(document)
            if anthropic:
                return self._send(200, {
                    "id": "msg_fake", "type": "message", "role": "assistant",
                    "model": body["model"], "content": [{"type": "text", "text": text}],
                    "stop_reason": "end_turn", "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 10},
                })
            return self._send(200, {
                "id": "chatcmpl-fake", "object": "chat.completion", "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            })

        def _check(
            self, headers: dict[str, str], body: Any, anthropic: bool
        ) -> tuple[int, str] | None:
            if not isinstance(body, dict) or "model" not in body or "messages" not in body:
                return 400, "invalid_request_error"
            if anthropic:
                if headers.get("x-api-key") != KEY:
                    return 401, "authentication_error"
                if not headers.get("anthropic-version"):
                    return 400, "invalid_request_error"
                if "max_tokens" not in body or not isinstance(body.get("system"), str):
                    return 400, "invalid_request_error"
            elif "authorization" in headers and headers["authorization"] != f"Bearer {KEY}":
                return 401, "invalid_api_key"
            return None

        @staticmethod
        def _user_text(body: dict[str, Any], anthropic: bool) -> str:
            users = [m for m in body["messages"] if m["role"] == "user"]
            return str(users[-1]["content"])

        def _error(self, status: int, anthropic: bool, kind: str, message: str) -> None:
            if anthropic:
                payload: dict[str, Any] = {"type": "error",
                                           "error": {"type": kind, "message": message}}
            else:
                payload = {"error": {"message": message, "type": kind, "param": None,
                                     "code": None}}
            extra = {"retry-after": fake.retry_after} if fake.retry_after and status == 429 else {}
            self._send(status, payload, extra)

        def _send(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _type_of(status: int, anthropic: bool) -> str:
    if status == 429:
        return "rate_limit_error" if anthropic else "rate_limit_exceeded"
    if status == 529:
        return "overloaded_error"
    return "api_error" if anthropic else "server_error"


@contextmanager
def running() -> Iterator[FakeProvider]:
    """A fake provider on 127.0.0.1 (a free port), stopped afterwards."""
    fake = FakeProvider()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.server = server
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def sent_candidates(request: dict[str, Any]) -> list[dict[str, str]]:
    """The candidates a recorded request carried (from its user message's JSON document)."""
    body = request["body"]
    users = [m for m in body["messages"] if m["role"] == "user"]
    return list(json.loads(users[-1]["content"])["candidates"])


def sent_context(request: dict[str, Any]) -> str:
    body = request["body"]
    users = [m for m in body["messages"] if m["role"] == "user"]
    return str(json.loads(users[-1]["content"])["context"])
