"""Format detection and the per-format fields: numbers from file names, titles, label lines.

Formats: ``nygard`` (adr-tools), ``madr2`` (``* Status:`` bullets), ``madr3`` / ``madr4`` (YAML
front matter), ``log4brains`` (MADR 2 bullets with ``YYYYMMDD-slug`` names) and ``generic``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from adrguard.core.adrformat import Signals, recognise
from adrguard.core.lazyre import lazy
from adrguard.core.parse import ids

if TYPE_CHECKING:
    from adrguard.core.model import Corpus

# File names -------------------------------------------------------------------------------
_DATED = lazy(r"^(?:\d{8}|\d{4}-\d{2}-\d{2})(?:[-_ .]|$)")
_FOLDER_FILES = frozenset({"readme.md", "index.md", "readme.markdown", "index.markdown"})

# Titles -----------------------------------------------------------------------------------
_HEADING_ATTRS = lazy(r"\s*\{#[^}]*\}\s*$")
_TYPE_LABEL = lazy(
    r"^(?:architecture\s+decision\s+record\s*[:\-–]\s*|architecture\s+decision\s+record\s+(?=\d)"
    r"|decision\s+record\s*:\s*|Decision Record\s+(?=[A-Z])"
    # a bare document-type label without a number: ``RFC: Use X``, ``ADR: Use X``
    r"|(?:adr|rfc|pep|kep|dep)\s*:\s*(?=\S))",
    re.I,
)
# What a _TYPE_LABEL match starts with (lower case): a title that starts otherwise in ASCII
# letters has none, and the pattern is neither tried nor compiled. (Other characters may match
# a letter of it case-insensitively: the Kelvin sign matches ``k``.)
_TYPE_LABEL_HEADS = frozenset({"arc", "dec", "adr", "rfc", "pep", "kep", "dep"})
_ADR_NUMBER = lazy(r"^(?:adr|rfc)[-_ #]*(\d+)\b\s*[:.)\-–—]?\s*", re.I)
_LEADING_NUMBER = lazy(r"^(\d+)(?:\s*[.:)]\s*|\s*[-–—]\s*|\s+(?=\S))")
_TEMPLATE_NUMBER = lazy(r"^(?:n|N|x|X|nnnn|NNNN|XXXX)\s*[.:]\s+")
_INLINE_MARKUP = lazy(r"(?<!\w)[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?!\w)|`")
_MD_LINK = lazy(r"!?\[([^\]]*)\]\([^)]*\)")
_PLACEHOLDERS = frozenset(
    {
        "title",
        "adr title",
        "title of the decision record",
        "short title of solved problem and solution",
        "short title, representative of solved problem and found solution",
        "decision title",
        "record title",
    }
)
# A template's title left in place: ``{title}``, ``[short title of solved problem]``,
# ``Title (a description of the decision)``, ``ADR {NUMBER}: {TITLE}`` (any language).
_BRACKETED = lazy(r"\{[^{}]*\}|\[[^\[\]]*\]|<[^<>]*>")
_LETTER_WORDS = lazy(r"[^\W\d_]+")
_ID_WORDS = frozenset({"adr", "rfc", "dr", "decision", "record", "architecture", "number"})
_FILLER_ID = lazy(r"^(?:x+|n+|y+|#+)$")  # ADR-XXXX, NNNN: a template's number
_TITLE_WORDS = r"(?:title|titre|título|titolo|titel|заголовок|название|标题|標題|タイトル|제목)"
_TITLE_WORD = lazy(
    r"^(?:(?:short|brief|adr|decision|record|your|the)\s+)*" + _TITLE_WORDS
    + r"\b(?:\s*$|\s*[(\-–—,]|\s*:\s*$|\s+(?:of|here|goes)\b)",
)
# The characters a _TITLE_WORD match can start with (it is case-sensitive, on folded text).
_TITLE_WORD_FIRST = frozenset("sbadrytзн标標タ제")
_TITLE_LABEL = lazy(r"^" + _TITLE_WORDS + r"\s*[:：]\s*(?=\S)", re.I)  # "Title: Use X"
_ANY_TITLE_WORD = lazy(r"(?<!\w)" + _TITLE_WORDS + r"(?!\w)")
_WRAPPED = lazy(r"^\s*(?:\[([^\[\]]+)\]|\{([^{}]+)\}|<([^<>]+)>)\s*$")

# Label lines (``Status: x``, ``* Date: y``) --------------------------------------------------
# The label's repeat is greedy: the label ends before the line's first colon either way, and
# a greedy label only adds the spaces before that colon, which :func:`label_line` strips; a
# lazy repeat tried the rest of the pattern after every character of the label.
_LABEL_LINE = lazy(r"^\s*([^\W\d][\w \-()（）/]{0,40})\s*[:：]\s*(\S.*)$")
_DATE_LABELS = frozenset(
    {"date", "datum", "fecha", "data", "created", "decision date", "日期", "日付", "날짜", "дата"}
)
_BARE_DATE = lazy(
    r"^(?:(?:date|created|datum|decided|fecha)\b\s*[:\-–]?\s*)?"
    r"(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4})\.?$",
    re.I,
)
_MADR2_LABELS = frozenset({"deciders", "decision-makers", "technical story", "consulted"})

_EMPHASIS = lazy(r"^[*_]+")
_MADR_SECTIONS = frozenset({"context and problem statement", "decision outcome"})


def path_parts(path: str) -> tuple[str, str]:
    """(file name, parent folder name) of a repo-relative POSIX path."""
    parts = path.rsplit("/", 2)
    name = parts[-1]
    folder = parts[-2] if len(parts) >= 2 else ""
    return name, folder


def _stem(name: str) -> str:
    for ext in (".markdown", ".md", ".mdx", ".txt"):
        if name.lower().endswith(ext):
            return name[: -len(ext)]
    return name


def is_folder_record(path: str, root: str) -> bool:
    """``<root>/.../<slug>/README.md``: one folder per record, the folder names it."""
    name, folder = path_parts(path)
    if name.lower() not in _FOLDER_FILES or not folder:
        return False
    parent = path.rsplit("/", 1)[0] if "/" in path else ""
    return parent not in ("", root, root.rstrip("/"))


def record_name(path: str, root: str) -> str:
    """The name that identifies a record: the file stem, or the folder of a folder record."""
    name, folder = path_parts(path)
    return folder if is_folder_record(path, root) else _stem(name)


def number_from_name(name: str) -> int | None:
    """``0012-x`` -> 12, ``adr-05`` -> 5, ``00011-x`` -> 11; None for dated names."""
    return ids.parse_name(name).number


def name_id(path: str, root: str) -> ids.NameId:
    """The id parts (prefix, number, version) of a record's name."""
    return ids.parse_name(record_name(path, root))


