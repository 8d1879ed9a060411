"""The model providers' HTTP transport and wire formats, against real loopback servers: the
request each API expects, its error bodies, 429 with Retry-After, no redirects followed, one
deadline for the whole exchange, bounded replies, and never the key in an error."""

from __future__ import annotations

import json
import ssl
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from fakeprovider import KEY, FakeProvider, running

from adrguard.adapters.models import Anthropic, OpenAICompatible, open_provider
from adrguard.adapters.models.transport import post_json, retry_after, tls_context
from adrguard.core.agent.judge import Endpoint, Prompt, ProviderError

PROMPT = Prompt("system text", json.dumps({"context": "c", "candidates": []}))


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    with running() as provider:
        yield provider


def test_openai_compatible_wire_format(fake: FakeProvider) -> None:
    provider = OpenAICompatible(fake.url + "/v1", "m1", KEY, 5)
    completion = provider.complete(PROMPT)
    assert json.loads(completion.text) == {"relevant": []} and not completion.truncated
    (req,) = fake.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["authorization"] == f"Bearer {KEY}"
    assert req["headers"]["content-type"] == "application/json"
    body = req["body"]
    assert body["model"] == "m1" and body["temperature"] == 0 and body["stream"] is False
    assert body["messages"] == [
        {"role": "system", "content": "system text"},
        {"role": "user", "content": PROMPT.user},
    ]
    keyless = OpenAICompatible(fake.url + "/v1", "m1", None, 5)  # a local server
    keyless.complete(PROMPT)
    assert "authorization" not in fake.requests[-1]["headers"]


def test_anthropic_wire_format(fake: FakeProvider) -> None:
    provider = Anthropic(fake.url, "claude-x", KEY, 5)
    assert json.loads(provider.complete(PROMPT).text) == {"relevant": []}
    (req,) = fake.requests
    assert req["path"] == "/v1/messages"
    assert req["headers"]["x-api-key"] == KEY
    assert req["headers"]["anthropic-version"] == "2023-06-01"
    assert req["body"]["system"] == "system text" and req["body"]["max_tokens"] == 2048
    assert req["body"]["messages"] == [{"role": "user", "content": PROMPT.user}]
    Anthropic(fake.url + "/v1", "claude-x", KEY, 5).complete(PROMPT)  # no /v1/v1
    assert fake.requests[-1]["path"] == "/v1/messages"


@pytest.mark.parametrize("kind", ["openai-compatible", "anthropic"])
@pytest.mark.parametrize(
    ("status", "expect", "code"),
    [
        (429, "rate-limited", {"openai-compatible": "rate_limit_exceeded",
                               "anthropic": "rate_limit_error"}),
        (500, "http", {"openai-compatible": "server_error", "anthropic": "api_error"}),
        (529, "overloaded", {"openai-compatible": "overloaded_error",
                             "anthropic": "overloaded_error"}),
    ],
)
def test_error_replies(
    fake: FakeProvider, kind: str, status: int, expect: str, code: dict[str, str]
) -> None:
    fake.mode, fake.status, fake.retry_after = "status", status, "7"
    provider = open_provider(Endpoint(kind, fake.url + "/v1", "K", False), "m", KEY, 5)
    with pytest.raises(ProviderError) as caught:
        provider.complete(PROMPT)
    err = caught.value
    assert (err.kind, err.status, err.code) == (expect, status, code[kind])
    assert err.retry_after == (7.0 if status == 429 else None)
    assert KEY not in repr(provider) and KEY not in str(err) and KEY not in err.detail


def test_a_wrong_key_says_what_to_check(fake: FakeProvider) -> None:
    with pytest.raises(ProviderError) as caught:
        Anthropic(fake.url, "m", "sk-wrong", 5).complete(PROMPT)
    assert (caught.value.status, caught.value.code) == (401, "authentication_error")
    assert "api-key-env" in caught.value.detail and "sk-wrong" not in caught.value.detail


def test_retry_after_forms() -> None:
    assert retry_after({"retry-after": "20"}) == 20.0
    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}) is None
    assert retry_after({}) is None


# --- the transport against servers that misbehave ------------------------------------------


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up on a misbehaving server is what these tests do


@contextmanager
def server(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    httpd = _Quiet(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = httpd.server_address[:2]
        yield f"http://{host!s}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Base(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: ClassVar[list[str]] = []
    stop: ClassVar[threading.Event] = threading.Event()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _drain(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        type(self).seen.append(self.path)


class Redirect(_Base):
    def do_POST(self) -> None:
        self._drain()
        self.send_response(307)
        self.send_header("Location", "http://127.0.0.1:9/steal")
        self.send_header("Content-Length", "0")
        self.end_headers()


class Drip(_Base):
    def do_POST(self) -> None:
        self._drain()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        while not type(self).stop.wait(0.05):  # a byte every 50 ms, for ever
            try:
                self.wfile.write(b" ")
                self.wfile.flush()
            except OSError:
                return


class Huge(_Base):
    def do_POST(self) -> None:
        self._drain()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()  # no length: read until the bound
        try:
            for _ in range(64):
                self.wfile.write(b"x" * 4096)
        except OSError:
            return


def test_redirects_are_never_followed() -> None:
    Redirect.seen = []
    with server(Redirect) as url, pytest.raises(ProviderError) as caught:
        OpenAICompatible(url + "/v1", "m", KEY, 5).complete(PROMPT)
    assert (caught.value.kind, caught.value.status) == ("http", 307)
    assert "not followed" in caught.value.detail
    assert Redirect.seen == ["/v1/chat/completions"]  # one request, nothing else


def test_one_deadline_for_the_whole_exchange() -> None:
    Drip.stop = threading.Event()
    with server(Drip) as url:
        started = time.process_time()
        with pytest.raises(ProviderError) as caught:
            post_json(url + "/x", {}, b"{}", timeout=0.4)
        Drip.stop.set()
    assert caught.value.kind == "timeout"
    assert time.process_time() - started < 5  # CPU: it waited, it did not spin


def test_a_reply_is_read_up_to_its_bound() -> None:
    with server(Huge) as url, pytest.raises(ProviderError) as caught:
        post_json(url + "/x", {}, b"{}", timeout=5, max_bytes=10_000)
    assert caught.value.kind == "too-large"


def test_nobody_listening_is_unreachable() -> None:
    with pytest.raises(ProviderError) as caught:
        post_json("http://127.0.0.1:9/v1/chat/completions", {}, b"{}", timeout=2)
    assert (caught.value.kind, caught.value.detail) == ("unreachable", "connection refused")


def test_tls_uses_the_system_trust_store_when_the_extra_is_installed() -> None:
    truststore = pytest.importorskip("truststore")
    assert isinstance(tls_context(), truststore.SSLContext)


def test_without_the_ai_extra_tls_still_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "truststore", None)  # the extra is not installed
    context = tls_context()
    assert type(context) is ssl.SSLContext
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname

