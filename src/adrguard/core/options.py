"""Settings the parser and the rules read. Pure data; ``adrguard.config`` builds it from TOML.

Every field has a default so that ``Options()`` is the built-in behaviour.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from functools import cached_property
from typing import Any, TypeVar, cast

import msgspec

from adrguard.core.adrformat import REQUIRED_SECTIONS
from adrguard.core.settings import (
    AI_CACHE_TTL,
    AI_THRESHOLD,
    AI_TIMEOUT,
    DEFAULTS,
    CitationsTable,
    VerifyTable,
)
from adrguard.core.vocabulary import STATUS_HEADINGS, STATUS_SYNONYMS

# The built-in status vocabulary and status headings (sources in :mod:`.vocabulary`). Users
# extend them with the ``statuses`` and ``status-headings`` config keys.
DEFAULT_STATUS_SYNONYMS: Mapping[str, str] = STATUS_SYNONYMS
DEFAULT_STATUS_HEADINGS: tuple[str, ...] = STATUS_HEADINGS

# Required sections per format (casefolded titles; an entry "a|b" accepts either): the
# registry's (adrguard.core.adrformat), which the required-sections setting extends.
DEFAULT_REQUIRED_SECTIONS: Mapping[str, tuple[str, ...]] = REQUIRED_SECTIONS


T = TypeVar("T")


class Vocabulary(Mapping[str, str]):
    """Status words -> statuses, immutable and hashable. The tables the parser derives from it
    are kept on it (:meth:`derived`): they live as long as the run's options, never in a
    process-wide cache."""

    __slots__ = ("_derived", "_hash", "_words")

    def __init__(self, words: Mapping[str, str]) -> None:
        self._words = dict(words)
        self._hash = hash(frozenset(self._words.items()))
        self._derived: dict[str, Any] = {}

    def derived(self, name: str, compute: Callable[[], T]) -> T:
        """A table derived from these words alone, computed on first use and kept here."""
        if name not in self._derived:
            self._derived[name] = compute()
        return cast(T, self._derived[name])

    def __getitem__(self, key: str) -> str:
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    # The views and lookups of the words themselves (read-only, as the mapping is): Mapping's
    # own go through __getitem__ word by word, and a run reads every word several times.
    def __contains__(self, key: object) -> bool:
        return key in self._words

    def get(self, key: str, default: Any = None) -> Any:
        return self._words.get(key, default)

    def keys(self) -> KeysView[str]:
        return self._words.keys()

    def values(self) -> ValuesView[str]:
        return self._words.values()

    def items(self) -> ItemsView[str, str]:
        return self._words.items()

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Vocabulary):
            return self is other or (self._hash == other._hash and self._words == other._words)
        return isinstance(other, Mapping) and self._words == dict(other.items())

    def __repr__(self) -> str:
        return f"Vocabulary({self._words!r})"

    def __reduce__(self) -> tuple[type[Vocabulary], tuple[dict[str, str]]]:
        return Vocabulary, (self._words,)


class IndexOptions(msgspec.Struct, frozen=True):
    """``[index]``: the generated INDEX of each root (checked by :func:`core.index.settings`)."""

    enabled: bool | None = None  # None: generate where the project already does
    path: str | None = None  # the index's name in every root
    paths: Mapping[str, str] = msgspec.field(default_factory=dict)  # root -> index name
    columns: tuple[str, ...] = ()  # () = the default columns
    template: str | None = None


class CurrentOptions(msgspec.Struct, frozen=True):
    """``[current]``: the CURRENT.md view and its manifest (see :func:`core.current.settings`)."""

    view: str | None = None  # None: CURRENT.md
    manifest: str | None = None  # None: CURRENT.sources.json
    statuses: tuple[str, ...] = ()  # () = the default statuses in force
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


class ImpactOptions(msgspec.Struct, frozen=True):
    """``[impact]``: the mapping manifest and the statuses that govern."""

    manifest: str | None = None  # None: .adrguard-impact.json
    statuses: tuple[str, ...] = ()  # () = accepted


class CitationOptions(msgspec.Struct, frozen=True):
    """``[citations]``: which files outside the ADR roots are scanned for citations."""

    enabled: bool | None = None  # None: scan when the repository is small enough (auto)
    include: tuple[str, ...] = ()  # () = every tracked text file
    exclude: tuple[str, ...] = ()  # added to the built-in excludes (vendored, generated, locks)
    max_file_size: int = CitationsTable().max_file_size  # larger: not scanned


class VerifyOptions(msgspec.Struct, frozen=True):
    """``[verify]``: the fitness manifest, the drift baseline, the policy (``adrguard verify``)."""

    rules: str | None = None  # None: .adrguard-fitness.json
    baseline: str | None = None  # None: .adrguard-drift-baseline.json
    policy: str | None = None  # None: advisory
    max_evidence_size: int = VerifyTable().max_evidence_size  # one evidence file


class AiOptions(msgspec.Struct, frozen=True):
    """``[ai]``: the model provider that may judge relevance for ``find`` and ``context``
    (docs/agents.md). ``provider`` None: nothing is ever sent anywhere."""

    provider: str | None = None  # openai-compatible | anthropic
    base_url: str | None = None  # None: the provider's own endpoint
    model: str | None = None
    api_key_env: str | None = None  # the NAME of the variable holding the key (None: default)
    timeout: float = AI_TIMEOUT  # seconds
    threshold: float = AI_THRESHOLD  # the confidence to be listed
    cache_ttl: int = AI_CACHE_TTL  # seconds an answer is reused (0: never)


# The default ``decision-id-pattern``, what the mention rules read as an id (its one home: the
# rules' fast path for exactly this pattern names it here).
DECISION_ID_PATTERN = r"\bADR[- ]?(\d{1,5})\b"


class Options(msgspec.Struct, frozen=True, dict=True):
    """Settings for the parser and the rules; ``Options()`` is the built-in behaviour.

    A frozen struct (ADR 43): replace it with ``msgspec.structs.replace``, never
    ``dataclasses.replace``. ``dict=True`` gives each instance the ``__dict__`` that the
    ``_derived`` memo (a ``cached_property``) lives in; it is no field, so it takes no part in
    equality, the repr, pickling or :func:`adrguard.adapters.cache.keys.options_key`."""

    status_synonyms: Mapping[str, str] = msgspec.field(
        default_factory=lambda: dict(DEFAULT_STATUS_SYNONYMS)
    )
    status_headings: tuple[str, ...] = DEFAULT_STATUS_HEADINGS
    required_sections: Mapping[str, tuple[str, ...]] = msgspec.field(
        default_factory=lambda: dict(DEFAULT_REQUIRED_SECTIONS)
    )
    # Conventions: None (or empty) = learn from each log; a configured value always wins.
    filename_pattern: str | None = None  # ADR107: regex every record name must match
    sections_configured: tuple[str, ...] = ()  # formats whose required-sections the config set
    require_status: bool | None = None  # ADR102: True every record, False never
    date_format: str | None = None  # ADR109: strftime format every date must use
    supersession_both_sides: bool | None = None  # ADR304: True/False instead of learning
    decision_id_pattern: str = DECISION_ID_PATTERN
    max_file_size: int = DEFAULTS.max_file_size
    today: str | None = None  # ISO date; ADR109 treats later dates as future (None: no check)
    frontmatter_schema: Mapping[str, Any] | None = None
    index: IndexOptions = msgspec.field(default_factory=IndexOptions)
    current: CurrentOptions = msgspec.field(default_factory=CurrentOptions)
    impact: ImpactOptions = msgspec.field(default_factory=ImpactOptions)
    verify: VerifyOptions = msgspec.field(default_factory=VerifyOptions)
    extra: Mapping[str, Any] = msgspec.field(default_factory=dict)
    archive_dirs: tuple[str, ...] = tuple(DEFAULTS.archive_dirs)  # config archive-dirs

    def __post_init__(self) -> None:
        if not isinstance(self.status_synonyms, Vocabulary):
            msgspec.structs.force_setattr(
                self, "status_synonyms", Vocabulary(self.status_synonyms)
            )

    @cached_property
    def _derived(self) -> dict[str, Any]:
        return {}

    def derived(self, name: str, compute: Callable[[], T]) -> T:
        """State derived from these options alone (the parser's status-heading probe),
        computed on first use and kept on them: it lives as long as the run's options do."""
        memo = self._derived
        if name not in memo:
            memo[name] = compute()
        return cast(T, memo[name])


DEFAULT_IMPACT_MANIFEST = ".adrguard-impact.json"


def manifest_path(options: Options) -> str:
    """Repo-relative path of the impact manifest (config key ``impact.manifest``). It lives
    here, not in :mod:`adrguard.core.impact.mapping`, so discovery can name the file without
    importing the parser."""
    return (options.impact.manifest or "").strip() or DEFAULT_IMPACT_MANIFEST


DEFAULT_FITNESS_MANIFEST = ".adrguard-fitness.json"


def fitness_path(options: Options) -> str:
    """Repo-relative path of the fitness manifest (config key ``verify.rules``); here, beside
    :func:`manifest_path`, so discovery can name the file without importing the parser."""
    return (options.verify.rules or "").strip() or DEFAULT_FITNESS_MANIFEST