def identity(path: str, root: str) -> tuple[str, int | None]:
    """(fallback id, number) from a path: ``ADR-0012``, ``DR-0008``, or the name itself."""
    stem = record_name(path, root)
    parsed = ids.parse_name(stem)
    return parsed.id or stem, parsed.number


# What :meth:`Names.known` gives for one (path, root): the record name, whether it is a folder
# record, and the id parts of the name (prefix, number, version).
KnownName = tuple[str, str, str, bool, str, int | None, int | None]


class Names:
    """:func:`record_name`, :func:`is_folder_record` and :func:`name_id` of each (path, root)
    computed once for the object's lifetime: one run's corpus keeps one (:func:`names_of`), so
    the rules and the graph that ask about every record's name do not take the same path apart
    again and again (ADR 44). Never process-wide (ADR 36): it lives as long as its corpus."""

    __slots__ = ("_folders", "_ids", "_learned", "_names")

    def __init__(self) -> None:
        self._names: dict[tuple[str, str], str] = {}
        self._folders: dict[tuple[str, str], bool] = {}
        self._ids: dict[tuple[str, str], ids.NameId] = {}
        self._learned = 0

    def known(self) -> list[KnownName]:
        """Every (path, root) whose name this object took apart, with all three answers (the
        ones not asked yet worked out now): what a record cache keeps for the next run."""
        out: list[KnownName] = []
        for (path, root), name in self._names.items():
            found = self.name_id(path, root)
            out.append((path, root, name, self.is_folder_record(path, root), found.prefix,
                        found.number, found.version))
        return out

    def learn(self, known: Iterable[KnownName]) -> None:
        """Take the answers :meth:`known` gave in an earlier run of the same code (each depends
        on its path and root alone, ADR 53); later questions about them are answered from
        here."""
        for path, root, name, folder, prefix, number, version in known:
            key = (path, root)
            self._names[key] = name
            self._folders[key] = folder
            self._ids[key] = ids.NameId(prefix, number, version)
        self._learned = len(self._names)

    @property
    def grown(self) -> bool:
        """Whether this object took apart a name it did not :meth:`learn`."""
        return len(self._names) > self._learned

    def record_name(self, path: str, root: str) -> str:
        key = (path, root)
        found = self._names.get(key)
        if found is None:  # as record_name, with the folder test kept for is_folder_record
            name, folder = path_parts(path)
            found = folder if self.is_folder_record(path, root) else _stem(name)
            self._names[key] = found
        return found

    def is_folder_record(self, path: str, root: str) -> bool:
        key = (path, root)
        found = self._folders.get(key)
        if found is None:
            found = self._folders[key] = is_folder_record(path, root)
        return found

    def name_id(self, path: str, root: str) -> ids.NameId:
        key = (path, root)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = ids.parse_name(self.record_name(path, root))
        return found


