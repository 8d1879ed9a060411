"""Every setting of ``.adrguard.toml`` (or ``[tool.adrguard]``), declared once. Pure.

The msgspec structs below are the one declaration of a setting: its key (the field, spelled
kebab-case in the file), its type and limits, its default and the sentence that describes it
(``Meta(description=...)``; a table's docstring describes the table). Everything else is derived:

* ``schemas/config.schema.json`` is generated from them (:mod:`adrguard.core.settings_schema`;
  ``python scripts/config_schema.py`` rewrites it, a test keeps the checked-in file equal);
* :func:`adrguard.config.validate_mapping` names unknown keys from their fields and accepts what
  they accept (jsonschema words the error for anything else, from the generated schema);
* :func:`adrguard.config.from_mapping` reads a validated file through them.

Adding a setting: one field here (with its description), then ``python scripts/config_schema.py``,
its use in :mod:`adrguard.config`, a test and a line in ``docs/configuration.md``.

The levels, names and numbers more than one command shares (``fail-on``'s levels, the baseline
file's name, the exit codes) live in :mod:`adrguard.core.outcome`, which start-up can import.

No ``from __future__ import annotations`` here: msgspec reads the structs' annotations whenever a
configuration is validated (every ``check``, the hook included), and annotations kept as strings
are compiled and evaluated one by one then, which costs more than building them once on import.
"""

from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from adrguard.core.outcome import FAIL_ON, FailOn

__all__ = ["FAIL_ON"]  # re-exported: the levels' home is adrguard.core.outcome

Profile = Literal["legacy", "advisory", "standard", "strict"]
ReadGuard = Literal["off", "warn", "guard"]
SeverityName = Literal["note", "warning", "error"]
StatusName = Literal["proposed", "accepted", "rejected", "deprecated", "superseded", "draft"]

PROFILES: tuple[str, ...] = get_args(Profile)


def _about(text: str) -> Meta:
    return Meta(description=text)


Text = Annotated[str, Meta(min_length=1)]
Texts = list[Text]
Positive = Annotated[int, Meta(ge=1)]


class _Table(Struct, forbid_unknown_fields=True, rename="kebab"):
    pass


class IndexTable(_Table):
    """The generated INDEX of each ADR root (docs/configuration.md)."""

    enabled: bool | UnsetType = UNSET
    path: str | UnsetType = UNSET
    paths: dict[str, str] | UnsetType = UNSET
    columns: Texts | UnsetType = UNSET
    template: str | UnsetType = UNSET


class CurrentTable(_Table):
    """The CURRENT.md view of the decisions in force and its manifest."""

    view: str | UnsetType = UNSET
    manifest: str | UnsetType = UNSET
    statuses: Texts | UnsetType = UNSET
    include: Texts | UnsetType = UNSET
    exclude: Texts | UnsetType = UNSET


class ImpactTable(_Table):
    """The impact mapping manifest and the statuses that govern."""

    manifest: str | UnsetType = UNSET
    statuses: Texts | UnsetType = UNSET


class CitationsTable(_Table):
    """The scan of code and documents outside the ADR roots for citations of decisions
    (docs/citations.md)."""

    enabled: Annotated[bool, _about(
        "true = always scan, false = never (default: scan when the repository has at most "
        "20,000 candidate files)")] | UnsetType = UNSET
    include: Annotated[Texts, _about(
        "gitwildmatch globs of the files to scan (default: every tracked text file)"
    )] | UnsetType = UNSET
    exclude: Annotated[Texts, _about(
        "gitwildmatch globs of files not to scan, added to the built-in excludes (vendored, "
        "generated, lock files)")] | UnsetType = UNSET
    max_file_size: Annotated[Positive, _about(
        "bytes; larger files are not scanned (default 1 MiB)")] = 1024 * 1024


class VerifyTable(_Table):
    """``adrguard verify``: the fitness manifest, the drift baseline and the policy."""

    rules: Annotated[str, _about(
        "the fitness manifest (default .adrguard-fitness.json)")] | UnsetType = UNSET
    baseline: Annotated[str, _about(
        "the drift baseline (default .adrguard-drift-baseline.json)")] | UnsetType = UNSET
    policy: Literal["advisory", "enforce"] | UnsetType = UNSET
    max_evidence_size: Annotated[Positive, _about(
        "bytes of one evidence file (default 32 MiB)")] = 32 * 1024 * 1024


