"""``check --against``: the option, and what each other ref adds, said on stderr."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from adrguard.cli.common import info

if TYPE_CHECKING:
    from adrguard.api.claims import Claims


def add_against(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="REF",
        help="other refs or globs (refs/remotes/origin/pr/*) whose new records count: ADR509 "
        "reports a record of this change that takes a number one of them adds (read from what "
        "is fetched already; repeatable)",
    )


def show_claims(claims: Claims) -> None:
    """What each other ref adds, on stderr: ``origin/pr/17 adds ADR-0042 (docs/adr/...)``."""
    from adrguard.api.claims import short_ref, summary

    for note in claims.notes:
        info(f"adrguard: note: {note}")
    for source, records in summary(claims):
        label = records[0].label if records else short_ref(source)
        if not records:
            info(f"adrguard: {label} adds no record")
            continue
        listed = ", ".join(f"{c.id} ({c.path})" for c in records[:20])
        more = f" and {len(records) - 20} more" if len(records) > 20 else ""
        info(f"adrguard: {label} adds {listed}{more}")
