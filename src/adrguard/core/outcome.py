"""How a run's outcome is judged, the one home of the levels, names and numbers every command,
the Action and the MCP server share. Pure, and light: the command line's start-up imports it.

* :data:`FAIL_ON`: the levels of ``fail-on`` (the setting, ``--fail-on``, the Action's input);
  a level's position is the severity number it starts at (:class:`~.findings.Severity`);
* :data:`BASELINE_FILE`: the baseline file's default repo-relative name;
* the exit codes ``EXIT_*`` (docs/cli.md).
"""

from __future__ import annotations

from typing import Literal, get_args

EXIT_OK = 0  # clean
EXIT_FINDINGS = 1  # findings at or above fail-on (or what the command reports as failed)
EXIT_USAGE = 2  # a usage, configuration or git problem (a UserError)
EXIT_INTERNAL = 3  # an internal error: a rule crashed, or adrguard did (our bug)

BASELINE_FILE = ".adrguard-baseline.json"

FailOn = Literal["none", "note", "warning", "error"]
FAIL_ON: tuple[str, ...] = get_args(FailOn)


def reaches(worst: int | None, fail_on: str) -> bool:
    """Whether the worst finding's severity (a :class:`~.findings.Severity`, an ``int``) is at
    least ``fail_on``; never for ``none`` or when nothing was found."""
    return fail_on != "none" and worst is not None and worst >= FAIL_ON.index(fail_on)
