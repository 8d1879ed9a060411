"""ADR1xx rules on single fields (dates, front matter) and the helpers the structure rules share.

Registered through :mod:`adrguard.rules.structure` (its ``RULES`` tuple lists these classes).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from adrguard.core.errors import UserError
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_HEADING_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+", re.IGNORECASE)
_ISO_DATE = re.compile(
    r"^(\d{4}-\d{2}-\d{2})"  # the date
    r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"  # optional time
    r"(?:\s+\([^)]*\))?$"  # optional note: "2024-05-22 (back dated)"
)
_OTHER_DATE_FORMATS = ("%Y/%m/%d", "%d/%m/%Y", "%d.%m.%Y", "%Y.%m.%d", "%d %B %Y", "%B %d, %Y",
                       "%d %b %Y", "%b %d, %Y", "%Y%m%d")


def singular(heading: str) -> str:
    """``"decisions"`` → ``"decision"``: the last word without a plural ``s``."""
    return heading[:-1] if heading.endswith("s") and not heading.endswith("ss") else heading


@functools.lru_cache(maxsize=8192)
def normalise_heading(title: str) -> str:
    """``"## 2. Decision Outcome:"`` → ``"decision outcome"``: casefolded, numbering, markup and
    punctuation removed, whitespace collapsed."""
    text = title.strip().lstrip("#").strip()
    text = _HEADING_NUMBER.sub("", text)
    text = re.sub(r"[^\w\s]", " ", text.casefold())
    return " ".join(text.split())


class InvalidDate(BaseRule):
    """The record's date is not an ISO 8601 date, or lies in the future.

    **Why**: `YYYY-MM-DD` sorts, compares and reads the same in every country; `03/04/2021` does
    not. A date after today is a typo. Full ISO date-times (`2024-01-05T10:00:00Z`) are accepted,
    and so is a note in parentheses after the date (`2024-05-22 (back dated)`).
    Future dates are checked against the date the CLI passes in (`--today`, default today).

    **Bad**: `Date: 12/03/2021`, `date: 2042-01-01`.

    **Good**: `Date: 2021-03-12`.
    """

    meta = RuleMeta("ADR109", "invalid-date", "a date that is not ISO 8601, or lies in the future",
                    Severity.WARNING)

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        today = ctx.options.today
        for d in ctx.corpus.decisions:
            if d.date is None or not d.is_readable:
                continue
            written = d.date.strip()
            where = Location(d.path, d.date_line)
            m = _ISO_DATE.match(written)
            if m is None or _parse_date(m.group(1)) is None:
                yield self.finding(
                    f"date {written!r} is not an ISO 8601 date: write it as YYYY-MM-DD"
                    f"{_suggest_date(written)}",
                    where,
                    d,
                )
            elif today is not None and m.group(1) > today:
                yield self.finding(
                    f"date {m.group(1)} lies in the future (today is {today}): correct the date",
                    where,
                    d,
                )


def _parse_date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _suggest_date(text: str) -> str:
    swapped = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if swapped and _parse_date(f"{swapped[1]}-{swapped[3]}-{swapped[2]}"):
        return f" ({swapped[1]}-{swapped[3]}-{swapped[2]}?)"
    for fmt in _OTHER_DATE_FORMATS:
        try:
            parsed = dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        return f" ({parsed.isoformat()}?)"
    return ""


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
            yield from self._globs(d)
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

    def _globs(self, d: Decision) -> Iterator[Finding]:
        """Governed paths (``affected-paths``, ``scope``) must be globs adrguard can match:
        each is checked by the function that compiles it, so a bad one is reported here
        instead of being skipped by the change-aware rules."""
        from adrguard.core.globs import glob_problem
        from adrguard.core.impact import front_matter_line

        for glob in d.governed_paths:
            problem = glob_problem(glob)
            if problem is not None:
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
    return all(isinstance(v, str | int) and not isinstance(v, bool) for v in items)


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
