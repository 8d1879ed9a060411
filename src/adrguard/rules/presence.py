"""ADR102 and ADR104: whether a record states its status and carries its required sections,
judged against what its log does (:mod:`adrguard.core.conventions.log`).

Registered through :mod:`adrguard.rules.structure` (its ``RULES`` tuple lists these classes).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from adrguard.core.adrformat import GENERIC
from adrguard.core.conventions import templates
from adrguard.core.conventions.log import MIN_LEARN, Log, states_status
from adrguard.core.conventions.sections import Requirement
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location
from adrguard.core.parse import formats
from adrguard.core.parse import status as st
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta


class MissingStatus(BaseRule):
    """The record states no status, in a log whose records state one.

    **Why**: a reader cannot tell whether a record without a status is in force, still being
    discussed, or replaced. adrguard looks in front matter (`status:`), a `## Status` section,
    `Status:` lines and `* Status:` bullets.

    **Learns**: whether the log states statuses (status is optional in some formats, such as
    MADR). A record without one is reported when three quarters or more of the log's records
    state one, or when it comes after the point where the log adopted statuses (the first
    record, in number order, after which three quarters or more do); records written before
    that point are not. A log that never adopted statuses gets a single **note**, on its first
    record without one. Sign-posts (a short record with no sections and no status that points
    to where the decision lives) are left out, and so are records whose folder says their
    status: the log's archive, or a folder named by a status word (`rejected/`, `final/`).
    The message says what was learned ("9 of 10 records in docs/decisions state one").

    **Override**: `require-status = true` asks every record for a status, `false` never asks.

    **Bad**: a record with Context, Decision and Consequences and no status, in a log whose other
    records all have a `## Status` section.

    **Good**:

    ```markdown
    ## Status

    Accepted
    ```
    """

    meta = RuleMeta(
        "ADR102",
        "missing-status",
        "no status anywhere, in a log whose records state one (else one note per log)",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        required = ctx.options.require_status
        if required is False:
            return
        for root in sorted({d.root for d in ctx.corpus.decisions}):
            log = ctx.log(root)
            if required:
                for d in log.records:
                    if not states_status(d):
                        yield self._missing(d, "`require-status` is set")
                continue
            habit = log.statuses
            missing = [
                d for d in log.substantive
                if not states_status(d) and not _folder_states(d, ctx.options.status_synonyms)
            ]
            if habit.since is None:
                if missing:
                    yield self._never(log, missing, habit.stated)
                continue
            for d in missing:
                if log.position(d) < habit.since:
                    continue
                if habit.since == 0:
                    why = f"{habit.stated} of {habit.total} records in {log.label} state one"
                else:
                    first = formats.record_name(habit.first, root)
                    why = (f"{log.label} states statuses from {first!r} on ({habit.stated} of "
                           f"{habit.total} records since then state one)")
                yield self._missing(d, why)

    def _missing(self, d: Decision, why: str) -> Finding:
        return self.finding(
            f"the record states no status, while {why}: add a `## Status` section (or `status:` "
            "in the front matter) saying proposed, accepted, rejected, deprecated or superseded",
            Location(d.path, d.title_line),
            d,
        )

    def _never(self, log: Log, missing: list[Decision], stated: int) -> Finding:
        total = len(log.substantive)
        return self.finding(
            f"{stated} of {total} records in {log.label} state a status, so adrguard does not ask "
            "records there for one and reads them as having none: set `require-status = true` to "
            "ask every record, or `false` to drop this note",
            Location(missing[0].path, missing[0].title_line),
            missing[0],
            severity=Severity.NOTE,
        )


def _folder_states(d: Decision, synonyms: Mapping[str, str]) -> bool:
    """Whether the record's folder says its status: the log's archive, or a folder below the
    root named by a status word (``rejected/``, ``deprecated/``, ``accepted/2024/``)."""
    if d.archived:
        return True
    rel = d.path[len(d.root) + 1 :] if d.root not in ("", ".") else d.path
    folders = rel.split("/")[:-1]
    if formats.is_folder_record(d.path, d.root):
        folders = folders[:-1]  # the record's own folder names the record, not its status
    return any(st.match(st.fold(f.replace("-", " ").replace("_", " ")), synonyms) is not None
               for f in folders)


class MissingSection(BaseRule):
    """Nothing in the record carries a section its format requires.

    **Why**: a decision without its context or consequences cannot be reviewed or revisited.
    Required sections depend on the detected format (Nygard: Context, Decision, Consequences;
    MADR and log4brains: Context and Problem Statement, Decision Outcome).

    A section is found by its meaning, not its exact text. These carry a section:

    * the name, in any case, numbered or not, with a plural `s` or a colon (`## 2. Decisions:`);
    * a heading that starts with the name and a separator (`## Decision: use X`,
      `### Decision Outcome: AWS Lambda`), at any level; `## Decision Drivers` does not;
    * a part of a combined heading (`## Background & Context`);
    * a bold pseudo-heading (`**Decision Outcome**` alone on its line, or `**Decision:** ...`);
    * a synonym. Context: Context and Problem Statement, Problem (Statement), Statement of the
      Problem, Background, Motivation, Need(s), Objective(s), Issue, Introduction. Decision:
      Decision Outcome, Final Decision, Outcome, Proposal, Proposed Solution/Change/Design,
      Solution (Proposed), The Solution, Approach, (Detailed/Technical) Design, Overview,
      Summary, Chosen Option/Solution, Recommendation, Resolution, Specification. Consequences:
      Positive/Negative Consequences, Implications, Impact, Drawbacks, Trade-offs (the pros and
      cons of each option are not the decision's consequences). The same in French, German,
      Spanish, Portuguese, Italian, Dutch, Polish, Russian, Chinese, Japanese and Korean
      (`Contexte`, `Entscheidung`, `Consecuencias`, `背景`, `決定`, `결과`, ...). "Proposal"
      never stands in for Consequences.

    **Learns**: the log's format, for records whose format was not recognised (the format of
    most of its records), and which required sections the log writes: in a log of three or more
    records, a section that fewer than half of them write under one of its own names (Context,
    Context and Problem Statement, Background, Problem Statement; Decision, Decision Outcome;
    Consequences, and their translations) is not required there. Stand-ins such as Motivation,
    Introduction, Proposal, Approach or Implications satisfy a record but do not make the log
    ask for the section, so a log of RFC-style documents with their own headings is not asked for
    MADR sections. Sign-posts are left out.

    A record that follows one of its log's templates (it writes two or more of the template's
    headings, and half of them) is held to that template: a section the template does not
    carry is not required of it, so a log with a second template for one kind of record (a
    component specification without a Context) is not asked for the default sections there.

    **Override**: `required-sections = { nygard = ["context", "decision", "consequences|outcome"] }`
    sets a format's list (`a|b` accepts either); a configured list is required as written, in
    every log.

    **Bad**: a Nygard record with `## Context` and `## Decision` but no `## Consequences`, in a
    log whose other records have one.

    **Good**: the same record with a `## Consequences` (or `## Implications`) section.
    """

    meta = RuleMeta(
        "ADR104", "missing-section", "a section required for the record's format is absent",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        options = ctx.options
        parsed: dict[str, tuple[Requirement, ...]] = {}
        for root in sorted({d.root for d in ctx.corpus.decisions}):
            log = ctx.log(root)
            asked: dict[str, tuple[Requirement, ...]] = {}  # by format: what this log asks
            for d in log.records:
                fmt = d.format
                if fmt == GENERIC and fmt not in options.sections_configured:
                    fmt = log.dominant_format or fmt
                configured = fmt in options.sections_configured
                if d.path in log.signposts and not configured:
                    continue
                wanted = parsed.get(fmt)
                if wanted is None:
                    entries = options.required_sections.get(fmt, ())
                    wanted = parsed[fmt] = tuple(Requirement.parse(e) for e in entries)
                missing = log.missing(d, wanted)
                if missing and not configured:  # held only to what the log writes: learned
                    written = asked.get(fmt)  # when a record lacks a section, not before
                    if written is None:
                        written = asked[fmt] = _written_in(log, wanted)
                    missing = [r for r in missing if r in written]
                if missing and not configured:
                    template = templates.followed(d, self._templates(ctx, root))
                    if template is not None:
                        missing = [r for r in missing if template.carries(r)]
                if missing:
                    yield self._finding(d, fmt, missing, configured)

    @staticmethod
    def _templates(ctx: RuleContext, root: str) -> tuple[templates.Template, ...]:
        return ctx.derived(
            f"ADR104:templates:{root}", lambda: templates.of_log(ctx.corpus, root, ctx.options)
        )

    def _finding(
        self, d: Decision, fmt: str, missing: list[Requirement], configured: bool
    ) -> Finding:
        plural = "s" if len(missing) > 1 else ""
        labels = ", ".join(r.label for r in missing)
        held = f"{fmt} record" if fmt == d.format else f"record (held to its log's {fmt} format)"
        source = "configured" if configured else "required"
        return self.finding(
            f"{held} lacks the {source} section{plural} {labels}, and no heading or bold "
            f"line carries {'their' if plural else 'its'} meaning: add "
            f"{'them' if plural else 'it'}, or set `required-sections.{fmt}` in the config",
            Location(d.path, d.title_line),
            d,
        )


def _written_in(log: Log, requirements: tuple[Requirement, ...]) -> tuple[Requirement, ...]:
    """The requirements whose section the log writes: all of them in a small log, else those
    that half its records write (counted in one pass)."""
    shares = log.shares(requirements)
    return tuple(r for r in requirements if _writes(*shares[r.entry]))


def _writes(count: int, total: int) -> bool:
    return total < MIN_LEARN or 2 * count >= total
