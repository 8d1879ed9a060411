"""The parser's cheap tests before a pattern answer exactly what the pattern answers.

Each fast path (a substring test on ASCII text, a character the pattern needs) only skips work:
on any text, built from the pieces the patterns look for, it gives the pattern's own answer.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.parse import formats, relations, successors

PIECES = [
    "supers", "Supersedes", "SUPERC", "replac", "obsolet", "ersetz", "abgelöst", "remplac",
    "замен", "取代", "대체", "後継", "ſupers", "superſeded", "K", "status", "Status", "date",
    ":", "：", " ", "\t", "\n", "-", "(", ")", "/", "ADR-0005", "[x](y.md)", "é", "Ä", "0", "_",
]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_has_keyword_finds_what_the_keyword_search_finds(text: str) -> None:
    for folded in (text.lower(), text.casefold()):
        assert successors.has_keyword(folded) == (successors.KEYWORDS.search(folded) is not None)


def test_has_keyword_on_written_text() -> None:
    assert successors.has_keyword("this decision supersedes adr-3")
    assert successors.has_keyword("wird durch adr 7 abgelöst")  # not ASCII: the search decides
    assert successors.has_keyword("由 adr-9 取代")
    assert not successors.has_keyword("we chose postgresql for the main datastore")
    assert not successors.has_keyword("entschieden am 3. mai")


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_label_line_without_a_colon_is_what_the_pattern_says(text: str) -> None:
    m = formats._LABEL_LINE.match(text)
    expected = (m.group(1).strip().casefold(), m.group(2).strip()) if m else None
    assert formats.label_line(text) == expected


def test_label_line_on_written_lines() -> None:
    assert formats.label_line("Status: Accepted") == ("status", "Accepted")
    assert formats.label_line("상태：승인됨") == ("상태", "승인됨")
    assert formats.label_line("We decided to use PostgreSQL") is None


BLOCKS = st.lists(
    st.lists(st.sampled_from([*PIECES, "amend", "Extends", "adds to", "depend", "x"]),
             max_size=6).map("".join),
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(BLOCKS)
def test_keyword_hits_answer_declares_for_each_text(texts: list[str]) -> None:
    hits = relations.keyword_hits(texts)[0]
    assert [bool(h) for h in hits] == [relations.declares(t, ()) for t in texts]


def test_keyword_hits_on_written_prose() -> None:
    texts = ["Context and problem", "Superseded by [ADR-9](0009-x.md)", "", "Ersetzt durch ADR 4",
             "Wird durch ADR 7 abgelöst", "plain"]
    hits = relations.keyword_hits(texts)[0]
    assert [bool(h) for h in hits] == [False, True, False, True, True, False]


# The clause pattern as it was before its leading ``\s*`` went: every clause starts where it did.
OLD_CLAUSE = re.compile(r"\s*(?:;|\s[-–—]\s|,\s+(?=(?:and\s+)?(?:supersed|amend|replac)))\s*")
CLAUSE_TEXTS = st.lists(
    st.sampled_from([";", ",", " ", "  ", "\t", "\u2003", "-", "–", "—", "and", "and ",
                     "supersed", "amend", "replac", "Replac", "x", "ADR-3", "\n"]),
    max_size=14,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(CLAUSE_TEXTS)
def test_clause_starts_are_those_of_the_pattern_with_leading_spaces(text: str) -> None:
    expected = [0, *(m.end() for m in OLD_CLAUSE.finditer(text))]
    assert list(relations._clauses(text)) == expected
    assert (relations._CLAUSE_PROBE.search(text) is None) == (OLD_CLAUSE.search(text) is None)


def test_clause_starts_on_written_lines() -> None:
    line = "Accepted; supersedes ADR-2 - see the notes, and amends ADR-4"
    starts = list(relations._clauses(line))
    assert [line[s:s + 10] for s in starts] == [
        "Accepted; ", "supersedes", "see the no", "and amends",
    ]
    assert list(relations._clauses("We use on-call rotas, not pagers, for this.")) == [0]
    assert list(relations._clauses("a ; - b")) == [0, 4]  # the dash's space went with the ';'


LINE_TEXTS = st.lists(
    st.sampled_from([
        "This ADR ", "this decision ", "We ", "the present record ", "in part ", "partially ",
        "supersedes ", "Superseded by ", "superceded by ", "replaces ", "Replaced by ", "amends ",
        "amended by ", "adds to ", "Extends ", "extended by ", "refines ", "depends on ",
        "Rejected ", "in favour of ", "an addendum to ", "some aspects of ", "[ADR-3](3.md)",
        "ADR 5", "; ", " - ", ", ", "ſupersedes ", "K", "é", "x ", "\t",
    ]),
    max_size=10,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(LINE_TEXTS)
def test_a_line_without_the_words_a_pattern_needs_is_one_it_cannot_match(text: str) -> None:
    lower = text.lower()
    if not successors.may_hold(text, lower, *relations._START_WORDS):
        assert all(relations._start(text, i) is None for i in range(len(text) + 1))
    if not successors.may_hold(text, lower, *relations._SUBJECT_VERBS):
        assert relations._SUBJECT.search(text) is None


def test_keyword_gates_on_written_lines() -> None:
    line = "The on-call service already depends on it, and the team owns it."
    assert successors.may_hold(line, line.lower(), *relations._START_WORDS)  # ``depends``
    assert not successors.may_hold(line, line.lower(), *relations._SUBJECT_VERBS)
    found = relations.scan_line("Supersedes ADR-2; depends on ADR-7", [])  # two clauses
    assert [(f.kind.value, f.target) for f in found] == [
        ("supersedes", "ADR-2"), ("depends-on", "ADR-7"),
    ]
    found = relations.scan_line("This ADR supersedes ADR-2; it depends on ADR-7", [])
    assert [(f.kind.value, f.target) for f in found] == [("supersedes", "ADR-2")]
    assert successors.may_hold("ſupersedes", "ſupersedes", "supersed")  # not ASCII: may


MULTILINE = st.lists(
    st.lists(st.sampled_from([*PIECES, "amend", "Extends", "adds to", "depends", "x", "\n",
                              "Replaces", "obsolete", "been", "this "]), max_size=8).map("".join),
    max_size=6,
)


def _present(lower: str) -> set[str]:
    return {w for w in relations._ASCII_WORDS if w in lower}


@settings(max_examples=400, deadline=None)
@given(MULTILINE)
def test_keyword_hits_tell_each_line_its_keywords(texts: list[str]) -> None:
    hits, exact = relations.keyword_hits(texts)
    assert [bool(h) for h in hits] == [relations.declares(t, ()) for t in texts]
    if not exact:
        return
    for text, found in zip(texts, hits, strict=True):
        pos = 0
        for line in text.split("\n"):
            lower = line.lower()
            end = pos + len(lower)
            assert {w for at, w in found if pos <= at < end} == _present(lower)
            pos = end + 1


@settings(max_examples=600, deadline=None)
@given(LINE_TEXTS)
def test_gates_from_known_keywords_answer_what_the_words_answer(text: str) -> None:
    lower = text.lower()
    present = _present(lower) if lower.isascii() else None
    for gate in (relations._STARTS, relations._VERBS, relations._REPLACES):
        expected = successors.may_hold(text, lower, *gate.words)
        assert relations._may_pass(text, lower, present, gate) == expected
        assert relations._may_pass(text, lower, None, gate) == expected
    if present is not None:
        successor = not relations._SUCCESSOR_WORDS.isdisjoint(present)
        assert successor == successors.has_keyword(lower)


def test_keyword_hits_on_written_blocks() -> None:
    texts = ["Context", "It depends on the queue.\nThis supersedes ADR-2", "Ersetzt ADR 4"]
    hits, exact = relations.keyword_hits(texts)
    assert exact
    assert [sorted(h) for h in hits] == [[], [(3, "depend"), (30, "supers")], [(0, "ersetz")]]
    assert relations.keyword_hits(["Wird durch ADR 7 abgelöst"]) == ([[(17, "abgelöst")]], False)
    gate = relations._gate("replaces", "been")
    assert gate.by_keyword == {"replac": ("replaces",)} and gate.rest == ("been",)
