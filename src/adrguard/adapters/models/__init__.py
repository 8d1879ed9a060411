"""The model providers that may judge relevance (issue 31): an OpenAI-compatible
chat-completions endpoint (:class:`OpenAICompatible`: OpenAI, llama.cpp, vLLM, Ollama, ...) and
the Anthropic Messages API (:class:`Anthropic`), over one HTTP transport (:mod:`.transport`).
Each implements :class:`adrguard.core.agent.judge.Provider`; :func:`open_provider` picks one."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from adrguard import __version__
from adrguard.adapters.models.transport import Reply, post_json, retry_after
from adrguard.core.agent.judge import Completion, Endpoint, Prompt, Provider, ProviderError

VERSION = "2023-06-01"  # the anthropic-version header


def open_provider(ep: Endpoint, model: str, key: str | None, timeout: float) -> Provider:
    """The provider of ``ep`` (its key, if any, read by the caller from the environment)."""
    if ep.provider == "anthropic":
        return Anthropic(ep.url, model, key, timeout)
    return OpenAICompatible(ep.url, model, key, timeout)


class _Endpoint:
    """What both providers share: the base URL, the model, the key and the timeout; one prompt
    sent as one request, a reply other than 200 an error."""

    name = ""

    def __init__(self, url: str, model: str, key: str | None, timeout: float) -> None:
        self._url = url.rstrip("/")
        self._model = model
        self._key = key
        self._timeout = timeout

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}({self._url!r}, {self._model!r})"

    @property
    def model(self) -> str:
        return self._model

    @property
    def endpoint(self) -> str:
        return self._url

    def request(self, prompt: Prompt) -> tuple[str, dict[str, str], bytes]:
        raise NotImplementedError

    def _reply(self, prompt: Prompt, error: Callable[[Reply], ProviderError]) -> bytes:
        url, headers, data = self.request(prompt)
        reply = post_json(url, headers, data, self._timeout)
        if reply.status != 200:
            raise error(reply)
        return reply.body


# --- OpenAI-compatible ----------------------------------------------------------------------
# An OpenAI-compatible chat-completions endpoint: OpenAI itself, and the local servers that
# speak the same wire format (llama.cpp's ``llama-server``, vLLM, Ollama's ``/v1``, LM Studio).
#
# Request: ``POST {base-url}/chat/completions`` (the base URL ends in ``/v1``), ``Content-Type:
# application/json``, ``Authorization: Bearer <key>`` when a key is configured (a local server
# needs none); the body names the ``model``, a ``system`` and a ``user`` message,
# ``temperature`` 0, ``max_tokens``, ``response_format`` ``{"type": "json_object"}`` and
# ``stream: false``. Reply: ``choices[0].message.content`` is the text; ``finish_reason``
# ``length`` means it was cut short. An error reply is ``{"error": {"message", "type", "code",
# ...}}``: only its ``type``/``code`` identifier is kept (the message may repeat the request).
# HTTP 429 is a rate limit (``Retry-After`` says how long to wait), 503 an overload.


class OpenAICompatible(_Endpoint):
    """A chat-completions endpoint (see the comment above)."""

    name = "openai-compatible"

    def request(self, prompt: Prompt) -> tuple[str, dict[str, str], bytes]:
        """The URL, headers and body of the request for ``prompt``."""
        body = {
            "model": self._model,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
            "temperature": 0,
            "max_tokens": prompt.max_tokens,
            "response_format": {"type": "json_object"},
            "stream": False,
        }
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"adrguard/{__version__}",
        }
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return f"{self._url}/chat/completions", headers, data

    def complete(self, prompt: Prompt) -> Completion:
        return _openai_completion(self._reply(prompt, _openai_error))


def _openai_completion(body: bytes) -> Completion:
    try:
        data: Any = json.loads(body)
        choice = data["choices"][0]
        text = choice["message"]["content"]
        finish = choice.get("finish_reason")
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):
        raise ProviderError("malformed", detail="no choices[0].message.content") from None
    if not isinstance(text, str):
        raise ProviderError("malformed", detail="the message content is not text")
    return Completion(text, truncated=finish == "length")


def _openai_error(reply: Reply) -> ProviderError:
    """The error a non-200 reply means (its ``error.type``/``error.code`` identifier kept)."""
    code = None
    try:
        err = json.loads(reply.body).get("error")
        if isinstance(err, dict):
            for name in ("code", "type"):
                if isinstance(err.get(name), str):
                    code = err[name]
                    break
    except (ValueError, AttributeError, RecursionError):
        pass
    return status_error(reply, code)


def status_error(reply: Reply, code: str | None) -> ProviderError:
    """The :class:`ProviderError` of an HTTP status (shared by both providers)."""
    status = reply.status
    if status == 429:
        return ProviderError("rate-limited", status=status, code=code,
                             retry_after=retry_after(reply.headers))
    if status in (503, 529):
        return ProviderError("overloaded", status=status, code=code,
                             retry_after=retry_after(reply.headers))
    detail = ""
    if 300 <= status < 400:
        detail = "redirects are not followed: give the final URL in ai.base-url"
    elif status in (401, 403):
        detail = "check the key in the variable ai.api-key-env names"
    elif status == 404:
        detail = "check ai.base-url and ai.model"
    return ProviderError("http", status=status, code=code, detail=detail)

# --- Anthropic ------------------------------------------------------------------------------
# The Anthropic Messages API.
#
# Request: ``POST {base-url}/v1/messages`` (base URL ``https://api.anthropic.com``; one that
# already ends in ``/v1`` is not given a second one), headers ``x-api-key: <key>``,
# ``anthropic-version: 2023-06-01`` and ``content-type: application/json``; the body names the
# ``model``, ``max_tokens``, the ``system`` prompt, one ``user`` message and ``temperature`` 0.
# Reply: ``{"type": "message", "content": [{"type": "text", "text": ...}], "stop_reason": ...}``;
# the text blocks, joined, are the answer, and ``stop_reason`` ``max_tokens`` means it was cut
# short. An error reply is ``{"type": "error", "error": {"type": "rate_limit_error", "message":
# ...}}``: only ``error.type`` is kept. HTTP 429 is a rate limit (with ``retry-after``), 529
# ``overloaded_error``.


class Anthropic(_Endpoint):
    """The Messages API (see the comment above)."""

    name = "anthropic"

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
        if self._key:
            headers["x-api-key"] = self._key
        path = "/messages" if self._url.endswith("/v1") else "/v1/messages"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return self._url + path, headers, data

    def complete(self, prompt: Prompt) -> Completion:
        return _anthropic_completion(self._reply(prompt, _anthropic_error))


def _anthropic_completion(body: bytes) -> Completion:
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


def _anthropic_error(reply: Reply) -> ProviderError:
    """The error a non-200 reply means (its ``error.type`` identifier kept)."""
    code = None
    try:
        err = json.loads(reply.body).get("error")
        if isinstance(err, dict) and isinstance(err.get("type"), str):
            code = err["type"]
    except (ValueError, AttributeError, RecursionError):
        pass
    return status_error(reply, code)
