"""Baselines: the findings a log already had when adrguard was adopted, so that only new ones
fail. Pure: entries in, entries and verdicts out (the file lives in
:mod:`adrguard.adapters.baseline`, the orchestration in :mod:`adrguard.api.gate`).

An entry is identified by its rule code, path, decision id and a **message key**: the message
with every number that stands on its own outside quotes masked and spaces folded. Line numbers
never count, so an entry survives lines moving and edits elsewhere in the record; counts that
drift ("31 of 33 records", "first difference on line 12", "(12 records)") do not break it
either, while the subject of a finding (a link target, a file name, a quoted status value or
section name, an id like ``ADR-0006``) keeps two findings apart.

Matching is a multiset: each entry matches at most one finding. Exact messages are matched
first, then message keys, so when a record holds two findings with the same key and one is new,
the old one keeps its entry. The same matching compares a change's findings with those before
it (:mod:`adrguard.api.gate`): the base run acts as the baseline.
"""

from __future__ import annotations

import hashlib
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence

import msgspec
from msgspec.structs import replace

from adrguard.core.findings import Finding
from adrguard.core.lazyre import lazy
from adrguard.core.outcome import BASELINE_FILE

SCHEMA_VERSION = 1
DEFAULT_PATH = BASELINE_FILE  # the name's one home is adrguard.core.outcome
# a quoted subject (backticks, single or double quotes), else a number standing on its own
# (``line 12``, ``31 of 33``, ``(1,234 bytes)``), not one inside a name (``0007-x.md``,
# ``ADR-0006``, ``v2``)
_PARTS = lazy(
    r"`[^`\n]*`|'[^'\n]*'|\"[^\"\n]*\"|(?<![\w./-])\d+(?:[.,]\d+)*(?![\w/-]|\.\w)"
)


def message_key(message: str) -> str:
    """The message with numbers outside quotes replaced by ``#`` and spaces folded."""

    def mask(m: re.Match[str]) -> str:
        text = m.group()
        return text if text[0] in "`'\"" else "#"

    return " ".join(_PARTS.sub(mask, message).split())


class Entry(msgspec.Struct, frozen=True):
    """One finding as the baseline records it."""

    code: str
    path: str
    decision: str | None
    message: str  # as reported when the entry was written (for people, and exact matching)
    key: str  # :func:`message_key` of the message

    @property
    def identity(self) -> tuple[str, str, str, str]:
        return (self.code, self.path, self.decision or "", self.key)

    @property
    def fingerprint(self) -> str:
        """A short hash of the identity, stored beside each entry for tools that diff files."""
        raw = "\x1e".join(self.identity).encode("utf-8", "surrogatepass")
        return hashlib.sha256(raw).hexdigest()[:16]

    def describe(self) -> str:
        return f"{self.code} {self.path}: {self.message}"

    def renamed(self, new_path: str) -> Entry:
        """The entry after git renamed its file: new path, and the old file name replaced by
        the new one in the message (ADR107 names the file, for one)."""
        old_name, new_name = self.path.rsplit("/", 1)[-1], new_path.rsplit("/", 1)[-1]
        message = self.message.replace(old_name, new_name) if old_name != new_name else self.message
        return replace(self, path=new_path, message=message, key=message_key(message))


def entry_of(finding: Finding) -> Entry:
    return Entry(
        code=finding.code,
        path=finding.location.path,
        decision=finding.decision_id,
        message=finding.message,
        key=message_key(finding.message),
    )


def entries_of(findings: Iterable[Finding]) -> list[Entry]:
    """One entry per finding, in file order (path, code, key, decision, message)."""
    return sort_entries(entry_of(f) for f in findings)


def sort_entries(entries: Iterable[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.path, e.code, e.key, e.decision or "", e.message))


class Match(msgspec.Struct, frozen=True):
    """Which findings an entry list knows, which are new, which entries found nothing."""

    known: tuple[Finding, ...]
    new: tuple[Finding, ...]
    unmatched: tuple[Entry, ...]
    # entry of every known finding, by position in ``known`` (for ``baseline --update``)
    used: tuple[Entry, ...] = ()


def follow_renames(entries: Iterable[Entry], renames: Mapping[str, str]) -> list[Entry]:
    """Entries whose file git reports renamed (old path -> new path) moved to the new path."""
    return [e.renamed(renames[e.path]) if e.path in renames else e for e in entries]


def match(findings: Sequence[Finding], entries: Iterable[Entry]) -> Match:
    """Split ``findings`` into known and new against ``entries`` (a multiset, see the module
    docstring); findings keep their order. Linear in findings plus entries."""
    exact: dict[tuple[str, str, str, str], deque[int]] = {}
    by_key: dict[tuple[str, str, str, str], deque[int]] = {}
    pool = list(entries)
    for i, e in enumerate(pool):
        exact.setdefault((e.code, e.path, e.decision or "", e.message), deque()).append(i)
        by_key.setdefault(e.identity, deque()).append(i)
    taken = [False] * len(pool)
    owner: list[int | None] = [None] * len(findings)

    def take(candidates: deque[int] | None) -> int | None:
        while candidates:
            i = candidates.popleft()
            if not taken[i]:
                taken[i] = True
                return i
        return None

    for n, f in enumerate(findings):  # exact messages first
        owner[n] = take(exact.get((f.code, f.location.path, f.decision_id or "", f.message)))
    for n, f in enumerate(findings):
        if owner[n] is None:
            owner[n] = take(by_key.get(entry_of(f).identity))
    known = tuple(f for n, f in enumerate(findings) if owner[n] is not None)
    used = tuple(pool[i] for i in owner if i is not None)
    new = tuple(f for n, f in enumerate(findings) if owner[n] is None)
    unmatched = tuple(e for i, e in enumerate(pool) if not taken[i])
    return Match(known=known, new=new, unmatched=unmatched, used=used)


def updated(findings: Sequence[Finding], entries: Iterable[Entry], *, add: bool) -> list[Entry]:
    """``baseline --update``: entries that still occur, refreshed from their finding (so a
    renamed file or a drifted count is written as it is now); with ``add`` the new findings
    too. Entries that no longer occur are dropped."""
    result = match(findings, entries)
    kept = [entry_of(f) for f in result.known]
    if add:
        kept.extend(entry_of(f) for f in result.new)
    return sort_entries(kept)


def to_json(entries: Sequence[Entry], commit: str | None) -> dict[str, object]:
    """The baseline file's content (``schemas/baseline.schema.json``)."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "tool": "adrguard",
        "about": "Findings adrguard reported when this file was written: `adrguard check` "
        "fails only on findings not listed here. Shrink it with `adrguard baseline --update`.",
        "commit": commit,
        "entries": [
            {
                "code": e.code,
                "path": e.path,
                "decision": e.decision,
                "message": e.message,
                "key": e.key,
                "fingerprint": e.fingerprint,
            }
            for e in entries
        ],
    }


def from_json(data: Mapping[str, object]) -> tuple[list[Entry], str | None]:
    """Entries and commit of a baseline file already validated against its schema. The key is
    recomputed from the message when it is missing."""
    raw = data.get("entries")
    entries: list[Entry] = []
    for item in raw if isinstance(raw, list) else []:
        message = str(item["message"])
        decision = item.get("decision")
        entries.append(
            Entry(
                code=str(item["code"]),
                path=str(item["path"]),
                decision=str(decision) if decision is not None else None,
                message=message,
                key=str(item.get("key") or message_key(message)),
            )
        )
    commit = data.get("commit")
    return entries, commit if isinstance(commit, str) else None