def names_of(corpus: Corpus, start: Names | None = None) -> Names:
    """The :class:`Names` of ``corpus`` (kept on it: see :meth:`Corpus.derived`). ``start``:
    the one to keep when ``corpus`` has none yet, such as the one of the corpus it was made
    from (a record's name depends on its path and root alone, so any corpus may share it)."""
    return corpus.derived("record names", Names if start is None else lambda: start)


def same_names(source: Corpus, target: Corpus) -> Corpus:
    """``target`` (made from ``source`` with ``msgspec.structs.replace``, which keeps nothing
    derived) sharing ``source``'s :class:`Names`, so a run takes each name apart once."""
    names_of(target, names_of(source))
    return target


class Title(msgspec.Struct, frozen=True):
    text: str | None
    number: int | None


def render_inline(text: str) -> str:
    """Plain text of a short markdown string (front-matter titles): links, emphasis, code."""
    # Every _MD_LINK match holds a ``[`` and every _INLINE_MARKUP match a ``*``, ``_`` or
    # backtick: text without them is left as it is (most values), without the patterns.
    if "[" in text:
        text = _MD_LINK.sub(r"\1", text)
    if "*" in text or "_" in text or "`" in text:
        text = _INLINE_MARKUP.sub("", text)
    return text.strip()


def _without_type_label(title: str) -> str:
    """``_TYPE_LABEL.sub("", title)``, with the pattern tried only on a title that may hold it."""
    head = title[:3]
    if head.isascii() and head.lower() not in _TYPE_LABEL_HEADS:
        return title
    return _TYPE_LABEL.sub("", title)


def clean_title(text: str, own: ids.NameId | None = None) -> Title:
    """Strip number and type prefixes (and an id in the record's own scheme, ``DR002:``);
    None for an untouched template placeholder."""
    title = (_HEADING_ATTRS.sub("", text) if "{#" in text else text).strip()
    number: int | None = None
    stripped = False
    if own is not None:
        title, number = ids.strip_own_id(title, own)
        stripped = number is not None
    for _ in range(3):
        before = title
        title = _without_type_label(title).strip()
        m = None if stripped else _number_prefix(title)
        if m and m.end() < len(title):
            number = int(m.group(1))
            title = title[m.end() :].strip()
            stripped = True
        elif not stripped:
            t = (_TEMPLATE_NUMBER.sub("", title) if title[:1] in _TEMPLATE_FIRST
                 else title).strip()
            stripped = t != title
            title = t
        if title == before:
            break
    label = _TITLE_LABEL.match(title)
    if label:
        title = title[label.end() :]
    if not title or is_placeholder_title(title):
        return Title(None, number)
    # the template's brackets kept around a real title
    wrapped = _WRAPPED.match(title) if _WRAPPED_FIRST.intersection(title) else None
    return Title(next(g for g in wrapped.groups() if g).strip() if wrapped else title, number)


