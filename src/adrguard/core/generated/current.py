"""CURRENT views: ``CURRENT.md`` is a human-reviewed summary of the decisions in force;
``CURRENT.sources.json`` (see :mod:`adrguard.core.generated.manifest`) records what it was reviewed
against. This module decides membership, builds the manifest ``current stamp`` writes, compares
a stamped manifest with the corpus now (ADR404-ADR408) and drafts a skeleton view.

Pure: files arrive as bytes (``Corpus.other_texts`` or read by the api). Hashes are SHA-256 of
the bytes with CRLF normalised to LF, the same hash the parser stores in ``Decision.sha256``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from adrguard.core.errors import UserError
from adrguard.core.generated.index import sort_key
from adrguard.core.generated.manifest import (
    DEFAULT_STATUSES,
    Manifest,
    Member,
    Selection,
    member_key,
    members_digest,
    parse_manifest,
)
from adrguard.core.generated.region import (
    content_sha256,
    join_root,
    relative_link,
    relative_name,
    under_root,
)
from adrguard.core.graph.graph import build
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision, Status, status_key
from adrguard.core.options import Options

if TYPE_CHECKING:
    from adrguard.core.graph.graph import Graph

DEFAULT_VIEW = "CURRENT.md"
DEFAULT_MANIFEST = "CURRENT.sources.json"
VIEW_ID_PREFIX = "CURRENT:"
DRAFT_MARK = "<!-- adrguard:current:draft -->"


class Settings(msgspec.Struct, frozen=True):
    """The CURRENT view settings: view and manifest file names, and the selection."""

    view: str  # file name relative to each root
    manifest: str
    selection: Selection


def settings(options: Options) -> Settings:
    raw = options.current
    statuses = tuple(str(s).casefold() for s in raw.statuses or DEFAULT_STATUSES)
    valid = {s.value for s in Status} | {"none"}
    bad = [s for s in statuses if s not in valid]
    if bad:
        raise UserError(
            f"[current] statuses: unknown status {bad[0]!r}; use {', '.join(sorted(valid))}"
        )
    return Settings(
        view=relative_name(DEFAULT_VIEW if raw.view is None else raw.view, "[current] view"),
        manifest=relative_name(
            DEFAULT_MANIFEST if raw.manifest is None else raw.manifest, "[current] manifest"
        ),
        selection=Selection(raw.include, raw.exclude, statuses),
    )


# --- membership -------------------------------------------------------------------------


def nested_views(
    corpus: Corpus, root: str, cfg: Settings, texts: Mapping[str, bytes]
) -> dict[str, str]:
    """Module roots below ``root`` that have their own view: module root -> view path."""
    out: dict[str, str] = {}
    for other in corpus.roots:
        inside = root in ("", ".") or other.startswith(root + "/")
        view = join_root(other, cfg.view)
        if other != root and inside and view in texts:
            out[other] = view
    return out


def why_out(d: Decision, root: str, selection: Selection) -> str | None:
    """Why ``d`` is not in scope (None when it is)."""
    if d.archived:
        return "was moved to the archive"
    status = status_key(d)
    if status not in selection.statuses:
        return f"has status {status} now (the selection takes {', '.join(selection.statuses)})"
    if not selection.matches(under_root(d.path, root)):
        return "no longer matches the selection's include/exclude globs"
    return None


PROPOSALS = (Status.PROPOSED, Status.DRAFT)
_DESTINATION = lazy(r"\]\(\s*<?([^)\s>]+)|^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|"
                          r"href=[\"']([^\"'\s]+)", re.MULTILINE)


def linked_paths(view: str, text: str) -> set[str]:
    """The repo-relative paths the view ``view`` (its ``text``) links to: inline links,
    reference definitions and HTML links, relative ones only, without their anchors."""
    import posixpath
    from urllib.parse import unquote

    base = posixpath.dirname(view)
    out: set[str] = set()
    for m in _DESTINATION.finditer(text):
        dest = unquote((m.group(1) or m.group(2) or m.group(3) or "").split("#", 1)[0])
        if not dest or ":" in dest or dest.startswith("/"):
            continue
        out.add(posixpath.normpath(posixpath.join(base, dest)))
    return out


def shown_proposals(
    corpus: Corpus, root: str, selection: Selection, view: str, texts: Mapping[str, bytes]
) -> list[Decision]:
    """The proposals (and drafts) of ``root`` the view links to, outside its selection: what
    the view says of them goes stale when they change, so they are tracked like members."""
    raw = texts.get(view)
    if raw is None:
        return []
    linked = linked_paths(view, raw.decode("utf-8", "replace"))
    out = []
    for d in corpus.decisions:
        inside = root in ("", ".") or d.path.startswith(root + "/")
        if (inside and not d.archived and d.status in PROPOSALS and d.path in linked
                and d.status.value not in selection.statuses):
            out.append(d)
    return out


def in_scope(
    corpus: Corpus, root: str, selection: Selection, cfg: Settings, texts: Mapping[str, bytes]
) -> dict[str, tuple[str, str]]:
    """path -> (id, sha256) of every member the view should cover now: the records its
    selection takes, the views of module roots below it, and the proposals it shows."""
    modules = nested_views(corpus, root, cfg, texts)
    out: dict[str, tuple[str, str]] = {}
    for d in corpus.decisions:
        inside = root in ("", ".") or d.path.startswith(root + "/")
        covered = any(d.path.startswith(m + "/") for m in modules)
        if inside and not covered and why_out(d, root, selection) is None:
            out[d.path] = (d.id, d.sha256)
    for d in shown_proposals(corpus, root, selection, join_root(root, cfg.view), texts):
        if not any(d.path.startswith(m + "/") for m in modules):
            out[d.path] = (d.id, d.sha256)
    for module, view in modules.items():
        out[view] = (VIEW_ID_PREFIX + module, content_sha256(texts[view]))
    return out


def build_manifest(
    corpus: Corpus,
    options: Options,
    root: str,
    texts: Mapping[str, bytes],
    previous: Manifest | None,
) -> Manifest:
    """What ``current stamp`` writes: coverage and locators kept, new members ``open``."""
    cfg = settings(options)
    view = join_root(root, cfg.view)
    scope = in_scope(corpus, root, cfg.selection, cfg, texts)
    old: dict[str, list[Member]] = {}
    for m in previous.members if previous else ():
        old.setdefault(m.path, []).append(m)
    old_by_id = {m.id: p for p, ms in old.items() for m in ms if p not in scope}
    members: list[Member] = []
    for path, (rid, sha) in sorted(scope.items()):
        earlier = old.get(path) or old.get(old_by_id.get(rid, ""), [])
        if not earlier:
            members.append(Member(path, None, rid, sha, "open"))
        members.extend(Member(path, m.locator, rid, sha, m.coverage) for m in earlier)
    members.sort(key=member_key)
    return Manifest(
        root,
        view,
        content_sha256(texts.get(view, b"")),
        cfg.selection,
        tuple(members),
        members_digest(members),
    )


# --- comparison -------------------------------------------------------------------------


class Reason(msgspec.Struct, frozen=True):
    """Why a CURRENT.md view is out of date (an ADR40x finding)."""

    code: str  # ADR404 .. ADR408
    message: str
    path: str  # where the finding points
    decision_id: str | None = None


class CurrentState(msgspec.Struct, frozen=True):
    """One root's CURRENT view and manifest, with why they are out of date (none: fresh)."""

    root: str
    view: str
    manifest_path: str
    manifest: Manifest | None
    reasons: tuple[Reason, ...] = msgspec.field(default_factory=tuple)

    @property
    def fresh(self) -> bool:
        return not self.reasons


