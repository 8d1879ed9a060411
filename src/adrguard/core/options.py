"""Settings the parser and the rules read. Pure data; ``adrguard.config`` builds it from TOML.

Every field has a default so that ``Options()`` is the built-in behaviour.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adrguard.core.vocabulary import STATUS_HEADINGS, STATUS_SYNONYMS

# The built-in status vocabulary and status headings (sources in :mod:`.vocabulary`). Users
# extend them with the ``statuses`` and ``status-headings`` config keys.
DEFAULT_STATUS_SYNONYMS: Mapping[str, str] = STATUS_SYNONYMS
DEFAULT_STATUS_HEADINGS: tuple[str, ...] = STATUS_HEADINGS

# Required sections per format (casefolded titles; an entry "a|b" accepts either).
DEFAULT_REQUIRED_SECTIONS: Mapping[str, tuple[str, ...]] = {
    "nygard": ("context", "decision", "consequences"),
    "madr2": ("context and problem statement", "decision outcome"),
    "madr3": ("context and problem statement", "decision outcome"),
    "madr4": ("context and problem statement", "decision outcome"),
    "log4brains": ("context and problem statement", "decision outcome"),
    "generic": (),
}


@dataclass(frozen=True)
class Options:
    """Settings for the parser and the rules; ``Options()`` is the built-in behaviour."""

    status_synonyms: Mapping[str, str] = field(
        default_factory=lambda: dict(DEFAULT_STATUS_SYNONYMS)
    )
    status_headings: tuple[str, ...] = DEFAULT_STATUS_HEADINGS
    required_sections: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(DEFAULT_REQUIRED_SECTIONS)
    )
    # Conventions: None (or empty) = learn from each log; a configured value always wins.
    filename_pattern: str | None = None  # ADR107: regex every record name must match
    sections_configured: tuple[str, ...] = ()  # formats whose required-sections the config set
    require_status: bool | None = None  # ADR102: True every record, False never
    date_format: str | None = None  # ADR109: strftime format every date must use
    supersession_both_sides: bool | None = None  # ADR304: True/False instead of learning
    decision_id_pattern: str = r"\bADR[- ]?(\d{1,5})\b"
    max_file_size: int = 1024 * 1024
    today: str | None = None  # ISO date; ADR109 treats later dates as future (None: no check)
    frontmatter_schema: Mapping[str, Any] | None = None
    index: Mapping[str, Any] = field(default_factory=dict)
    current: Mapping[str, Any] = field(default_factory=dict)
    impact: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    archive_dirs: tuple[str, ...] = ("archive",)  # folder names below a root (config archive-dirs)


DEFAULT_IMPACT_MANIFEST = ".adrguard-impact.json"


def manifest_path(options: Options) -> str:
    """Repo-relative path of the impact manifest (config key ``impact.manifest``). It lives
    here, not in :mod:`.mapping`, so discovery can name the file without importing the parser."""
    value = options.impact.get("manifest", DEFAULT_IMPACT_MANIFEST)
    return str(value).strip() or DEFAULT_IMPACT_MANIFEST
