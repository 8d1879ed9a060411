"""Patterns a hook run used to compile for text they cannot match (issue 30): a piece of text
each needs is tested first, or a test that covers every character they look for. The old code is
copied here as the oracle, and each answer is the same for any text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core import textsafe
from adrguard.core.conventions import dates, naming, sections
from adrguard.core.impact import mapping
from adrguard.core.impact.history import without_targets

# --- adrguard.core.textsafe.neutralise -----------------------------------------------------------


def _old_neutralise(text: str, *, multiline: bool = False) -> str:
    if multiline:
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        unsafe = re.compile(f"[\x00-\x08\x0b-\x1f{textsafe.SPECIAL}]")
    else:
        text = text.replace("\t", " ")
        unsafe = re.compile(f"[\x00-\x08\x0a-\x1f{textsafe.SPECIAL}]")
    if not (text.isascii() and text.isprintable()):
        text = unsafe.sub(textsafe._visible, text)
    if "::" in text:
        text = re.sub(r"^([^\S\n]*):(?=:)", r"\1\\x3a", text, flags=re.MULTILINE)
    if "##[" in text:
        text = text.replace("##[", "#\\x23[")
    return text


# every character neutralised, and some printable and non-printable ones that are not
_PIECES = st.sampled_from([
    "\x00", "\x07", "\t", "\n", "\r", "\r\n", "\x0b", "\x1b", "\x7f", "\x85", "\x9f", "\u061c",
    "\u200b", "\u200c", "\u200d", "\u200e", "\u202e", "\u2028", "\u2029", "\u2066", "\u2069",
    "\u2060", "\u206f", "\ufeff", "\ufff9", "\ufffb", "\ud800", "\udfff", "\u00a0", "\u3000",
    "é", "—", "…", "ß", "中", "🙂", "\U000e0001", "\ue000", "::", ":", "##[", "#", " ", "a", "1",
])
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=4)), max_size=12).map("".join)


@settings(max_examples=600)
@given(_TEXT, st.booleans())
def test_neutralise_answers_as_before(text: str, multiline: bool) -> None:
    assert textsafe.neutralise(text, multiline=multiline) == _old_neutralise(
        text, multiline=multiline)


def test_every_character_neutralised_is_one_python_does_not_call_printable() -> None:
    """What lets printable text skip the pattern (checked over every code point)."""
    for source in (f"[\x00-\x08\x0a-\x1f{textsafe.SPECIAL}]",
                   f"[\x00-\x08\x0b-\x1f{textsafe.SPECIAL}]"):
        unsafe = re.compile(source)
        assert not [c for c in map(chr, range(0x110000))
                    if c.isprintable() and unsafe.match(c)]


def test_printable_text_with_accents_and_dashes_is_left_as_it_is() -> None:
    line = "Décision — «on garde» l’API… 中文"
    assert textsafe.neutralise(line) == line
    assert textsafe.neutralise(line + "\n\tand more", multiline=True) == line + "\n\tand more"
    assert textsafe.neutralise("a\u202eb\nc") == "a\\u202eb\\x0ac"
    assert textsafe.neutralise("a\u202eb\nc", multiline=True) == "a\\u202eb\nc"


# --- adrguard.core.impact.history (the decision text of a record) -------------------------------

_OLD_LINK_TARGET = re.compile(r"\]\((?:[^()]|\([^()]*\))*\)")
_OLD_REF_DEFINITION = re.compile(r"^(\s{0,3}\[[^\]]+\]:)\s*\S.*$")
_OLD_AUTOLINK = re.compile(r"<[a-z][a-z0-9+.-]*:[^>\s]*>", re.IGNORECASE)


def _old_without_targets(line: str) -> str:
    line = _OLD_REF_DEFINITION.sub(r"\1", line)
    line = _OLD_AUTOLINK.sub("<>", _OLD_LINK_TARGET.sub("]()", line))
    return " ".join(line.split())


_LINK_PIECES = st.sampled_from([
    "[", "]", "(", ")", "](", "]:", "<", ">", ":", " ", "   ", "\t", "\r", "a", "Z", "1", "+",
    "-", ".", "/", "https", "mailto", "[x]: ", "[a](b)", "[a](b (c))", "<https://x.y>",
    "<A:b>", "<a b>", "](x(y)z)", "é",
])
_LINE = st.lists(st.one_of(_LINK_PIECES, st.text(max_size=3)), max_size=14).map("".join)


@settings(max_examples=800)
@given(_LINE)
def test_a_lines_text_without_link_targets_is_as_before(line: str) -> None:
    line = line.replace("\n", " ")  # (a record's lines come from splitting on line breaks)
    assert without_targets(line) == _old_without_targets(line)


def test_link_targets_reference_definitions_and_autolinks_are_dropped() -> None:
    assert without_targets("See [the API](docs/api.md) and <https://x.test/a>.") == \
        "See [the API]() and <>."
    assert without_targets("  [api]: https://x.test/api  ") == "[api]:"
    assert without_targets("We use   PostgreSQL 16.") == "We use PostgreSQL 16."


# --- adrguard.core.conventions.sections (a heading's names) -------------------------------------

_OLD_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+", re.IGNORECASE)
_OLD_PUNCT = re.compile(r"[^\w\s]")
_OLD_SEPARATED = re.compile(r"\s*[:(\[,;|/–—]|\s+-\s|\s+(?:of|for|to)\s+")


def _old_fold(title: str) -> str:
    text = _OLD_NUMBERING.sub("", title.strip().lstrip("#").strip())
    return " ".join(_OLD_PUNCT.sub(" ", text.casefold()).split())


def _old_heading_keys(heading: str) -> frozenset[str]:
    folded = _old_fold(heading)
    keys = {folded}
    light = " ".join(_OLD_NUMBERING.sub("", heading.strip().lstrip("#").strip()).casefold()
                     .split())
    light = light.strip("*_` ")
    m = _OLD_SEPARATED.search(light)
    if m and m.start() > 0:
        keys.add(_old_fold(light[: m.start()]))
    parts = [_old_fold(p) for p in sections._COMBINERS.split(light)]
    if len(parts) > 1:
        keys.update(p for p in parts if p)
    keys.update([sections._singular(k) for k in keys])
    keys.discard("")
    return frozenset(keys)


_HEADING_PIECES = st.sampled_from([
    "#", "## ", " ", "\t", "\u00a0", "\u3000", "1", "2.", "1.3)", "iv.", "IV)", "x ", "ı.",
    "İ)", "٣.", "Decision", "Context", "Outcome", "of", " of ", " for ", " to ", " - ", "-",
    ":", "(", "[", ",", ";", "|", "/", "–", "—", "&", " and ", "+", "、", "*", "_", "`", "é",
    "Ω", "s", "Options", "Status", "ǅ", "ⅳ",
])
_HEADING = st.lists(st.one_of(_HEADING_PIECES, st.text(max_size=3)), max_size=10).map("".join)


@settings(max_examples=1000)
@given(_HEADING)
def test_a_headings_names_are_as_before(heading: str) -> None:
    assert sections.fold(heading) == _old_fold(heading)
    assert sections.heading_keys(heading) == _old_heading_keys(heading)


def test_what_the_heading_guards_rely_on_holds_for_every_character() -> None:
    """Every character ``isalnum`` accepts is a word character of ``re``, every one ``split``
    breaks at is one ``\\s`` matches, and none of the ASCII letters the numbering guard passes
    over can start a numbering (the pattern is tried on each, followed by ``. x``)."""
    word, space = re.compile(r"\w"), re.compile(r"\s")
    chars = [chr(c) for c in range(0x110000)]
    assert not [c for c in chars if c.isalnum() and not word.match(c)]
    assert not [c for c in chars if c.isspace() != bool(space.match(c))]
    assert not [c for c in sections._NOT_NUMBERING if _OLD_NUMBERING.match(c + ". x")
                or _OLD_NUMBERING.match(c + ") x") or _OLD_NUMBERING.match(c + " x")]
    assert _OLD_NUMBERING.match("i. x") and _OLD_NUMBERING.match("1 x")


def test_common_headings_keep_their_names() -> None:
    assert sections.fold("## 2. Decision Outcome:") == "decision outcome"
    assert sections.heading_keys("Background & Context") >= {"background", "context"}
    assert sections.heading_keys("Decision: use X") >= {"decision"}
    assert sections.heading_keys("Status") == frozenset({"status", "statu"})  # (plural s)


# --- adrguard.core.conventions.dates (a written date) --------------------------------------------

_OLD_ISO = re.compile(
    r"^(\d{4})-(\d{2})(?:-(\d{2}))?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"
    r"(?=$|[^\d/.-]|\.(?!\d))"
)


def _old_iso_read(text: str) -> dates.Reading | None:
    """The ISO branch of the old reading (None: the pattern does not match)."""
    m = _OLD_ISO.match(text)
    if m and not dates._clock(m.group(4), m.group(5), m.group(6)):
        return dates.Reading(text, "iso", problem="impossible")
    if not m:
        return None
    y, mo = int(m.group(1)), int(m.group(2))
    if m.group(3) is None:
        return dates.Reading(text, "iso", problem="" if 1 <= mo <= 12 else "impossible")
    day = int(m.group(3))
    value = dates._date(y, mo, day)
    if value is not None:
        return dates.Reading(text, "iso", value)
    swapped = dates._date(y, day, mo)
    return dates.Reading(text, "iso", problem="impossible", readings=(swapped,) if swapped else ())


_DATE_PIECES = st.sampled_from([
    "2024", "1999", "0000", "-", "01", "12", "13", "31", "29", "02", "00", "1", "٣", "²", "T",
    " ", "10:30", ":", "Z", "+01:00", ".", "/", "年", "(", "note", "May",
])
_DATE = st.one_of(
    st.lists(st.one_of(_DATE_PIECES, st.text(max_size=2)), max_size=7).map("".join),
    st.builds("{:04d}-{:02d}-{:02d}".format, st.integers(0, 9999), st.integers(0, 99),
              st.integers(0, 99)),
)


@settings(max_examples=1000)
@given(_DATE)
def test_a_written_date_reads_as_before(text: str) -> None:
    old = _old_iso_read(text)
    if dates._plain_iso(text):
        assert old is not None  # the shortcut covers only texts the pattern matches
    if old is not None:
        assert dates._read(text) == old


def test_plain_dates_read_as_iso_days() -> None:
    assert dates.read("2024-02-29").value is not None
    assert dates.read("2023-02-29").problem == "impossible"
    assert dates.read("2024-13-01").readings  # the day and month swapped make a date
    assert dates.read("٢٠٢٤-٠١-٠٢").family == "iso"  # digits of another script: the pattern's


# --- adrguard.core.impact.mapping (positions in a JSON manifest) --------------------------------

_OLD_SPACE = re.compile(r"[ \t\r\n\ufeff]*")
_OLD_SCALAR = re.compile(r"[^,\]} \t\r\n]*")
_JSONISH = st.lists(st.sampled_from([" ", "\t", "\r", "\n", "\ufeff", ",", "]", "}", "{", "[",
                                     "1", "-2.5e3", "true", "null", '"a"', ":", "x", "é"]),
                    max_size=16).map("".join)


@settings(max_examples=500)
@given(_JSONISH)
def test_blanks_and_scalars_of_a_manifest_end_where_they_did(text: str) -> None:
    for i in range(len(text) + 1):
        assert mapping.space_end(text, i) == _OLD_SPACE.match(text, i).end()  # type: ignore[union-attr]
        assert mapping.scalar_end(text, i) == _OLD_SCALAR.match(text, i).end()  # type: ignore[union-attr]


def test_a_manifest_mapping_is_placed_on_its_line() -> None:
    text = '{\n  "schemaVersion": 1,\n  "mappings": [\n    {"decision": "ADR-0001"}\n  ]\n}\n'
    where = mapping.Locator(".adrguard-impact.json", text)
    assert where.position(("mappings", 0, "decision")) == (4, 6)  # (where its key is)
    assert where.position(("schemaVersion",)) == (2, 3)


# --- adrguard.core.conventions.naming (a record's name) -----------------------------------------

_OLD_DATED = re.compile(r"^(\d{4}-\d{2}-\d{2}|\d{8})(?=$|[-_ .])")
_OLD_NUMBERED = re.compile(r"^([A-Za-z]{0,12}?)([-_ ]?)(\d{1,9})(?=$|[-_ .])")


def _old_parts(stem: str) -> tuple[str, str, str, str, str, str]:
    """(kind, prefix, separator, digits, date, slug) as the old split read a name's stem."""
    m = _OLD_DATED.match(stem)
    if m:
        return "dated", "", "", "", m.group(1), stem[m.end():].lstrip("-_ .")
    m = _OLD_NUMBERED.match(stem)
    if m:
        return ("numbered", m.group(1), m.group(2), m.group(3), "",
                stem[m.end():].lstrip("-_ ."))
    return "plain", "", "", "", "", stem


