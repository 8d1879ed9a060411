"""Files under an ADR root that read as records by name but are not decision records, found by
their content and their place in the log (a file's name alone never decides):

* **an index**: a file whose name carries no number, that states no status and links to three
  or more of its log's records, a third of them or more (``decision_records/decision_records.md``
  listing every record by area);
* **a part of a record**: a file in a folder named after one of the log's records by its id or
  numbered name (``resources/ADR-51/profile-files.md``, the auxiliary files of ADR-51) that states
  no status and is not itself named like a record;
* **an example or a template**: a file named as an example or a sample, or numbered zero, whose
  title or status is still a template's placeholder (``# ADR 000 - {title}`` with the template's
  help text as its status);
* **a journal**: a sub-folder of dated, unnumbered files (``BiweeklyMeetings/2020-07-01.md``,
  three or more; never the log's archive) in a log whose other records are numbered (three
  quarters of them): meeting notes or a diary kept beside the log, not records of it;
* **a redirect**: a file left behind when a record moved: its status is ``Moved``, or its whole
  text is a short note (:data:`REDIRECT_WORDS` words at most, no status, no sections) saying
  that it moved or was renamed, with a link or an address (``Moved to [CIP-0003/README.md](..)``);
* **a repository file**: a file in a hidden folder under the root
  (``.github/ISSUE_TEMPLATE/bug.md``, a pull request checklist with a status field); or one
  that states no status, carries no number in its name, and is named as a repository names
  its community, agent or overview files, in any case (``CODE_OF_CONDUCT.md``,
  ``CONTRIBUTING.md``, ``GOVERNANCE.md``, ``AGENTS.md``, ``Readme.md``, ``_index.md``,
  ``FAQ.md``);
* **an asset**: a file that states no status and carries no number in its name, in a folder of
  attachments, assets, images or media under the log (``attachments/setup-notes.md``);
* **a guide**: in a log whose other records are numbered and state a status (three quarters of
  them, :data:`GUIDE_LOG` records at least), a file that does neither and has no heading a
  decision record writes (context, decision, status, problem, proposal, …): an installation
  guide or a tool's README kept beside the records (``install.md``, ``tools/README.md``).

Pure: works on the parsed records. :func:`non_records` says which and why; discovery lists them
as skipped, like indexes and templates found by name.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from urllib.parse import unquote

from adrguard.core.conventions.log import states_status
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Status
from adrguard.core.parse import formats, ids

MIN_LISTED = 3  # records an index links to, at least
REDIRECT_WORDS = 40  # the longest text a redirect note may be
_MOVED = lazy(
    r"\b(?:moved|renamed|relocated|migrated)\s+(?:to|into|over\s+to)\b|\bhas\s+moved\b"
    r"|\bnow\s+lives\s+(?:at|in)\b",
    re.I,
)
_MOVED_STATUS = lazy(r"^\W*(?:moved|relocated)\b", re.I)
_EXAMPLE_NAME = lazy(r"(?:^|[-_. ])(?:example|examples|sample|samples|demo)(?=$|[-_. ])")


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _linked(d: Decision) -> set[str]:
    """Repository paths the record's (non-image) links point to."""
    base = posixpath.dirname(d.path)
    out: set[str] = set()
    for link in d.links:
        target = link.target.strip()
        if link.is_image or not target or "://" in target or target.startswith(("#", "mailto:")):
            continue
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path:
            continue
        joined = path.lstrip("/") if path.startswith("/") else posixpath.join(base, path)
        out.add(posixpath.normpath(joined))
    return out


def _is_index(d: Decision, paths: frozenset[str]) -> bool:
    """``paths``: the log's paths (``d``'s among them), gathered once per log, not per record."""
    if states_status(d) or ids.parse_name(_stem(d.path)).number is not None:
        return False
    listed = _linked(d) & paths
    listed.discard(d.path)
    others = len(paths) - (d.path in paths)
    return len(listed) >= MIN_LISTED and 3 * len(listed) >= others


