"""Site routes: links written for the site a log is published as, not for the repository.

Logs published by a site generator (Docusaurus, VitePress, Hugo, Jekyll, MkDocs, ...) link
their records by the site's routes (``[ADR 32](/adr/32)``, ``/adr/ADR-110``) and their pictures
by the site's public folder (``/resources/ADR-51/diagram.png``). Such a link is broken as a
repository path and works on the site. A root-relative link that is not a repository path is
read here as a site route when the log shows that it is published as a site:

* **declared**: the repository holds a generator's config (``docusaurus.config.js``,
  ``.vitepress/config.ts``, ``mkdocs.yml``, ``hugo.toml``, ``_config.yml``, ...), or the log's
  records carry a route in their front matter (``slug:``, ``permalink:``), or two or more of
  its records use custom elements (``<adr-status …>``: a tag with a hyphen, which only a site's
  components render);
* **learned**: the log's own route scheme, from its links. A link's last segment names a
  record of the log (its front-matter ``slug``, its file name, its id ``ADR-110``, its
  number); the folder before it is a route base. A base that :data:`MIN_ROUTES` or more links
  use, at least :data:`~adrguard.core.conventions.naming.STRONG` of its links naming records,
  is the log's route scheme (``/adr/<id>``).

* **mounted**: a site that serves the log's folder under a path of its own (the log's files
  copied into ``content/specs`` of another repository's site: ``/specs/core-projects`` is
  ``core-projects/_index.md`` here). A first folder under which :data:`MIN_ROUTES` or more
  root-relative links, at least :data:`~adrguard.core.conventions.naming.STRONG` of them, name
  a page of the log (or of the repository; a ``.md`` path is no page) once that folder is
  dropped, and which is
  no folder of the repository (``/docs/0002-x.md`` for ``docs/adr/0002-x.md`` is a slip), is
  the log's mount; a link under it that names one resolves.

A route is then resolved the way the site resolves it: by the record it names (under the
learned base, or with a declared site, under any base), else by a file in a site folder (a
``public/`` or ``static/`` folder, or the folder of a generator's config: ``/img/x.png`` is
``static/img/x.png``; ``/docs/guide`` is ``<site>/docs/guide.md``). What resolves is no
finding. A route under the log's scheme that names no record is broken, and so is one that
names a record under another base (``/ard/ADR-144`` in a log of ``/adr/<id>`` routes), and a
file (``/img/flow.png``) that no site folder holds where the repository holds site folders.
Where it holds none (the site is known only from the log), and for a page route outside the
log's scheme (a generator's plugins route blogs, versions and translations their own way), what
resolves to nothing is left unchecked: the site may serve it.

A relative link that fails as a path, in a log published with the site root as its base
(the link starts with a folder the log's root-relative routes use: ``adr/ADR-70``,
``resources/x.png``), is read from the site root: broken on GitHub, served by the site.

Pure: works on the corpus (its records and ``repo_files``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision
from adrguard.core.parse import formats, ids

MIN_ROUTES = 2  # links under a base that name records before it is the log's route scheme
_STRONG = 0.75  # share of a base's links that must name records (naming.STRONG)
_CUSTOM_ELEMENT = lazy(r"<[a-z][a-z0-9]*-[a-z0-9-]*[\s/>]")
_CUSTOM_RECORDS = 2  # records using custom elements before the log counts as a site's pages
# Files whose presence declares a site generator (by base name; ``.vitepress/config.*`` by
# its folder).
_CONFIG_NAMES = frozenset(
    {
        "docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs",
        "docusaurus.config.cjs", "mkdocs.yml", "mkdocs.yaml", "hugo.toml", "hugo.yaml",
        "hugo.json", "_config.yml", "_config.yaml", "astro.config.mjs", "astro.config.ts",
        "astro.config.js", "gatsby-config.js", "gatsby-config.ts", "next.config.js",
        "next.config.mjs", "next.config.ts", "book.toml", "antora.yml", "antora-playbook.yml",
        ".eleventy.js", "eleventy.config.js", "eleventy.config.mjs", "nuxt.config.ts",
        "nuxt.config.js", ".log4brains.yml", "docfx.json", "zensical.toml",
    }
)
_SITE_FOLDERS = frozenset({"public", "static", "assets"})
_PAGE_SUFFIXES = ("", ".md", ".mdx", ".markdown", ".html", "/index.md", "/README.md",
                  "/index.mdx", "/index.html", "/_index.md")
_STRIP_SUFFIX = lazy(r"\.(?:md|mdx|markdown|html?)$", re.I)
_MARKDOWN = lazy(r"\.(?:md|mdx|markdown)$", re.I)


class Reading(msgspec.Struct, frozen=True):
    """What a link that is not a repository path is on the site.

    ``kind``: ``route`` (names ``records``), ``file`` (a file of a site folder, ``detail``),
    ``missing`` (under the log's route scheme ``base``, names no record), ``misplaced`` (names
    ``records`` under another base than the log's ``base``, or a record's file in a folder that
    does not hold it: ``base`` is empty), ``nowhere`` (no record, route or file of the site's
    folders, which the repository holds), ``unchecked`` (a site link adrguard cannot resolve: the
    repository holds no site folder). ``relative``: a relative link read from the site root.
    """

    kind: str
    records: tuple[Decision, ...] = ()
    base: str = ""
    detail: str = ""
    relative: bool = False

    @property
    def resolves(self) -> bool:
        return self.kind in ("route", "file")


def _split(route: str) -> tuple[str, str]:
    """(base, key) of a route without query, anchor and trailing slash: ``/adr/ADR-5/`` ->
    (``/adr``, ``ADR-5``)."""
    path = route.rstrip("/")
    base, _, key = path.rpartition("/")
    return base, key


class _Index(msgspec.Struct, frozen=True):
    """What a route's last segment may name, over some records: slugs, file names, numbers."""

    keys: Mapping[str, tuple[Decision, ...]]  # casefolded slug / stem -> records
    numbers: Mapping[int, tuple[Decision, ...]]
    families: frozenset[str]  # id prefixes ("" for none / generic)

    @classmethod
    def of(cls, records: Iterable[Decision], names: formats.Names) -> _Index:
        keys: dict[str, list[Decision]] = {}
        numbers: dict[int, list[Decision]] = {}
        families: set[str] = set()
        for d in records:
            for value in _route_values(d):
                keys.setdefault(value.strip("/").rpartition("/")[2].casefold(), []).append(d)
            stem = names.record_name(d.path, d.root)
            keys.setdefault(stem.casefold(), []).append(d)
            if d.number is not None:
                numbers.setdefault(d.number, []).append(d)
                families.add(_family(d, names))
        return cls(
            {k: tuple(v) for k, v in keys.items()},
            {k: tuple(v) for k, v in numbers.items()},
            frozenset(families),
        )

    def named(self, key: str) -> tuple[Decision, ...]:
        """The records a route's last segment names: slug, file name, id, number."""
        folded = _STRIP_SUFFIX.sub("", key).casefold()
        if not folded:
            return ()
        hit = self.keys.get(folded)
        if hit:
            return hit
        token = ids.id_token(folded)
        if token is not None:
            prefix, number = token
            family = "" if prefix in ("adr", "decision", "record") else prefix
            if family in self.families:
                return tuple(
                    d for d in self.numbers.get(number, ())
                    if _family(d) == family
                )
        if folded.isdigit():
            return self.numbers.get(int(folded), ())
        return ()


