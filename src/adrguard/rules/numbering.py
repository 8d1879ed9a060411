"""ADR1xx rules on record numbers and names: duplicates, file names, mismatches, gaps.

Registered through :mod:`adrguard.rules.structure` (its ``RULES`` tuple lists these classes).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import re
from collections.abc import Callable, Iterator

from adrguard.core.conventions.log import Log
from adrguard.core.conventions.naming import Name, Scheme
from adrguard.core.findings import Finding, Severity
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Location, RecordFacts, grouped
from adrguard.core.parse import formats, ids
from adrguard.core.saferegex import Regex, UnsafePattern, compile_user
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta


def record_name(path: str, root: str, names: formats.Names | None = None) -> str:
    """The name a record is known by: the file name, or ``<folder>.md`` for
    ``<folder>/README.md`` (one folder per record). ``names``: the run's (ADR 44)."""
    folder = (names.is_folder_record(path, root) if names is not None
              else formats.is_folder_record(path, root))
    if folder:
        return formats.path_parts(path)[1] + ".md"
    return formats.path_parts(path)[0]


# "# n. Title", "# NNNN - Title", "# ADR-XXX: Title": the template's number was never filled in.
_PLACEHOLDER_NUMBER = lazy(
    r"^\s*(?:(?:adr|rfc|dr)[-_ ]?)?((?:n|nn+|x|xx+|#+)\s*[.:)\-–—])\s", re.IGNORECASE
)
# Every match of _PLACEHOLDER_NUMBER starts (after spaces) with one of these (no other character
# matches a, r, d, n or x when case is ignored) and holds one of its marks.
_PLACEHOLDER_FIRST = frozenset("aArRdDnNxX#")
_PLACEHOLDER_MARKS = frozenset(".:)-–—")


def placeholder_number(title: str) -> re.Match[str] | None:
    """``_PLACEHOLDER_NUMBER.match(title)``, compiled only for a title that starts as a match
    must and holds one of its marks (``1. Use X`` starts with a digit: most titles skip it)."""
    if title.lstrip()[:1] not in _PLACEHOLDER_FIRST or _PLACEHOLDER_MARKS.isdisjoint(title):
        return None
    return _PLACEHOLDER_NUMBER.match(title)


_GENERIC_PREFIXES = frozenset({"", "adr", "decision", "record"})  # one id family: ADR-0007


def id_family(d: Decision, names: formats.Names) -> str:
    """The id prefix a record's name carries (``api`` for ``API-001-x.md``), or the one its
    stated id carries (``* Proposal: [ST-0001](..)``); the generic ``ADR``/``decision``/
    ``record`` prefixes and no prefix are one family (``""``). ``names``: the run's."""
    prefix = names.name_id(d.path, d.root).prefix
    stated = ids.id_token(d.id.rsplit("-v", 1)[0])  # an id the record states (``ST-0001``)
    if stated is not None and stated[1] == d.number and stated[0] not in _GENERIC_PREFIXES:
        prefix = stated[0]
    return "" if prefix in _GENERIC_PREFIXES else prefix


_YEARS = range(1990, 2101)


def year_numbered(records: tuple[Decision, ...]) -> bool:
    """Whether a log's numbers are years (``2018-processors-improvements/``): three quarters
    or more of its numbered records carry a number in 1990..2100, and they repeat (fewer
    distinct numbers than records). Such a number is a date, not an id."""
    numbers = [d.number for d in records if d.number is not None]
    years = [n for n in numbers if n in _YEARS]
    return len(years) >= 2 and 4 * len(years) >= 3 * len(numbers) and len(set(years)) < len(years)
# A group of records sharing an id names this many of the others in each message, and this many
# in each finding's related records (every finding naming every other is quadratic).
LISTED_LIMIT = 8
NAMED_LIMIT = 50


def _merged(groups: Iterator[tuple[str, ...]]) -> Iterator[str]:
    """The paths of sorted groups, in order, each once."""
    last = None
    for p in heapq.merge(*groups):
        if p != last:
            yield p
            last = p