# Plain-string guards of clean_title: the first characters a match of each pattern can start
# with (``^``-anchored; _WRAPPED's after white space, so any opening bracket in the title)
_ADR_FIRST = frozenset("aArR")
_TEMPLATE_FIRST = frozenset("nNxX")
_WRAPPED_FIRST = frozenset("[{<")


def _number_prefix(title: str) -> re.Match[str] | None:
    """``_ADR_NUMBER.match(title) or _LEADING_NUMBER.match(title)``, each tried only on a title
    that starts as its match must (a letter of ``adr``/``rfc``; a digit)."""
    first = title[:1]
    m = _ADR_NUMBER.match(title) if first in _ADR_FIRST else None
    if m is None and first.isdigit():
        m = _LEADING_NUMBER.match(title)
    return m


def _is_title_word(folded: str) -> bool:
    """Whether ``_TITLE_WORD`` matches ``folded`` (tried only on text that starts as it must)."""
    return folded[:1] in _TITLE_WORD_FIRST and _TITLE_WORD.match(folded) is not None


def is_placeholder_title(title: str) -> bool:
    """Whether a title is a template's placeholder left in place: a known placeholder, a
    ``Title (...)`` line, or bracketed template text that names the title (``{TITLE}``,
    ``[titre du problème résolu]``) with nothing but an id around it."""
    folded = title.casefold().strip()
    if folded.strip("{}[]<> ") in _PLACEHOLDERS or _is_title_word(folded):
        return True
    groups = _BRACKETED.findall(folded)
    if not groups or not any(_ANY_TITLE_WORD.search(g) for g in groups):
        return False
    rest = _BRACKETED.sub(" ", folded)
    return all(w in _ID_WORDS or _FILLER_ID.match(w) for w in _LETTER_WORDS.findall(rest))


_METADATA_LABELS = frozenset(
    {"status", "state", "date", "created", "updated", "author", "authors", "owner", "owners",
     "deciders", "type", "category", "tags"}
)
_SECTION_OPENERS = frozenset(
    {"context", "decision", "decisions", "consequences", "status", "considered", "pros",
     "problem", "background", "summary", "abstract"}
)
# Headings that open a record's body as a section, never as its title.
_SECTION_WORDS = frozenset(
    {
        "status", "state", "context", "background", "problem", "problem statement", "decision",
        "decision outcome", "consequences", "summary", "simple summary", "abstract", "preamble",
        "metadata", "motivation", "overview", "introduction", "table of contents", "contents",
        "toc", "goals", "scope", "description", "proposal", "rationale", "history",
        "changelog", "references", "links", "authors", "owners", "header", "details",
    }
)


def may_be_title(heading: str) -> bool:
    """Whether a heading that opens the body can be its title: not a section's name (Status,
    Context, Summary, Preamble...), not a status heading, a label (``Status: X``) or a list."""
    folded = " ".join(re.sub(r"[^\w\s]", " ", heading.casefold()).split())
    if not folded or folded in _SECTION_WORDS or len(folded) > 200:
        return False
    if folded.split()[0] in _SECTION_OPENERS:  # Context and Problem Statement, Decision Drivers
        return False
    label = label_line(heading)
    return label is None or label[0] not in _METADATA_LABELS


def label_line(line: str) -> tuple[str, str] | None:
    """``Status: Accepted`` -> ("status", "Accepted"); label casefolded."""
    if ":" not in line and "：" not in line:  # the pattern needs one: most lines skip it
        return None
    m = _LABEL_LINE.match(line)
    if not m:
        return None
    return m.group(1).strip().casefold(), m.group(2).strip()