class _Log:
    """One log's site: its records' route keys, evidence and learned route bases. The route
    keys (:attr:`index`) are worked out when a route is first looked up in the log: most logs
    have no root-relative link, and asking whether a log is a site's needs no keys."""

    def __init__(self, root: str, records: list[Decision], names: formats.Names,
                 declared: bool) -> None:
        self.root = root
        self._records = records
        self._names = names
        self.declared = declared  # front-matter routes or custom elements
        self.bases: frozenset[str] = frozenset()  # learned route bases ("/adr")
        self.folders: frozenset[str] = frozenset()  # first folders of root-relative site links
        self.mounts: frozenset[str] = frozenset()  # learned mounts ("specs": /specs/<log path>)

    @cached_property
    def index(self) -> _Index:
        return _Index.of(self._records, self._names)


def _family(d: Decision, names: formats.Names | None = None) -> str:
    parts = (names.name_id(d.path, d.root) if names is not None
             else formats.name_id(d.path, d.root))
    prefix = parts.prefix
    return "" if prefix in ("", "adr", "decision", "record") else prefix


def _route_values(d: Decision) -> Iterable[str]:
    for key in ("slug", "permalink", "url"):
        value = formats.scalar(d.front_matter.get(key)) if d.front_matter else None
        if value:
            yield value