Url = Annotated[str, Meta(min_length=1, max_length=512, pattern="^[Hh][Tt][Tt][Pp][Ss]?://")]
VariableName = Annotated[str, Meta(pattern="^[A-Za-z_][A-Za-z0-9_]{0,127}$")]


# The [ai] table has required keys (provider, model), so its defaults cannot be read from an
# instance as the other tables' are (``CitationsTable().max_file_size``): they are named here.
AI_TIMEOUT = 15.0
AI_THRESHOLD = 0.7
AI_CACHE_TTL = 300


class AiTable(_Table):
    """An optional model provider that judges the relevance of the decisions find and context
    narrowed down (docs/agents.md); nothing is sent unless provider is set."""

    provider: Annotated[Literal["openai-compatible", "anthropic"], _about(
        "openai-compatible: a chat-completions endpoint (OpenAI, llama.cpp, vLLM, Ollama, ...); "
        "anthropic: the Messages API")]
    model: Annotated[str, Meta(min_length=1, max_length=200), _about(
        "the model name the endpoint knows")]
    base_url: Annotated[Url, _about(
        "the endpoint's base URL (default https://api.openai.com/v1 or "
        "https://api.anthropic.com); requests go only to the provider's own host or a loopback "
        "address, any other host only when ADRGUARD_AI_BASE_URL in the environment (which "
        "overrides this key) names it")] | UnsetType = UNSET
    api_key_env: Annotated[VariableName, _about(
        "the NAME of the environment variable that holds the key, never the key; it must end in "
        "API_KEY (default OPENAI_API_KEY or ANTHROPIC_API_KEY at the providers' own hosts; none "
        "elsewhere)")] | UnsetType = UNSET
    timeout: Annotated[float, Meta(gt=0, le=300), _about(
        "seconds to wait for an answer (default 15); then keyword results and a warning"
    )] = AI_TIMEOUT
    threshold: Annotated[float, Meta(ge=0, le=1), _about(
        "the confidence a judged record needs to be listed (default 0.7)")] = AI_THRESHOLD
    cache_ttl: Annotated[int, Meta(ge=0, le=86400), _about(
        "seconds an answer is reused for the same context, candidates and model (default 300; "
        "0: never reused)")] = AI_CACHE_TTL


