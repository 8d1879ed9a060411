"""The file name of a new record, in the log's naming scheme. Pure.

The scheme is learned by :mod:`adrguard.core.conventions.naming` (structure, number width,
separators, extension, one folder per record); here it is applied: ``0007-use-kafka.md``,
``ADR-007-use-kafka.md``, ``adr_7_use_kafka.md``, ``20240531-use-kafka.md``,
``2024-05-31-use-kafka/README.md`` or ``use-kafka.md``.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from adrguard.core.conventions.naming import STRONG, Name, Scheme
from adrguard.core.lazyre import lazy

RECENT = 8  # the latest records that say where a new one goes
SLUG_LIMIT = 80  # characters of a slug; longer titles are cut at a word
_NOT_WORD = lazy(r"[^\w]+|_+")
_SEPARATORS = ("-", "_", " ", ".")
_APOSTROPHES = lazy(r"(?<=\w)['’](?=\w)")  # "log's" -> "logs"


@dataclass(frozen=True, slots=True)
class NameStyle:
    """How a log names its records."""

    kind: str = "numbered"  # numbered | dated | plain
    prefix: str = ""  # as written: "ADR", "adr", ""
    prefix_sep: str = ""  # between the prefix and the number
    width: int = 4  # digits of a zero-padded number
    padded: bool = True
    head_sep: str = "-"  # between the number (or date) and the slug
    word_sep: str = "-"  # between the words of the slug
    lower: bool = True  # slugs are lower case
    ext: str = ".md"
    folder_file: str | None = None  # "README.md" when each record is a folder
    compact_date: bool = False  # dated names: 20240531 rather than 2024-05-31
    subfolder: str = ""  # where below the root the log's records live ("" = in the root)
    slug: bool = True  # numbered names carry a slug (False: ``adr-07.md``, ``RFC-12.md``)
    plain_prefix: str = ""  # plain names: the word every one starts with (``adr-``)
    sequence: int = 0  # dated names: digits of the number after the date (``2024-05-31_035-x``)
    sequence_sep: str = "-"  # between that number and the slug


def slugify(title: str, sep: str = "-", lower: bool = True, limit: int = SLUG_LIMIT) -> str:
    """``Use Kafka for événements!`` -> ``use-kafka-for-evenements``: accents dropped,
    anything but letters and digits becomes one separator, cut at a word within ``limit``."""
    decomposed = unicodedata.normalize("NFKD", _APOSTROPHES.sub("", title))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = [w for w in _NOT_WORD.split(plain) if w]
    slug = ""
    for word in words:
        candidate = f"{slug}{sep}{word}" if slug else word
        if len(candidate) > limit and slug:
            break
        slug = candidate[:limit]
    slug = slug or "record"
    return slug.lower() if lower else slug


def stem(style: NameStyle, title: str, number: int | None, day: dt.date) -> str:
    """The record's name without its extension (or its folder's name)."""
    slug = slugify(title, style.word_sep or "-", style.lower)
    sep = style.head_sep or "-"
    if style.kind == "dated":
        head = day.strftime("%Y%m%d") if style.compact_date else day.isoformat()
        if style.sequence and number is not None:
            return f"{head}{sep}{number:0{style.sequence}d}{style.sequence_sep}{slug}"
        return f"{head}{sep}{slug}"
    if style.kind == "numbered" and number is not None:
        digits = f"{number:0{style.width}d}" if style.padded else str(number)
        head = f"{style.prefix}{style.prefix_sep}{digits}"
        return f"{head}{sep}{slug}" if style.slug else head
    return style.plain_prefix + slug


_SEQUENCE = lazy(r"^(\d{1,9})(?:([-_ .])|$)")


def sequence(name: Name) -> int | None:
    """The number that follows the date of a dated name (``2024-05-31_035-use-x``: 35)."""
    m = _SEQUENCE.match(name.slug) if name.kind == "dated" else None
    return int(m.group(1)) if m else None


def record_path(root: str, style: NameStyle, name: str) -> str:
    """Repository-relative path of a record named ``name`` in ``root``."""
    parts = [p for p in (root if root not in ("", ".") else "", style.subfolder) if p]
    if style.folder_file:
        parts += [name, style.folder_file]
    else:
        parts.append(name + style.ext)
    return "/".join(parts)


def _most(values: Iterable[object], default: object) -> object:
    counts = Counter(values)
    return counts.most_common(1)[0][0] if counts else default


def learn(scheme: Scheme, names: Iterable[Name], paths: Iterable[tuple[str, str]]) -> NameStyle:
    """The naming style of a log from its scheme and its records' names, oldest first (the
    latest ones say whether slugs are lower case), and ``paths``: the (path, root) of its
    records that are not archived, oldest first (the latest ones say which folder)."""
    listed = list(names)
    value = scheme.structure.value
    if not isinstance(value, tuple) or len(value) != 5:
        return NameStyle()
    kind, _prefix, prefix_sep, folder, date_style = value
    same = [n for n in listed if n.structure == scheme.structure.value]
    prefix = str(_most((n.prefix for n in same), ""))
    slugged = [n.slug for n in same if n.slug and any(c.isalpha() for c in n.slug)][-RECENT:]
    lower = not slugged or sum(s == s.lower() for s in slugged) >= STRONG * len(slugged)
    width = scheme.width.value if isinstance(scheme.width.value, int) else 4
    folder_file = None
    if folder:
        folder_file = str(_most((p.rsplit("/", 1)[-1] for p, _ in paths), "README.md"))
    word_sep = scheme.word_sep.value if isinstance(scheme.word_sep.value, str) else "-"
    word_sep = word_sep if word_sep in ("-", "_", " ") else "-"
    between = str(_most((_between(n) for n in same if n.slug), word_sep))
    ext = scheme.ext.value if isinstance(scheme.ext.value, str) and scheme.ext.value else ".md"
    recent = same[-RECENT:]
    sequenced = [m for n in recent if (m := _SEQUENCE.match(n.slug)) and kind == "dated"]
    return NameStyle(
        kind=str(kind),
        prefix=prefix,
        prefix_sep=str(prefix_sep),
        width=max(int(width), 1),
        padded=scheme.padded or kind != "numbered",
        head_sep=between if between in _SEPARATORS else word_sep,
        word_sep=word_sep,
        lower=lower,
        ext=ext,
        folder_file=folder_file,
        compact_date=date_style == "compact",
        subfolder=_subfolder(paths, bool(folder)),
        slug=not recent or sum(not n.slug for n in recent) < STRONG * len(recent),
        plain_prefix=_plain_prefix(same, word_sep) if kind == "plain" else "",
        sequence=(int(str(_most((len(m.group(1)) for m in sequenced), 0)))
                  if recent and len(sequenced) >= STRONG * len(recent) else 0),
        sequence_sep=str(_most((m.group(2) or "-" for m in sequenced), "-")),
    )


def _plain_prefix(same: list[Name], sep: str) -> str:
    """The word all (at least three quarters, and two or more) of a log's plain names start
    with, and the separator after it: ``adr-`` for ``adr-use-x.md``, ``adr-keep-y.md``."""
    firsts = [n.slug.split(sep, 1)[0] for n in same if sep and sep in n.slug]
    word = _most(firsts, "")
    if not isinstance(word, str) or not word.isalpha() or len(word) > 12:
        return ""
    count = sum(f == word for f in firsts)
    return word + sep if count >= 2 and count >= STRONG * len(same) else ""


def _between(name: Name) -> str:
    """The character between a name's number (or date) and its slug."""
    head = len(name.prefix) + len(name.prefix_sep) + len(name.digits or name.date)
    sep = name.shown[head : head + 1]
    return sep if sep in _SEPARATORS else name.word_sep or "-"


def _subfolder(paths: Iterable[tuple[str, str]], folder: bool) -> str:
    """The folder below the root where at least three quarters of the latest records live
    (``paths`` oldest first): a log that moved its old records into a subfolder writes new
    ones where its latest records are."""
    where: list[str] = []
    for path, root in paths:
        rel = path if root in ("", ".") else path[len(root) + 1 :]
        parts = rel.split("/")[: -2 if folder else -1]
        where.append("/".join(parts))
    latest = where[-RECENT:]
    if not latest:
        return ""
    value, count = Counter(latest).most_common(1)[0]
    return value if count >= STRONG * len(latest) else ""
