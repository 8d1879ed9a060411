"""``context --domain`` and ``--iteration``: which records a log says belong to a domain or an
iteration. Pure.

Only what a log states is read, nothing is guessed from prose:

* **domain** — the values of the front-matter keys ``domain``, ``domains``, ``category`` and
  ``categories`` (a string or a list), and the folders between the record's ADR root and its
  file (``docs/adr/payments/0003-x.md`` is in ``payments``; ``docs/adr/api/v2/0001-x.md`` in
  ``api`` and ``v2``), leaving out the archive folders (``archive-dirs``) and, for a record
  that is its folder's ``README.md`` or ``index.md`` (one folder per record), that folder;
* **iteration** — the values of the front-matter keys ``iteration``, ``iterations``,
  ``milestone`` and ``release`` (a string, a number or a list).

Values are compared as slugs: casefolded, every run of characters other than letters and digits
made one ``-``, without leading or trailing ``-`` (``Payments API`` = ``payments-api``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision

DOMAIN_KEYS = ("domain", "domains", "category", "categories")
ITERATION_KEYS = ("iteration", "iterations", "milestone", "release")
_OWN_FOLDER_FILES = frozenset({"readme.md", "index.md"})
_NON_WORD = lazy(r"[^\w]+|_+")


def slug(text: str) -> str:
    return _NON_WORD.sub("-", text.casefold()).strip("-")


def _values(d: Decision, keys: Sequence[str]) -> list[str]:
    out: list[str] = []
    for key in keys:
        value = d.front_matter.get(key)
        items: Iterable[object] = value if isinstance(value, list | tuple) else (value,)
        for item in items:
            if isinstance(item, str | int | float) and not isinstance(item, bool):
                text = slug(str(item))
                if text:
                    out.append(text)
    return out


def domains(d: Decision, archive_dirs: Collection[str] = ("archive",)) -> tuple[str, ...]:
    """The domains ``d`` states (see the module docstring), in order, each once."""
    found = _values(d, DOMAIN_KEYS)
    rel = d.path if d.root in ("", ".") else d.path[len(d.root) + 1 :]
    folders = rel.split("/")[:-1]
    if folders and rel.rsplit("/", 1)[-1].casefold() in _OWN_FOLDER_FILES:
        folders = folders[:-1]
    archived = {a.casefold() for a in archive_dirs}
    found += [slug(f) for f in folders if f.casefold() not in archived and slug(f)]
    return tuple(dict.fromkeys(found))


def iterations(d: Decision) -> tuple[str, ...]:
    """The iterations ``d`` states (see the module docstring), in order, each once."""
    return tuple(dict.fromkeys(_values(d, ITERATION_KEYS)))


def select(
    corpus: Corpus,
    *,
    domain: str | None = None,
    iteration: str | None = None,
    archive_dirs: Collection[str] = ("archive",),
) -> list[Decision]:
    """The records in ``domain`` and ``iteration`` (both, when both are given), in the
    corpus's order."""
    want_d = slug(domain) if domain is not None else None
    want_i = slug(iteration) if iteration is not None else None
    return [
        d
        for d in corpus.decisions
        if (want_d is None or want_d in domains(d, archive_dirs))
        and (want_i is None or want_i in iterations(d))
    ]


def known(
    corpus: Corpus, what: str, archive_dirs: Collection[str] = ("archive",)
) -> list[str]:
    """Every domain (``what="domain"``) or iteration the log states, sorted."""
    values: set[str] = set()
    for d in corpus.decisions:
        values.update(domains(d, archive_dirs) if what == "domain" else iterations(d))
    return sorted(values)
