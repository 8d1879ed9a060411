"""ADR1xx rules on single fields: dates (ADR109) and front matter (ADR110).

Registered through :mod:`adrguard.rules.structure` (its ``RULES`` tuple lists these classes).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from adrguard.core.conventions import dates
from adrguard.core.conventions.log import Log
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location
from adrguard.core.parse import formats
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

class InvalidDate(BaseRule):
    """A date that is impossible or ambiguous, lies in the future, or leaves the log's format.

    **Why**: a date a reader cannot trust (`2023-13-10`), cannot read one way only (`05/02/2018`:
    February or May? `08/01/24`: which century?) or that is written unlike the rest of the log
    sorts and compares wrongly. Impossible and ambiguous dates are always reported; a date after
    today (`--today`, default today) is a typo.

    **Learns**: the log's date format, the family that more than half of its dated records use
    (ISO `2018-06-19`, month names `June 19, 2018` or `7 April 2020`, numeric `19/06/2018`,
    compact `20180619`; ISO when no family has a majority). A date of another family is
    reported, with what was learned ("27 of 49 dated records in docs/adr write ISO dates"). An
    ISO date is never reported for its format, nor is a log's own month precision (`May 2023`,
    `2023-05`); a note or decoration around a valid date is allowed (`2024-05-22 (back dated)`,
    `[2025-03-07]`, `<10/11/2023>`). The order of numeric dates is learned too: when three
    quarters of a log's telling dates (a day over 12) put the month first, `12/05/2022` reads as
    December 5 there, not as ambiguous, and a date written the other way is reported. A date
    the record says it does not know yet (`TBD`, `N/A`, `2024-??-??`) is not judged.

    **Override**: `date-format = "%Y-%m-%d"` (a strftime format) replaces the learned format:
    every date must be written that way.

    **Bad**: `Date: 2023-13-10`; `Date: 05/02/2018` in a log of ISO dates.

    **Good**: `Date: 2018-02-05`; `Date: June 19, 2018` in a log that writes all its dates so.
    """

    meta = RuleMeta(
        "ADR109", "invalid-date",
        "an impossible, ambiguous or future date, or one that leaves the log's date format",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        today = _parse_date(ctx.options.today) if ctx.options.today else None
        configured = ctx.options.date_format
        for d in ctx.corpus.decisions:
            if not d.date or not d.is_readable or formats.unknown_date(d.date):
                continue  # ``TBD``: the record says it has no date yet
            day = None if configured else _iso_day(d.date)
            if day is not None:  # a real day written as YYYY-MM-DD fits every log's habit
                if today and day > today:
                    yield self.finding(_future(day, today), Location(d.path, d.date_line), d)
                continue
            log = ctx.log(d.root)
            reading = log.date_of(d)
            if configured:
                message = _against_format(reading, configured)
            else:
                message = _problem(reading, log.date_habit) or _deviation(reading, log)
            if message is None and today and reading.value and reading.value > today:
                message = _future(reading.value, today)
            if message:
                yield self.finding(message, Location(d.path, d.date_line), d)


def _iso_day(written: str) -> dt.date | None:
    """The day a plain ISO date names (``2024-05-22``, ASCII digits, nothing around it), read as
    :func:`adrguard.core.conventions.dates.read` reads it: then neither the log's date habit nor
    the reading is needed (an ISO day is impossible, ambiguous or off the habit never). None for
    any other text, and for a day that does not exist: those are read the full way."""
    if len(written) != 10 or written[4] != "-" or written[7] != "-" or not written.isascii():
        return None
    year, month, day = written[:4], written[5:7], written[8:]
    if not (year.isdigit() and month.isdigit() and day.isdigit()):
        return None
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _future(day: dt.date, today: dt.date) -> str:
    return (f"date {day.isoformat()} lies in the future (today is {today.isoformat()}): "
            "correct the date")


def _parse_date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _problem(r: dates.Reading, habit: dates.DateHabit) -> str | None:
    """Impossible and ambiguous dates, whatever the log's format."""
    if r.problem == "impossible":
        hint = f" (did you mean {r.readings[0].isoformat()}?)" if r.readings else ""
        return f"date {r.written!r} is impossible{hint}: correct it, as YYYY-MM-DD"
    if r.day_first is not None and habit.day_first is not None and r.day_first != habit.day_first:
        order, other = ("day", "month") if r.day_first else ("month", "day")
        return (f"date {r.written!r} is written {order} first, where the log's numeric dates "
                f"put the {other} first: write it in the log's order, or as YYYY-MM-DD")
    if r.problem != "ambiguous":
        return None
    first = [v.isoformat() for v in r.readings]
    if len(first) == 1:
        reason = f"its two-digit year leaves the century open ({first[0]}?)"
    elif habit.day_first is not None:
        return None  # the log's own dates settle the order (see **Learns**)
    else:
        reason = f"it reads {first[0]} day first or {first[1]} month first"
    return f"date {r.written!r} is ambiguous: {reason}: write it as YYYY-MM-DD"


def _deviation(r: dates.Reading, log: Log) -> str | None:
    habit = log.date_habit
    if r.family in (habit.family, "iso"):
        return None
    hint = f" ({r.value.isoformat()})" if r.value and habit.family == "iso" else ""
    if r.family == "unknown":
        written = f"{r.written!r}, which is not a date adrguard can read"
    else:
        written = repr(r.written)
    picture = dates.FAMILY_PICTURE[habit.family]
    if habit.learned:
        learned = f"{habit.count} of {habit.total} dated records in {log.label} write {picture}"
        like = f"like {habit.example!r}" if habit.family != "iso" else "as YYYY-MM-DD"
    else:
        learned = f"no date format has a majority in {log.label}, so ISO applies"
        like = "as YYYY-MM-DD"
    return (f"{learned}; this one writes {written}: write it {like}{hint}, or set "
            "`date-format` in the config")