def evaluate(corpus: Corpus, options: Options, texts: Mapping[str, bytes]) -> list[CurrentState]:
    """Every root with a view or a manifest, compared with the corpus now."""
    cfg = settings(options)
    states: list[CurrentState] = []
    for root in corpus.roots:
        view, mpath = join_root(root, cfg.view), join_root(root, cfg.manifest)
        present = corpus.repo_files
        if view not in texts and mpath not in texts and view not in present \
                and mpath not in present:
            continue
        states.append(compare(corpus, cfg, root, view, mpath, texts))
    return states


UNREADABLE = ("exists but could not be read: it is larger than max-file-size, a symlink out of "
              "the repository, not a regular file, or unreadable; make it a regular file inside "
              "the repository")


def compare(
    corpus: Corpus, cfg: Settings, root: str, view: str, mpath: str, texts: Mapping[str, bytes]
) -> CurrentState:
    unreadable = [p for p in (mpath, view) if p not in texts and p in corpus.repo_files]
    if unreadable:  # there, but not readable: say so, never "missing"
        why = tuple(Reason("ADR405", f"{p} {UNREADABLE}", p) for p in unreadable)
        return CurrentState(root, view, mpath, None, why)
    if mpath not in texts:
        return CurrentState(
            root,
            view,
            mpath,
            None,
            (
                Reason(
                    "ADR404",
                    f"{view} has no {mpath}: review it, then run `adrguard current stamp`",
                    view,
                ),
            ),
        )
    manifest, problem = parse_manifest(texts[mpath], root, view, corpus)
    if manifest is None:
        return CurrentState(
            root, view, mpath, None, (Reason("ADR405", f"{mpath} {problem}", mpath),)
        )
    if view not in texts:
        return CurrentState(
            root,
            view,
            mpath,
            manifest,
            (
                Reason(
                    "ADR404",
                    f"{mpath} describes {view}, which does not exist: restore the view or "
                    "delete the manifest",
                    mpath,
                ),
            ),
        )
    reasons: list[Reason] = []
    if content_sha256(texts[view]) != manifest.view_sha256:
        reasons.append(
            Reason(
                "ADR408",
                f"{view} was edited after it was stamped: have the edit "
                "reviewed, then run `adrguard current stamp`",
                view,
            )
        )
    reasons.extend(_membership(corpus, cfg, root, view, manifest, texts))
    return CurrentState(root, view, mpath, manifest, tuple(reasons))


