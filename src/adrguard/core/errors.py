"""The one error family for problems in the environment (config, usage, git).

Problems in ADRs are findings, never exceptions. A ``UserError`` is printed by the CLI as a
single ``error: ...`` line and exits with code 2.
"""

from __future__ import annotations


class UserError(Exception):
    """A usage, configuration or git problem the user can fix. ``str()`` says how."""
