"""ADR6xx: citations of decisions in code and documents outside the ADR roots.

The scan (:mod:`adrguard.core.citations`) runs when the corpus carries its result (see
docs/citations.md for when ``check`` scans); without it these rules find nothing. The citing
file is every finding's location, and an ``adrguard-disable-next-line ADR602`` comment in that
file's own comment syntax (``#``, ``//``, ``/* */``, ``--``, ``<!-- -->``) silences one.

A citation in inline code (a backtick span) is *mentioned*, not relied on (documentation of id
forms, examples): it counts for ``citations`` and ``referencedBy``, but no rule reports it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from adrguard.core.citations.resolve import (
    UNKNOWN,
    Cited,
    LineSuccessors,
    Standing,
    index,
    line_successors,
    standing,
)
from adrguard.core.findings import Finding, Severity
from adrguard.core.graph.graph import short
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision, Location
from adrguard.core.parse import formats
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

# A line that says the decision it cites is history is no stale citation.
HISTORY_WORDS = (
    "supersed",
    "supercede",
    "replace",
    "obsolete",
    "formerly",
    "previously",
    "deprecat",
    "reject",
    "histor",
    "no longer",
    "instead of",
    "in favour of",
    "in favor of",
    "revert",
    "retired",
)
# The words above as one pattern: a line is searched once, not once per word.
_HISTORY_LINE = lazy("|".join(re.escape(w) for w in HISTORY_WORDS))
# Files that record the past: citing an old decision there is right.
HISTORY_FILES = ("changelog", "changes", "history", "news", "release-notes", "release_notes",
                 "releasenotes")


# A file named by a date (``2022-07-19.md``, ``meeting-2021-08-03.md``) records a moment:
# meeting notes, a journal. Citing what was in force then is right.
_DATED_NAME = lazy(r"(?:^|[^0-9])(?:19|20)\d\d-[01]\d-[0-3]\d(?:[^0-9]|$)")
# A file citing this many distinct records is a catalogue of the log (an index, a README
# table of every record, a list of amendments): it lists superseded and deprecated records
# because they exist, not because it relies on them.
CATALOGUE_RECORDS = 10
# Documents only: code that cites many decisions relies on each of them.
_DOCUMENT = lazy(r"\.(?:md|mdx|markdown|rst|txt|adoc|asciidoc|html?)$", re.IGNORECASE)


def _catalogues(corpus: Corpus) -> frozenset[str]:
    """The citing documents that cite :data:`CATALOGUE_RECORDS` or more distinct records."""

    def build() -> frozenset[str]:
        seen: dict[str, set[str]] = {}
        for cited in index(corpus).all:
            d = cited.decision
            if d is not None and _DOCUMENT.search(cited.path):
                seen.setdefault(cited.path, set()).add(d.path)
        return frozenset(p for p, ds in seen.items() if len(ds) >= CATALOGUE_RECORDS)

    return corpus.derived("citation-catalogues", build)


def _label(d: Decision) -> str:
    return f"{short(d)} ({d.title})" if d.title else short(d)


def _where(cited: Cited) -> Location:
    c = cited.citation
    return Location(cited.path, c.line, c.column)


class _History:
    """Whether a citation is deliberately of history: a changelog, a dated file (meeting
    notes), a catalogue of the log, a line that says the decision is history, or a line that
    also cites a record that replaced it. Built once per rule run; what depends on the citing
    file alone is decided once per file."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.files: dict[str, bool] = {}
        self.successors: LineSuccessors | None = None

    def holds(self, cited: Cited) -> bool:
        by_file = self.files.get(cited.path)
        if by_file is None:
            by_file = self.files[cited.path] = self._history_file(cited.path)
        if by_file:
            return True
        if _HISTORY_LINE.search(cited.citation.excerpt.casefold()) is not None:
            return True
        if self.successors is None:
            self.successors = line_successors(self.corpus)
        return self.successors.holds(cited)

    def _history_file(self, path: str) -> bool:
        name = posixpath.basename(path)
        stem = name.casefold().split(".", 1)[0]
        return (stem in HISTORY_FILES or _DATED_NAME.search(name) is not None
                or path in _catalogues(self.corpus))


def _outdated(
    corpus: Corpus, states: tuple[str, ...]
) -> Iterator[tuple[Cited, Decision, Standing]]:
    """The citations relied on (not in inline code) of a decision whose standing is one of
    ``states``, leaving out those of history (:class:`_History`)."""
    history = _History(corpus)
    for cited in index(corpus).all:
        d = cited.decision
        if d is None or cited.citation.quoted:
            continue
        st = standing(corpus, d)
        if st.state in states and not history.holds(cited):
            yield cited, d, st