def _membership(
    corpus: Corpus,
    cfg: Settings,
    root: str,
    view: str,
    manifest: Manifest,
    texts: Mapping[str, bytes],
) -> list[Reason]:
    scope = in_scope(corpus, root, manifest.selection, cfg, texts)
    listed: dict[str, Member] = {}
    for m in manifest.members:
        listed.setdefault(m.path, m)
    out: list[Reason] = []
    restamp = "; update the view, then run `adrguard current stamp`"
    if members_digest(manifest.members) != manifest.digest:
        out.append(
            Reason(
                "ADR407",
                f"the members of {view}'s manifest were edited by hand "
                f"(membersDigest does not match){restamp}",
                view,
            )
        )
    if cfg.selection != manifest.selection:
        out.append(
            Reason(
                "ADR407",
                f"the [current] selection in the config differs from the one "
                f"{view} was stamped with{restamp}",
                view,
            )
        )
    gone = {p: m for p, m in listed.items() if p not in scope}
    renamed_from = {m.id: p for p, m in gone.items() if p not in corpus.by_path}
    for path, (rid, sha) in sorted(scope.items()):
        if path in listed:
            if listed[path].sha256 != sha:
                out.append(
                    Reason(
                        "ADR406",
                        f"{path} ({rid}) changed since {view} was reviewed: "
                        f"check the view still says what it decides{restamp}",
                        view,
                        rid,
                    )
                )
        elif rid in renamed_from and not rid.startswith(VIEW_ID_PREFIX):
            old = renamed_from.pop(rid)
            gone.pop(old, None)
            out.append(
                Reason("ADR407", f"{rid} was renamed from {old} to {path}{restamp}", view, rid)
            )
        else:
            out.append(
                Reason(
                    "ADR407", f"{path} ({rid}) is in scope but not in {view}{restamp}", view, rid
                )
            )
    for path, m in sorted(gone.items()):
        d = corpus.by_path.get(path)
        moved = [o for o in corpus.find(m.id) if o.path != path] if d is None else []
        if moved:
            d, path_now = moved[0], f" (now {moved[0].path})"
        else:
            path_now = ""
        why = "was deleted" if d is None else why_out(d, root, manifest.selection)
        why = (why or "is no longer in scope") + path_now
        out.append(
            Reason(
                "ADR407", f"{path} ({m.id}) {why} but {view} still covers it{restamp}", view, m.id
            )
        )
    return out


# --- skeleton ---------------------------------------------------------------------------


