"""The templates of a log, and which one a record follows.

A log may keep more than one template: a general one and one for a kind of record (a
component specification, a process page). A record that follows a template is held to that
template's sections, not to its format's defaults: a section the template does not carry
(under any of the section's names or stand-ins) is not required of the records written from it.

A record *follows* a template when it writes at least :data:`MIN_SHARED` of the template's
second-level headings and at least half of them; of several, the one it shares most with (a
tie: none). Status headings, and headings every template of the log writes, tell nothing. The
templates arrive as bytes (``Corpus.other_texts``: files under a root named as templates).
Pure: no I/O.
"""

from __future__ import annotations

import msgspec

from adrguard.core.conventions.sections import Requirement, fold
from adrguard.core.model import Corpus, Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import formats
from adrguard.core.parse import status as st
from adrguard.core.vocabulary import STATUS_HEADINGS

_STATUS_WORDS = frozenset(STATUS_HEADINGS)
MIN_SHARED = 2  # headings a record must share with a template to follow it


class Template(msgspec.Struct, frozen=True):
    """A log's template: its path and its section headings (as written, and folded)."""

    path: str
    headings: tuple[str, ...]
    folded: frozenset[str]

    def carries(self, requirement: Requirement) -> bool:
        return any(requirement.carried_by(h) for h in self.headings)


def _under(path: str, root: str) -> bool:
    return root in ("", ".") or path.startswith(root.rstrip("/") + "/")


def of_log(corpus: Corpus, root: str, options: Options) -> tuple[Template, ...]:
    """The templates under ``root`` (not under a nested root), with two headings or more. The
    parser is imported only when there is a template to parse (a warm run imports it never)."""
    deeper = [r for r in corpus.roots if r != root and _under(r, root)]
    out: list[Template] = []
    for path, data in sorted(corpus.other_texts.items()):
        if not formats.template_name(path) or not _under(path, root):
            continue
        if any(_under(path, r) for r in deeper):
            continue
        from adrguard.core.parse.record import parse

        d = parse(SourceFile(path, root, data), options)
        headings = tuple(
            s.title for s in d.sections
            if s.level >= 2 and not st.is_status_heading(s.title, _STATUS_WORDS)
        )
        out.append(Template(path, headings, frozenset(fold(h) for h in headings) - {""}))
    if len(out) > 1:  # what every template writes tells none of them apart
        common = frozenset.intersection(*(t.folded for t in out))
        out = [Template(t.path, t.headings, t.folded - common) for t in out]
    return tuple(t for t in out if len(t.folded) >= MIN_SHARED)


def followed(d: Decision, templates: tuple[Template, ...]) -> Template | None:
    """The template ``d`` follows (see the module docstring), or None."""
    if not templates:
        return None
    own = {fold(s.title) for s in d.sections if s.level >= 2}
    scored = sorted(
        ((len(own & t.folded), t) for t in templates), key=lambda pair: -pair[0]
    )
    shared, best = scored[0]
    if shared < MIN_SHARED or 2 * shared < len(best.folded):
        return None
    if len(scored) > 1 and scored[1][0] == shared:
        return None  # as close to two templates: it follows neither
    return best
