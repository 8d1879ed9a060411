"""The read guard's policy (seed 001 §8, issue 32): one tool call in, allow / warn / deny out.

* ``off`` keeps today's access: everything is allowed and nothing is counted.
* File-name discovery (listing, globbing, a search that prints only file names or counts) is
  always allowed; so are the navigation files (INDEX, CURRENT, README) and a targeted read of an
  active record.
* A direct read of an **archived** record, and a search whose scope holds the text of **more
  than one** record with no target (a content search over an ADR folder, or over the whole
  repository without leaving the ADR folders out), are what the guard is about: ``guard`` denies
  them with a receipt naming the bounded retrieval to call instead (:mod:`.receipts`); ``warn``
  lets them through and says the same once per record (once per search scope) per session.
* A search whose scope holds exactly one record is a targeted read of that record; a code search
  whose globs or types leave the records out is allowed.
* A record read again (the same part of it) in the same session gets a hint, once, in ``warn``
  and ``guard``.

The values are named tuples (cheap to define in the new process every hook call starts). The
paths come in repo-relative and normalised (roots, separators, ``..`` and symlinks resolved
by the caller); what is a record, and whether it is archived, comes from the layout
(:class:`~.layout.LogLayout`), never from a folder's name alone. Pure: the session's history
comes in as :class:`Seen`, and the caller stores what the verdict says was read and told.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from adrguard.core.guard import receipts
from adrguard.core.guard.layout import LogLayout, PathState, braces
from adrguard.core.guard.receipts import Receipt

MARKDOWN_TYPES = frozenset({"md", "markdown", "all"})  # ripgrep file types that hold records
MAX_BRACE_ALTERNATIVES = 64


class Mode(StrEnum):
    OFF = "off"
    WARN = "warn"
    GUARD = "guard"


class Output(StrEnum):
    """What a search prints: matching lines, or only file names, or only counts."""

    CONTENT = "content"
    NAMES = "names"
    COUNT = "count"


class Answer(StrEnum):
    ALLOW = "allow"
    WARN = "warn"  # allowed, with hints the agent has not been given yet in this session
    DENY = "deny"
    ASK = "ask"  # the guard cannot know its own mode: the person decides (never the policy)


class Target(NamedTuple):
    """A path as the caller normalised it: repo-relative, or None when it is outside the
    repository. ``wildcard``: a shell pattern (``*``, ``?``, ``[...]``) the shell would expand."""

    path: str | None
    wildcard: bool = False


class Read(NamedTuple):
    """A direct read of files (the Read tool; cat, head, tail, less, sed -n). ``part`` says which
    part (lines, the command): reading the same part of a record twice is a repeat."""

    targets: tuple[Target, ...]
    part: str = ""
    tool: str = "Read"


class Search(NamedTuple):
    """A search of file contents (the Grep tool; grep, rg). ``scopes``: the files and folders
    searched (the working directory when none is named); ``cwd``: the working directory,
    repo-relative, which a glob may be relative to; ``globs`` in gitignore syntax and in order
    (``!`` leaves out, the last match wins, as ripgrep reads them)."""

    scopes: tuple[Target, ...]
    cwd: str | None = "."
    globs: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    types_not: tuple[str, ...] = ()
    output: Output = Output.CONTENT
    pattern: str = ""
    tool: str = "Grep"
    recursive: bool = True  # False: a folder named as a scope is not searched (grep without -r)


Request = Read | Search


class Seen(NamedTuple):
    """What the session did before this call: the parts of records it read (evidence keys) and
    the hints it was given (notice keys)."""

    reads: frozenset[str] = frozenset()
    told: frozenset[str] = frozenset()


class Evidence(NamedTuple):
    """A record (or navigation file) the call reads, and the key that makes a repeat."""

    path: str
    state: PathState
    key: str


class Notice(NamedTuple):
    """Why a call is denied, or a hint given with it. ``key``: a hint is given once per key per
    session."""

    key: str
    kind: str  # "archived" | "unscoped" | "repeat"
    text: str
    receipt: Receipt | None
    paths: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "message": self.text, "paths": list(self.paths)}
        if self.receipt is not None:
            data["receipt"] = self.receipt.to_json()
        return data


class Verdict(NamedTuple):
    answer: Answer
    notices: tuple[Notice, ...] = ()  # the reasons of a deny, or the hints of a warn
    evidence: tuple[Evidence, ...] = ()  # what the call reads when it goes ahead

    @property
    def reason(self) -> str:
        return " ".join(n.text for n in self.notices)


def decide(
    layout: LogLayout, mode: Mode, requests: Sequence[Request], seen: Seen | None = None
) -> Verdict:
    """The verdict on one tool call (all its requests together)."""
    seen = seen if seen is not None else Seen()
    if mode is Mode.OFF:
        return Verdict(Answer.ALLOW)
    judged = _Judged(layout, seen)
    for request in requests:
        if isinstance(request, Read):
            for path in _expand(layout, request.targets):
                judged.read(path, request.part)
        else:
            judged.search(request)
    problems = tuple(dict((n.key, n) for n in judged.problems).values())
    if mode is Mode.GUARD and problems:
        return Verdict(Answer.DENY, problems)
    hints = tuple(
        n for n in dict((n.key, n) for n in (*problems, *judged.repeats)).values()
        if n.key not in seen.told
    )
    evidence = tuple(dict((e.key, e) for e in judged.evidence).values())
    return Verdict(Answer.WARN if hints else Answer.ALLOW, hints, evidence)


class _Judged:
    def __init__(self, layout: LogLayout, seen: Seen) -> None:
        self.layout, self.seen = layout, seen
        self.problems: list[Notice] = []
        self.repeats: list[Notice] = []
        self.evidence: list[Evidence] = []

    def read(self, path: str, part: str) -> None:
        state = self.layout.state(path)
        key = f"{path}#{part}"
        if state is PathState.ARCHIVED:
            receipt = receipts.for_record(path)
            self.problems.append(Notice(
                f"archived:{path}", "archived",
                f"{path} is an archived decision record (history, not what holds now): "
                f"instead {receipt.text()}.",
                receipt, (path,),
            ))
        elif state is PathState.ACTIVE and key in self.seen.reads:
            what = f"this part of {path}" if part else path
            self.repeats.append(Notice(
                f"repeat:{key}", "repeat",
                f"{what} was read already in this session: use what you read then, or ask for "
                f"one part of it with `adrguard context {shlex.quote(path)}`.",
                None, (path,),
            ))
        if state in (PathState.ACTIVE, PathState.ARCHIVED, PathState.NAVIGATION):
            self.evidence.append(Evidence(path, state, key))

    def search(self, request: Search) -> None:
        if request.output is not Output.CONTENT:
            return  # file names or counts: discovery, no record text is printed
        found: dict[str, None] = {}
        for scope in request.scopes:
            found.update(dict.fromkeys(self._searched(scope, request)))
        records = list(found)
        if len(records) == 1:  # one record in scope: a targeted read of it
            self.read(records[0], f"search {request.pattern}")
            return
        if not records:
            return
        archived = sum(1 for r in records if self.layout.records.get(r))
        roots = sorted({r for p in records if (r := self.layout.root_of(p)) is not None})
        receipt = receipts.for_search(request.pattern)
        where = ", ".join(roots)
        held = f" ({archived} of them archived)" if archived else ""
        code_only = receipts.exclusion_hint(roots, request.tool)
        self.problems.append(Notice(
            f"unscoped:{where}", "unscoped",
            f"this {request.tool} search reads the text of {len(records)} decision "
            f"records{held} in {where} with no target. To look for decisions "
            f"{receipt.text()}; to search code only, {code_only}.",
            receipt, tuple(records[:20]),
        ))

    def _searched(self, scope: Target, request: Search) -> Iterator[str]:
        """The records a search of ``scope`` reads: a record named as the scope is always read
        (ripgrep and grep search a file they are given); below a folder, the globs and types
        decide."""
        layout = self.layout
        if scope.path is None:
            return
        if scope.wildcard:
            named = [p for p in layout.matching(scope.path) if p in layout.records]
            yield from named
            return
        if scope.path in layout.records:
            yield scope.path
            return
        if not request.recursive:
            return
        globs = _Globs(request.globs)
        for record in layout.records_in(scope.path):
            if _kept(record, scope.path, request, globs):
                yield record


def _expand(layout: LogLayout, targets: Iterable[Target]) -> Iterator[str]:
    for target in targets:
        if target.path is None:
            continue
        if target.wildcard:
            yield from layout.matching(target.path)
        else:
            yield target.path


def _relative(path: str, folder: str | None) -> str | None:
    if folder is None:
        return None
    if folder in (".", ""):
        return path
    return path[len(folder) + 1 :] if path.startswith(folder + "/") else None


def _kept(record: str, scope: str, request: Search, globs: _Globs) -> bool:
    """Whether a search of the folder ``scope`` reads ``record`` after its types and globs. A
    glob is read against the path below the folder searched and, when the record is below it,
    the path below the working directory: a record either reading leaves out is left out."""
    if request.types and not MARKDOWN_TYPES.intersection(t.casefold() for t in request.types):
        return False
    if MARKDOWN_TYPES.intersection(t.casefold() for t in request.types_not) - {"all"}:
        return False
    if not request.globs:
        return True
    readings = {_relative(record, scope), _relative(record, request.cwd)} - {None}
    return all(globs.keep(rel) for rel in readings if rel is not None)


class _Globs:
    """A search's globs, compiled once: gitignore syntax with ripgrep's ``{a,b}`` alternatives,
    read as ripgrep reads ``--glob`` — the last glob that matches decides (``!`` leaves out);
    when none matches, a file is kept unless some glob names files to keep. A glob that cannot
    be read (too many alternatives, bad syntax) is taken the way that reads the records: as
    matching every file when it keeps, as leaving nothing out when it excludes."""

    def __init__(self, globs: Sequence[str]) -> None:
        self.keeps_some = any(not g.startswith("!") for g in globs)
        self.rules: list[tuple[bool, list[Any] | None]] = []
        if not globs:
            return
        import pathspec

        try:
            kind = pathspec.lookup_pattern("gitignore")
        except KeyError:  # pathspec < 1.0
            kind = pathspec.lookup_pattern("gitwildmatch")
        for glob in globs:
            negated = glob.startswith("!")
            alternatives = braces(glob[1:] if negated else glob, MAX_BRACE_ALTERNATIVES)
            compiled: list[Any] | None = None
            if alternatives is not None:
                try:
                    compiled = [p for p in map(kind, alternatives) if p.include is not None]
                except (ValueError, TypeError):
                    compiled = None
            self.rules.append((negated, compiled))

    def keep(self, rel: str) -> bool:
        decision: bool | None = None
        for negated, compiled in self.rules:
            if compiled is None:
                hit = not negated
            else:
                hit = any(p.match_file(rel) is not None for p in compiled)
            if hit:
                decision = not negated
        return (not self.keeps_some) if decision is None else decision