def _record_names(log: list[Decision], names: formats.Names) -> set[tuple[str, int] | str]:
    """What names a record of the log: its (id family, number) and its stem."""
    out: set[tuple[str, int] | str] = set()
    for d in log:
        name = names.record_name(d.path, d.root)
        out.add(name.casefold())
        parsed = names.name_id(d.path, d.root)
        if parsed.number is not None:
            out.add((_family(parsed.prefix), parsed.number))
    return out


def _lazy_names(
    log: list[Decision], run_names: formats.Names
) -> Callable[[], set[tuple[str, int] | str]]:
    """:func:`_record_names` of the log, gathered on the first call and kept for the next."""
    kept: list[set[tuple[str, int] | str]] = []

    def names() -> set[tuple[str, int] | str]:
        if not kept:
            kept.append(_record_names(log, run_names))
        return kept[0]

    return names


def _family(prefix: str) -> str:
    return "" if prefix in ("", "adr", "decision", "record") else prefix


def _names_record(folder: str, names: set[tuple[str, int] | str]) -> bool:
    """A folder named after a record by its id or numbered name (``ADR-51``, ``3392-council``);
    a word alone (``monitoring``) may be an area that a record is named after too."""
    token = ids.id_token(folder)
    if token is not None:
        return (_family(token[0]), token[1]) in names
    return ids.parse_name(folder).number is not None and folder.casefold() in names


def _is_part(d: Decision, names: Callable[[], set[tuple[str, int] | str]]) -> bool:
    """``names``: the log's :func:`_record_names`, gathered on the first question that needs
    them (a record directly under the root, numbered or stating a status, never does)."""
    if states_status(d) or formats.is_folder_record(d.path, d.root):
        return False
    rel = d.path[len(d.root) + 1 :] if d.root not in ("", ".") else d.path
    folders = rel.split("/")[:-1]
    if not folders or ids.parse_name(_stem(d.path)).number is not None:
        return False
    known = names()
    return any(_names_record(f, known) for f in folders)


def _is_example(d: Decision) -> bool:
    placeholder_title = d.title is None and d.title_raw is not None
    template_status = d.status is Status.UNKNOWN and bool(d.status_raw)
    if not (placeholder_title or template_status):
        return False  # (tested first: most records have a title and a known status)
    stem = _stem(d.path).casefold()
    named = any(w in stem for w in ("example", "sample", "demo")) and _EXAMPLE_NAME.search(stem)
    return bool(named) or ids.parse_name(stem).number == 0


def _may_say_moved(status: str) -> bool:
    """What any match of ``_MOVED_STATUS`` needs: ``moved`` or ``relocated`` in any case (no
    other character matches their letters when case is ignored)."""
    lowered = status.lower()
    return "moved" in lowered or "relocated" in lowered


def _is_redirect(d: Decision) -> bool:
    if d.status_raw and _may_say_moved(d.status_raw) and _MOVED_STATUS.match(d.status_raw):
        return True
    if states_status(d) or any(section.level >= 2 for section in d.sections):
        return False  # tested before the words are counted: a record's text can be long
    words = d.text.split()
    if not words or len(words) > REDIRECT_WORDS:
        return False
    return bool(_MOVED.search(d.text)) and ("://" in d.text or bool(d.links))


# Names a repository gives its own paperwork (casefolded, ``-`` for ``_`` and `` ``).
REPOSITORY_FILES = frozenset({
    "readme", "index", "-index", "code-of-conduct", "contributing", "governance", "security",
    "support", "license", "licence", "copying", "notice", "changelog", "changes", "history",
    "authors", "contributors", "maintainers", "owners", "codeowners", "agents", "claude",
    "gemini", "copilot-instructions", "faq", "pull-request-template", "issue-template",
})
# Folders that hold a log's attachments rather than its records (casefolded).
ASSET_FOLDERS = frozenset({
    "attachments", "attachment", "assets", "asset", "images", "image", "img", "imgs", "media",
    "static", "figures", "diagrams", "files", "uploads",
})
_NAME_SEPARATORS = lazy(r"[-_ ]+")


def _folders(d: Decision) -> list[str]:
    rel = d.path[len(d.root) + 1 :] if d.root not in ("", ".") else d.path
    return rel.split("/")[:-1]


