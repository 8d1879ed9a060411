"""What a change did to the records themselves: edits, deletions, new ids. Pure.

Works on two corpora (base and head) and the change set between them. The *decision text* of
a record is what ADR505 compares: the record minus its status (field, section and status
lines), its relationship lines, link targets and the mapping keys of its front matter.
"""

from __future__ import annotations

import difflib
import json
import re

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import ChangeSet, Corpus, Decision
from adrguard.core.options import Options

# Front-matter keys that are bookkeeping, not the decision (compared case-insensitively).
BOOKKEEPING_KEYS = frozenset(
    {
        "status",
        "date",
        "last-modified",
        "last_modified",
        "updated",
        "affected-paths",
        "affected_paths",
        "affected-components",
        "affected_components",
        "scope",
    }
)
_LINK_TARGET = lazy(r"\]\((?:[^()]|\([^()]*\))*\)")
_REF_DEFINITION = lazy(r"^(\s{0,3}\[[^\]]+\]:)\s*\S.*$")
_AUTOLINK = lazy(r"<[a-z][a-z0-9+.-]*:[^>\s]*>", re.IGNORECASE)


def decision_text(d: Decision, options: Options) -> list[tuple[int, str]]:
    """``(file line, normalised text)`` for every line that carries the decision itself."""
    headings = {h.casefold() for h in options.status_headings}
    skip: set[int] = set()
    for s in d.sections:
        if s.title.strip().rstrip(":").casefold() in headings:
            skip.update(range(s.line, s.end_line + 1))
    skip.update(st.line for st in d.statuses)
    skip.update(r.location.line for r in d.relationships)
    out: list[tuple[int, str]] = []
    kept = {
        k: v
        for k, v in d.front_matter.items()
        if str(k).casefold() not in BOOKKEEPING_KEYS and d.front_matter_lines.get(k) not in skip
    }
    if kept:
        out.append((1, json.dumps(kept, sort_keys=True, default=str, ensure_ascii=False)))
    for number, line in enumerate(d.text.split("\n"), start=1 + d.body_line_offset):
        if number in skip:
            continue
        normalised = without_targets(line)
        if normalised:
            out.append((number, normalised))
    return out


def without_targets(line: str) -> str:
    """One line of a record without what a link points to (reference definitions, link
    targets, autolinks), spaces folded. Each pattern needs a piece of text to match at all
    (``]:``, ``](``, ``<``): a line without it (most lines) is left as it is without it."""
    if "]:" in line:
        line = _REF_DEFINITION.sub(r"\1", line)
    if "](" in line:
        line = _LINK_TARGET.sub("]()", line)
    if "<" in line:
        line = _AUTOLINK.sub("<>", line)
    return " ".join(line.split())


def first_difference(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> int | None:
    """The file line in ``after`` where the texts first differ; None when they are equal."""
    a = [t for _, t in before]
    b = [t for _, t in after]
    if a == b:
        return None
    for tag, _i1, _i2, j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            if j1 < len(after):
                return after[j1][0]
            return after[-1][0] if after else 1
    return 1


class Edited(msgspec.Struct, frozen=True):
    """A record changed between the base and the head."""

    before: Decision
    after: Decision
    line: int


def edited_accepted(changes: ChangeSet, head: Corpus, options: Options) -> list[Edited]:
    """Records accepted at base whose decision text changed (in place or with a move)."""
    base = changes.base_corpus
    if base is None:
        return []
    out: list[Edited] = []
    for c in changes.changes:
        if c.status not in ("M", "R", "T"):
            continue
        before = base.by_path.get(c.old_path or c.path)
        after = head.by_path.get(c.path)
        if before is None or after is None or before.status is None:
            continue
        if before.status.value != "accepted":
            continue
        line = first_difference(decision_text(before, options), decision_text(after, options))
        if line is not None:
            out.append(Edited(before, after, line))
    return out


class Deleted(msgspec.Struct, frozen=True):
    """A record the change deletes."""

    decision: Decision
    moved_to: str | None  # a rename target that is not a record at head


def deleted_records(changes: ChangeSet, head: Corpus) -> list[Deleted]:
    """Records present at base and gone at head, except those moved (into an archive or
    elsewhere among the records)."""
    base = changes.base_corpus
    if base is None:
        return []
    renamed = {c.old_path: c.path for c in changes.changes if c.status == "R" and c.old_path}
    out: list[Deleted] = []
    for d in base.decisions:
        if d.path in head.by_path:
            continue
        dest = renamed.get(d.path)
        if dest is not None and dest in head.by_path:
            continue
        if any(h.archived for h in head.by_id.get(d.id.casefold(), ())):
            continue  # moved into an archive with edits that hid the rename
        out.append(Deleted(d, dest))
    return out


class Reused(msgspec.Struct, frozen=True):
    """A new record reusing the id or number of a different base record."""

    decision: Decision
    owners: tuple[Decision, ...]  # base records that had the id or number
    next_number: int | None


def reused_ids(changes: ChangeSet, head: Corpus) -> list[Reused]:
    """Records new in this change that take an id or number base gave another record
    (archived ones included). A record moved with heavy edits (old path gone, same title, or
    moved into an archive) is not new."""
    base = changes.base_corpus
    if base is None:
        return []
    moved_in = {c.path for c in changes.changes if c.status == "R"}
    out: list[Reused] = []
    for d in head.decisions:
        if d.path in base.by_path or d.path in moved_in:
            continue
        candidates = list(base.by_id.get(d.id.casefold(), ()))
        if d.number is not None:
            candidates += base.by_number.get((d.root, d.number), ())
        owners = {b.path: b for b in candidates if b.path != d.path and not _is_move(b, d, head)}
        if owners:
            numbers = [
                x.number
                for x in (*base.decisions, *head.decisions)
                if x.number is not None and x.root == d.root
            ]
            nxt = max(numbers) + 1 if numbers else None
            out.append(Reused(d, tuple(owners[p] for p in sorted(owners)), nxt))
    return out


def _is_move(owner: Decision, new: Decision, head: Corpus) -> bool:
    if owner.path in head.by_path:
        return False
    return new.archived or (owner.title is not None and owner.title == new.title)
