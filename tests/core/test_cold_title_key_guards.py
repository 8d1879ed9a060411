"""A title's prefixes and a relation key's camel case are looked for only where their patterns
can match (issue 30, the cold check): :func:`formats.clean_title` tries the heading attributes,
the ``ADR 12``/``12.`` number, the template's ``N.`` number and the template's brackets only
on a title holding a character each needs; :func:`keyed.front_matter_key` splits camel case
only in a key with a capital after its first character. The old forms are the oracles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import RelKind
from adrguard.core.parse import formats, ids, keyed
from adrguard.core.parse.formats import (
    _ADR_NUMBER,
    _HEADING_ATTRS,
    _LEADING_NUMBER,
    _TEMPLATE_NUMBER,
    _TITLE_LABEL,
    _WRAPPED,
    Title,
    _without_type_label,
    is_placeholder_title,
)
from adrguard.core.parse.keyed import _CAMEL, _LONGEST_KEY, FRONT_MATTER_KEYS


def _old_clean_title(text: str, own: ids.NameId | None = None) -> Title:
    title = _HEADING_ATTRS.sub("", text).strip()
    number: int | None = None
    stripped = False
    if own is not None:
        title, number = ids.strip_own_id(title, own)
        stripped = number is not None
    for _ in range(3):
        before = title
        title = _without_type_label(title).strip()
        m = None if stripped else (_ADR_NUMBER.match(title) or _LEADING_NUMBER.match(title))
        if m and m.end() < len(title):
            number = int(m.group(1))
            title = title[m.end() :].strip()
            stripped = True
        elif not stripped:
            t = _TEMPLATE_NUMBER.sub("", title).strip()
            stripped = t != title
            title = t
        if title == before:
            break
    label = _TITLE_LABEL.match(title)
    if label:
        title = title[label.end() :]
    if not title or is_placeholder_title(title):
        return Title(None, number)
    wrapped = _WRAPPED.match(title)
    return Title(next(g for g in wrapped.groups() if g).strip() if wrapped else title, number)


def _old_front_matter_key(key: str) -> RelKind | None:
    key = key.strip()
    if len(key) > _LONGEST_KEY:
        return None
    folded = _CAMEL.sub("-", key).replace("_", "-").replace(" ", "-").casefold()
    return FRONT_MATTER_KEYS.get(folded)


_TITLE_PARTS = st.sampled_from([
    "ADR", "adr", "Adr-", "RFC ", "rfc#", "aDr_", "12", "0042", "٣", "²", "7.", "3)", " - ", "—",
    "N.", "n: ", "X ", "X. ", "x: ", "XXXX.", "NNNN: ", "nnnn", "x", "[", "]", "{", "}", "<", ">", "{#id}",
    "{#", " ", "\t", "Title:", "title ：", "Architecture Decision Record: ", "Decision Record ",
    "Use Kafka", "short title of solved problem", "TITLE", "é", "ſ", "K", "İ", "Ⅻ", ":", ".",
])
_TITLES = st.one_of(
    st.lists(_TITLE_PARTS, max_size=8).map("".join),
    st.text(alphabet=st.sampled_from("aArRdDcCfF nNxX0123456789٣²[]{}<>#:.)-—\tTitle"),
            max_size=24),
    st.text(max_size=20),
)


@settings(max_examples=1500, deadline=None)
@given(_TITLES)
def test_clean_title_is_what_it_was(text: str) -> None:
    assert formats.clean_title(text) == _old_clean_title(text)


@settings(max_examples=300, deadline=None)
@given(_TITLES, st.sampled_from(["adr", "dr", "rfc", "spec"]))
def test_clean_title_with_the_records_own_scheme_is_what_it_was(text: str, prefix: str) -> None:
    own = ids.NameId(prefix, 2)
    assert formats.clean_title(text, own) == _old_clean_title(text, own)


def test_clean_title_guards_pass_what_they_must() -> None:
    # every pattern the guards stand before still acts on the titles it is for
    assert formats.clean_title("Use X {#use-x}") == Title("Use X", None)
    assert formats.clean_title("ADR 12: Use X") == Title("Use X", 12)
    assert formats.clean_title("rfc-3 Use X") == Title("Use X", 3)
    assert formats.clean_title("٣. Use X") == _old_clean_title("٣. Use X")
    assert formats.clean_title("12. Use X") == Title("Use X", 12)
    for marked in ("N. Use X", "n: Use X", "X. Use X", "x: Use X", "XXXX. Use X", "NNNN: Use X"):
        assert formats.clean_title(marked) == Title("Use X", None), marked
        assert _old_clean_title(marked) == Title("Use X", None), marked
    assert formats.clean_title("Adr-12 Use X") == Title("Use X", 12)
    assert formats.clean_title("RFC 12 Use X") == Title("Use X", 12)
    assert formats.clean_title("[Use X]") == Title("Use X", None)
    assert formats.clean_title(" <Use X> ") == Title("Use X", None)


_KEYS = st.one_of(
    st.lists(st.sampled_from([
        "superseded", "Superseded", "By", "by", "_", "-", " ", "supersedes", "DependsOn",
        "depends", "On", "amended", "relatesTo", "aB", "1", "É", "é", "ǅ", "İ", "K", "ß", "",
    ]), max_size=5).map("".join),
    st.text(alphabet=st.sampled_from("aAbBzZ_- 1éÉǅ"), max_size=14),
    st.text(max_size=14),
)


@settings(max_examples=1500, deadline=None)
@given(_KEYS)
def test_front_matter_key_is_what_it_was(key: str) -> None:
    assert keyed.front_matter_key(key) == _old_front_matter_key(key)


def test_front_matter_key_still_splits_camel_case() -> None:
    assert keyed.front_matter_key("supersededBy") is RelKind.SUPERSEDED_BY
    assert keyed.front_matter_key("Superseded_By") is RelKind.SUPERSEDED_BY
    assert keyed.front_matter_key("superseded by") is RelKind.SUPERSEDED_BY
    assert keyed.front_matter_key("Status") is None
