"""The status words front ends accept (``--status``, the agent tools' status filter) and how a
record's status is keyed: read with the log's own status vocabulary."""

from __future__ import annotations

from adrguard.core.impact.analysis import (
    STATUS_CHOICES,
    configured_statuses,
    status_key,
    statuses_from,
)
from adrguard.core.parse.status import normalise

__all__ = ["STATUS_CHOICES", "configured_statuses", "normalise", "status_key", "statuses_from"]
