"""Cooperative cancellation of one run.

A caller that gives up on a run (the MCP server, when a call passes its timeout, the client
cancels it or its input closes) cancels the run's :class:`Token`. The run checks the token at
its checkpoints (between records while parsing, between files while scanning for citations,
between rules, while it waits for the workspace lock) and stops there with :class:`Cancelled`,
releasing what it holds on the way out. Nothing is killed and the process is not touched: a
thread stops at its next checkpoint, and every stretch between two checkpoints is linear in one
file or one rule. A run without a token (the command line) checks nothing.
"""

from __future__ import annotations

import threading


class Cancelled(BaseException):
    """The run's caller gave up on it. Derived from ``BaseException`` (as ``KeyboardInterrupt``
    is) so that no ``except Exception`` on the way out (a rule's crash containment, a tool's
    error mapping) takes it for a failure of its own."""


class Token:
    """Set once by the caller, read by the run (safe across threads)."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    def check(self) -> None:
        """Raise :class:`Cancelled` once the token is cancelled."""
        if self._event.is_set():
            raise Cancelled


def checkpoint(token: Token | None) -> None:
    """:meth:`Token.check` for a run that may have no token."""
    if token is not None:
        token.check()