class UnknownDecisionCitation(BaseRule):
    """Code or a document cites a decision that no record has.

    **Why**: a comment that says "see ADR-0042" sends the reader to a decision that does not
    exist: the id is mistyped, the record was never merged, or it was renumbered. An id in
    inline code (`` `ADR-0042` ``) is an example and is left alone. A link into
    the ADR folder, an `adrs:` front-matter key or a table row labelled ADRs names this log
    for certain (a warning); a bare id in prose or a comment may name another project's
    decision, so it is only a note.

    **Bad**: `# Retries follow ADR-0042.` in a repository whose log ends at ADR-0012.

    **Good**: `# Retries follow ADR-0012.`; a citation of another project's record carries a
    suppression on the line above: `# adrguard-disable-next-line ADR601`.
    """

    meta = RuleMeta(
        code="ADR601",
        name="cites-unknown-decision",
        summary="code or a document cites a decision that no record has",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        corpus = ctx.corpus
        logs: str | None = None  # the log's number range, worked out once
        for cited in index(corpus).all:
            c = cited.citation
            if cited.state != UNKNOWN or c.quoted:
                continue  # in inline code: an example, not a promise
            if c.form == "link":
                if c.target in corpus.repo_files:
                    what = "which is no decision record"
                else:
                    what = "which does not exist" + _meant(corpus, c.target or "")
                message = (f"{c.text} points to {c.target}, {what}: fix the path (run "
                           "`adrguard list` for the records)")
                yield self.finding(message, _where(cited))
                continue
            if logs is None:
                logs = _range(corpus)
            what = "lists" if c.form in ("front-matter", "table") else "cites"
            message = (f"{what} {c.text}, but no record has number {c.number}{logs}: fix the id"
                       + ("" if c.form != "id" else ", or, when it names another project's "
                          "decision, suppress it with `adrguard-disable-next-line ADR601`"))
            grade = Severity.NOTE if c.form == "id" else None
            yield self.finding(message, _where(cited), severity=grade)


def _meant(corpus: Corpus, target: str) -> str:
    """``; record N there is <path>`` when the link's folder is a log holding exactly one
    record of the number its file name starts with (a record renamed after it was cited),
    else nothing."""
    folder, _, name = target.rpartition("/")
    number = formats.number_from_name(name.rsplit(".", 1)[0])
    if number is None:
        return ""
    hits = corpus.by_number.get((folder, number), ())
    return f"; record {number} there is {hits[0].path}" if len(hits) == 1 else ""


def _range(corpus: Corpus) -> str:
    numbers = [d.number for d in corpus.decisions if d.number is not None]
    if not numbers:
        return ""
    return f" (the log's records are numbered {min(numbers)}–{max(numbers)})"


class SupersededDecisionCitation(BaseRule):
    """Code or a document cites a decision that was superseded.

    **Why**: the code was written against a decision that no longer holds; the comment sends
    the next reader to reasoning that was replaced. The message names the decision in force
    (the end of the supersession chain). A line that itself says the decision is history
    (superseded, replaced, formerly, ...), that also cites the record that replaced it, a
    changelog, a file named by a date (meeting notes: `2022-07-19.md`), a catalogue of the log
    (a document citing 10 or more distinct records: an index or a README table of every record
    lists the old ones because they exist; code that does relies on each), or an id in inline
    code (`` `ADR-0004` ``, an
    example), is left alone.

    **Bad**: `// Sessions live in MySQL (ADR-0004).` when ADR-0009 superseded ADR-0004.

    **Good**: `// Sessions live in Postgres (ADR-0009).`, or a deliberate historical reference
    with `// adrguard-disable-next-line ADR602` on the line above.
    """

    meta = RuleMeta(
        code="ADR602",
        name="cites-superseded-decision",
        summary="code or a document cites a superseded decision (names the one in force)",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for cited, d, st in _outdated(ctx.corpus, ("superseded",)):
            succ = st.successor
            if succ is None:
                tail = ("which is superseded and names no successor: cite the decision in "
                        "force instead")
            elif succ.status is not None and succ.status.value == "accepted":
                tail = (f"which is superseded; the decision in force is {_label(succ)}: cite "
                        f"{short(succ)} instead")
            else:
                state = succ.status.value if succ.status is not None else "without a status"
                tail = (f"which is superseded by {_label(succ)}, not in force yet ({state}): "
                        "check which decision applies")
            yield self.finding(
                f"cites {_label(d)}, {tail} (or mark a deliberate reference to history with "
                "`adrguard-disable-next-line ADR602`)",
                _where(cited),
                d,
            )


class InactiveDecisionCitation(BaseRule):
    """Code or a document cites a decision that was rejected or deprecated.

    **Why**: a deprecated decision no longer holds, and a rejected one never did; code that
    cites either as its reason rests on nothing. A rejected decision is also cited to say why
    something was *not* done, so that citation is only a note; a line that says so itself
    (rejected, deprecated, instead of, ...), a changelog, a file named by a date, a catalogue
    of the log (10 or more distinct records cited, as for ADR602), or an id in inline code is
    left alone.

    **Bad**: `# Events go through Kafka per ADR-0005.` when ADR-0005 was rejected.

    **Good**: `# Events go through the outbox table per ADR-0006.`
    """

    meta = RuleMeta(
        code="ADR603",
        name="cites-inactive-decision",
        summary="code or a document cites a rejected or deprecated decision",
        default_severity=Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for cited, d, st in _outdated(ctx.corpus, ("rejected", "deprecated")):
            if st.state == "rejected":
                message = (f"cites {_label(d)}, which was rejected: cite the decision that "
                           "applies (or mark a reference to the rejected option with "
                           "`adrguard-disable-next-line ADR603`)")
                yield self.finding(message, _where(cited), d, severity=Severity.NOTE)
                continue
            message = f"cites {_label(d)}, which is deprecated and no longer in force"
            if st.successor is not None:
                message += f"; {_label(st.successor)} replaced it"
            yield self.finding(message + ": cite the decision that applies", _where(cited), d)


RULES = (UnknownDecisionCitation, SupersededDecisionCitation, InactiveDecisionCitation)
