"""The model providers that may judge relevance (issue 31): an OpenAI-compatible
chat-completions endpoint (:mod:`.openai_compatible`: OpenAI, llama.cpp, vLLM, Ollama, ...) and
the Anthropic Messages API (:mod:`.anthropic`), over one HTTP transport (:mod:`.transport`).
Each implements :class:`adrguard.core.agent.judge.Provider`."""

from __future__ import annotations

from adrguard.adapters.models.anthropic import Anthropic
from adrguard.adapters.models.openai_compatible import OpenAICompatible
from adrguard.core.agent.judge import Endpoint, Provider


def open_provider(ep: Endpoint, model: str, key: str | None, timeout: float) -> Provider:
    """The provider of ``ep`` (its key, if any, read by the caller from the environment)."""
    if ep.provider == "anthropic":
        return Anthropic(ep.url, model, key, timeout)
    return OpenAICompatible(ep.url, model, key, timeout)
