"""What ``check`` says on stderr besides its report: the roots it used and why (``-v``), and
the files it left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adrguard.cli.common import info
from adrguard.core.wording import plural

if TYPE_CHECKING:
    from adrguard.api.check import CheckResult, Discovery


def root_lines(found: Discovery) -> list[str]:
    """One line per ADR root: the folder, what it holds, and why it is a root."""
    from adrguard.api.pipeline.targets import longest_first, root_of

    ordered = longest_first(found.roots)
    records: dict[str, int] = {}
    for src in found.sources:
        records[src.root] = records.get(src.root, 0) + 1
    skipped: dict[str, int] = {}
    for path in found.skipped:
        root = root_of(path, ordered)
        if root is not None:
            skipped[root] = skipped.get(root, 0) + 1
    lines = []
    for r in found.search.roots:
        held = f"{plural(records.get(r.path, 0), 'record file')}, {skipped.get(r.path, 0)} skipped"
        lines.append(f"adrguard: ADR root {r.path}: {held}; {r.why}")
    if found.search.examined:
        shown = ", ".join(found.search.examined[:8])
        more = " ..." if len(found.search.examined) > 8 else ""
        lines.append(f"adrguard: folders of numbered files examined by content: {shown}{more}")
    return lines


def after_check(result: CheckResult, *, verbose: int) -> None:
    found = result.found
    if found is None:
        return
    if verbose:
        for line in root_lines(found):
            info(line)
        if found.skipped and verbose > 1:
            info(f"adrguard: skipped {', '.join(found.skipped)}")
    if found.untracked and not found.untracked_checked:
        shown = ", ".join(found.untracked[:5])
        more = f" and {len(found.untracked) - 5} more" if len(found.untracked) > 5 else ""
        one = len(found.untracked) == 1
        info(
            f"note: {plural(len(found.untracked), 'record file')} under the ADR roots "
            f"{'is' if one else 'are'} not tracked by git and {'was' if one else 'were'} not "
            f"checked ({shown}{more}): `git add` {'it' if one else 'them'} to check "
            f"{'it' if one else 'them'}"
        )