def _against_format(r: dates.Reading, fmt: str) -> str | None:
    try:
        dt.datetime.strptime(r.written, fmt)
    except ValueError:
        sample = dt.date(2018, 6, 19).strftime(fmt)
        return (f"date {r.written!r} does not match date-format `{fmt}` (for example "
                f"{sample!r}): write it that way")
    return None


# Known front-matter keys and what they must hold: "scalar" or "refs" (string or list of strings).
KNOWN_KEYS: Mapping[str, str] = {
    "status": "scalar", "title": "scalar", "date": "scalar", "id": "scalar",
    "supersedes": "refs", "superseded-by": "refs", "superseded_by": "refs", "supersededBy": "refs",
    "replaces": "refs", "replaced-by": "refs", "replaced_by": "refs", "replacedBy": "refs",
    "depends-on": "refs", "depends_on": "refs", "dependsOn": "refs",
    "amends": "refs", "amended-by": "refs", "amended_by": "refs", "amendedBy": "refs",
}
_SCALARS = (str, int, float, dt.date)


class FrontMatterSchema(BaseRule):
    """Front matter violates the configured JSON Schema, or a known key has the wrong type.

    **Why**: front matter is data other tools read; a list where a status is expected, or a
    mapping under `supersedes`, breaks them silently. `status`, `title`, `date` and `id` must be
    single values; `supersedes`, `superseded-by`, `replaces`, `depends-on`, `amends` (and their
    spellings) a string or a list of strings. With `frontmatter-schema = "adr.schema.json"` in
    the config every record that has front matter is also validated against that JSON Schema
    (records without front matter are not). The path globs a record governs (`affected-paths`,
    `scope`) must be valid gitwildmatch globs.

    **Bad**:

    ```markdown
    ---
    status: [accepted, superseded]
    supersedes: {id: 3}
    ---
    ```

    **Good**:

    ```markdown
    ---
    status: superseded
    supersedes: ADR-0003
    ---
    ```
    """

    meta = RuleMeta(
        "ADR110", "front-matter-schema",
        "front matter violates the configured JSON Schema, or a known key has the wrong type",
        Severity.ERROR,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        validator = _validator(ctx.options.frontmatter_schema)
        for d in ctx.corpus.decisions:
            if not d.front_matter or not d.is_readable:
                continue
            yield from self._types(d)
            yield from self._globs(d, ctx)
            if validator is not None:
                yield from self._schema(d, validator)

    def _types(self, d: Decision) -> Iterator[Finding]:
        for key, value in d.front_matter.items():
            kind = KNOWN_KEYS.get(str(key))
            if kind is None or value is None or _fits(value, kind):
                continue
            want = "a single value" if kind == "scalar" else "a string or a list of strings"
            yield self.finding(
                f"front matter `{key}` holds {_describe(value)}, but it must be {want}: "
                "fix the value",
                Location(d.path, d.front_matter_lines.get(str(key), 1)),
                d,
            )

    def _globs(self, d: Decision, ctx: RuleContext) -> Iterator[Finding]:
        """Governed paths (``affected-paths``, ``scope``) must be globs adrguard can match:
        each is checked by the function that compiles it, so a bad one is reported here
        instead of being skipped by the change-aware rules."""
        if not d.governed_paths:
            return
        from adrguard.core.impact.globs import compiled_globs, glob_problem

        memo = compiled_globs(ctx.corpus)  # the run's: ADR504 matches the same globs
        for glob in d.governed_paths:
            problem = glob_problem(glob, memo)
            if problem is not None:
                from adrguard.core.impact.analysis import front_matter_line

                yield self.finding(
                    f"front matter path glob {glob!r} cannot be matched: {problem}",
                    Location(d.path, front_matter_line(d)),
                    d,
                )

    def _schema(self, d: Decision, validator: Validator) -> Iterator[Finding]:
        data = _jsonable(d.front_matter)
        for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.path]):
            key = str(err.path[0]) if err.path else None
            where = ".".join(str(p) for p in err.path) or "front matter"
            yield self.finding(
                f"{where}: {err.message}: make the front matter match frontmatter-schema",
                Location(d.path, d.front_matter_lines.get(key, 1) if key else 1),
                d,
            )


def _fits(value: Any, kind: str) -> bool:
    if kind == "scalar":
        return isinstance(value, _SCALARS) and not isinstance(value, bool)
    items = value if isinstance(value, list) else [value]
    # an empty item (``replaces:`` then ``  -``, a template's list left unfilled) states nothing
    return all(v is None or (isinstance(v, str | int) and not isinstance(v, bool)) for v in items)


def _describe(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"


def _jsonable(value: Any) -> Any:
    """YAML values as JSON would hold them (dates become ISO strings) for schema validation."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def _validator(schema: Mapping[str, Any] | None) -> Validator | None:
    """One validator per run (building costs milliseconds; jsonschema is imported only here).
    Regexes run in RE2 and ``$ref`` stays inside the schema (:mod:`adrguard.core.userschema`);
    the config refused a schema with a problem when it was loaded."""
    if not schema:
        return None
    from adrguard.core.userschema import user_validator

    try:
        return user_validator(schema)
    except ValueError as exc:
        raise UserError(f"frontmatter-schema {exc}") from None
