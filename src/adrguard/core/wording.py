"""Shared wording of counts in every output: ``1 record``, ``2 records``, ``1 entry``."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` with ``word`` in the singular for one and in the plural otherwise: ``many``
    when given (``entry``/``entries``), else ``word`` + ``s``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