_NAME_PIECES = st.sampled_from([
    "0", "1", "0001", "123456789", "1234567890", "2024-01-02", "20240102", "٣", "adr", "ADR",
    "-", "_", " ", ".", "use-x", "x", "é", "2024-1-2",
])
_STEM = st.lists(st.one_of(_NAME_PIECES, st.text(alphabet="0123456789-_ .ab٣", max_size=3)),
                 min_size=1, max_size=6).map("".join).filter(lambda s: "/" not in s)


@settings(max_examples=1000)
@given(_STEM)
def test_a_records_name_splits_as_before(stem: str) -> None:
    from adrguard.core.parse import formats

    path = f"docs/adr/{stem}.md"
    name = naming.split(path, "docs/adr")
    stem_read = formats.Names().record_name(path, "docs/adr")
    assert (name.kind, name.prefix, name.prefix_sep, name.digits, name.date,
            name.slug) == _old_parts(stem_read)


def test_numbered_and_dated_names() -> None:
    assert naming.split("docs/adr/0012-use-x.md", "docs/adr").digits == "0012"
    assert naming.split("docs/adr/2024-01-02-use-x.md", "docs/adr").date == "2024-01-02"
    assert naming.split("docs/adr/1234567890-x.md", "docs/adr").kind == "plain"