def _dated(ctx: RuleContext) -> Callable[[str], bool]:
    """Whether a root is :func:`year_numbered`, worked out once per root (not once per record)."""
    memo: dict[str, bool] = {}

    def dated(root: str) -> bool:
        if root not in memo:
            memo[root] = year_numbered(ctx.log(root).all)
        return memo[root]

    return dated


def _same_number(ctx: RuleContext,
                 dated: Callable[[str], bool] | None = None) -> Iterator[tuple[Decision, ...]]:
    """Records sharing a number and an id prefix in one root, unless they are its versions
    (``std-0002-v1``, ``std-0002-v2``: one version each). An id is its prefix plus its number:
    ``API-001`` and ``ARC-001`` are two ids (per-area numbering), ``0001-x`` and ``ADR-001-y``
    one."""
    dated = dated or _dated(ctx)
    names = formats.names_of(ctx.corpus)
    for (root, _number), same in ctx.corpus.by_number.items():
        if len(same) < 2 or dated(root):
            continue  # a number one record has is shared by none
        families: dict[str, list[Decision]] = {}
        for d in same:
            families.setdefault(id_family(d, names), []).append(d)
        for members in families.values():
            group = tuple(members)
            versions = [names.name_id(d.path, d.root).version for d in group]
            if len(group) > 1 and (None in versions or len(set(versions)) < len(versions)):
                yield group


# A part number after the record's number: ``cap-0046-01``, ``0012_03-x`` (zero-padded).
_PART = lazy(r"^[A-Za-z]{0,12}[-_ ]?\d{1,6}[-_.](\d{2})(?=$|[-_ .])")


def _parts(group: tuple[Decision, ...], names: formats.Names) -> bool:
    """Whether records that share a number are one record and its numbered parts
    (``cap-0046.md``, ``cap-0046-01.md``, ``cap-0046-02.md``): each part has its own part
    number, and at most one member (the record they belong to) has none."""
    parts = [_PART.match(names.record_name(d.path, d.root)) for d in group]
    numbers = [int(m.group(1)) for m in parts if m is not None]
    return len(numbers) >= len(group) - 1 and len(set(numbers)) == len(numbers)