def skeleton(corpus: Corpus, options: Options, root: str, texts: Mapping[str, bytes]) -> str:
    """A draft CURRENT.md, marked for review: the decisions in scope, then the proposals and
    the open conflicts of the log apart, and a line saying what it is derived from."""
    cfg = settings(options)
    view = join_root(root, cfg.view)
    scope = in_scope(corpus, root, cfg.selection, cfg, texts)
    decisions = sorted((corpus.by_path[p] for p in scope if p in corpus.by_path), key=sort_key)
    inside = [d for d in corpus.decisions if not d.archived
              and (root in ("", ".") or d.path.startswith(root + "/"))]
    taken = {d.path for d in decisions}
    proposals = sorted((d for d in inside if d.status in PROPOSALS and d.path not in taken),
                       key=sort_key)
    conflicts = open_conflicts(build(corpus), inside)
    statuses = ", ".join(cfg.selection.statuses)
    named = len(decisions) + len(proposals)
    lines = [
        DRAFT_MARK,
        "# Decisions in force",
        "",
        f"> **Derived view, to be reviewed.** `adrguard current init` derived this draft from "
        f"the {named} record(s) it links below ({len(decisions)} with status {statuses}, "
        f"{len(proposals)} proposal(s)); it says nothing they do not say, and it must be "
        "reviewed before anyone relies on it. Replace each stub with a summary, merge related "
        "decisions, settle or keep the proposals and conflicts apart, then delete this note "
        "and the first line (the draft marker). `adrguard current stamp` then records what it "
        "was reviewed against.",
    ]
    for d in decisions:
        lines += [
            "",
            f"## {d.id}: {d.title or d.id}",
            "",
            f"Source: [{d.path.rsplit('/', 1)[-1]}]({relative_link(view, d.path)})",
            "",
            "Summary: (to be written by the reviewer)",
        ]
    for path in sorted(p for p in scope if p not in corpus.by_path):
        lines += ["", f"## {scope[path][0]}", "", f"See [{path}]({relative_link(view, path)})."]
    if not scope:
        lines += ["", "No decision is in scope yet."]
    lines += ["", "## Proposals (not in force)", ""]
    if proposals:
        lines.append("A proposal changes nothing until it is accepted; a view that keeps one "
                     "of these links goes stale when the proposal changes.")
        lines.append("")
        lines += [f"- [{d.id}: {d.title or d.id}]({relative_link(view, d.path)}) "
                  f"({d.status.value if d.status else 'proposed'})" for d in proposals]
    else:
        lines.append("None.")
    lines += ["", "## Open conflicts", ""]
    lines += [f"- {c}" for c in conflicts] if conflicts else ["None that adrguard can see."]
    return "\n".join(lines) + "\n"


def open_conflicts(graph: Graph, records: list[Decision]) -> list[str]:
    """What the log leaves undecided among ``records``: relations that resolve to no record
    or to several, supersessions not in force on both sides, cycles, and proposals that would
    replace or change a record in force. One line each, in path order."""
    paths = {d.path for d in records}
    out: list[str] = []
    for dec in graph.declared:
        if dec.source.path not in paths:
            continue
        state = graph.state(dec)
        src, kind, target = dec.source, dec.rel.kind.value, dec.target
        named = target.id if target is not None else repr(dec.rel.target_raw)
        if state in ("unresolved", "ambiguous", "cyclic"):
            out.append(f"{src.id} {kind} {named}: {state}")
        elif src.status in PROPOSALS and target is not None and target.status is Status.ACCEPTED \
                and kind in ("supersedes", "amends"):  # pending: not a disagreement yet
            out.append(f"{src.id} (proposed) would {kind.rstrip('s')} {target.id}, in force")
        elif state == "inconsistent" and target is not None and kind in (
                "supersedes", "superseded-by"):  # statuses that disagree (not a missing echo)
            old, new = (target, src) if kind == "supersedes" else (src, target)
            if old.status is Status.ACCEPTED and new.status is Status.ACCEPTED:
                out.append(f"{new.id} supersedes {old.id}, yet both are accepted: which holds?")
            elif old.status is Status.SUPERSEDED and new.status is not Status.ACCEPTED:
                out.append(f"{old.id} is marked superseded, but {new.id} is {_word(new)}: no "
                           "decision of the two is in force")
    return sorted(dict.fromkeys(out))


def _word(d: Decision) -> str:
    return d.status.value if d.status is not None else "no status"


# --- a pure move ---------------------------------------------------------------------------


def moved_manifest(
    manifest: Manifest, moves: Mapping[str, str], rehashed: Mapping[str, tuple[str, str]]
) -> Manifest:
    """``manifest`` after a move that changed paths only: each member's path mapped through
    ``moves`` (old path -> new; a folder maps the files below it), and each hash that was the
    hash of a file before a link rewrite (``rehashed``: path now -> (hash before, hash
    after)) replaced by the hash after. A hash that matched nothing stays: the comparison then
    says the view is stale, as it is."""

    def moved(path: str) -> str:
        if path in moves:
            return moves[path]
        for old, new in moves.items():
            if path.startswith(old + "/"):
                return new + path[len(old) :]
        return path

    members: list[Member] = []
    for m in manifest.members:
        path = moved(m.path)
        sha = m.sha256
        before, after = rehashed.get(path, (None, None))
        if before == sha and after is not None:
            sha = after
        members.append(replace(m, path=path, sha256=sha))
    members.sort(key=member_key)
    view_sha = manifest.view_sha256
    before, after = rehashed.get(manifest.view, (None, None))
    if before == view_sha and after is not None:
        view_sha = after
    return replace(manifest, view_sha256=view_sha, members=tuple(members),
                   digest=members_digest(members))
