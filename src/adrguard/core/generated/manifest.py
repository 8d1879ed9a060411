"""The CURRENT.sources.json manifest: what a reviewed CURRENT.md was checked against.

Its model, its canonical JSON (sorted keys, LF, trailing newline), its digest and its reading:
a manifest that is not JSON, fails ``schemas/current-sources.schema.json``, comes from a newer
adrguard, lists a member twice or names a path outside its root is refused with the reason
(ADR405), never used. Paths are checked as strings and never followed. Pure.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import msgspec

from adrguard.core.model import Corpus

SCHEMA_VERSION = 1
PROTOCOL = "adrguard-current/1"
SCHEMA_NAME = "current-sources.schema.json"
DEFAULT_STATUSES: tuple[str, ...] = ("accepted",)


class Selection(msgspec.Struct, frozen=True, dict=True):
    """Which decisions a CURRENT view covers: globs relative to the root, and statuses."""

    include: tuple[str, ...] = ()  # empty: every record of the root
    exclude: tuple[str, ...] = ()
    statuses: tuple[str, ...] = DEFAULT_STATUSES

    def as_json(self) -> dict[str, list[str]]:
        return {
            "include": list(self.include),
            "exclude": list(self.exclude),
            "statuses": list(self.statuses),
        }

    def matches(self, rel: str) -> bool:
        return (not self.include or self._included.match_file(rel)) and not (
            self.exclude and self._excluded.match_file(rel)
        )

    @cached_property
    def _included(self) -> Any:  # compiled once, kept on this selection
        return _globs(self.include)

    @cached_property
    def _excluded(self) -> Any:
        return _globs(self.exclude)


def _globs(patterns: tuple[str, ...]) -> Any:
    import pathspec

    try:
        return pathspec.PathSpec.from_lines("gitignore", patterns)
    except (KeyError, LookupError):  # pathspec < 1.0
        return pathspec.PathSpec.from_lines("gitwildmatch", patterns)


class Member(msgspec.Struct, frozen=True, order=True):
    """One record listed in a CURRENT.sources.json manifest."""

    path: str
    locator: str | None
    id: str
    sha256: str
    coverage: str = "open"

    def as_json(self) -> dict[str, str]:
        out = {"id": self.id, "path": self.path, "sha256": self.sha256, "coverage": self.coverage}
        if self.locator is not None:
            out["locator"] = self.locator
        return out


class Manifest(msgspec.Struct, frozen=True):
    """A root's CURRENT.sources.json manifest."""

    root: str
    view: str
    view_sha256: str
    selection: Selection
    members: tuple[Member, ...]
    digest: str
    schema_version: int = SCHEMA_VERSION
    protocol: str = PROTOCOL

    def as_json(self) -> dict[str, Any]:
        return {
            "schemaVersion": self.schema_version,
            "protocol": self.protocol,
            "root": self.root,
            "view": self.view,
            "viewSha256": self.view_sha256,
            "selection": self.selection.as_json(),
            "members": [m.as_json() for m in sorted(self.members, key=member_key)],
            "membersDigest": self.digest,
        }


def member_key(m: Member) -> tuple[str, str, str]:
    return (m.path, m.locator or "", m.id)


def members_digest(members: Sequence[Member]) -> str:
    canon = [m.as_json() for m in sorted(members, key=member_key)]
    text = json.dumps(canon, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dump(manifest: Manifest) -> str:
    """Deterministic JSON: sorted keys, two-space indent, LF, trailing newline."""
    return json.dumps(manifest.as_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- reading a manifest -----------------------------------------------------------------


def path_problem(path: str, root: str) -> str | None:
    """Why ``path`` may not appear in the manifest of ``root`` (None when it is fine)."""
    drive = path[:1].isascii() and path[:1].isalpha() and path[1:2] == ":"  # C:
    if not path or path.startswith(("/", "\\")) or drive or "\\" in path:
        return f"{path!r} is not a repository-relative POSIX path"
    parts = path.split("/")
    if ".." in parts or "." in parts or "" in parts:
        return f"{path!r} must be normalised (no '..', '.' or empty parts); it is never followed"
    if root not in ("", ".") and not path.startswith(root + "/"):
        return f"{path!r} is outside the root {root}"
    return None


def _symlink_out(corpus: Corpus, path: str) -> str | None:
    """Discovery refuses to read a symlink that leaves the repository (its ADR001 says so)."""
    d = corpus.by_path.get(path)
    if d is not None and any(
        p.code == "ADR001" and "outside the repository" in p.message for p in d.problems
    ):
        return f"{path!r} is a symlink out of the repository; it is never followed"
    return None


def _load(data: bytes) -> tuple[Any, str | None]:
    """The JSON, validated against the schema."""
    try:
        from adrguard.core.schemas import load_json

        raw = load_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return (
            None,
            f"is not valid JSON ({exc}); fix it or delete it and run `adrguard current stamp`",
        )
    if not isinstance(raw, dict):
        return None, "must hold a JSON object"
    version = raw.get("schemaVersion")
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        return None, (
            f"has schemaVersion {version}, written by a newer adrguard; this one reads "
            f"{SCHEMA_VERSION}: upgrade adrguard"
        )
    from adrguard.core.schemas import validator

    err = min(
        validator(SCHEMA_NAME).iter_errors(raw),
        key=lambda e: [str(p) for p in e.absolute_path],
        default=None,
    )
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        return None, f"fails its schema at {where}: {err.message}"
    return raw, None


def parse_manifest(
    data: bytes, root: str, view_path: str, corpus: Corpus
) -> tuple[Manifest | None, str | None]:
    """The manifest, or None and why it cannot be used (every problem is ADR405)."""
    # kept on the corpus: every ADR40x rule reads the same bytes, and validating thousands of
    # members costs more than the rest of the comparison
    digest = hashlib.sha256(data).hexdigest()
    raw, problem = corpus.derived(f"current manifest {digest}", lambda: _load(data))
    if raw is None:
        return None, problem
    if raw["root"] != root:
        return None, f"names root {raw['root']!r} but sits in {root!r}"
    problem = path_problem(raw["view"], root)
    if problem is None and raw["view"] in corpus.repo_dirs:
        problem = f"{raw['view']!r} is a directory, not a file"
    if problem is None and raw["view"] != view_path:
        problem = f"{raw['view']!r} is not the view beside the manifest ({view_path})"
    if problem is not None:
        return None, f"has an unusable view: {problem}"
    members: list[Member] = []
    seen: set[tuple[str, str]] = set()
    for entry in raw["members"]:
        problem = path_problem(entry["path"], root) or _symlink_out(corpus, entry["path"])
        if problem is not None:
            return None, f"has an unusable member: {problem}"
        key = (entry["path"], entry.get("locator") or "")
        if key in seen:
            return None, f"lists member {entry['path']}{'#' + key[1] if key[1] else ''} twice"
        seen.add(key)
        members.append(
            Member(
                entry["path"], entry.get("locator"), entry["id"], entry["sha256"], entry["coverage"]
            )
        )
    sel = raw["selection"]
    selection = Selection(
        tuple(sel.get("include", ())),
        tuple(sel.get("exclude", ())),
        tuple(sel.get("statuses", DEFAULT_STATUSES)),
    )
    return Manifest(
        root,
        raw["view"],
        raw["viewSha256"],
        selection,
        tuple(members),
        raw["membersDigest"],
        raw["schemaVersion"],
        raw["protocol"],
    ), None