class ConfigTable(_Table):
    """adrguard configuration (.adrguard.toml or [tool.adrguard] in pyproject.toml)"""

    roots: Annotated[Texts, _about(
        "ADR folders (globs allowed: services/*/docs/adr); empty = auto-detect"
    )] | UnsetType = UNSET
    exclude: Annotated[Texts, _about(
        "replace the default excludes (indexes, templates, CURRENT.md)")] | UnsetType = UNSET
    extend_exclude: Annotated[Texts, _about(
        "add to the excludes, e.g. translation mirrors docs/adr/zh/**")] | UnsetType = UNSET
    archive_dirs: Annotated[Texts, _about(
        "folder names below a root that hold archived records"
    )] = msgspec.field(default_factory=lambda: ["archive"])
    profile: Annotated[Profile, _about("rule set and severities")] = "standard"
    select: Annotated[Texts, _about(
        "only these rules: codes, prefixes (ADR3) or names")] | UnsetType = UNSET
    ignore: Annotated[Texts, _about(
        "skip these rules: codes, prefixes or names")] | UnsetType = UNSET
    fail_on: Annotated[FailOn, _about(
        "exit 1 when a finding is at least this severe")] = "error"
    severity: Annotated[dict[str, SeverityName], _about(
        "rule code -> the severity it reports at")] | UnsetType = UNSET
    per_file_ignores: Annotated[dict[str, Texts], _about(
        "glob -> the rules not reported for the files it matches")] | UnsetType = UNSET
    statuses: Annotated[dict[str, StatusName], _about(
        "extra status words and the normalised status they mean")] | UnsetType = UNSET
    status_headings: Annotated[Texts, _about(
        "extra headings that name the status section")] | UnsetType = UNSET
    required_sections: Annotated[dict[str, Texts], _about(
        "ADR format -> the sections every record of it must have")] | UnsetType = UNSET
    filename_pattern: Annotated[str, _about(
        "ADR107: regex every record name must match (default: learn each log's scheme)"
    )] | UnsetType = UNSET
    require_status: Annotated[bool, _about(
        "ADR102: true = every record states a status, false = never ask (default: learn each "
        "log's habit)")] | UnsetType = UNSET
    date_format: Annotated[str, Meta(min_length=2), _about(
        "ADR109: strftime format of every date, e.g. '%Y-%m-%d' (default: learn each log's "
        "format)")] | UnsetType = UNSET
    supersession_both_sides: Annotated[bool, _about(
        "ADR304: true = both records of a supersession say so, false = never ask (default: "
        "learn each log's habit)")] | UnsetType = UNSET
    decision_id_pattern: Annotated[str, _about(
        "regex of a decision id cited in text; group 1 is the number")] | UnsetType = UNSET
    max_file_size: Annotated[Positive, _about(
        "bytes; larger records are not parsed (default 1 MiB)")] = 1024 * 1024
    frontmatter_schema: Annotated[str, _about(
        "path to a JSON Schema for front matter (ADR110)")] | UnsetType = UNSET
    cache: Annotated[bool, _about("cache parsed records in the user cache folder")] = True
    cache_dir: Annotated[Text, _about(
        "the record cache's folder, an absolute path (default: the user cache folder)"
    )] | UnsetType = UNSET
    template: Annotated[Text, _about(
        "repo-relative markdown template for `adrguard new` ({{title}}, {{number}}, {{id}}, "
        "{{date}}, {{status}})")] | UnsetType = UNSET
    new_status: Annotated[Text, _about(
        "the status `adrguard new` and `supersede` write (default proposed)"
    )] | UnsetType = UNSET
    repository_url: Annotated[Text, _about(
        "the repository's web URL, with /tree/BRANCH for its default branch: links to its files "
        "at that branch are checked as paths (never taken from a git remote)")] | UnsetType = UNSET
    read_guard: Annotated[ReadGuard, _about(
        "the read guard for coding agents (`adrguard guard`, MCP get_adr): off (default), warn, "
        "guard; see docs/read-guard.md")] = "off"
    index: IndexTable | UnsetType = UNSET
    current: CurrentTable | UnsetType = UNSET
    impact: ImpactTable | UnsetType = UNSET
    citations: CitationsTable | UnsetType = UNSET
    verify: VerifyTable | UnsetType = UNSET
    ai: AiTable | UnsetType = UNSET


DEFAULTS = ConfigTable()  # the defaults of every setting that has one


def table_keys(table: type[Struct]) -> dict[str, type[Struct] | None]:
    """The keys a table of the file may hold, as the file spells them, each with the table
    nested under it (``[index]``, ``[ai]``, ...) or None. ``msgspec.structs.fields`` resolves
    the declaration's annotations (about 2 ms for :class:`ConfigTable`): called when a
    configuration file is read, once a table, never at start-up."""
    out: dict[str, type[Struct] | None] = {}
    for field in msgspec.structs.fields(table):
        nested = [a for a in (field.type, *get_args(field.type))
                  if isinstance(a, type) and issubclass(a, Struct)]
        out[field.encode_name] = nested[0] if nested else None
    return out


def is_set(value: object) -> bool:
    """Whether a field was given in the file (UNSET: it was not)."""
    return not isinstance(value, UnsetType)


T = TypeVar("T")


def got(value: T | UnsetType) -> T | None:
    """A field as the file gave it, None when it did not."""
    return None if isinstance(value, UnsetType) else value


def given(table: Struct) -> dict[str, Any]:
    """The fields of ``table`` the file gave, by field name (lists as tuples): the keyword
    arguments of the typed options (:mod:`adrguard.core.options`) the table feeds."""
    return {name: tuple(v) if isinstance(v, list) else v
            for name, v in msgspec.structs.asdict(table).items() if is_set(v)}