class DuplicateId(BaseRule):
    """Two records, active or archived, share an id, or a number within the same root.

    **Why**: ids are how records, links and supersession refer to each other; a reused id makes
    every reference to it ambiguous. Archived records keep their ids, so a new record must not
    take one. Several roots are separate number spaces; versions of one record named
    `<number>-v<version>` (`0002-v1-x.md`, `0002-v2-x.md`) share its number, and so do its
    numbered parts (`cap-0046.md`, `cap-0046-01.md`, ... `cap-0046-12.md`: a two-digit part
    number after the record's, each part its own).

    A log whose numbers are years (three quarters of its numbered records carry a number in
    1990..2100, and they repeat: `2018-processors-improvements/`) is dated, not numbered; a
    year and a month (`202012-receive-split.md`) is a date too.

    An id is its prefix plus its number: a log numbered per area (`API-001`, `ARC-001`,
    `CLI-001` in one root) holds distinct ids, and only records that share both are reported;
    `0007-x.md` and `ADR-007-y.md` (the generic prefix) share an id.

    A record without a number has no id to share: its name only (`proposal.md` in each of
    several folders) is told apart by its path, and is never reported; an `id:` its front matter
    states is.

    Translations are not duplicates: a folder named as a language code below a root (`zh/`,
    `pt-br/`) whose files repeat the names or numbers of the root's records, a file that adds a
    language code to its neighbour's name (`0007-use-kafka.zh-CN.md`), and a record that
    declares `translation-of:` are read as mirrors, left out of numbering, the graph and the
    index, and named in one **note** per mirror. To check a mirror folder as records, make it a
    root of its own (`roots = ["docs/adr", "docs/adr/zh"]`).

    **Bad**: `docs/adr/0007-use-kafka.md` and `docs/adr/archive/0007-use-rabbitmq.md`.

    **Good**: the newer record renumbered to the next free number, `0012-use-kafka.md`.
    """

    meta = RuleMeta(
        "ADR106", "duplicate-id", "two records (active or archived) share an id or number",
        Severity.ERROR,
        log_level=True,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        dated = _dated(ctx)
        names = formats.names_of(ctx.corpus)
        by_root_id = grouped(  # several roots are separate namespaces
            (d for d in ctx.corpus.decisions
             # a year is not an id (see the docstring); an unnumbered file's name is no id:
             # its path tells it apart
             if not (dated(d.root) if d.number is not None else _named_id(d, names))),
            lambda d: (d.root, d.id.casefold()),
            shared=True,  # an id one record has is shared by none
        )
        groups: list[tuple[str, ...]] = []  # each group's paths, sorted
        member_of: dict[str, list[int]] = {}  # path -> its groups (an id and a number group)
        for group in (*by_root_id.values(), *_same_number(ctx, dated)):
            if len(group) > 1 and not _parts(tuple(group), names):
                for d in group:
                    member_of.setdefault(d.path, []).append(len(groups))
                groups.append(tuple(sorted({o.path for o in group})))
        sizes: dict[tuple[int, ...], int] = {}  # the records a set of groups holds together
        for path, mine in sorted(member_of.items()):
            d = ctx.corpus.by_path[path]
            key = tuple(mine)
            if key not in sizes:
                sizes[key] = len({p for g in mine for p in groups[g]})
            named = list(itertools.islice(
                (p for p in _merged(groups[g] for g in mine) if p != path), NAMED_LIMIT))
            others = sizes[key] - 1
            listed = ", ".join(named[:LISTED_LIMIT])
            if others > LISTED_LIMIT:
                listed += f" and {others - LISTED_LIMIT:,} more"
            number = f" / number {d.number}" if d.number is not None else ""
            yield self.finding(
                f"id {d.id}{number} is also used by {listed}: give each "
                "record its own number (archived records keep theirs)",
                Location(d.path, d.front_matter_lines.get("id", 1)),
                d,
                named,
            )
        yield from self._mirrors(ctx)

    def _mirrors(self, ctx: RuleContext) -> Iterator[Finding]:
        groups: dict[str, list[str]] = {}
        for path, mirror in ctx.corpus.mirrors.items():
            groups.setdefault(mirror, []).append(path)
        for mirror, paths in sorted(groups.items()):
            first = min(paths)
            if mirror == first:
                why = f"{first} declares itself a translation (`translation-of`)"
            elif first.startswith(mirror + "/"):
                count = f"{len(paths)} file{'s' if len(paths) != 1 else ''}"
                why = (f"{mirror}/ is named as a language code and repeats names or numbers of "
                       f"the records beside it: a translation mirror ({count})")
            else:
                why = f"{first} adds a language code to the name of {mirror}: a translation"
            yield self.finding(
                f"{why}; left out of numbering, the graph and the index. To check a mirror "
                "folder as records, make it an ADR root of its own",
                Location(first, 1),
                severity=Severity.NOTE,
            )


def _matches(pattern: Regex, d: Decision, names: formats.Names) -> bool:
    """Whether ``filename-pattern`` is found in the record's name (ADR107's record fact)."""
    return pattern.search(record_name(d.path, d.root, names)) is not None


def _named_id(d: Decision, names: formats.Names) -> bool:
    """Whether an unnumbered record's id is only its file or folder name (nothing states one)."""
    stated = any(k.casefold() == "id" for k in d.front_matter) if d.front_matter else False
    return not stated and d.id.casefold() == names.record_name(d.path, d.root).casefold()


def _plain(path: str) -> bool:
    """Whether no part of ``path`` (so neither a record's file name nor its folder's) holds a
    character that ends a relative link's path (:attr:`adrguard.core.conventions.naming.Name.
    harmful` is then empty: the name need not be taken apart to know it)."""
    return path.isprintable() and "#" not in path and "?" not in path and "%" not in path


class FilenamePattern(BaseRule):
    """A file name that leaves the log's own naming scheme, or that harms links or sorting.

    **Why**: names decide where a record sorts and how tools and links find it.

    **Learns**: the log's naming scheme, from its records' names: the prefix (`adr-`, `ADR`,
    `DR`, none), a sequence number and its width or a date, the separators, one folder per
    record, the extension. It reports:

    * a name with a character that breaks relative links to it (`#`, `?`, `%`); when three or
      more names of the log carry one (specs named `#1012 - Title.md` by their issue), it is the
      log's habit and links there escape it: a **note** per record;
    * a name of another structure than three quarters or more of the log (no number in a
      numbered log, another prefix, a date instead of a number): it sorts apart and tools that
      look for the next number miss it. When three or more records share that other structure,
      it is a second scheme the log keeps (a series of unnumbered API designs beside dated
      proposals), not a slip: a **note** per record. In a log that names its records without
      numbers or dates (`use-kafka.md`), nothing sorts or counts by the name: a **note**;
    * a zero-padded number of another width (`00011` among `0001`..`0012`): it sorts out of
      order;
    * as a **note** only, a cosmetic difference from the log's clear habit (`_` between words
      in a `-` log, `.MD` among `.md`): renaming breaks every inbound link, so it is left to
      you. Capitals are never reported (acronyms and identifiers are common in names).

    A log's own scheme, whatever it is (`adr-NN.md`, `ADR-NNN-slug.md`, `YYYYMMDD-slug.md`,
    `<date>-slug/README.md`), is never reported. The message says what was learned ("31 of 33
    records in docs/adr are named like 0001-use-x.md") and never invents a new name from the
    title.

    **Override**: `filename-pattern = '^\\d{4}-[a-z0-9-]+\\.md$'` (a regular expression searched
    in the name; for `<folder>/README.md` records, the folder name plus `.md`) replaces the
    learned scheme; link-breaking characters are still reported.

    **Bad**: `docs/adr/Use Kafka.md` in a log of `0001-...md` records; `00011-remote-access.md`
    among `0001`..`0012`; `0024-use-#-in-names.md`.

    **Good**: `docs/adr/0007-use-kafka.md` beside `0006-...md`.
    """

    meta = RuleMeta(
        "ADR107", "filename-pattern",
        "filename leaves the configured or learned naming scheme, or harms links or sorting",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        configured = ctx.options.filename_pattern
        try:
            pattern = compile_user(configured) if configured else None
        except UnsafePattern:  # the config refuses it first; Options() built by hand
            return
        names = formats.names_of(ctx.corpus)
        facts = ctx.corpus.facts or ctx.derived("record facts", RecordFacts)
        fact = f"ADR107 filename-pattern {configured}"  # a record fact (ADR 44)
        for d in ctx.corpus.decisions:
            log = ctx.log(d.root)
            if pattern is not None and _plain(d.path) and facts.get(
                    d, fact, bool, functools.partial(_matches, pattern, d, names)):
                continue  # nothing in the path ends a link's path, and the name matches
            name = log.name_of(d)
            what = f"folder name {name.shown!r}" if name.folder else f"file name {name.shown!r}"
            where = Location(d.path, 1)
            if name.harmful:
                chars = " ".join(repr(c) for c in name.harmful)
                habit = log.harmful_names
                if habit >= MINORITY_STYLE:
                    yield self.finding(
                        f"{what} contains {chars}, as {habit} names in {log.label} do: a "
                        "relative link to it must escape them (`%23` for `#`, `%3F` for `?`, "
                        "`%25` for `%`), or it breaks",
                        where,
                        d,
                        severity=Severity.NOTE,
                    )
                    continue
                yield self.finding(
                    f"{what} contains {chars}, which ends the path of a relative link (`#` "
                    "starts an anchor, `?` a query, `%` an escape), so links to this record "
                    "break: rename it without them and update the links",
                    where,
                    d,
                )
            elif pattern is not None:
                if not facts.get(d, fact, bool, functools.partial(_matches, pattern, d, names)):
                    yield self.finding(
                        f"{what} does not match filename-pattern `{configured}`: rename the "
                        "record (and update links to it) or change `filename-pattern`",
                        where,
                        d,
                    )
            else:
                yield from self._learned(log, d, name, what, where)

    def _learned(
        self, log: Log, d: Decision, name: Name, what: str, where: Location
    ) -> Iterator[Finding]:
        scheme = log.scheme
        habit = scheme.structure
        if habit.holds and name.structure != habit.value:
            example = next(
                (log.name_of(o).shown for o in log.all if log.name_of(o).structure == habit.value),
                habit.example,
            )
            shared = log.structures[name.structure]
            if shared >= MINORITY_STYLE:
                yield self.finding(
                    f"{what} follows a second naming scheme of {log.label} ({shared} records are "
                    f"named like it, {name.pattern}), beside the main one: {habit} records are "
                    f"named like {example!r} ({habit.example}); the log keeps both, so this is "
                    "not a slip: rename them together, or set `filename-pattern`",
                    where,
                    d,
                    severity=Severity.NOTE,
                )
                return
            plain = isinstance(habit.value, tuple) and habit.value[:1] == ("plain",)
            if plain:  # a log of bare names: nothing to sort or count by
                yield self.finding(
                    f"{what} leaves the naming scheme of {log.label}: {habit} records are named "
                    f"like {example!r} ({habit.example}); the log names its records without "
                    "numbers or dates, so this one only looks different: rename it if you like "
                    "(and update links to it), or set `filename-pattern`",
                    where,
                    d,
                    severity=Severity.NOTE,
                )
                return
            yield self.finding(
                f"{what} leaves the naming scheme of {log.label}: {habit} records are named "
                f"like {example!r} ({habit.example}), so this one sorts apart and tools looking "
                "for the next number miss it: rename it in that scheme and update links to it, "
                "or set `filename-pattern`",
                where,
                d,
            )
        elif scheme.width_harm(name):
            width = scheme.width.value
            assert isinstance(width, int)
            digits = name.digits.lstrip("0").rjust(width, "0") or "0" * width
            fixed = name.shown.replace(name.digits, digits, 1)
            taken = any(log.name_of(o).shown == fixed for o in log.all)
            hint = "" if taken else f" (for example {fixed!r})"
            yield self.finding(
                f"{what} has a {len(name.digits)}-digit number where {scheme.width} numbered "
                f"records in {log.label} use {width} digits, so it sorts out of order: rename it"
                f"{hint} and update links to it",
                where,
                d,
            )
        else:
            odd = _cosmetic(scheme, name)
            if odd:
                yield self.finding(
                    f"{what} differs from the habit of {log.label}: {'; '.join(odd)}; cosmetic "
                    "only, and renaming breaks links to it, so change it only together with "
                    "them",
                    where,
                    d,
                    severity=Severity.NOTE,
                )


MINORITY_STYLE = 3  # records that share another structure: a second scheme of the log, a note


def _cosmetic(scheme: Scheme, name: Name) -> list[str]:
    odd: list[str] = []
    sep = scheme.word_sep
    if name.word_sep and sep.holds and name.word_sep != sep.value:
        odd.append(f"{sep} names separate words with {sep.value!r}, this one with "
                   f"{name.word_sep!r}")
    if not name.folder and scheme.ext.holds and name.ext != scheme.ext.value:
        odd.append(f"{scheme.ext} names end in {scheme.ext.value!r}, this one in {name.ext!r}")
    return odd


class IdMismatch(BaseRule):
    """The number in the file name differs from the number in the title or front-matter `id`.

    **Why**: a record copied from another and renumbered in only one place is referred to by two
    numbers; links by number then reach the wrong record. A title that still carries the
    template's number placeholder (`# n. Title`, `# NNNN. Title`, `# ADR-XXX: Title`) was never
    given its number.

    A number the record's metadata states (`eip: 2309`, `id: 12`) and that agrees with the file
    name outranks a number read from the title: `# ERC-721 Consecutive Transfer Extension` in
    `erc-2309.md` with `eip: 2309` names another record, it does not renumber this one.

    **Bad**: `0035-use-terraform.md` titled `# 3. Use Terraform`; `0010-use-x.md` titled
    `# n. Use X`.

    **Good**: `0035-use-terraform.md` titled `# 35. Use Terraform`.
    """

    meta = RuleMeta(
        "ADR108", "id-mismatch",
        "number in the filename differs from the number in the title or front matter `id`",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        names = formats.names_of(ctx.corpus)
        for d in (d for d in ctx.corpus.decisions if d.is_readable):
            number = names.name_id(d.path, d.root).number  # once per run
            if number is None:
                continue
            placeholder = (placeholder_number(d.title_raw or "")  # only asked then
                           if d.title_number is None else None)
            if (d.title_number is not None and d.title_number != number
                    and _stated_number(d, names) != number):  # metadata read only then
                yield self.finding(
                    f"the file name says {number} but the title says {d.title_number}: "
                    "renumber the title or rename the file so they agree",
                    Location(d.path, d.title_line),
                    d,
                )
            elif d.title_number is None and placeholder:
                yield self.finding(
                    f"the title still carries the template's number placeholder "
                    f"{placeholder.group(1)!r}: write the record's number, {number}",
                    Location(d.path, d.title_line),
                    d,
                )
            fm_id = d.front_matter.get("id")
            digits = re.findall(r"\d+", str(fm_id)) if isinstance(fm_id, str | int) else []
            if digits and int(digits[0]) != number:
                yield self.finding(
                    f"the file name says {number} but front matter `id` says {fm_id!r}: "
                    "make them agree",
                    Location(d.path, d.front_matter_lines.get("id", 1)),
                    d,
                )


_NUMBER_KEYS = ("id", "number", "adr", "rfc", "eip", "erc", "cip", "bip", "pep", "kep", "tip")


def _stated_number(d: Decision, names: formats.Names) -> int | None:
    """The number the record's metadata states (``eip: 2309``, ``id: ADR-12``, ``number: 7``):
    explicit metadata outranks a number read from the title (``# ERC-721 Consecutive
    Transfer Extension`` names another record)."""
    prefix = names.name_id(d.path, d.root).prefix
    for key in (prefix, *_NUMBER_KEYS) if prefix else _NUMBER_KEYS:
        value = d.front_matter.get(key) if key else None
        if isinstance(value, bool) or value is None:
            continue
        digits = re.findall(r"\d+", str(value))
        if len(digits) == 1:
            return int(digits[0])
    return None


class NumberingGap(BaseRule):
    """Record numbers skip (0004 then 0006) within a root, archive included.

    **Why**: a gap usually means a record was deleted instead of being marked rejected or
    superseded, losing the history of that decision. Off by default: some teams reserve numbers.

    **Bad**: `0004-a.md`, `0006-b.md` and no 0005 anywhere in the root or its archive.

    **Good**: `0005-c.md` kept with status rejected.
    """

    meta = RuleMeta(
        "ADR111", "numbering-gap", "numbers skip (e.g. 0004 then 0006)", Severity.WARNING,
        enabled_by_default=False,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        by_root: dict[str, set[int]] = {}
        for root, number in ctx.corpus.by_number:
            by_root.setdefault(root, set()).add(number)
        for root, numbers in sorted(by_root.items()):
            ordered = sorted(numbers)
            for prev, nxt in itertools.pairwise(ordered):
                if nxt - prev <= 1:
                    continue
                missing = f"{prev + 1}" if nxt - prev == 2 else f"{prev + 1}–{nxt - 1}"
                for d in ctx.corpus.by_number[(root, nxt)]:
                    yield self.finding(
                        f"numbers in {root} jump from {prev} to {nxt} (missing {missing}): keep "
                        "deleted records with status rejected or deprecated instead of "
                        "removing them",
                        Location(d.path, d.title_line),
                        d,
                    )


RULES: tuple[type[BaseRule], ...] = (DuplicateId, FilenamePattern, IdMismatch, NumberingGap)
