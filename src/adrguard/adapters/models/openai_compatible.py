"""An OpenAI-compatible chat-completions endpoint: OpenAI itself, and the local servers that
speak the same wire format (llama.cpp's ``llama-server``, vLLM, Ollama's ``/v1``, LM Studio).

Request: ``POST {base-url}/chat/completions`` (the base URL ends in ``/v1``), ``Content-Type:
application/json``, ``Authorization: Bearer <key>`` when a key is configured (a local server
needs none); the body names the ``model``, a ``system`` and a ``user`` message,
``temperature`` 0, ``max_tokens``, ``response_format`` ``{"type": "json_object"}`` and
``stream: false``. Reply: ``choices[0].message.content`` is the text; ``finish_reason``
``length`` means it was cut short. An error reply is ``{"error": {"message", "type", "code",
...}}``: only its ``type``/``code`` identifier is kept (the message may repeat the request).
HTTP 429 is a rate limit (``Retry-After`` says how long to wait), 503 an overload.
"""

from __future__ import annotations

import json
from typing import Any

from adrguard import __version__
from adrguard.adapters.models.transport import Reply, post_json, retry_after
from adrguard.core.agent.judge import Completion, Prompt, ProviderError


class OpenAICompatible:
    """A chat-completions endpoint (see the module docstring)."""

    name = "openai-compatible"

    def __init__(self, url: str, model: str, key: str | None, timeout: float) -> None:
        self._url = url.rstrip("/")
        self._model = model
        self.__key = key
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"OpenAICompatible({self._url!r}, {self._model!r})"

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
        if self.__key:
            headers["Authorization"] = f"Bearer {self.__key}"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return f"{self._url}/chat/completions", headers, data

    def complete(self, prompt: Prompt) -> Completion:
        url, headers, data = self.request(prompt)
        reply = post_json(url, headers, data, self._timeout)
        if reply.status != 200:
            raise error_of(reply)
        return _completion(reply.body)


def _completion(body: bytes) -> Completion:
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


def error_of(reply: Reply) -> ProviderError:
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