_CELL_MARKS = lazy(r"^[\s*_`]+|[\s*_`:：]+$")


def cell_label(text: str) -> str:
    """A table cell as a label: ``**Status:**`` -> ``status``."""
    return _CELL_MARKS.sub("", text).casefold()


def bare_date(text: str) -> str | None:
    """A line that is only a date (``June 19, 2018``, ``Date 09/04/2018``): the date."""
    if len(text) >= 40:
        return None
    stripped = text.strip()
    # Every match ends in a digit and an optional dot: a line whose last such character is
    # ASCII and no digit (most lines end in a letter or ``.`` after one) is not a date, without
    # compiling the pattern. (``\d`` matches digits of other scripts: those go to the pattern.)
    last = stripped[-2:-1] if stripped.endswith(".") else stripped[-1:]
    if last.isascii() and not last.isdigit():
        return None
    m = _BARE_DATE.match(stripped)
    return m.group(1) if m else None


def is_date_label(label: str) -> bool:
    return label in _DATE_LABELS


def detect(
    name: str,
    front_matter: Mapping[str, Any],
    section_titles: Iterable[str],
    header_labels: Iterable[str],
) -> str:
    """The record's format from its front matter keys, section titles and header bullets: the
    first entry of the registry (:mod:`adrguard.core.adrformat`) that recognises them."""
    sections = frozenset(s.casefold().strip() for s in section_titles)
    labels = frozenset(header_labels)
    bullets = "status" in labels or bool(labels & _MADR2_LABELS)
    return recognise(Signals(
        name=name,
        sections=sections,
        labels=labels,
        keys=frozenset(str(k).casefold() for k in front_matter),
        madr_sections=bool(sections & _MADR_SECTIONS),
        bullets=bullets,
        dated_name=bool(_DATED.match(name)) and len(name.split("-", 1)[0]) == 8,
    ))


# Front matter that declares what a document is; these values say it is not a decision record.
_TYPE_KEYS = ("type", "doc-type", "doc_type", "doctype", "document-type", "document_type", "kind")
_NON_DECISION_TYPES = frozenset(
    {
        "supplement", "supplementary", "guide", "guidance", "template", "how-to", "howto",
        "tutorial", "index", "toc", "glossary", "faq", "changelog", "readme", "overview",
        "example", "sample", "appendix", "annex", "notes", "minutes", "runbook", "playbook",
        "report",
    }
)


# A file named as a template in any case or language (``TEMPLATE.md``, ``_template.md``,
# ``adr_Template.md``, ``0000-modele.md``, ``vorlage.md``): the word stands between separators.
_TEMPLATE_NAME = lazy(
    r"(?:^|[-_. ])(?:template|modele|modèle|vorlage|plantilla|sjabloon|szablon|шаблон|模板"
    r"|テンプレート|템플릿)(?=$|[-_. ])"
)
_NONZERO = lazy(r"0*[1-9]\d*")


