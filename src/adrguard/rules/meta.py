"""ADR0xx: reading problems and suppression comments."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator

from adrguard.core.findings import Finding, Severity
from adrguard.core.gate import suppress
from adrguard.core.model import Decision, Location, Problem
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta


class _ProblemRule(BaseRule):
    """Reports the parser's :class:`~adrguard.core.model.Problem` entries with this rule's code."""

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for d in ctx.corpus.decisions:
            for problem in d.problems:
                if problem.code == self.meta.code:
                    yield self.finding(problem.message, Location(d.path, problem.line), d)


class UnreadableFile(_ProblemRule):
    """A file in an ADR root that cannot be read as a Markdown record.

    **Why**: a record adrguard cannot read is a record nobody can check; it is usually binary
    content saved with a `.md` name, a wrong encoding, a symlink pointing outside the repository,
    or a file over the size limit (`max-file-size`, default 1 MiB). The record still appears in the
    corpus, with what could be read, so its id keeps counting.

    **Bad**: `docs/adr/0007-logging.md` saved as UTF-16, or holding a NUL byte.

    **Good**: the same record saved as UTF-8 text; a large attachment moved out of the ADR folder
    and linked from the record.
    """

    meta = RuleMeta(
        code="ADR001",
        name="unreadable-file",
        summary="a file in an ADR root can't be read, is not UTF-8, holds a NUL byte, "
        "or exceeds the size limit",
        default_severity=Severity.ERROR,
        legacy=True,
    )


class InvalidFrontMatter(_ProblemRule):
    """YAML front matter that does not parse, or that is not a mapping.

    **Why**: tools (MADR, log4brains, Just-the-Docs, adrguard) read a record's status, date and
    relationships from its front matter; front matter that is not a YAML mapping is silently
    ignored by some of them and breaks others.

    **Learns**: front matter that loads but is not a mapping (`tag:Web Client`, a string) in three
    or more records that are a quarter of the log is the log's habit: one **note** for the log.

    **Bad**:

    ```markdown
    ---
    status: accepted
    date: [2024-01-05
    ---
    ```

    **Good**:

    ```markdown
    ---
    status: accepted
    date: 2024-01-05
    ---
    ```
    """

    meta = RuleMeta(
        code="ADR002",
        name="invalid-front-matter",
        summary="YAML front matter does not parse, or is not a mapping",
        default_severity=Severity.ERROR,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        shaped: dict[str, list[tuple[Decision, Problem]]] = {}  # root -> not-a-mapping records
        for d in ctx.corpus.decisions:
            for problem in d.problems:
                if problem.code != self.meta.code:
                    continue
                if problem.message.startswith(NOT_A_MAPPING):
                    shaped.setdefault(d.root, []).append((d, problem))
                    continue
                yield self.finding(problem.message, Location(d.path, problem.line), d)
        for root, found in sorted(shaped.items()):
            total = len(ctx.log(root).records)
            if len(found) >= HABIT_RECORDS and HABIT_SHARE * len(found) >= total:
                first, problem = found[0]
                yield self.finding(
                    f"{len(found)} of {total} records in {ctx.log(root).label} open with front "
                    "matter that is not a mapping of keys to values (a `key:value` line needs a "
                    "space after the colon): the log writes it so by habit, and adrguard reads "
                    "none of it",
                    Location(first.path, problem.line),
                    first,
                    related=[d.id for d, _ in found[1:]],
                    severity=Severity.NOTE,
                )
                continue
            for d, problem in found:
                yield self.finding(problem.message, Location(d.path, problem.line), d)


NOT_A_MAPPING = "front matter is a "  # the parser's message for YAML that is not a mapping
HABIT_RECORDS = 3  # records whose front matter is not a mapping that make a log's habit ...
HABIT_SHARE = 4  # ... when they are a quarter of it or more


class UnknownSuppression(BaseRule):
    """A suppression comment names a code, prefix or rule name that does not exist.

    **Why**: a typo in a suppression silences nothing while looking as if it did, and a code
    retired in a later release leaves dead comments behind. Codes (`ADR104`), prefixes (`ADR1`)
    and names (`missing-section`) are accepted, separated by commas or spaces.

    **Bad**:

    ```markdown
    <!-- adrguard-disable ADR1044 -->
    <!-- adrguard-disable-next-line brokenlink -->
    ```

    **Good**:

    ```markdown
    <!-- adrguard-disable ADR104 -->
    <!-- adrguard-disable-next-line broken-link -->
    ```
    """

    meta = RuleMeta(
        code="ADR003",
        name="unknown-suppression",
        summary="a suppression comment names a code or name that does not exist",
        default_severity=Severity.WARNING,
        bookkeeping=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        rules = ctx.catalogue.known()
        for d in ctx.corpus.decisions:
            for s in suppress.suppressions(d):
                for selector in s.selectors:
                    if suppress.is_known(selector, rules):
                        continue
                    retired = ctx.catalogue.retired.get(suppress.normalise_selector(selector))
                    what = (
                        f"a retired rule ({retired})"
                        if retired
                        else f"no adrguard rule{_closest(selector, rules)}"
                    )
                    yield self.finding(
                        f"suppression names {selector!r}, which is {what}: fix the code or "
                        "name (`adrguard rules` lists them) or remove it",
                        Location(d.path, s.line),
                        d,
                    )


def _closest(selector: str, rules: Iterable[tuple[str, str]]) -> str:
    words = [w for pair in rules for w in pair]
    key = suppress.normalise_selector(selector)
    match = difflib.get_close_matches(key, words, n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""


class UnusedSuppression(BaseRule):
    """A suppression comment that silences nothing.

    **Why**: once the problem a suppression hid is fixed, the comment only hides the next real
    problem of that kind. Reported only when the suppressed rule actually ran, so a narrower
    `--select` never makes a suppression look unused.

    The engine reports this rule after every other rule has run and suppressions were applied,
    because whether a comment was used depends on all the other findings; ``check`` itself
    therefore finds nothing.

    **Bad**: `<!-- adrguard-disable-next-line ADR201 -->` above a link that now resolves.

    **Good**: the comment removed once the link is fixed.
    """

    meta = RuleMeta(
        code="ADR004",
        name="unused-suppression",
        summary="a suppression comment suppresses nothing",
        default_severity=Severity.NOTE,
        bookkeeping=True,
        reports_unused_suppressions=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        return iter(())


RULES: tuple[type[BaseRule], ...] = (
    UnreadableFile,
    InvalidFrontMatter,
    UnknownSuppression,
    UnusedSuppression,
)
