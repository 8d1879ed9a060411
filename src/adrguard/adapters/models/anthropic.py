"""The Anthropic Messages API.

Request: ``POST {base-url}/v1/messages`` (base URL ``https://api.anthropic.com``; one that
already ends in ``/v1`` is not given a second one), headers ``x-api-key: <key>``,
``anthropic-version: 2023-06-01`` and ``content-type: application/json``; the body names the
``model``, ``max_tokens``, the ``system`` prompt, one ``user`` message and ``temperature`` 0.
Reply: ``{"type": "message", "content": [{"type": "text", "text": ...}], "stop_reason": ...}``;
the text blocks, joined, are the answer, and ``stop_reason`` ``max_tokens`` means it was cut
short. An error reply is ``{"type": "error", "error": {"type": "rate_limit_error", "message":
...}}``: only ``error.type`` is kept. HTTP 429 is a rate limit (with ``retry-after``), 529
``overloaded_error``.
"""

from __future__ import annotations

import json
from typing import Any

from adrguard import __version__
from adrguard.adapters.models.openai_compatible import status_error
from adrguard.adapters.models.transport import Reply, post_json
from adrguard.core.agent.judge import Completion, Prompt, ProviderError

VERSION = "2023-06-01"  # the anthropic-version header


class Anthropic:
    """The Messages API (see the module docstring)."""

    name = "anthropic"

    def __init__(self, url: str, model: str, key: str | None, timeout: float) -> None:
        self._url = url.rstrip("/")
        self._model = model
        self.__key = key
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"Anthropic({self._url!r}, {self._model!r})"

    @property
    def model(self) -> str:
        return self._model

    @property
    def endpoint(self) -> str:
        return self._url

    def request(self, prompt: Prompt) -> tuple[str, dict[str, str], bytes]:
        """The URL, headers and body of the request for ``prompt``."""
        body = {
            "model": self._model,
            "max_tokens": prompt.max_tokens,
            "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}],
            "temperature": 0,
        }
        headers = {
            "content-type": "application/json",
            "accept": "application/json",
            "anthropic-version": VERSION,
            "user-agent": f"adrguard/{__version__}",
        }
        if self.__key:
            headers["x-api-key"] = self.__key
        path = "/messages" if self._url.endswith("/v1") else "/v1/messages"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return self._url + path, headers, data

    def complete(self, prompt: Prompt) -> Completion:
        url, headers, data = self.request(prompt)
        reply = post_json(url, headers, data, self._timeout)
        if reply.status != 200:
            raise error_of(reply)
        return _completion(reply.body)


def _completion(body: bytes) -> Completion:
    try:
        data: Any = json.loads(body)
        blocks = data["content"]
        stop = data.get("stop_reason")
        if not isinstance(blocks, list):
            raise TypeError
        text = "".join(
            b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise ProviderError("malformed", detail="no content text blocks") from None
    return Completion(text, truncated=stop == "max_tokens")


def error_of(reply: Reply) -> ProviderError:
    """The error a non-200 reply means (its ``error.type`` identifier kept)."""
    code = None
    try:
        err = json.loads(reply.body).get("error")
        if isinstance(err, dict) and isinstance(err.get("type"), str):
            code = err["type"]
    except (ValueError, AttributeError, RecursionError):
        pass
    return status_error(reply, code)