def template_name(path: str) -> bool:
    """Whether a file's name says it is a template: the word in any case, and no number in the
    name but zero (``0012-use-a-template-engine.md`` is a record)."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].casefold()
    return bool(_TEMPLATE_NAME.search(stem)) and not any(
        _NONZERO.fullmatch(n) for n in re.findall(r"\d+", stem)
    )


# A template's picture of a date (``YYYY-MM-DD``, ``AAAA-MM-JJ``, ``TT.MM.JJJJ``, ``dd/mm/yyyy``).
_DATE_PICTURE = lazy(
    r"(?<![^\W\d_])(?:yyyy|aaaa|jjjj|tttt|dd|jj|tt)[-/.](?:mm)[-/.]?|(?<![^\W\d_])mm[-/.]"
    r"(?:dd|jj|tt|yyyy|aaaa)(?![^\W\d_])|(?<![^\W\d_])(?:yyyy|aaaa|jjjj)(?![^\W\d_])",
    re.I,
)


# A date the record says is not known yet: ``TBD``, ``N/A``, ``2024-??-??``, ``2025-XX-XX``.
_UNKNOWN_DATE = lazy(
    r"^[*_`]*(?:tb[dac]|n/?a|unknown|pending|none|-+|\?+"
    r"|\d{4}(?:[-/.](?:\d{1,2}|\?\?|xx))?[-/.](?:\?\?|xx))[*_`.]*$",
    re.I,
)


def unknown_date(value: str) -> bool:
    """Whether a date value says the date is not known yet (``TBD``, ``N/A``, ``2024-??-??``):
    kept as written, but no date to judge."""
    return _UNKNOWN_DATE.match(value.strip()) is not None


def date_placeholder(value: str) -> bool:
    """Whether a date value is a template's help text, not a date: it holds no year and either
    a picture of a date (``[YYYY-MM-DD when the decision was last updated]``) or nothing but a
    bracketed placeholder (``{date}``, ``<date>``)."""
    text = value.strip()
    if re.search(r"\d{4}", text):
        return False
    braced = text[:1] in "[{<" and text[-1:] in "]}>" and not re.search(r"\d", text)
    return braced or _DATE_PICTURE.search(text) is not None


def non_record_type(front_matter: Mapping[str, Any]) -> str | None:
    """The declared type of a document that is not a decision record (``type: Supplement``,
    ``type: guide``, ``doc_type: template``; a type's last word counts: ``Implementation
    Notes``), or None. Any other type (Standard, Decision Record, RFC, Process...) is a record."""
    folded = {str(k).casefold(): v for k, v in front_matter.items()}
    for key in _TYPE_KEYS:
        value = scalar(folded.get(key))
        if value is None:
            continue
        words = value.casefold().replace("_", " ").split()
        if words and (" ".join(words) in _NON_DECISION_TYPES or words[-1] in _NON_DECISION_TYPES):
            return value
    return None


def _strings(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    out = (str(v).strip() for v in items if v is not None and not isinstance(v, dict | list | bool))
    return tuple(v for v in out if v)


def governed(front_matter: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(paths, components) a record governs: ``affected-paths``, ``affected-components``, ``scope``.

    ``scope`` entries that look like paths (a ``/`` or ``*``) are paths, the rest components.
    """
    paths: list[str] = []
    comps: list[str] = []
    for key, value in front_matter.items():
        folded = key.casefold().replace("_", "-")
        if folded in ("affected-paths", "affectedpaths", "governed-paths"):
            paths.extend(_strings(value))
        elif folded in ("affected-components", "affectedcomponents", "governed-components"):
            comps.extend(_strings(value))
        elif folded == "scope":
            for item in _strings(value):
                (paths if ("/" in item or "*" in item) else comps).append(item)
    return tuple(dict.fromkeys(paths)), tuple(dict.fromkeys(comps))


def unwrap_emphasis(label: str, value: str) -> str:
    """``**Status:** Accepted`` -> ``Accepted``: drop emphasis that opened before the colon."""
    lead = _EMPHASIS.match(value)
    if lead and label.count(lead.group()) % 2 == 1:
        return value[lead.end() :].strip()
    return value


def flow_text(value: Any) -> str | None:
    """A template's braces that YAML read as a mapping or a list, as text again:
    ``{proposed | accepted}`` (a key without a value) -> ``{proposed | accepted}``,
    ``[proposed, accepted]`` -> ``[proposed, accepted]``; None for other values."""
    if isinstance(value, dict) and value and all(v is None for v in value.values()):
        return "{" + ", ".join(str(k) for k in value) + "}"
    if isinstance(value, list) and value and all(isinstance(v, str | int) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return None


def scalar(value: Any) -> str | None:
    """A front-matter value as a non-empty string; None for mappings, lists, booleans, nulls."""
    if value is None or isinstance(value, dict | list | tuple | set | bool):
        return None
    out = str(value).strip()
    return out or None
