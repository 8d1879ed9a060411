"""ADR2xx: links and references (broken links and anchors, links leaving the repository,
mentions of decisions that do not exist, link text naming another decision)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator

from adrguard.core.findings import Finding, Severity
from adrguard.core.graph import graph
from adrguard.core.graph.resolve import Resolver, Target, parse_target
from adrguard.core.graph.routes import Reading
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Link, Location, Mention, RecordFacts
from adrguard.core.nearest import Budget, Vocabulary
from adrguard.core.options import DECISION_ID_PATTERN
from adrguard.core.parse import formats
from adrguard.core.parse.masking import blank_comments
from adrguard.core.saferegex import Match, Regex, UnsafePattern, compile_user
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta
from adrguard.rules.mentions import for_lines, masked_lines_at, needed

# "Did you mean" for broken anchors: word comparisons allowed in one run, all broken anchors
# together (see _Hints). The real logs of benchmarks/ecosystem need at most about 1,400.
HINT_BUDGET = 50_000
_HTML_ID = lazy(r"""<[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
# A heading's explicit id in an attribute list (`## Scope {#scope}`, kramdown's `{: #scope}`):
# Pandoc, kramdown, Hugo, MkDocs and Docusaurus give the heading that anchor.
_ATTR_ID = lazy(r"^#{1,6}[ \t].*?\{:?[ \t]*#([A-Za-z][\w.:-]{0,200})[^}\n]{0,200}\}[ \t#]*$",
                      re.MULTILINE)
_DATE_AFTER = lazy(r"[-/.]\d")


def _checked_links(ctx: RuleContext) -> tuple[tuple[Decision, Link, Target], ...]:
    """Every link of every record with its destination taken apart. Several rules walk every
    link: each destination is taken apart once per run, and the list of them all is made once
    for the records the rules are given (kept on the rule context; Target is immutable)."""
    decisions = ctx.corpus.decisions
    made: list[tuple[tuple[Decision, ...], tuple[tuple[Decision, Link, Target], ...]]] = \
        ctx.derived("checked links", list)
    if made and made[0][0] is decisions:
        return made[0][1]
    repository = ctx.corpus.repository
    # record path -> its links' targets in order, and the links they are of: a record's links
    # are taken apart together, once a run, and only for those very links (a run without a
    # record that crashed a rule takes the others' apart again only when their links differ)
    targets: dict[str, tuple[Target, ...]] = ctx.derived("link targets", dict)
    of: dict[str, tuple[Link, ...]] = ctx.derived("link targets of", dict)
    # folder -> destination as written -> it taken apart, for the run's repository: a
    # destination means the same from every record of one folder (parse_target reads the
    # record's path for its folder alone), and a log links the same records from many records
    parsed: list[tuple[object, dict[str, dict[str, Target]]]] = \
        ctx.derived("parsed targets", list)
    if not parsed or parsed[0][0] is not repository:
        parsed[:] = [(repository, {})]
    by_folder: dict[str, dict[str, Target]] = parsed[0][1]
    out: list[tuple[Decision, Link, Target]] = []
    for d in decisions:
        links = d.links
        if not links:
            continue
        path = d.path
        found = targets.get(path)
        if found is None or of[path] is not links:
            of[path] = links
            folder = path.rpartition("/")[0]
            memo = by_folder.get(folder)
            if memo is None:
                memo = by_folder[folder] = {}
            taken: list[Target] = []
            for link in links:
                raw = link.target
                t = memo.get(raw)
                if t is None:
                    t = memo[raw] = parse_target(raw, path, repository)
                taken.append(t)
            found = targets[path] = tuple(taken)
        out.extend([(d, link, t) for link, t in zip(links, found, strict=True)])
    made[:] = [(decisions, tuple(out))]
    return made[0][1]


def _what(link: Link) -> str:
    return "image" if link.is_image else "link"


class BrokenLink(BaseRule):
    """A relative link (or image) whose target does not exist in the repository.

    **Why**: records are renamed, renumbered and moved; every link to the old name silently
    dies. Targets are checked as GitHub resolves them: relative to the record's folder, `/...`
    from the repository root, `?query` and `#anchor` dropped, `%20` decoded, a folder counts.
    The check is case-sensitive, like GitHub and Linux: a link that only works on a
    case-insensitive file system is reported. Images are checked too (the message says
    "image"). External URLs (`https:`, `mailto:`, any `scheme:`) are not fetched. A URL into
    this repository at its default branch is checked as a path when the repository's URL is
    known (`repository-url`, `--repository-url`, the GitHub Action); a URL at another branch,
    a tag or a commit names another version of the file and is not checked. A git remote never
    changes what a link means.

    **Site routes**: a log published by a site generator links by the site's routes
    (`[ADR 32](/adr/32)`, `/adr/ADR-110`) and its public folder (`/img/flow.png`). A
    root-relative link that is not a repository path is read as a route when the log is a
    site's: the repository holds a generator's config (`docusaurus.config.js`,
    `.vitepress/config.ts`, `mkdocs.yml`, `hugo.toml`, `_config.yml`, ...), the records carry
    `slug:` or `permalink:` front matter or custom elements (`<adr-status …>`), or the links
    themselves show the log's route scheme (learned: a folder under which two or more links,
    three quarters of them, name records by slug, file name, id or number). A route is resolved
    like the site resolves it: the record it names, else a file of a `public/` or `static/`
    folder or of the site's folder (`/docs/guide` is `<site>/docs/guide.md`). What resolves is
    no finding. Reported: a route of the log's scheme that names no record, a route naming a
    record under another folder (`/ard/ADR-144` where the scheme is `/adr/<record>`), and, where
    the repository holds site folders, a route that resolves to nothing. Where it holds none,
    what resolves to nothing cannot be checked: one **note** for the log. A relative link that
    fails as a path but starts with a folder of the log's own site links (`adr/ADR-70`, pages
    published with the site root as base) is broken on GitHub and served by the site: a note.

    **Id forms**: a log whose links name records by an id form its files do not use
    (`[ERC-721](./eip-721.md)` where the file is `erc-721.md`, `../assets/eip-721/x.png`
    where the folder is `assets/erc-721/`): when three or more links name existing records in
    one such form, it is the log's convention (its site or tooling resolves them; links in that
    form to numbers no record here has name records of a sibling log): one **note** for the
    log. Any other such link is a slip: an error, naming the record meant.

    **Did you mean**: when exactly one file of the repository has the broken link's file name
    (a record moved to an archive folder away from its pictures), or exactly one record of the
    log is named like the link after its id (`opt-in.md` for `KEEP-0302-opt-in.md`), the
    message names the path to it; a record of the number a broken `<prefix>-N` link names is
    suggested only under the same prefix. A web address or an e-mail address written without
    its scheme (`golang.org/issue/1`, `ann@example.org`) is named as such.

    **Bad**: `Superseded by [5. Use Postgres](0005-use-postgresql.md)` when the file is
    `0005-use-postgres.md`; `![diagram](img/Flow.PNG)` when the file is `img/flow.png`;
    `[ADR 9](/adr/9)` in a log routed as `/adr/<slug>` that has no record with slug 9.

    **Good**: `Superseded by [5. Use Postgres](0005-use-postgres.md)`; `[ADR 3](/adr/3)` where
    record 3 has `slug: 3`.
    """

    meta = RuleMeta(
        code="ADR201",
        name="broken-link",
        summary="a relative link's target file does not exist",
        default_severity=Severity.ERROR,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        resolver = graph.build(ctx.corpus).resolver
        unchecked: dict[str, list[tuple[Decision, Link, Target]]] = {}  # root -> site links
        id_form: dict[str, list[tuple[Decision, Link, Target, tuple[str, Decision | None]]]] = {}
        names: dict[str, str | None] | None = None  # file name -> its one path, when needed
        for d, link, t in _checked_links(ctx):
            loc = Location(d.path, link.line, link.column)
            if t.kind == "empty" and link.kind != "autolink":
                yield self.finding(
                    f"{_what(link)} [{link.text}]() has an empty target: add the path or remove "
                    "the link",
                    loc,
                    d,
                )
                continue
            if t.kind != "path" or t.repo_path is None or resolver.exists(t.repo_path):
                continue
            real = resolver.case_variant(t.repo_path)
            reading = None if real is not None or t.from_url else _site_reading(resolver, d, t)
            if reading is not None:
                if reading.kind == "unchecked" and not reading.relative:
                    unchecked.setdefault(d.root, []).append((d, link, t))
                else:
                    found = self._site(d, link, t, reading, loc)
                    if found is not None:
                        yield found
                continue
            named = None if real is not None else _by_id_form(resolver, d, t)
            if named is not None:
                id_form.setdefault(d.root, []).append((d, link, t, named))
                continue
            if real is not None:
                message = (
                    f"broken {_what(link)}: {t.path} matches {real} only if case is ignored "
                    f"(GitHub and Linux are case-sensitive): write {_relative(d.path, real)}"
                )
            else:
                if names is None:
                    names = _by_name(ctx.corpus.repo_files)
                moved = _moved(names, t.repo_path) or _renamed(resolver, d, t.repo_path)
                if moved is not None:
                    fix = f"did you mean {_relative(d.path, moved)}?"
                else:
                    fix = _unlinked(t.path) or f"fix the path or remove the {_what(link)}"
                message = (
                    f"broken {_what(link)}: {t.path} does not exist (looked for "
                    f"{t.repo_path or '/'}): {fix}"
                )
            yield self.finding(message, loc, d)
        for root, forms in sorted(id_form.items()):
            yield from self._id_form(root, forms)
        for root, links in sorted(unchecked.items()):
            d, link, t = links[0]
            more = f" (and {len(links) - 1} more)" if len(links) > 1 else ""
            where = "the repository root" if root in ("", ".") else root
            yield self.finding(
                f"{t.path}{more}: links of {where} that are neither repository paths nor routes "
                "of the site it is published as: the site may serve them from a folder this "
                "repository does not hold (no public/ or static/ folder here has them), so "
                "adrguard cannot check them; check them on the site",
                Location(d.path, link.line, link.column),
                d,
                severity=Severity.NOTE,
            )

    def _id_form(
        self, root: str, found: list[tuple[Decision, Link, Target, tuple[str, Decision | None]]]
    ) -> Iterator[Finding]:
        """Links that name records by an id form the files do not use (``./eip-721.md`` for
        ``erc-721.md``): when MIN_ID_FORM or more of a log's links do, that form is the log's
        convention (links in it to numbers no record has, records of a sibling log, are part
        of it): one note. Any other such link is a slip: an error, naming the record meant."""
        forms = [prefix for *_rest, (prefix, named) in found
                 if named is not None and _prefix(named) != prefix]
        convention = {p for p in forms if forms.count(p) >= MIN_ID_FORM}
        noted = [x for x in found if x[3][0] in convention]
        if noted:
            d, link, t, _named = noted[0]
            missing = sum(1 for *_rest, (_p, named) in noted if named is None)
            also = f", {missing} of them to numbers no record here has" if missing else ""
            where = "the repository root" if root in ("", ".") else root
            yield self.finding(
                f"{t.path} (and {len(noted) - 1} more{also}): links of {where} name records "
                f"by the id form {'/'.join(sorted(convention))}-N, which their files do not "
                "use, so they are broken where the markdown is read as files; the log's site "
                "or tooling resolves them: link the files as named to make them work everywhere",
                Location(d.path, link.line, link.column),
                d,
                severity=Severity.NOTE,
            )
        for d, link, t, (prefix, named) in found:
            if prefix in convention:
                continue
            # A record of that number under another prefix (`./eip-20.md` in a log whose
            # record 20 is `bep-20.md`) is a guess, not a suggestion: another project's
            # record is as likely.
            hint = (f": did you mean {_relative(d.path, named.path)}?"
                    if named is not None and _prefix(named).casefold() == prefix
                    else ": fix the path or remove the link")
            yield self.finding(
                f"broken {_what(link)}: {t.path} does not exist (looked for {t.repo_path}){hint}",
                Location(d.path, link.line, link.column),
                d,
            )

    def _site(
        self, d: Decision, link: Link, t: Target, reading: Reading, loc: Location
    ) -> Finding | None:
        """The finding for a link read as a site route (see **Site routes**)."""
        what = _what(link)
        if reading.kind == "missing":
            return self.finding(
                f"broken {what}: {t.path} is a route of this log's site ({reading.base}/<record>)"
                " but no record is named so: fix the route or remove the link",
                loc,
                d,
            )
        if reading.kind == "nowhere":
            return self.finding(
                f"broken {what}: {t.path} is neither a repository path, a route of this log's "
                f"site nor a file of its site folders ({reading.detail}): fix the path or "
                f"remove the {what}",
                loc,
                d,
            )
        if reading.kind == "misplaced":
            record = reading.records[0]
            if reading.base:
                key = t.path.rstrip("/").rpartition("/")[2]
                fix = (f"this log's site routes are {reading.base}/<record>: write "
                       f"{reading.base}/{key}")
            else:
                fix = f"it is not there: write {_relative(d.path, record.path)}"
            return self.finding(
                f"broken {what}: {t.path} names {record.path}, but {fix}",
                loc,
                d,
                related=[r.id for r in reading.records],
            )
        if not reading.relative:
            return None  # a route or a site file that resolves: not a finding
        served = "serves" if reading.resolves else "may serve"
        return self.finding(
            f"{what} {t.path} is not a path next to this record, so it is broken where the "
            f"markdown is read as files (GitHub); the log's site {served} it from its root "
            f"(/{t.path.lstrip('./')}): write the root-relative form to make that plain",
            loc,
            d,
            severity=Severity.NOTE,
        )


def _by_name(repo_files: frozenset[str]) -> dict[str, str | None]:
    """File name -> the one repository path of that name, None when several have it (one
    pass, for "did you mean"; no list per name)."""
    out: dict[str, str | None] = {}
    for path in repo_files:
        name = path.rpartition("/")[2]
        out[name] = None if name in out else path
    return out


_GENERIC_NAMES = frozenset({"readme.md", "index.md", "_index.md", "license", "license.md"})


def _moved(names: dict[str, str | None], repo_path: str) -> str | None:
    """The one repository file with the broken link's file name (``attachments/x.png`` where
    the record moved away from its pictures), if exactly one has it; never a generic name
    (README.md, index.md), which names a folder's page, not a file."""
    name = repo_path.rpartition("/")[2]
    if "." not in name.strip(".") or name.casefold() in _GENERIC_NAMES:
        return None
    return names.get(name)


_RECORD_SLUG = lazy(r"^[A-Za-z]{0,12}[-_]?\d{1,6}[-_](.+)$")
# A host name that GitHub reads as a relative path: a name with a dot and a common top-level
# domain (not a file extension: .md, .sh, .in, .json are not in the list).
_TLDS = ("com|org|net|io|dev|gov|edu|co|ai|info|tech|cloud|uk|de|fr|eu|ch|nl|jp|cn|ru|us|ca|au|"
         "be|at|se|no|fi|dk|pl|es|it|br|xyz")
_DOMAIN = lazy(r"^(?:[a-z0-9][a-z0-9-]{0,62}\.){1,4}(?:" + _TLDS + r")(?:/|$)", re.IGNORECASE)
_TLD_SET = frozenset(_TLDS.split("|"))
_EMAIL = lazy(r"^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+$")


def _renamed(resolver: Resolver, d: Decision, repo_path: str) -> str | None:
    """The one record of ``d``'s log whose file name is the broken link's name after an id
    (``opt-in.md`` for ``KEEP-0302-opt-in.md``: a record numbered after it was linked)."""
    name = repo_path.rpartition("/")[2]
    if not name.casefold().endswith(".md"):
        return None
    slugs = resolver.corpus.derived("record-slugs", lambda: _record_slugs(resolver))
    return slugs.get(d.root, {}).get(name[:-3])


def _record_slugs(resolver: Resolver) -> dict[str, dict[str, str | None]]:
    """Root -> the name after the id of each of its records -> that record's path, None when
    several records of the root have it."""
    out: dict[str, dict[str, str | None]] = {}
    names = formats.names_of(resolver.corpus)
    for r in resolver.corpus.decisions:
        m = _RECORD_SLUG.match(names.record_name(r.path, r.root))
        if m is not None and not names.is_folder_record(r.path, r.root):
            slugs = out.get(r.root)
            if slugs is None:
                slugs = out[r.root] = {}
            slug = m.group(1)
            slugs[slug] = None if slug in slugs else r.path
    return out


def _unlinked(path: str) -> str | None:
    """The fix for a link that is a web address or an e-mail address written without its
    scheme (``golang.org/issue/1``, ``someone@example.org``), which GitHub reads as a path."""
    if "@" in path and _EMAIL.match(path):
        return f"an e-mail address needs mailto: write mailto:{path}"
    if _may_be_domain(path) and _DOMAIN.match(path):
        return f"a web address needs its scheme: write https://{path}"
    return None


def _may_be_domain(path: str) -> bool:
    """False when :data:`_DOMAIN` cannot match ``path`` (the pattern is then not compiled: a
    broken link to ``x.md`` is no web address): its top-level domain is what follows the last
    dot of the first segment, and an ASCII one must be one of the list (a line break, which
    ``$`` may precede, or another character that ignoring case may match, leaves it to the
    pattern)."""
    tail = path.partition("/")[0].rpartition(".")[2]
    return not tail.isascii() or "\n" in path or tail.lower() in _TLD_SET


MIN_ID_FORM = 3  # links naming records by another id form before it is the log's convention
_ID_SEGMENT = lazy(r"^([a-z]{2,10})-0*(\d{1,6})(\.md)?$", re.I)


def _may_be_id_segment(part: str) -> bool:
    """What any match of :data:`_ID_SEGMENT` needs: a letter first (every character that
    ``[a-z]`` matches when case is ignored is one), a hyphen and a digit. Most segments
    (``docs``, ``0003-x.md``) lack one, and the pattern is not compiled for them."""
    return part[:1].isalpha() and "-" in part and any(c.isdecimal() for c in part)


def _by_id_form(
    resolver: Resolver, d: Decision, t: Target
) -> tuple[str, Decision | None] | None:
    """For a broken relative link with a segment ``<prefix>-<N>`` that names a file
    (``./eip-721.md``, ``./eip-721``) or a folder (``../assets/eip-721/x.png``): (the prefix,
    the record of number N in the log, if any). None for any other link."""
    if t.path.startswith("/") or t.repo_path is None:
        return None
    parts = t.repo_path.split("/")
    for i in range(len(parts) - 1, -1, -1):
        part = parts[i]
        m = _ID_SEGMENT.match(part) if _may_be_id_segment(part) else None
        if m is None:
            continue
        hits = [r for r in resolver.by_number_in(d, int(m.group(2))) if r.root == d.root]
        return m.group(1).casefold(), (hits[0] if hits else None)
    return None


def _prefix(d: Decision) -> str:
    return formats.name_id(d.path, d.root).prefix


def _site_reading(resolver: Resolver, d: Decision, t: Target) -> Reading | None:
    """What a link that is no repository path is on the site of the record's log, if the log
    is a site's."""
    if t.path.startswith("/"):
        return resolver.routes.read(d, t.path)
    return resolver.routes.read_relative(d, t.path)


def _relative(source: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(source) or ".")


def _anchors(d: Decision) -> frozenset[str]:
    """Heading slugs plus explicit ``id=``/``name=`` anchors in HTML, casefolded."""
    slugs = {s.anchor.casefold() for s in d.sections if s.anchor}
    if "id=" in d.text or "name=" in d.text:
        slugs.update(m.group(1).casefold() for m in _HTML_ID.finditer(d.text))
    if "{" in d.text:
        slugs.update(m.group(1).casefold() for m in _ATTR_ID.finditer(d.text))
    return frozenset(slugs)


class BrokenAnchor(BaseRule):
    """A `#fragment` that matches no heading of the target markdown file.

    **Why**: renaming a heading changes its anchor, and every `file.md#old-heading` link then
    lands at the top of the page. Anchors follow GitHub's slug rules (lower case, punctuation
    dropped, spaces to dashes, `-1`, `-2` for repeated headings); explicit `id=`/`name=`
    anchors in HTML count too, and so does a heading's explicit id in an attribute list
    (`## Scope {#scope}`, `{: #scope}`: the author declared it for the site generator that
    renders the log). Fragments are checked against this record (`#x`) and other records;
    other files are not read. An explicit anchor written with its `#` (`id="#weight"`) is
    named as such: drop the `#` there.

    **Bad**: `[options](0004-db.md#considered-options)` when 0004's heading is
    `## Options considered`.

    **Good**: `[options](0004-db.md#options-considered)`.
    """

    meta = RuleMeta(
        code="ADR202",
        name="broken-anchor",
        summary="a #fragment matches no heading of the target markdown (GitHub slug rules)",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        resolver = graph.build(ctx.corpus).resolver
        by_path = ctx.corpus.by_path
        known: dict[str, frozenset[str]] = {}
        hints: dict[str, _Hints] = {}  # target path -> its anchors indexed for suggestions
        budget = Budget(HINT_BUDGET)
        for d, link, t in _checked_links(ctx):
            frag = t.fragment
            if not frag or frag.casefold() == "top":
                continue
            if t.kind == "anchor":
                target: Decision | None = d
            elif t.kind == "path" and t.repo_path is not None:
                target = by_path.get(t.repo_path) or (
                    resolver.decision_at(t.repo_path) if resolver.exists(t.repo_path) else None
                )
            else:
                target = None
            if target is None or not target.is_readable:
                continue
            key = frag.casefold().removeprefix("user-content-")
            anchors = known.get(target.path)
            if anchors is None:
                anchors = known[target.path] = _anchors(target)
            if key in anchors:
                continue
            where = "this record" if target is d else target.path
            hinter = hints.get(target.path)
            if hinter is None:
                hinter = hints[target.path] = _Hints(anchors, budget)
            hint = hinter.hint(key)
            yield self.finding(
                f"broken anchor: #{frag} matches no heading in {where}{hint}",
                Location(d.path, link.line, link.column),
                d,
            )


class _Hints:
    """"Did you mean" for one target's anchors: indexed once, each broken anchor looked up
    once, and the run's ``budget`` (:data:`HINT_BUDGET` comparisons for every broken anchor of
    the run: thousands of broken anchors against thousands of headings would otherwise be
    quadratic); past it the message only says to link to an existing heading."""

    def __init__(self, anchors: frozenset[str], budget: Budget) -> None:
        self.words = Vocabulary(anchors)
        self.anchors = anchors
        self.budget = budget
        self.seen: dict[str, str] = {}

    def hint(self, key: str) -> str:
        found = self.seen.get(key)
        if found is None:
            if "#" + key in self.anchors:
                found = self.seen[key] = (
                    f": the anchor is declared as id=\"#{key}\", and an id does not start "
                    "with '#': drop it there"
                )
                return found
            match = self.words.closest(key, 0.6, self.budget)
            found = self.seen[key] = (
                f": did you mean #{match}?" if match else ": link to an existing heading"
            )
        return found


class LinkOutsideRepo(BaseRule):
    """A relative link that climbs above the repository root.

    **Why**: `../../../../x` written from a deep folder leaves the repository; it works in
    nobody's clone and renders as a dead link on GitHub. It usually means a `../` too many.

    **Bad**: `[main.tf](../../../../terraform/main.tf)` in `docs/adr/0001-x.md`.

    **Good**: `[main.tf](../../terraform/main.tf)`, or a root-relative `/terraform/main.tf`.
    """

    meta = RuleMeta(
        code="ADR203",
        name="link-outside-repo",
        summary="a relative link escapes the repository root",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for d, link, t in _checked_links(ctx):
            if t.kind == "path" and t.escapes:
                yield self.finding(
                    f"{_what(link)} {t.path} climbs above the repository root: remove the extra "
                    "'../' or use a root-relative path (/dir/file)",
                    Location(d.path, link.line, link.column),
                    d,
                )


def _link_text_spans(raw: str, links: list[Link]) -> list[tuple[int, int]]:
    """(start, end) character ranges of the texts of ``links`` (inline or reference links
    written on the line ``raw``), in their order."""
    out: list[tuple[int, int]] = []
    for link in links:
        start = link.column - 1 + (1 if link.is_image else 0)
        if raw[start : start + 1] != "[":
            continue
        end = _plain_text_end(raw, start)
        if end > start:
            out.append((start + 1, end))
            continue
        depth, end = 0, -1
        for i in range(start, len(raw)):
            ch = raw[i]
            if ch == "\\":
                continue
            if ch == "[" and (i == 0 or raw[i - 1] != "\\"):
                depth += 1
            elif ch == "]" and raw[i - 1] != "\\":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end > start:
            out.append((start + 1, end))
    return out


def _plain_text_end(raw: str, start: int) -> int:
    """Where the text of a link opened by the ``[`` at ``start`` ends when it holds no bracket
    and no backslash (the first ``]``: what the bracket count finds then); -1 otherwise."""
    if start and raw[start - 1] == "\\":
        return -1
    end = raw.find("]", start + 1)
    if end < 0:
        return -1
    inside = raw[start + 1 : end]
    return -1 if "[" in inside or "\\" in inside else end


def _id_pattern(ctx: RuleContext) -> Regex | None:
    """``decision-id-pattern`` as the mention rules match lines with; None when it is unsafe
    (the config refuses it first: an ``Options()`` built by hand)."""
    try:
        return for_lines(compile_user(ctx.options.decision_id_pattern, line_local=True))
    except UnsafePattern:
        return None


def _number(m: Match) -> int | None:
    """The number a match names: its first group's digits, else the digits of the match. (A
    match of the default ``decision-id-pattern`` has 1 to 5 ASCII digits as its group: the
    mention rules read it in place, ``int(m.group(1))``, which is what this gives it.)"""
    digits = m.group(1) if m.groups() else re.sub(r"\D", "", m.group(0))
    return int(digits) if digits and digits.isdigit() else None


class UnknownDecisionReference(BaseRule):
    """The text mentions a decision id that no record has.

    **Why**: "as decided in ADR-0042" is a promise that ADR-0042 exists. After renumbering or
    deleting a record such mentions point nowhere. Mentions are found with the configurable
    `decision-id-pattern` (default `ADR-0042`, `ADR 42`, `ADR042`); code, link targets, URLs
    and date-like ids (`ADR-2023-05-09`) are skipped. A number resolves in the record's own
    log first, then in any log. An id that is the text of a link (`[ADR 83][pr]` with
    `[pr]: https://…/pull/9651`) names what the link points to, often a decision of another
    project: it is not checked here (ADR201 checks the link, ADR205 a link to another record).

    **Bad**: `This refines ADR-0042.` when no record is numbered 42.

    **Good**: `This refines [ADR-0041](0041-cache-keys.md).`
    """

    meta = RuleMeta(
        code="ADR204",
        name="unknown-decision-reference",
        summary="text mentions a decision id that no record has",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        pattern = _id_pattern(ctx)
        if pattern is None:
            return
        resolver = graph.build(ctx.corpus).resolver
        facts = ctx.corpus.facts or ctx.derived("record facts", RecordFacts)
        name = f"{MENTIONS} {pattern.pattern}"  # a fact of the pattern it was found with
        held = needed(pattern)
        for d in ctx.corpus.decisions:
            if not d.text or (held is not None and held not in d.text):
                continue  # no mention (mentions_of finds none)
            seen: set[tuple[int, str]] = set()
            found = facts.get(d, name, list, functools.partial(mentions_of, d, pattern))
            for number, start, mention, n, linked in found:
                if linked:
                    continue  # the id is the text of a link: it names what the link names
                if self._known(resolver, d, mention, n):
                    continue
                if (number, mention) in seen:
                    continue
                seen.add((number, mention))
                yield self.finding(
                    f"{mention} names a decision that no record has: fix the id or link the "
                    "record it means",
                    Location(d.path, number + d.body_line_offset, start + 1),
                    d,
                )

    @staticmethod
    def _known(resolver: Resolver, d: Decision, mention: str, n: int | None) -> bool:
        if resolver.corpus.by_id.get(mention.casefold()):
            return True
        return n is None or bool(resolver.by_number_in(d, n))


MENTIONS = "ADR204 mentions"  # the record fact (ADR 44): see mentions_of


def mentions_of(d: Decision, pattern: Regex) -> list[Mention]:
    """ADR204's fact of one record (kept in the record cache: it depends on the record and
    ``decision-id-pattern`` alone): every id ``pattern`` finds in the record's masked lines
    (:func:`~adrguard.rules.mentions.masked_lines`) that no date continues, in order, as (body
    line, offset in the line, the mention, its number, whether it is the text of a link).

    Found from the masked lines alone: the text is searched first only when blanking its
    comments changed it (a pattern may match a blanked comment's spaces, and a text the pattern
    does not match mentions nothing); the link texts measured are those of a mention's line."""
    out: list[Mention] = []
    text = d.text
    held = needed(pattern)
    if not text or (held is not None and held not in text):
        return out
    body = blank_comments(text)
    if body is not text and pattern.search(text) is None:
        return out
    by_line: dict[int, list[Link]] | None = None
    measured: dict[int, list[tuple[int, int]]] = {}
    default = pattern.pattern == DECISION_ID_PATTERN  # its number read in place: see _number
    for number, start, line in masked_lines_at(body, pattern):
        if held is not None and held not in line:
            continue  # masked away
        for m in pattern.finditer(line):
            if _DATE_AFTER.match(line, m.end()):
                continue
            if by_line is None:
                by_line = _links_by_line(d)
            inside = False
            links = by_line.get(number)
            if links:  # else no link text on the line (the text is not split)
                spans = measured.get(number)
                if spans is None:
                    end = text.find("\n", start)
                    raw = text[start:] if end == -1 else text[start:end]
                    spans = measured[number] = _link_text_spans(raw, links)
                inside = any(a <= m.start() < b for a, b in spans)
            n = int(m.group(1)) if default else _number(m)
            out.append((number, m.start(), m.group(0), n, inside))
    return out


def _links_by_line(d: Decision) -> dict[int, list[Link]]:
    """The record's inline and reference links by body line, in order (the lines
    :func:`_link_text_spans` may find a link text on)."""
    offset = d.body_line_offset
    out: dict[int, list[Link]] = {}
    for link in d.links:
        if link.kind in ("inline", "reference"):
            out.setdefault(link.line - offset, []).append(link)
    return out


class LinkTextMismatch(BaseRule):
    """Link text names one decision but the link points to another decision's file.

    **Why**: `[ADR-0032](0033-cache.md)` sends the reader to a different decision than the text
    promises; one of the two is a copy-paste slip. The text is matched with
    `decision-id-pattern`; links whose text names no decision, or whose target is not a
    numbered record, are not checked.

    **Bad**: `see [ADR-0032](0033-cache-invalidation.md)`.

    **Good**: `see [ADR-0033](0033-cache-invalidation.md)`.
    """

    meta = RuleMeta(
        code="ADR205",
        name="link-text-mismatch",
        summary="link text names one decision but the link points to another decision's file",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        pattern = _id_pattern(ctx)
        if pattern is None:
            return
        resolver = graph.build(ctx.corpus).resolver
        facts = ctx.corpus.facts or ctx.derived("record facts", RecordFacts)
        name = f"{LINK_IDS} {pattern.pattern}"  # a fact of the pattern it was found with
        held = needed(pattern)
        current: Decision | None = None
        index = -1  # the link's place among its record's links
        by_link: dict[int, list[Mention]] | None = None
        for d, link, t in _checked_links(ctx):
            if d is not current:
                current, index, by_link = d, -1, None
            index += 1
            if t.kind != "path" or t.repo_path is None or not link.text:
                continue
            if held is not None and held not in link.text:
                continue  # the link's text names no id (link_ids_of finds none in it)
            target = resolver.decision_at(t.repo_path)
            if target is None or target.number is None:
                continue
            if by_link is None:
                by_link = {}
                for found in facts.get(d, name, list, functools.partial(link_ids_of, d, pattern)):
                    by_link.setdefault(found[0], []).append(found)
            here = by_link.get(index)
            if not here:
                continue  # the link's text names no id
            numbers = {found[3] for found in here if found[3] is not None}
            if not numbers or target.number in numbers:
                continue
            mention = here[0][2]
            yield self.finding(
                f"link text {mention} names another decision than its target {target.path} "
                f"({target.id}): fix the text or the target",
                Location(d.path, link.line, link.column),
                d,
                related=[target.id],
            )


LINK_IDS = "ADR205 link ids"  # the record fact (ADR 44): see link_ids_of


def link_ids_of(d: Decision, pattern: Regex) -> list[Mention]:
    """ADR205's fact of one record (kept in the record cache, like :func:`mentions_of`): every
    id ``pattern`` finds in the text of the record's links that no date continues, in order, as
    (the link's place among the record's links, offset in its text, the id, its number,
    False)."""
    out: list[Mention] = []
    held = needed(pattern)
    default = pattern.pattern == DECISION_ID_PATTERN  # its number read in place: see _number
    for i, link in enumerate(d.links):
        if not link.text or (held is not None and held not in link.text):
            continue
        for m in pattern.finditer(link.text):
            if not _DATE_AFTER.match(link.text, m.end()):
                n = int(m.group(1)) if default else _number(m)
                out.append((i, m.start(), m.group(0), n, False))
    return out


RULES: tuple[type[BaseRule], ...] = (
    BrokenLink,
    BrokenAnchor,
    LinkOutsideRepo,
    UnknownDecisionReference,
    LinkTextMismatch,
)
