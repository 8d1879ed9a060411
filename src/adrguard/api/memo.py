"""The result cache: the last ``check`` report, reused while nothing it depends on has changed.

The engine is a pure function of the corpus, the effective configuration and the paths asked
for, and the corpus is a pure function of what discovery read. The key therefore hashes the
whole configuration (``today`` included), the paths, every record's bytes, root, archive flag and
read error, the index and CURRENT files' bytes, the list of repository files (link targets), the
skipped and untracked files, the remote URL, and (in :mod:`adrguard.adapters.cache`) every
module of adrguard itself. Any difference is a miss and a full run; a stored report that does
not decode exactly is a miss too. Checks against a base revision are never cached.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Corpus, Location

if TYPE_CHECKING:
    from adrguard.adapters.files import Discovery
    from adrguard.config import Config

ENTRY = "check-result"
ROWS_ENTRY = "check-rows"
DecisionRow = tuple[str, str, "str | None", "str | None"]  # id, path, title, normalised status


def result_key(config: Config, rel_paths: Sequence[str], found: Discovery) -> str:
    """One SHA-256 over everything the report depends on (see the module docstring). Every
    text is NUL-terminated and every file's bytes are preceded by their length, so two
    different inputs never hash the same stream. On a warm run this is the only pass over the
    records' bytes, so it is kept flat."""
    digest = hashlib.sha256()
    update = digest.update

    def add(*parts: str) -> None:
        update("\0".join(parts).encode("utf-8", "surrogateescape") + b"\0\n")

    add(json.dumps(asdict(config), sort_keys=True, default=repr, ensure_ascii=True))
    add("paths", *rel_paths)
    add("roots", *found.roots)
    for s in found.sources:
        data = s.data
        size = -1 if data is None else len(data)
        flag = "a" if s.archived else ""
        head = f"record\0{s.path}\0{s.root}\0{flag}\0{s.error or ''}\0{size}\0"
        update(head.encode("utf-8", "surrogateescape"))
        if data is not None:
            update(data)
    for path, data in sorted(found.other_texts.items()):
        update(f"other\0{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        update(data)
    add("skipped", *found.skipped)
    add("untracked", *found.untracked)
    add("url", found.repo_url or "", "git" if found.uses_git else "walk")
    listed = found.file_list or found.repo_files
    add("files", *sorted(listed))  # as listed: already sorted, so sorting costs one pass
    return digest.hexdigest()


def rows_of(corpus: Corpus) -> tuple[DecisionRow, ...]:
    return tuple(
        (d.id, d.path, d.title, d.status.value if d.status is not None else None)
        for d in corpus.decisions
    )


def load(repo_root: Path, key: str) -> Report | None:
    """The stored report for ``key``; None on any mismatch or damage."""
    from adrguard.adapters.cache import load_entry

    value = load_entry(repo_root, ENTRY, key)
    if value is None:
        return None
    try:
        return _decode(value)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def load_rows(repo_root: Path, key: str) -> tuple[DecisionRow, ...] | None:
    """The decision rows stored with the report for ``key`` (a separate entry: only the formats
    that name decisions read them); None on any mismatch or damage."""
    from adrguard.adapters.cache import load_entry

    value = load_entry(repo_root, ROWS_ENTRY, key)
    try:
        return tuple((_str(i), _str(p), _opt_str(t), _opt_str(s)) for i, p, t, s in _list(value))
    except (ValueError, TypeError):
        return None


def save(repo_root: Path, key: str, report: Report, rows: tuple[DecisionRow, ...]) -> None:
    if report.extra:
        return  # reporter-only data (impact) is not part of a plain check
    from adrguard.adapters.cache import save_entry

    save_entry(repo_root, ROWS_ENTRY, key, [list(r) for r in rows])
    save_entry(repo_root, ENTRY, key, _encode(report))


def _encode(report: Report) -> dict[str, Any]:
    return {
        "decisions": report.decisions,
        "files": report.files,
        "profile": report.profile,
        "findings": [
            [
                f.code,
                f.name,
                int(f.severity),
                f.message,
                f.location.path,
                f.location.line,
                f.location.column,
                f.decision_id,
                list(f.related),
            ]
            for f in report.findings
        ],
    }


def _str(value: Any) -> str:
    if type(value) is not str:
        raise TypeError("expected a string")
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError("expected an integer")
    return value


def _list(value: Any) -> list[Any]:
    if type(value) is not list:
        raise TypeError("expected a list")
    return value


def _decode(value: Any) -> Report:
    findings = tuple(
        Finding(
            code=_str(code),
            name=_str(name),
            severity=Severity(_int(severity)),
            message=_str(message),
            location=Location(path=_str(path), line=_int(line), column=_int(column)),
            decision_id=_opt_str(decision_id),
            related=tuple(_str(r) for r in _list(related)),
        )
        for code, name, severity, message, path, line, column, decision_id, related in _list(
            value["findings"]
        )
    )
    return Report(
        findings=findings,
        decisions=_int(value["decisions"]),
        files=_int(value["files"]),
        profile=_str(value["profile"]),
    )
