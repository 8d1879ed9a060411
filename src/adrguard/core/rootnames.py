"""What makes a folder an ADR root when nothing is configured: pure judgements on path strings
and on parsed records, used by :mod:`adrguard.adapters.roots`.

Three kinds of evidence, weakest last:

* a folder **named** like a decision log (``adr``, ``ADRs``, ``decisions``, ``decision-records``,
  ``architecture-decision-record``, ...; any case) at the top of the repository or below a
  documentation folder (``docs/**/adr``, ``packages/*/docs/adr``, ``doc/architecture/decisions``);
* a folder whose markdown files carry **numbered or dated names** (``0007-x.md``, ``adr-12.md``,
  ``ADR021-x.md``, ``2023-03-02-x.md``, ``20200925-x.md``) and whose records, once parsed,
  **look like decision records** (a status, or context and decision headings).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Status

# Folder names of decision logs (casefolded; "-", "_" and " " are the same).
LOG_NAMES = frozenset(
    {
        "adr",
        "adrs",
        "decisions",
        "decision-record",
        "decision-records",
        "decision-log",
        "architecture-decision-record",
        "architecture-decision-records",
        "architectural-decision-records",
        "architecture-decisions",
        "architectural-decisions",
    }
)
# Ancestors that make a named folder documentation rather than code (``src/decisions/``).
DOC_PARTS = frozenset({"doc", "docs", "documentation", "architecture", "design", "handbook"})
# Folders never searched: dependencies, build output, test data and examples (a fixture log
# is not the project's log).
NEVER = frozenset(
    {
        "test",
        "tests",
        "testdata",
        "test-data",
        "fixtures",
        "__fixtures__",
        "golden",
        "example",
        "examples",
        "node_modules",
        "vendor",
        "third_party",
        "third-party",
        "site-packages",
        "bower_components",
        "dist",
        "build",
        "_build",
        "target",
        "_site",
        "venv",
    }
)
MAX_DEPTH = 8  # a root deeper than this many folders is never detected

# ``0007-x``, ``007_x``, ``12``; ``adr-12``, ``ADR021-x``, ``scs-0118-v1-x``, ``dr 3``;
# ``2023-03-02-x``, ``20200925-x``, ``2023-03-x``. The number ends the name or is followed by a
# separator (``2fa-setup`` is not a numbered name).
_NUMBERED = lazy(
    r"^(?:[a-z]{1,8}[-_ ]?)?\d{1,5}(?:[-_. ]|$)"
    r"|^\d{4}-?\d{2}(?:-?\d{2})?(?:[-_. ]|$)",
    re.IGNORECASE,
)
_CONTEXT = frozenset(
    {"context", "context and problem statement", "problem statement", "background", "problem"}
)
_DECISION = frozenset(
    {"decision", "decision outcome", "considered options", "consequences", "decision drivers"}
)
_STRONG_SOURCES = frozenset({"front-matter", "section", "heading"})
_HEADING_NUMBER = lazy(r"^[\d.]+\s+|:$")


def fold(name: str) -> str:
    return name.casefold().replace("_", "-").replace(" ", "-")


def is_log_name(name: str) -> bool:
    """A folder name decision logs use (any case)."""
    return fold(name) in LOG_NAMES


def is_searchable(parts: Sequence[str]) -> bool:
    """A folder worth looking at: not hidden, not a dependency or build folder, not too deep."""
    return len(parts) <= MAX_DEPTH and not any(
        p.startswith(".") or p.casefold() in NEVER for p in parts
    )


def named_root(folder: str, numbered: bool = False) -> bool:
    """A folder named like a decision log, at the top level or below a documentation folder
    (``ADR``, ``decisions``, ``docs/adr``, ``docs/developer/decision-records``,
    ``services/api/docs/adr``), or anywhere else when it holds ``numbered`` markdown files
    (``tools/adr/0001-x.md``); not ``src/decisions`` holding a README."""
    parts = folder.split("/")
    if not is_log_name(parts[-1]) or not is_searchable(parts):
        return False
    return numbered or len(parts) == 1 or any(p.casefold() in DOC_PARTS for p in parts[:-1])


def is_numbered(name: str) -> bool:
    """A markdown file or record folder whose name carries a sequence number or a date."""
    stem = name[: -len(".markdown")] if name.lower().endswith(".markdown") else name
    stem = stem[:-3] if stem.lower().endswith(".md") else stem
    return bool(_NUMBERED.match(stem))


def _title(section_title: str) -> str:
    return _HEADING_NUMBER.sub("", section_title.strip()).strip().casefold()


def looks_like_record(d: Decision) -> bool:
    """A parsed file that reads like a decision record: it states a status in front matter, a
    status section or heading (or a recognised status on a ``Status:`` line), or it has both a
    context heading and a decision heading."""
    for s in d.statuses:
        if s.source in _STRONG_SOURCES or s.status is not Status.UNKNOWN:
            return True
    titles = {_title(s.title) for s in d.sections}
    return not titles.isdisjoint(_CONTEXT) and not titles.isdisjoint(_DECISION)


def sample(names: Sequence[str], size: int) -> list[str]:
    """At most ``size`` of ``names`` (sorted), evenly spread, first and last included."""
    ordered = sorted(names)
    if len(ordered) <= size:
        return ordered
    step = (len(ordered) - 1) / (size - 1)
    return [ordered[round(i * step)] for i in range(size)]
