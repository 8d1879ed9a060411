"""Which records a compaction analysis looks at: every unarchived record (the default), the
records named with ``--sources``, or the records of one domain (``--domain``).

A record's **domains** are

* the values of its front matter ``domain``, ``domains`` and ``tags`` keys (a string, a
  comma-separated string or a list), and
* the folders between its ADR root and its file (``docs/adr/security/0007-x.md`` is in
  ``security``), archive folders and the folder of a one-folder-per-record record excepted.

Domains are compared as slugs: case-folded, every run of characters other than letters and
digits turned into one ``-`` (``Data Platform`` and ``data-platform`` are one domain).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.errors import UserError
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision
from adrguard.core.parse import formats

DOMAIN_KEYS = ("domain", "domains", "tags")
_NOT_SLUG = lazy(r"[^\w]+|_+", re.UNICODE)


def slug(text: str) -> str:
    """``Data Platform`` -> ``data-platform``."""
    return _NOT_SLUG.sub("-", text.casefold()).strip("-")


def _values(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield from (v for v in value.split(",") if v.strip())
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str | int | float) and not isinstance(item, bool):
                yield str(item)


def domains_of(d: Decision, archive_dirs: Sequence[str]) -> tuple[str, ...]:
    """The domains of ``d`` as slugs, sorted (see the module docstring)."""
    found: set[str] = set()
    folded = {str(k).casefold(): v for k, v in d.front_matter.items()}
    for key in DOMAIN_KEYS:
        for value in _values(folded.get(key)):
            if s := slug(value):
                found.add(s)
    rel = d.path if d.root in ("", ".") else d.path[len(d.root) + 1 :]
    folders = rel.split("/")[:-1]
    if formats.is_folder_record(d.path, d.root) and folders:
        folders = folders[:-1]
    for folder in folders:
        if folder not in archive_dirs and (s := slug(folder)):
            found.add(s)
    return tuple(sorted(found))


@dataclass(frozen=True)
class Scope:
    """The records analysed, and how they were chosen."""

    kind: str  # all | sources | domain
    value: str | None
    decisions: tuple[Decision, ...]  # unarchived, sorted by path

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "records": len(self.decisions)}


def everything(corpus: Corpus) -> Scope:
    return Scope("all", None, tuple(d for d in _by_path(corpus.decisions) if not d.archived))


def sources(chosen: Sequence[Decision], raw: str) -> Scope:
    """``--sources``: the records the api looked up (one lookup for every front end). An
    archived record is an error: compaction works on records in force or awaiting archive."""
    archived = [d for d in chosen if d.archived]
    if archived:
        raise UserError(
            f"--sources: {archived[0].id} ({archived[0].path}) is archived; compaction analyses "
            "unarchived records only (drop it from --sources)"
        )
    unique = {d.path: d for d in chosen}
    return Scope("sources", raw, tuple(_by_path(unique.values())))


def domain(corpus: Corpus, wanted: str, archive_dirs: Sequence[str]) -> Scope:
    """``--domain SLUG``: the unarchived records with that domain; an unknown domain is an
    error that lists the known ones."""
    key = slug(wanted)
    if not key:
        raise UserError(f"--domain {wanted!r}: give a domain name, e.g. --domain security")
    known: dict[str, int] = {}
    chosen: list[Decision] = []
    for d in corpus.decisions:
        if d.archived:
            continue
        mine = domains_of(d, archive_dirs)
        for s in mine:
            known[s] = known.get(s, 0) + 1
        if key in mine:
            chosen.append(d)
    if not chosen:
        listed = ", ".join(sorted(known)[:20]) + (" ..." if len(known) > 20 else "")
        where = f"known domains: {listed}" if known else (
            "no record declares one (front matter `domain:` or `tags:`, or a sub-folder "
            "below the ADR root)"
        )
        raise UserError(f"--domain {wanted!r} matches no unarchived record; {where}")
    return Scope("domain", key, tuple(_by_path(chosen)))


def _by_path(decisions: Iterable[Decision]) -> list[Decision]:
    return sorted(decisions, key=lambda d: d.path)