def _unnumbered_and_statusless(d: Decision) -> bool:
    return not states_status(d) and ids.parse_name(_stem(d.path)).number is None


def _is_repository_file(d: Decision) -> bool:
    if any(f.startswith(".") for f in _folders(d)):
        return True  # a hidden folder (.github/) holds the repository's tooling, never the log
    if not _unnumbered_and_statusless(d) or formats.is_folder_record(d.path, d.root):
        return False
    return _NAME_SEPARATORS.sub("-", _stem(d.path).casefold()) in REPOSITORY_FILES


def _is_asset(d: Decision) -> bool:
    return _unnumbered_and_statusless(d) and any(
        f.casefold() in ASSET_FOLDERS for f in _folders(d)
    )


GUIDE_LOG = 8  # other records a log needs before a file that is unlike all of them is a guide
_RECORD_HEADINGS = lazy(
    r"\b(?:context|decision|consequences?|status|problem|motivation|summary|proposal|background"
    r"|abstract|options?|outcome|rationale|goals?|alternatives|specification|design)\b",
    re.I,
)


def _guides(log: list[Decision]) -> set[str]:
    """Paths of the files that are guides kept beside a log (see the module docstring)."""
    numbered = [d for d in log if d.number is not None and states_status(d)]
    candidates = [
        d for d in log
        if _unnumbered_and_statusless(d)
        and not any(_RECORD_HEADINGS.search(sec.title) for sec in d.sections)
    ]
    rest = len(log) - len(candidates)
    if rest < GUIDE_LOG or 4 * len(numbered) < 3 * rest:
        return set()
    return {d.path for d in candidates}


_DATED_NAME = lazy(r"^(?:\d{4}-\d{2}-\d{2}|\d{8})(?:[-_ .]|$)")
JOURNAL_FILES = 3  # dated files a sub-folder holds before it is a journal


def _journals(log: list[Decision]) -> set[str]:
    """Paths of the dated files in sub-folders that are journals (see the module docstring)."""
    folders: dict[str, list[Decision]] = {}
    for d in log:
        rel = d.path[len(d.root) + 1 :] if d.root not in ("", ".") else d.path
        folder = rel.rpartition("/")[0]
        if folder and not formats.is_folder_record(d.path, d.root):
            folders.setdefault(folder, []).append(d)
    out: set[str] = set()
    for members in folders.values():
        if len(members) < JOURNAL_FILES:
            continue
        if not all(_DATED_NAME.match(_stem(d.path)) and d.number is None and not d.archived
                   for d in members):
            continue  # a dated series without numbers, outside the log's archive
        inside = {d.path for d in members}
        rest = [d for d in log if d.path not in inside]
        numbered = sum(1 for d in rest if d.number is not None)
        if len(rest) >= JOURNAL_FILES and 4 * numbered >= 3 * len(rest):
            out |= inside
    return out


def non_records(
    decisions: Iterable[Decision], run_names: formats.Names | None = None
) -> dict[str, str]:
    """Path -> what the file is (``index``, ``part``, ``example``, ``redirect``, ``journal``,
    ``repository``, ``asset``, ``guide``) for
    the files among ``decisions`` that are not decision records (see the module docstring).
    ``run_names``: the run's record names, when it has them already."""
    by_root: dict[str, list[Decision]] = {}
    for d in decisions:
        by_root.setdefault(d.root, []).append(d)
    out: dict[str, str] = {}
    if run_names is None:
        run_names = formats.Names()  # each record's name taken apart once
    for log in by_root.values():
        names = _lazy_names(log, run_names)
        paths = frozenset(d.path for d in log)
        journals = _journals(log)
        guides = _guides(log)
        for d in log:
            if d.path in journals:
                out[d.path] = "journal"
            elif _is_repository_file(d):
                out[d.path] = "repository"
            elif _is_asset(d):
                out[d.path] = "asset"
            elif d.path in guides:
                out[d.path] = "guide"
            elif _is_redirect(d):
                out[d.path] = "redirect"
            elif _is_example(d):
                out[d.path] = "example"
            elif _is_part(d, names):
                out[d.path] = "part"
            elif _is_index(d, paths):
                out[d.path] = "index"
    return out
