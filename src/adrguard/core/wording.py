"""Shared wording of every output: counts (``1 record``, ``2 records``, ``1 entry``), revisions
and a record named with its title."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adrguard.core.model import Decision


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` with ``word`` in the singular for one and in the plural otherwise: ``many``
    when given (``entry``/``entries``), else ``word`` + ``s``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def short_commit(sha: str) -> str:
    """A commit id as people read it: its first 12 hex digits (``?`` when unknown)."""
    return sha[:12] if sha else "?"


def revision(ref: str) -> str:
    """A revision as given (``origin/main``, ``HEAD~1``), with a full commit id (40 or 64 hex
    digits, as the GitHub Action passes the pull request's base) shortened to 12."""
    text = ref.strip()
    if len(text) in (40, 64) and all(c in "0123456789abcdefABCDEF" for c in text):
        return short_commit(text)
    return ref


def revision_at(ref: str, sha: str) -> str:
    """``origin/main (0123456789ab)``; a commit id alone once: ``0123456789ab``."""
    name, short = revision(ref), short_commit(sha)
    return name if name == short else f"{name} ({short})"


def decision_name(d: Decision) -> str:
    """A record as a message names it with its title: ``ADR-0007 (Use PostgreSQL)``."""
    return f"{d.id} ({d.title})" if d.title else d.id
