"""Writing what a command produced (a report, a plan, a step output): atomically, replacing the
file in one rename, never through a symlink out of its folder. The front ends write through
this, not through the adapter."""

from __future__ import annotations

from adrguard.adapters.write import write_atomic

__all__ = ["write_atomic"]
