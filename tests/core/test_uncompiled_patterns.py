"""Patterns a hook run no longer compiles (issue 30) answer exactly as before.

The clause-start rules are tried by the first character of the clause instead of behind an
alternation of all of them; the keyword alternations and the date pieces are built from their
sources, so reading them compiles nothing; the date patterns of a status value and of a bare
date line run only after a character test they need. The old patterns are copied here as the
oracle.
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import RelKind
from adrguard.core.parse import formats, ids, relations, status, successors

_P = r"(?:partially|partly|in\s+part)"
OLD_RULES = [
    (re.compile(p, re.I), k)
    for p, k in (
        (_P + r"\s+supersed(?:es|ed)\b(?!\s+by)", RelKind.AMENDS),
        (r"supersedes\s+(?:some|certain|several)?\s*(?:aspects?|parts?)\s+of\b", RelKind.AMENDS),
        (r"supersed(?:es|ing)\b", RelKind.SUPERSEDES),
        (_P + r"\s+super[sc]eded\s+by\b", RelKind.AMENDED_BY),
        (r"super[sc]eded\s+by\b", RelKind.SUPERSEDED_BY),
        (r"replaces\b", RelKind.SUPERSEDES),
        (r"replaced\s+by\b", RelKind.SUPERSEDED_BY),
        (r"amends\b", RelKind.AMENDS),
        (r"(?:this\s+(?:adr\s+|decision\s+|record\s+|document\s+)?is\s+)?an?\s+addendum\s+to\b",
         RelKind.AMENDS),
        (r"refines\b", RelKind.AMENDS),
        (r"(?:amended|refined|extended)\s+by\b", RelKind.AMENDED_BY),
        (r"extends\b", RelKind.AMENDS),
        (r"depends\s+on\b", RelKind.DEPENDS_ON),
        (r"rejected\b[^\[]*?(?:\bin\s+favou?r\s+of|\(\s*see|\bsee)\b", RelKind.IN_FAVOUR_OF),
    )
]
OLD_ANY_START = re.compile("|".join(f"(?:{p.pattern})" for p, _ in OLD_RULES), re.I)


def _old_start(text: str, begin: int) -> tuple[RelKind, int] | None:
    if not OLD_ANY_START.match(text, begin):
        return None
    for pattern, kind in OLD_RULES:
        m = pattern.match(text, begin)
        if m:
            return kind, m.end()
    raise AssertionError("the alternation matched where no rule does")


def _new_start(text: str, begin: int) -> tuple[RelKind, int] | None:
    started = relations._start(text, begin)
    return None if started is None else (started[1], started[0].end())


WORDS = [
    "Partially ", "PARTLY ", "in part ", "In  Part ", "supersedes ", "Superseding ", "superseded ",
    "SUPERCEDED ", "by ", "some ", "aspects ", "parts ", "of ", "replaces ", "Replaced ",
    "amends ", "Amended ", "this ", "This ADR ", "decision ", "is ", "an ", "a ", "A ",
    "addendum ", "to ", "refines ", "Refined ", "extends ", "Extended ", "depends ", "on ",
    "rejected ", "in favor of ", "(see ", "see ", "[x](y.md)", "ſupersedes ", "İn part ",
    "ın part ", "K", "é", "; ", " - ", "\t", "x", "-", "_", "0", "",
]
LINES = st.lists(st.sampled_from(WORDS), max_size=8).map("".join)


@settings(max_examples=800, deadline=None)
@given(LINES)
def test_the_first_character_picks_the_rule_the_alternation_found(text: str) -> None:
    for begin in range(len(text) + 1):
        assert _new_start(text, begin) == _old_start(text, begin), (text, begin)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_any_text_starts_as_before(text: str) -> None:
    for begin in range(len(text) + 1):
        assert _new_start(text, begin) == _old_start(text, begin), (text, begin)


def test_every_rule_on_written_clauses() -> None:
    cases = {
        "Partly supersedes ADR-1": RelKind.AMENDS,
        "Supersedes some aspects of ADR-1": RelKind.AMENDS,
        "superseding ADR-1": RelKind.SUPERSEDES,
        "In part superseded by ADR-1": RelKind.AMENDED_BY,
        "Superceded by ADR-1": RelKind.SUPERSEDED_BY,
        "REPLACES ADR-1": RelKind.SUPERSEDES,
        "Replaced by ADR-1": RelKind.SUPERSEDED_BY,
        "Amends ADR-1": RelKind.AMENDS,
        "This decision is an addendum to ADR-1": RelKind.AMENDS,
        "An addendum to ADR-1": RelKind.AMENDS,
        "Refines ADR-1": RelKind.AMENDS,
        "Extended by ADR-1": RelKind.AMENDED_BY,
        "Extends ADR-1": RelKind.AMENDS,
        "Depends on ADR-1": RelKind.DEPENDS_ON,
        "Rejected in favour of ADR-1": RelKind.IN_FAVOUR_OF,
        "ſupersedes ADR-1": RelKind.SUPERSEDES,  # not ASCII: every rule is tried
    }
    for text, kind in cases.items():
        assert _new_start(text, 0) == _old_start(text, 0)
        started = relations._start(text, 0)
        assert started is not None and started[1] is kind, text
    assert relations._start("We chose PostgreSQL", 0) is None
    assert relations._start("Status: superseded", 0) is None


def test_keyword_words_are_those_of_the_alternations() -> None:
    old_relation = "supers|superc|replac|amend|refine|depend|reject|addend|adds to|exten"
    assert successors.KEYWORDS.pattern == successors.KEYWORD_SOURCE
    joined = f"{old_relation}|{successors.KEYWORDS.pattern}"
    assert relations._MAY_DECLARE.pattern == joined
    words = tuple(dict.fromkeys(w for w in joined.split("|") if w.isascii()))
    assert words == relations._ASCII_WORDS
    successor_words = tuple(w for w in successors.KEYWORDS.pattern.split("|") if w.isascii())
    assert successor_words == successors.ASCII_KEYWORDS
    month = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
    assert status._LEADING_DATE.pattern == (
        r"^(?:(?:on|date|dated)\s+)?(?:"
        + r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)日?"
        + "|"
        + r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)"
        + r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
        + month
        + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?\s+\d{4})[\s:：,;|)\]\-–—]*"
    )


def test_import_and_dateless_values_compile_none_of_these_patterns() -> None:
    code = (
        "from adrguard.core.parse import formats, ids, relations, status, successors\n"
        "lazies = [successors.KEYWORDS, relations._MAY_DECLARE, status._ISO_DATE,\n"
        "          status._DMY_DATE, status._LEADING_DATE, formats._BARE_DATE,\n"
        "          *(p for p, _ in relations._START_RULES)]\n"
        "formats.bare_date('We chose PostgreSQL.')\n"
        "status._undated('accepted')\n"
        "status.date_key('Accepted')\n"
        "lazies.append(status._NAMED_DATE)\n"
        "print(sum('match' in vars(p) for p in lazies))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
OLD_LEADING_DATE = re.compile(
    r"^(?:(?:on|date|dated)\s+)?(?:"
    r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)日?"
    r"|(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?" + _MONTH
    + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?\s+\d{4})[\s:：,;|)\]\-–—]*",
    re.I,
)
OLD_BARE_DATE = re.compile(
    r"^(?:(?:date|created|datum|decided|fecha)\b\s*[:\-–]?\s*)?"
    r"(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4})\.?$",
    re.I,
)
DATE_PIECES = [
    "2024", "-", "03", "/", ".", "7", "12", "年", "月", "日", " ", "  ", "\t", "\n", "on ", "On ",
    "date ", "Dated ", "dat", "o", "jan", "Sept", "MAY", "june", "mär", "ſep", "1st ", "22nd ",
    ",", ":", "accepted", "Accepted", "superseded", "é", "٣", "K", "Created: ", "decided ",
    "fecha ", "x", "(", ")", "|",
]
DATE_TEXTS = st.lists(st.sampled_from(DATE_PIECES), max_size=9).map("".join)


def _old_undated(folded: str) -> str:
    m = OLD_LEADING_DATE.match(folded)
    return folded[m.end() :] if m and m.end() < len(folded) else folded


def _old_bare_date(text: str) -> str | None:
    m = OLD_BARE_DATE.match(text.strip()) if len(text) < 40 else None
    return m.group(1) if m else None


@settings(max_examples=800, deadline=None)
@given(DATE_TEXTS)
def test_a_leading_date_is_cut_as_the_pattern_cut_it(text: str) -> None:
    for value in (text, text.casefold()):
        assert status._undated(value) == _old_undated(value), value


@settings(max_examples=800, deadline=None)
@given(DATE_TEXTS)
def test_a_bare_date_is_found_as_the_pattern_found_it(text: str) -> None:
    assert formats.bare_date(text) == _old_bare_date(text), text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=14))
def test_dates_in_any_text_as_before(text: str) -> None:
    assert status._undated(text) == _old_undated(text)
    assert formats.bare_date(text) == _old_bare_date(text)


def test_dates_on_written_values() -> None:
    for value in ("2024-03-07 accepted", "on 7.3.2024: accepted", "march 7, 2024 - accepted",
                  "7th mar 2024 accepted", "dated 2024年3月7日 accepted", "accepted", "on hold",
                  "date tbd", "2024-03-07", ""):
        assert status._undated(value) == _old_undated(value), value
    assert status._undated("2024-03-07 accepted") == "accepted"
    assert status._undated("on hold") == "on hold"
    for line in ("June 19, 2018", "Date 09/04/2018", "2018-06-19.", "created: 19.6.18",
                 "We chose PostgreSQL.", "Accepted", "version 2", "June 19, 2018..", "",
                 "  19 June 2018  ", "٢٠١٨-٠٦-١٩"):
        assert formats.bare_date(line) == _old_bare_date(line), line
    assert formats.bare_date("June 19, 2018") == "June 19, 2018"
    assert formats.bare_date("We chose PostgreSQL.") is None


OLD_TYPE_LABEL = re.compile(
    r"^(?:architecture\s+decision\s+record\s*[:\-–]\s*|architecture\s+decision\s+record\s+(?=\d)"
    r"|decision\s+record\s*:\s*|Decision Record\s+(?=[A-Z])"
    r"|(?:adr|rfc|pep|kep|dep)\s*:\s*(?=\S))",
    re.I,
)
OLD_TITLE_WORD = re.compile(
    r"^(?:(?:short|brief|adr|decision|record|your|the)\s+)*"
    r"(?:title|titre|título|titolo|titel|заголовок|название|标题|標題|タイトル|제목)"
    r"\b(?:\s*$|\s*[(\-–—,]|\s*:\s*$|\s+(?:of|here|goes)\b)",
)
TITLE_PIECES = [
    "Architecture ", "architecture", "Decision ", "decision", "Record ", "record", "ADR", "adr",
    "RFC", "Pep", "KEP", "kep", "dep", "Dep", "ar", "de", ":", " ", "  ", "-", "–", "3", "0012",
    "Use X", "use x", "Title", "title", "titre", "short ", "brief ", "your ", "the ", "The ",
    "заголовок", "标题", "タイトル", "제목", " of", " here", " goes", "(", ",", "K", "ſ", "é",
    "\t", "\n",
]
TITLE_TEXTS = st.lists(st.sampled_from(TITLE_PIECES), max_size=8).map("".join)


@settings(max_examples=800, deadline=None)
@given(TITLE_TEXTS)
def test_type_label_and_title_word_as_the_patterns_answer(text: str) -> None:
    assert formats._without_type_label(text) == OLD_TYPE_LABEL.sub("", text), text
    for folded in (text, text.casefold()):
        assert formats._is_title_word(folded) == (OLD_TITLE_WORD.match(folded) is not None)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_type_label_and_title_word_on_any_text(text: str) -> None:
    assert formats._without_type_label(text) == OLD_TYPE_LABEL.sub("", text)
    assert formats._is_title_word(text) == (OLD_TITLE_WORD.match(text) is not None)


def test_type_label_and_title_word_on_written_titles() -> None:
    for title, expected in (("Architecture Decision Record: Use X", "Use X"),
                            ("Decision Record Use X", "Use X"), ("RFC: Use X", "Use X"),
                            ("KEP: Use X", "Use X"), ("Use PostgreSQL", "Use PostgreSQL"),
                            ("Deploy with Helm", "Deploy with Helm"), ("", "")):
        assert formats._without_type_label(title) == expected == OLD_TYPE_LABEL.sub("", title)
    assert formats.clean_title("ADR: 12. Use X").text == "Use X"
    for folded, placeholder in (("title", True), ("short title of the decision", True),
                                ("заголовок", True), ("use title case", False), ("", False)):
        assert formats._is_title_word(folded) is placeholder
        assert (OLD_TITLE_WORD.match(folded) is not None) is placeholder


OLD_TITLE_ID = re.compile(
    r"^(?P<open>\[)?(?P<prefix>[a-z]{2,10})[-_ #]?0*(?P<number>\d{1,6})(?:[-_.]v\d{1,4})?"
    r"(?(open)\])(?:(?P<mark>\s*[:.)\-–—])\s*|\s+(?=\S))",
    re.I,
)


def _old_strip_own_id(title: str, own: ids.NameId) -> tuple[str, int | None]:
    if own.number is None:
        return title, None
    m = OLD_TITLE_ID.match(title)
    if m is None or m.end() >= len(title):
        return title, None
    prefix, number = m.group("prefix").casefold(), int(m.group("number"))
    marked = m.group("mark") or m.group("open")
    if (own.prefix and prefix == own.prefix) or (number == own.number and marked):
        return title[m.end() :].strip(), number
    return title, None


ID_PIECES = ["[", "]", "DR", "dr", "API", "abcdefghij", "abcdefghijk", "0", "00", "2", "12",
             "-", "_", " ", "#", ":", ".", "v2", "Title", "Use X", "ſ", "K", "é", "٣", "\t"]
OWNS = [ids.NameId(number=2), ids.NameId(prefix="dr", number=2), ids.NameId()]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(ID_PIECES), max_size=9).map("".join))
def test_own_id_is_stripped_as_the_pattern_stripped_it(title: str) -> None:
    for own in OWNS:
        assert ids.strip_own_id(title, own) == _old_strip_own_id(title, own), (title, own)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=16))
def test_own_id_on_any_text(title: str) -> None:
    for own in OWNS:
        assert ids.strip_own_id(title, own) == _old_strip_own_id(title, own)


def test_own_id_on_written_titles() -> None:
    own = ids.NameId(prefix="dr", number=2)
    for title in ("DR002: Use X", "[abcdefghij-0002] Use X", "abcdefghij 00002: Use X",
                  "Use PostgreSQL", "API-002 Use X", "", "Use 2 queues"):
        assert ids.strip_own_id(title, own) == _old_strip_own_id(title, own), title
    assert ids.strip_own_id("DR002: Use X", own) == ("Use X", 2)
    assert ids.strip_own_id("[abcdefghij-2] Use X", ids.NameId(number=2)) == ("Use X", 2)


OLD_ISO = re.compile(r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)日?")
OLD_NAMED = re.compile(
    r"\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+)?" + _MONTH
    + r"(?:\s+(\d{1,2})(?:st|nd|rd|th)?,?)?\s+(\d{4})\b", re.I)
OLD_DMY = re.compile(r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)")


def _old_date_key(text: str) -> tuple[int, int, int] | None:
    m = OLD_ISO.search(text)
    if m:
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    m = OLD_NAMED.search(text)
    if m:
        months = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                  "dec")
        if m.group(2).casefold() in months:  # (re.I matches "ſ" for "s")
            return (int(m.group(4)), months.index(m.group(2).casefold()) + 1,
                    int(m.group(1) or m.group(3) or 1))
    m = OLD_DMY.search(text)
    if m:
        a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        year += 2000 if year < 100 else 0
        return (year, a, b) if b > 12 else (year, b, a)
    return None


@settings(max_examples=800, deadline=None)
@given(DATE_TEXTS)
def test_a_status_values_date_is_found_as_the_patterns_found_it(text: str) -> None:
    """A value with fewer than four digits is passed over without the date patterns (issue
    30); every value dates as the patterns dated it."""
    for value in (text, text.casefold(), text.replace("2024", "24")):
        assert status.date_key(value) == _old_date_key(value), value


def _old_history(folded: str) -> object:
    from adrguard.core.options import Options

    synonyms = Options().status_synonyms
    if OLD_ISO.search(folded) is None and OLD_NAMED.search(folded) is None:
        return None
    parts = [p for p in status._ENTRY_SEPARATOR.split(folded) if p]
    dated = [p for p in parts if _old_date_key(p) is not None]
    if len(dated) < 2:
        return None
    latest = status.latest_entry(dated, synonyms)
    if latest is None:
        return None
    return status.match(status.status_word(dated[latest], synonyms), synonyms)


@settings(max_examples=500, deadline=None)
@given(st.lists(DATE_TEXTS, min_size=1, max_size=3).map("; ".join))
def test_a_history_on_one_line_is_read_as_the_patterns_read_it(text: str) -> None:
    """A value with fewer than eight digits holds no two dates and is passed over without the
    date patterns (issue 30); every value reads as before."""
    from adrguard.core.options import Options

    synonyms = Options().status_synonyms
    for value in (text.casefold(), "2024-01-02 proposed; " + text.casefold()):
        assert status._history_on_one_line(value, synonyms) == _old_history(value), value
