"""Translation mirrors: copies of a log's records in another language, which are not records of
their own. Pure judgements on path strings and front matter, used by discovery.

Three shapes are read as mirrors:

* a **folder named as a language tag** directly below an ADR root (``zh/``, ``en/``,
  ``pt-br/``, ``zh-Hant/``, ``pt_BR/``: an ISO 639-1 language, then an optional script and
  region, BCP 47 style) **whose files repeat the names or numbers of the root's own records**.
  The repetition is the evidence: a folder ``it/`` of records numbered apart from the root's,
  or a log whose only records live in ``zh/``, is a folder of records, not a mirror;
* a **file whose name adds a language tag** to a record's name beside it
  (``0001-use-x.zh-CN.md`` next to ``0001-use-x.md``), and one whose original is gone when
  another file of its folder adds the same tag to a record's name beside it (deleting an
  original never promotes its translation to the original's id);
* a record that **declares** ``translation-of:`` in its front matter (any non-empty value).

Mirrors are left out of numbering, the graph and the index; a folder meant to be checked as
records is named as a root of its own (``roots = ["docs/adr", "docs/adr/zh"]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adrguard.core.lazyre import lazy
from adrguard.core.parse.ids import parse_name

# ISO 639-1 (two-letter) language codes.
LANGUAGES = frozenset(
    (
        "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg",
        "bh", "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv",
        "cy", "da", "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi",
        "fj", "fo", "fr", "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr",
        "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja",
        "jv", "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw",
        "ky", "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml",
        "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv",
        "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro",
        "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr",
        "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr",
        "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi",
        "yo", "za", "zh", "zu",
    )
)
# language [-_] script (4 letters) and/or region (2 letters or 3 digits): zh, pt-br, zh-Hant-TW
_TAG = lazy(r"^([A-Za-z]{2})(?:[-_][A-Za-z]{4})?(?:[-_](?:[A-Za-z]{2}|\d{3}))?$")
_SUFFIXED = lazy(r"^(?P<base>.+)\.(?P<tag>[A-Za-z]{2}(?:[-_][A-Za-z0-9]{2,4}){0,2})$")
_MARKDOWN = (".md", ".markdown")
_DECLARING_KEYS = frozenset({"translation-of", "translation_of", "translationof"})


def is_language_tag(name: str) -> bool:
    """``zh``, ``en``, ``pt-br``, ``zh-Hant``, ``pt_BR``: a language code, BCP 47 shaped."""
    m = _TAG.match(name)
    return m is not None and m.group(1).casefold() in LANGUAGES


def translation_of(front_matter: Mapping[str, Any]) -> str | None:
    """The value of a ``translation-of`` key (any case, ``-`` or ``_``), when it says
    something; None when the key is absent or empty (a template's blank field)."""
    for key, value in front_matter.items():
        declares = str(key).casefold().replace(" ", "") in _DECLARING_KEYS
        if declares and isinstance(value, str | int | float) and str(value).strip():
            return str(value).strip()
    return None


def _split(name: str) -> tuple[str, str] | None:
    """``0001-x.zh-CN.md`` -> ("0001-x.md", "zh-CN") when the last dotted part is a tag."""
    if name.count(".") < 2:  # a tag needs a dot of its own before the extension's
        return None
    lower = name.lower()
    ext = next((e for e in _MARKDOWN if lower.endswith(e)), None)
    if ext is None:
        return None
    m = _SUFFIXED.match(name[: -len(ext)])
    if m is None or not is_language_tag(m.group("tag")):
        return None
    return m.group("base") + name[len(name) - len(ext) :], m.group("tag")


def find_mirrors(files: Iterable[str], roots: Sequence[str]) -> dict[str, str]:
    """The mirrors among ``files`` (repository-relative paths): each language folder that is
    a mirror (``docs/adr/zh`` -> ``docs/adr``, the root it mirrors) and each file that
    translates its neighbour (``docs/adr/0001-x.zh.md`` -> ``docs/adr/0001-x.md``)."""
    ordered = sorted(roots, key=lambda r: (r == ".", -len(r)))
    own: dict[str, set[str]] = {}  # root -> names and numbers of files outside tag folders
    tagged: dict[tuple[str, str], set[str]] = {}  # (root, tag folder) -> its names and numbers
    markdown: set[str] = set()
    entries: list[tuple[str, str | None, str]] = []  # (root, its tag folder or None, name)
    for path in files:
        if not path.lower().endswith(_MARKDOWN):
            continue
        markdown.add(path)
        root = next((r for r in ordered if r == "." or path.startswith(r + "/")), None)
        if root is None:
            continue
        rel = path if root == "." else path[len(root) + 1 :]
        first, sep, _rest = rel.partition("/")
        entries.append((root, first if sep and is_language_tag(first) else None,
                        rel.rsplit("/", 1)[-1]))
    if any(folder is not None for _root, folder, _name in entries):  # names matter only then
        for root, folder, name in entries:
            keys = {name.casefold()}
            number = parse_name(name).number
            if number is not None:
                keys.add(f"#{number}")
            if folder is not None:
                tagged.setdefault((root, folder), set()).update(keys)
            else:
                own.setdefault(root, set()).update(keys)
    out: dict[str, str] = {}
    for (root, folder), keys in sorted(tagged.items()):
        if keys & own.get(root, set()):
            out[folder if root == "." else f"{root}/{folder}"] = root
    orphans: list[tuple[str, str, str]] = []  # (path, original, tag) of a tag-named file alone
    habits: set[tuple[str, str]] = set()  # (folder, tag) where a tag-named file has its original
    for path in sorted(markdown):
        where, _, name = path.rpartition("/")
        split = _split(name)
        if split is not None:
            original = f"{where}/{split[0]}" if where else split[0]
            if original in markdown and original != path:
                out[path] = original
                habits.add((where, split[1].casefold()))
            elif original != path:
                orphans.append((path, original, split[1].casefold()))
    for path, original, tag in orphans:  # its original deleted: still a translation, never
        if (path.rpartition("/")[0], tag) in habits:  # promoted to the original's id
            out[path] = original
    return out


def mirror_of(path: str, mirrors: Mapping[str, str]) -> str | None:
    """The mirror ``path`` belongs to (a key of :func:`find_mirrors`), or None."""
    if path in mirrors:
        return path
    where = path
    while "/" in where:
        where = where.rsplit("/", 1)[0]
        if where in mirrors:
            return where
    return None
