"""Reference resolution: from a link destination or a relationship target, as written, to the
repository path it names and to the decision record(s) it means.

Pure: works on the :class:`~adrguard.core.model.Corpus` only (its ``repo_files``, decisions and
``repository``). A target is one of

* external (``https:``, ``mailto:``, any ``scheme:``, protocol-relative ``//host``),
* a pure ``#anchor`` in the same file,
* a path, relative to the file's folder or root-relative (``/docs/...``), with ``?query`` and
  ``#anchor`` dropped and ``%xx`` decoded; an absolute URL to this repository's own files at
  its default branch (``https://github.com/OWNER/REPO/blob/main/path``, when the repository's
  URL and default branch are configured: :mod:`adrguard.core.repository`) becomes a
  root-relative path; a URL at another branch, a tag or a commit stays external; a
  root-relative path that is a route of the log's site (``/adr/32``) names the record the site
  serves there (:mod:`.routes`),
* or, for relationships, an id (``ADR-0005``, ``ADR 5``, ``ADR005``, ``adr-5``, ``#5``, ``5``,
  or the prefix the log's own file names use: ``DR008`` in a log of ``DRnnn-*.md`` files),
  a log4brains slug (a file stem), a title, or link text such as ``5. Title``. An id with a
  prefix the log does not use (``RFC 7231`` in a log of ``nnnn-*.md`` files) names something
  outside the log: external, not checked.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from functools import cached_property
from urllib.parse import unquote

import msgspec

from adrguard.core.graph.routes import Routes
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision, grouped
from adrguard.core.parse import formats, ids
from adrguard.core.repository import Repository

_SCHEME = lazy(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_NUMBER = lazy(r"^(?:adr[-_ ]?|#)?0*(\d{1,6})$", re.IGNORECASE)
_FAMILY = frozenset({"adr", "decision", "record"})  # generic names for any log's records
_TEXT_NUMBER = lazy(r"^\s*(?:adr[-_ ]?)?#?0*(\d{1,6})\b(?![-/]\d)", re.IGNORECASE)
_RECORD_FILES = frozenset({"readme.md", "index.md"})
LIST_LIMIT = 8  # records an ambiguity names before it counts the rest


class Target(msgspec.Struct, frozen=True):
    """A link destination taken apart.

    ``kind``: ``empty`` | ``anchor`` (same file) | ``external`` | ``path``. For ``path``,
    ``repo_path`` is the normalised repo-relative path (``""`` is the repo root) or None when the
    target climbs above the repository root (``escapes``).
    """

    kind: str
    raw: str
    path: str = ""  # decoded path part, as written (before joining with the file's folder)
    fragment: str | None = None  # decoded anchor without '#', None when there is none
    repo_path: str | None = None
    escapes: bool = False
    from_url: bool = False  # an absolute URL to this repository's own files


def _ends_in_digit(text: str) -> bool:
    """What any match of ``_NUMBER`` needs: a digit last, or before a last line break (``$``).
    A path (``0003-x.md``) has none, and the pattern is not compiled for it."""
    return text[-1:].isdecimal() or (text[-1:] == "\n" and text[-2:-1].isdecimal())


def clean(raw: str) -> str:
    """Strip whitespace and the ``<...>`` that CommonMark allows around a destination."""
    text = raw.strip()
    if not text.startswith("<"):
        return text
    if len(text) >= 2 and text.startswith("<") and text.endswith(">"):
        text = text[1:-1].strip()
    return text


def normalise(base_dir: str, path: str) -> tuple[str | None, bool]:
    """Join ``path`` onto ``base_dir`` (both repo-relative) and collapse ``.``/``..``.

    A leading ``/`` means the repository root. Returns (repo_path, escapes): repo_path is None
    when the path climbs above the root.
    """
    if path.startswith("/"):
        joined = path.lstrip("/")
    elif base_dir in ("", "."):
        joined = path
    else:
        joined = f"{base_dir}/{path}"
    if "/." not in "/" + joined and "//" not in joined and joined[-1:] != "/":
        return joined, False  # nothing to collapse (the common case)
    out: list[str] = []
    for part in joined.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None, True
            out.pop()
            continue
        out.append(part)
    return "/".join(out), False


def parse_target(raw: str, source_path: str, repository: Repository | None = None) -> Target:
    """Take a link destination apart (see :class:`Target`)."""
    text = clean(raw)
    if not text:
        return Target("empty", raw)
    from_url = False
    if (":" in text and _SCHEME.match(text)) or text.startswith("//"):
        own = repository.web_path(text) if repository is not None else None
        if own is None:
            return Target("external", raw)
        text = "/" + own
        from_url = True
    if text.startswith("#"):
        return Target("anchor", raw, fragment=unquote(text[1:]))
    fragment: str | None = None
    if "#" in text:
        text, _, frag = text.partition("#")
        fragment = unquote(frag)
    if "?" in text:
        text = text.split("?", 1)[0]
    path = unquote(text) if "%" in text else text
    if not path:  # "?x" or "?x#y": the same file
        return Target("anchor", raw, fragment=fragment or "")
    base_dir = source_path.rpartition("/")[0]
    repo_path, escapes = normalise(base_dir, path)
    return Target("path", raw, path, fragment, repo_path, escapes, from_url)


class Resolution(msgspec.Struct, frozen=True):
    """What a relationship target means: ``resolved`` (one record), ``unresolved``, ``ambiguous``
    (several records) or ``external`` (outside this repository; cannot be checked)."""

    state: str
    decisions: tuple[Decision, ...] = ()
    reason: str = ""

    @property
    def decision(self) -> Decision | None:
        return self.decisions[0] if self.state == "resolved" else None


def record_key(d: Decision) -> str:
    """The stem that names a record: file stem, or the folder name of a ``README.md`` record."""
    base = d.path.rpartition("/")[2]  # posixpath.basename of a str
    folded = base.casefold()
    if folded in _RECORD_FILES:
        return posixpath.basename(posixpath.dirname(d.path)) or base
    return base[:-3] if folded.endswith(".md") else base


_LOOKUP_NUMBER = lazy(r"^(?:adr[-_ ]?)?#?0*(\d+)$", re.IGNORECASE)


def lookup(corpus: Corpus, key: str) -> tuple[Decision, ...]:
    """The records ``key`` names (the matching behind :func:`adrguard.api.lookup.find_decision`,
    the one record lookup): an id (any case) or a repo-relative path; else the tail of a path
    (``0007-x.md``, ``adr/0007-x.md``); else a number (``7``, ``0007``, ``ADR-7``, ``#7``); else
    a file stem (``0007-x``, or the folder of a one-folder-per-record README)."""
    key = key.strip()
    hits = tuple(corpus.find(key))
    if not hits:
        tail = "/" + key.removeprefix("./")
        hits = tuple(d for d in corpus.decisions if d.path.endswith(tail))
    if not hits:
        m = _LOOKUP_NUMBER.match(key)
        if m:
            hits = tuple(d for d in corpus.decisions if d.number == int(m.group(1)))
    if not hits:
        hits = tuple(d for d in corpus.decisions if record_key(d).casefold() == key.casefold())
    return hits


class Resolver:
    """Indexes over one corpus, built once; resolves paths and references."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._preferred: dict[tuple[str, str, str], tuple[Decision, ...]] = {}

    @cached_property
    def routes(self) -> Routes:
        """The site routes of the corpus's logs (:mod:`.routes`)."""
        return Routes(self.corpus, self.exists)

    @cached_property
    def files(self) -> frozenset[str]:
        return self.corpus.repo_files | {d.path for d in self.corpus.decisions}

    @cached_property
    def dirs(self) -> frozenset[str]:
        """Every folder of a tracked file or a record. A folder of ``repo_dirs`` comes with all
        its parents, so a record's folders are walked up only until one is known: one lookup
        per record of a tracked log."""
        known = self.corpus.repo_dirs
        extra: set[str] = set()
        for d in self.corpus.decisions:
            folder = d.path.rpartition("/")[0]
            while folder and folder not in known and folder not in extra:
                extra.add(folder)
                folder = folder.rpartition("/")[0]
        return known | extra if extra else known

    @cached_property
    def folded(self) -> Mapping[str, str]:
        """casefolded path -> one real path (files and folders) for case-mismatch messages."""
        out: dict[str, str] = {}
        for paths in (self.files, self.dirs):
            for p in paths:  # the first in sorted order, without sorting them all
                key = p.casefold()
                kept = out.get(key)
                if kept is None or p < kept:
                    out[key] = p
        return out

    @cached_property
    def by_dir(self) -> Mapping[str, Decision]:
        out: dict[str, Decision] = {}
        for d in self.corpus.decisions:
            if d.path.rpartition("/")[2].casefold() in _RECORD_FILES:
                out.setdefault(posixpath.dirname(d.path), d)
        return out

    @cached_property
    def by_stem(self) -> Mapping[str, tuple[Decision, ...]]:
        return grouped(self.corpus.decisions, lambda d: record_key(d).casefold())

    @cached_property
    def by_title(self) -> Mapping[str, tuple[Decision, ...]]:
        return grouped((d for d in self.corpus.decisions if d.title),
                       lambda d: (d.title or "").strip().casefold())

    @cached_property
    def prefixes(self) -> Mapping[str, frozenset[str]]:
        """root -> the id prefixes its records' file names use (``dr`` for ``DR008-x.md``)."""
        out: dict[str, set[str]] = {}
        names = formats.names_of(self.corpus)
        for d in self.corpus.decisions:
            prefix = names.name_id(d.path, d.root).prefix
            if prefix:
                out.setdefault(d.root, set()).add(prefix)
        return {k: frozenset(v) for k, v in out.items()}

    def log_id(self, source: Decision, token: str) -> tuple[bool, int] | None:
        """For an id written as ``<prefix><number>``: (whether the prefix is one of the
        source's log, or a generic ``ADR``; the number). None when ``token`` is no such id."""
        parsed = ids.id_token(token)
        if parsed is None:
            return None
        prefix, number = parsed
        own = prefix in _FAMILY or prefix in self.prefixes.get(source.root, frozenset())
        return own, number

    @cached_property
    def by_any_number(self) -> Mapping[int, tuple[Decision, ...]]:
        return grouped((d for d in self.corpus.decisions if d.number is not None),
                       lambda d: d.number or 0)

    # -- paths ---------------------------------------------------------------------------------

    def exists(self, repo_path: str) -> bool:
        p = repo_path.rstrip("/")
        return p in self.files or p in self.dirs

    def case_variant(self, repo_path: str) -> str | None:
        """The real path when ``repo_path`` exists only if case is ignored."""
        real = self.folded.get(repo_path.rstrip("/").casefold())
        return real if real is not None and real != repo_path.rstrip("/") else None

    def decision_at(self, repo_path: str) -> Decision | None:
        """The record a path names: the file itself, ``path + .md``, or a record folder."""
        p = repo_path.rstrip("/")
        by_path = self.corpus.by_path
        if p in by_path:
            return by_path[p]
        if not p.casefold().endswith(".md") and p + ".md" in by_path:
            return by_path[p + ".md"]
        return self.by_dir.get(p)

    # -- references ----------------------------------------------------------------------------

    def _prefer_root(self, source: Decision, index: str, key: str) -> tuple[Decision, ...]:
        """The records the ``index`` (``id``, ``stem`` or ``title``) holds under ``key``, once
        each, those of the source's own root only when it has some. Worked out once per root,
        index and key: a thousand relationships to one ambiguous name cost one pass over its
        records, not a thousand."""
        memo = (source.root, index, key)
        found = self._preferred.get(memo)
        if found is None:
            table = (self.corpus.by_id if index == "id" else  # only the index asked for
                     self.by_stem if index == "stem" else self.by_title)
            unique = tuple({d.path: d for d in table.get(key, ())}.values())
            own = tuple(d for d in unique if d.root == source.root)
            found = self._preferred[memo] = own or unique
        return found

    def _verdict(self, hits: tuple[Decision, ...], raw: str) -> Resolution:
        if len(hits) == 1:
            return Resolution("resolved", hits)
        paths = ", ".join(d.path for d in hits[:LIST_LIMIT])
        if len(hits) > LIST_LIMIT:
            paths += f" and {len(hits) - LIST_LIMIT} more"
        return Resolution("ambiguous", hits, f"{raw!r} matches {len(hits)} records: {paths}")

    def by_number_in(self, source: Decision, number: int) -> tuple[Decision, ...]:
        own = self.corpus.by_number.get((source.root, number), ())
        return own or self.by_any_number.get(number, ())

    def resolve(
        self, source: Decision, raw: str, text: str = "", origin: str = "body"
    ) -> Resolution:
        """Resolve a relationship target (and its link text, when it came from a link).

        ``origin`` is where the relationship was written (:class:`~adrguard.core.model.
        Relationship`): a path in front matter is metadata, not a link GitHub renders, and is
        also read from the repository root and the log's root (``replaces:
        docs/adr/0003-x.md``). A path that names a file by its name alone (``0009-x.md``)
        and exists nowhere next to the record names the one record of that file name, wherever
        it lives (a record moved to another folder of the log): the broken link itself is
        ADR201's."""
        target = clean(raw)
        if not target:
            if text.strip():
                return self.resolve_text(source, text)
            return Resolution("unresolved", (), "the target is empty")
        if _ends_in_digit(target) and _NUMBER.match(target):  # "#5" is an id, not an anchor
            return self._resolve_token(source, Target("path", target, target), target)
        log_id = self.log_id(source, target)
        if log_id is not None and not self.corpus.by_id.get(target.casefold()):
            own, number = log_id
            if not own:
                return Resolution("external", (), f"{target} is not an id of this log")
            hits = self.by_number_in(source, number)
            if hits:
                return self._verdict(hits, target)
            return Resolution("unresolved", (), f"no record has number {number}")
        parsed = parse_target(target, source.path, self.corpus.repository)
        if parsed.kind == "external":
            return Resolution("external", (), f"{target} is outside this repository")
        if parsed.kind == "anchor":
            return Resolution("unresolved", (), f"{target} points into the same file")
        path_like = (
            "/" in parsed.path
            or parsed.path.casefold().endswith(".md")
            or parsed.path.startswith(".")
            or parsed.from_url
        )
        if path_like:
            found = self._resolve_path(source, parsed, target)
            if found.state == "unresolved":
                return self._elsewhere(source, parsed, origin) or found
            return found
        return self._resolve_token(source, parsed, target)

    def _resolve_path(self, source: Decision, parsed: Target, target: str) -> Resolution:
        if parsed.repo_path is None:
            return Resolution("unresolved", (), f"{target} points outside the repository")
        hit = self.decision_at(parsed.repo_path)
        if hit is not None:
            return Resolution("resolved", (hit,))
        routed = self.routes.resolve(source, target) if not parsed.from_url else ()
        if routed:
            return self._verdict(routed, target)
        real = self.case_variant(parsed.repo_path)
        if real is not None and self.decision_at(real) is not None:
            return Resolution("unresolved", (), f"{target} matches {real} only if case is ignored")
        if self.exists(parsed.repo_path):
            return Resolution("unresolved", (), f"{parsed.repo_path} is not a decision record")
        return Resolution("unresolved", (), f"{parsed.repo_path} does not exist")

    def _elsewhere(self, source: Decision, parsed: Target, origin: str) -> Resolution | None:
        """A path that fails next to the record, read as metadata (from the repository root,
        then the log's root) or, when it is a file name alone, by that name (see
        :meth:`resolve`). None when neither names a record."""
        path = parsed.path
        if parsed.from_url or path.startswith(("/", "../")):
            return None
        rel = path.removeprefix("./")
        if origin == "front-matter":
            for base in ("", source.root):
                repo_path, _escapes = normalise(base, rel)
                hit = self.decision_at(repo_path) if repo_path is not None else None
                if hit is not None and hit is not source:
                    return Resolution("resolved", (hit,))
        if "/" in rel or not rel.casefold().endswith(".md"):
            return None
        stem = posixpath.basename(rel)[:-3]
        stems = self._prefer_root(source, "stem", stem.casefold())
        if len(stems) != 1 or stems[0] is source:
            return None
        if formats.record_name(stems[0].path, stems[0].root) != stem:
            return None  # only a case-insensitive match: ADR301 says so
        return Resolution("resolved", stems)

    def _resolve_token(self, source: Decision, parsed: Target, target: str) -> Resolution:
        token = parsed.path.strip()
        ids = self._prefer_root(source, "id", token.casefold())
        if ids:
            return self._verdict(ids, target)
        m = _NUMBER.match(token)
        if m:
            hits = self.by_number_in(source, int(m.group(1)))
            if hits:
                return self._verdict(hits, target)
            return Resolution("unresolved", (), f"no record has number {int(m.group(1))}")
        if parsed.repo_path is not None:
            hit = self.decision_at(parsed.repo_path)
            if hit is not None:
                return Resolution("resolved", (hit,))
        stems = self._prefer_root(source, "stem", token.casefold())
        if stems:
            return self._verdict(stems, target)
        titles = self._prefer_root(source, "title", token.casefold())
        if titles:
            return self._verdict(titles, target)
        return Resolution(
            "unresolved", (), f"no record has the id, number, file name or title {token!r}"
        )

    def resolve_text(self, source: Decision, text: str) -> Resolution:
        """Resolve link text such as ``5. Title``, ``ADR-0005`` or a title."""
        stripped = text.strip()
        m = _TEXT_NUMBER.match(stripped)
        if m:
            hits = self.by_number_in(source, int(m.group(1)))
            if hits:
                return self._verdict(hits, stripped)
        titles = self._prefer_root(source, "title", stripped.casefold())
        if titles:
            return self._verdict(titles, stripped)
        stems = self._prefer_root(source, "stem", stripped.casefold())
        if stems:
            return self._verdict(stems, stripped)
        return Resolution("unresolved", (), f"no record matches {stripped!r}")