class Routes:
    """The site routes of every log of one corpus (built once, from the corpus)."""

    def __init__(self, corpus: Corpus, exists: Callable[[str], bool]) -> None:
        self.corpus = corpus
        self.exists = exists  # whether a repo path exists (the resolver's answer)

    @cached_property
    def site_roots(self) -> tuple[str, ...]:
        """Folders holding a generator's config, and ``public``/``static`` site folders."""
        out: set[str] = set()
        for path in self.corpus.repo_files:
            folder, _, name = path.rpartition("/")
            if name in _CONFIG_NAMES:
                out.add(folder)
            elif folder.endswith(".vitepress") and name.startswith("config."):
                parent = folder.rpartition("/")[0]
                out.add(parent)
        return tuple(sorted(out))

    @cached_property
    def site_folders(self) -> tuple[str, ...]:
        """Folders a site serves as its root: ``public``/``static`` folders and site roots."""
        found = {
            d for d in self.corpus.repo_dirs
            if d.rpartition("/")[2] in _SITE_FOLDERS
        }
        return tuple(sorted(found | set(self.site_roots)))

    @cached_property
    def _logs(self) -> dict[str, _Log]:
        members: dict[str, list[Decision]] = {}
        for d in self.corpus.decisions:
            members.setdefault(d.root, []).append(d)
        return {root: self._learn(root, ds) for root, ds in members.items()}

    @cached_property
    def _all(self) -> _Index:
        """Every record of the corpus: a site serves all of them (an archive folder found as
        a log of its own included)."""
        return _Index.of(self.corpus.decisions, formats.names_of(self.corpus))

    def named(self, log: _Log, key: str) -> tuple[Decision, ...]:
        """The records a route's last segment names, in the log first, else anywhere."""
        return log.index.named(key) or self._all.named(key)

    def _learn(self, root: str, records: list[Decision]) -> _Log:
        routed = sum(1 for d in records for _ in _route_values(d))
        custom = sum(1 for d in records if "<" in d.text and _CUSTOM_ELEMENT.search(d.text))
        log = _Log(root, records, formats.names_of(self.corpus),
                   routed > 0 or custom >= _CUSTOM_RECORDS)
        hits: dict[str, int] = {}
        totals: dict[str, int] = {}
        folders: set[str] = set()
        mounted: dict[str, int] = {}
        under: dict[str, int] = {}
        for d in records:
            for link in d.links:
                route = _route_of(link.target)
                if route is None or self.exists(route.lstrip("/")):
                    continue
                first, _, rest = route.strip("/").partition("/")
                if first and rest and not _MARKDOWN.search(rest):  # a page, not a file's path
                    under[first] = under.get(first, 0) + 1
                    if self._in_log(root, rest) is not None:
                        mounted[first] = mounted.get(first, 0) + 1
                base, key = _split(route)
                if _MARKDOWN.search(key):
                    continue  # a file's path, not a route
                totals[base] = totals.get(base, 0) + 1
                if self.named(log, key):
                    hits[base] = hits.get(base, 0) + 1
                first = route.strip("/").split("/", 1)[0]
                if first:
                    folders.add(first)
        bases = frozenset(
            b for b, n in hits.items() if n >= MIN_ROUTES and n >= _STRONG * totals[b]
        )
        mounts = frozenset(
            m for m, n in mounted.items()
            if n >= MIN_ROUTES and n >= _STRONG * under[m] and m not in self.corpus.repo_dirs
        )
        if not bases and not mounts and not log.declared and not self.site_roots:
            folders = set()  # not a site's log: its root-relative links are repository paths
        log.bases, log.folders, log.mounts = bases, frozenset(folders), mounts
        return log

    def _in_log(self, root: str, rest: str) -> str | None:
        """The file of the log (or of the repository) a path under a mount names: ``rest``
        read from the log's root, then from the repository root, as a page
        (``core-projects`` is ``core-projects/_index.md``)."""
        rest = rest.strip("/")
        for folder in dict.fromkeys((root.strip("/").removeprefix("."), "")):
            for suffix in _PAGE_SUFFIXES:
                candidate = f"{folder}/{rest}{suffix}" if folder else rest + suffix
                if self.exists(candidate):
                    return candidate
        return None

    def is_site(self, root: str) -> bool:
        """Whether the log of ``root`` is published as a site (declared or learned)."""
        log = self._logs.get(root)
        return log is not None and bool(
            log.declared or log.bases or log.mounts or self.site_roots
        )

    def read(self, d: Decision, route: str, relative: bool = False) -> Reading | None:
        """What a root-relative ``route`` (decoded, no query or anchor) that is not a
        repository path is on the site of ``d``'s log; None when the log is not a site's."""
        log = self._logs.get(d.root)
        if log is None or not self.is_site(d.root):
            return None
        first, _, rest = route.strip("/").partition("/")
        if first in log.mounts and rest and not _MARKDOWN.search(rest):
            found = self._in_log(d.root, rest)
            if found is not None:
                return Reading("file", (), detail=found, relative=relative)
        base, key = _split(route)
        named = self.named(log, key)
        if _MARKDOWN.search(key):  # a file's path, not a route
            if named:  # a record's file, in a folder that does not hold it
                return Reading("misplaced", named, relative=relative)
            return self._file_or_not(route, relative)
        if base in log.bases:
            if named:
                return Reading("route", named, base, relative=relative)
            return Reading("missing", (), base, relative=relative)
        if named:
            if log.bases:
                return Reading("misplaced", named, min(log.bases), relative=relative)
            return Reading("route", named, base, relative=relative)
        return self._file_or_not(route, relative)

    def _file_or_not(self, route: str, relative: bool) -> Reading:
        """A file of the site's folders; else ``nowhere`` for a file (a name with an extension:
        ``/img/flow.png``) when the repository holds site folders (it says where the site
        serves files from), ``unchecked`` when it holds none, or for a page route, which a
        generator's plugins may serve (a blog's dated routes, a versioned or translated
        copy)."""
        found = self._site_file(route)
        if found is not None:
            return Reading("file", (), detail=found, relative=relative)
        name = route.rstrip("/").rpartition("/")[2]
        if not self.site_folders or "." not in name.strip("."):
            return Reading("unchecked", relative=relative)
        shown = ", ".join(f"{f or '.'}/" for f in self.site_folders[:3])
        more = ", ..." if len(self.site_folders) > 3 else ""
        return Reading("nowhere", detail=shown + more, relative=relative)

    def read_relative(self, d: Decision, path: str) -> Reading | None:
        """A relative link that fails as a path, read from the site root when it starts with
        a folder the site's root-relative links use (pages published with the site root as
        base)."""
        path = path.removeprefix("./")
        if path.startswith("../") or not self.is_site(d.root):
            return None
        if path.split("/", 1)[0] not in self._site_top:
            return None
        return self.read(d, "/" + path, relative=True)

    @cached_property
    def _site_top(self) -> frozenset[str]:
        """The first folders the site logs' root-relative links use (a site-wide picture)."""
        return frozenset().union(
            *(log.folders for root, log in self._logs.items() if self.is_site(root))
        )

    def _site_file(self, route: str) -> str | None:
        rel = route.strip("/")
        if not rel:
            return None
        for folder in self.site_folders:
            for suffix in _PAGE_SUFFIXES:
                candidate = posixpath.join(folder, rel) + suffix if folder else rel + suffix
                if self.exists(candidate):
                    return candidate
        return None

    def resolve(self, d: Decision, target: str) -> tuple[Decision, ...]:
        """The records a relationship target written as a site route names (``/adr/32``);
        empty when it is no route of ``d``'s log's site."""
        route = _route_of(target)
        if route is None or self.exists(route.lstrip("/")):
            return ()
        reading = self.read(d, route)
        return reading.records if reading is not None and reading.kind == "route" else ()


def _route_of(target: str) -> str | None:
    """The decoded path of a root-relative link (``/adr/5?x#y`` -> ``/adr/5``); None for any
    other link."""
    text = target.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1].strip()
    if not text.startswith("/") or text.startswith("//"):
        return None
    text = text.split("#", 1)[0].split("?", 1)[0]
    if "%" in text:
        from urllib.parse import unquote

        text = unquote(text)
    return text if text.strip("/") else None
