"""ADR1xx rules on record numbers and names: duplicates, file names, mismatches, gaps.

Registered through :mod:`adrguard.rules.structure` (its ``RULES`` tuple lists these classes).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator

from adrguard.core import formats
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location
from adrguard.core.saferegex import UnsafePattern, compile_user
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

_LEADING_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*[.):]?\s+")


def record_name(path: str, root: str) -> str:
    """The name a record is known by: the file name, or ``<folder>.md`` for
    ``<folder>/README.md`` (one folder per record)."""
    if formats.is_folder_record(path, root):
        return formats.path_parts(path)[1] + ".md"
    return formats.path_parts(path)[0]


def file_number(path: str, root: str) -> int | None:
    """The sequence number in the record's name (``0012-x.md`` → 12, ``adr-05.md`` → 5); None
    for names without one and for dated names (``2023-03-02-x``, ``20230302-x``)."""
    return formats.number_from_name(formats.record_name(path, root))


def slug(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    text = _LEADING_NUMBER.sub("", text)
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "title"



class DuplicateId(BaseRule):
    """Two records, active or archived, share an id, or a number within the same root.

    **Why**: ids are how records, links and supersession refer to each other; a reused id makes
    every reference to it ambiguous. Archived records keep their ids, so a new record must not
    take one. Several roots are separate number spaces.

    **Bad**: `docs/adr/0007-use-kafka.md` and `docs/adr/archive/0007-use-rabbitmq.md`.

    **Good**: the newer record renumbered to the next free number, `0012-use-kafka.md`.
    """

    meta = RuleMeta(
        "ADR106", "duplicate-id", "two records (active or archived) share an id or number",
        Severity.ERROR,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        others: dict[str, set[str]] = {}
        by_root_id: dict[tuple[str, str], list[Decision]] = {}
        for d in ctx.corpus.decisions:  # several roots are separate namespaces
            by_root_id.setdefault((d.root, d.id.casefold()), []).append(d)
        for group in (*by_root_id.values(), *ctx.corpus.by_number.values()):
            if len(group) > 1:
                for d in group:
                    others.setdefault(d.path, set()).update(o.path for o in group if o is not d)
        for path, related in sorted(others.items()):
            d = ctx.corpus.by_path[path]
            number = f" / number {d.number}" if d.number is not None else ""
            yield self.finding(
                f"id {d.id}{number} is also used by {', '.join(sorted(related))}: give each "
                "record its own number (archived records keep theirs)",
                Location(d.path, d.front_matter_lines.get("id", 1)),
                d,
                related,
            )


class FilenamePattern(BaseRule):
    """The file name does not match the configured pattern.

    **Why**: a consistent naming scheme keeps records sorted, makes ids predictable and lets
    tools find the next number. The pattern is a regular expression searched in the file name
    (`filename-pattern`, default `^\\d{4}-[a-z0-9-]+\\.md$`). For a record kept as
    `<folder>/README.md` (one folder per record), the folder name plus `.md` is checked.

    **Bad**: `docs/adr/Use Kafka.md`, `docs/adr/7-use-kafka.md`.

    **Good**: `docs/adr/0007-use-kafka.md`.
    """

    meta = RuleMeta(
        "ADR107", "filename-pattern", "filename does not match the configured pattern",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        try:
            pattern = compile_user(ctx.options.filename_pattern)
        except UnsafePattern:  # the config refuses it first; Options() built by hand
            return
        for d in ctx.corpus.decisions:
            name = record_name(d.path, d.root)
            if pattern.search(name):
                continue
            hint = ""
            if d.number is not None and d.title:
                hint = f" (for example {d.number:04d}-{slug(d.title)}.md)"
            yield self.finding(
                f"file name {name!r} does not match filename-pattern "
                f"`{ctx.options.filename_pattern}`: rename the file{hint} or set "
                "`filename-pattern` in the config",
                Location(d.path, 1),
                d,
            )


class IdMismatch(BaseRule):
    """The number in the file name differs from the number in the title or front-matter `id`.

    **Why**: a record copied from another and renumbered in only one place is referred to by two
    numbers; links by number then reach the wrong record.

    **Bad**: `0035-use-terraform.md` titled `# 3. Use Terraform`.

    **Good**: `0035-use-terraform.md` titled `# 35. Use Terraform`.
    """

    meta = RuleMeta(
        "ADR108", "id-mismatch",
        "number in the filename differs from the number in the title or front matter `id`",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for d in (d for d in ctx.corpus.decisions if d.is_readable):
            number = file_number(d.path, d.root)
            if number is None:
                continue
            if d.title_number is not None and d.title_number != number:
                yield self.finding(
                    f"the file name says {number} but the title says {d.title_number}: "
                    "renumber the title or rename the file so they agree",
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
