"""One HTTP request to a model endpoint: the only network code adrguard has.

The standard library's :mod:`http.client`, one POST per call: no retries (a rate limit or an
outage is reported, and the caller answers with keywords), no redirects (a 3xx is an error,
so a key can never follow a redirect to another host), no proxy settings from the environment.
The whole exchange — connecting, sending, waiting for the reply and reading it — has one
deadline (the configured timeout), and the reply is read up to :data:`MAX_REPLY` bytes, so a
slow or endless server cannot hold a command. With the ``ai`` extra installed, TLS trusts the
operating system's certificate store (``truststore``); otherwise Python's default context.

Failures are :class:`~adrguard.core.agent.judge.ProviderError`, whose text never holds a header
(so never the key) nor anything the server wrote.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from adrguard.core.agent.judge import ProviderError

MAX_REPLY = 1024 * 1024  # bytes of one reply body
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes


def tls_context() -> ssl.SSLContext:
    """The operating system's trust store when ``truststore`` (the ``ai`` extra) is installed,
    else Python's default verifying context."""
    try:
        import truststore
    except ImportError:
        return ssl.create_default_context()
    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def post_json(
    url: str, headers: dict[str, str], body: bytes, timeout: float, max_bytes: int = MAX_REPLY
) -> Reply:
    """POST ``body`` to ``url``; the reply whatever its status. :class:`ProviderError` when the
    endpoint cannot be reached, the deadline passes, or the reply is larger than ``max_bytes``."""
    parts = urlsplit(url)
    scheme = parts.scheme.casefold()
    host = parts.hostname
    if scheme not in ("http", "https") or not host:
        raise ProviderError("unreachable", detail="not an http(s) URL")
    deadline = time.monotonic() + timeout
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = http.client.HTTPSConnection(host, parts.port, timeout=timeout, context=tls_context())
    else:
        conn = http.client.HTTPConnection(host, parts.port, timeout=timeout)
    path = parts.path or "/"
    try:
        conn.connect()
        sock = conn.sock  # kept: the connection lets go of it once the reply is read
        _remaining(sock, deadline)
        conn.request("POST", path, body=body, headers={**headers, "Content-Length": str(len(body))})
        _remaining(sock, deadline)
        response = conn.getresponse()
        got = {k.casefold(): v for k, v in response.getheaders()}
        declared = got.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise ProviderError("too-large", status=response.status)
        chunks: list[bytes] = []
        size = 0
        while True:
            _remaining(sock, deadline)
            chunk = response.read1(_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise ProviderError("too-large", status=response.status)
            chunks.append(chunk)
        return Reply(response.status, got, b"".join(chunks))
    except ProviderError:
        raise
    except TimeoutError:
        raise ProviderError("timeout") from None
    except ssl.SSLCertVerificationError:
        raise ProviderError("unreachable", detail="its TLS certificate is not trusted") from None
    except ssl.SSLError:
        raise ProviderError("unreachable", detail="TLS failed") from None
    except ConnectionRefusedError:
        raise ProviderError("unreachable", detail="connection refused") from None
    except socket.gaierror:
        raise ProviderError("unreachable", detail="host name not found") from None
    except (ConnectionError, http.client.HTTPException, OSError) as exc:
        raise ProviderError("unreachable", detail=type(exc).__name__) from None
    finally:
        conn.close()


def _remaining(sock: socket.socket | None, deadline: float) -> None:
    """Give the socket what is left of the deadline (a timeout once it has passed)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise ProviderError("timeout")
    if sock is not None:
        sock.settimeout(left)


def retry_after(headers: dict[str, str]) -> float | None:
    """Seconds the server asks to wait (``retry-after`` in seconds; ``retry-after-ms``), if
    it says so in a number."""
    ms = headers.get("retry-after-ms", "").strip()
    try:
        if ms:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after", "").strip()
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
