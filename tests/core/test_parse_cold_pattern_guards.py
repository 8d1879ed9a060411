"""Three patterns a cold check compiled for text they cannot match are asked only where they
may (issue 30, the cold check): the phrase of a record naming itself (``This ADR supersedes
X``), the relation wording with ``we`` as its subject (``We supersede X``, not ``We will replace
X``), and the dates of a status section's entries (read only when two entries may hold one).
Each guard's oracle is the pattern asked without it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import Link, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import relations, status, successors
from adrguard.core.parse.document import Span
from adrguard.core.parse.record import parse
from adrguard.core.serialize import encode

r = relations

# -- a ``we`` subject ---------------------------------------------------------------------------
SUBJECT_PIECES = [
    "We ", "we ", "WE ", "we", "  ", "\t", "- ", "**", "_", "1 ", "> ", "(", "hereby ",
    "will ", "partially ", "partly ", "in part ", "in ", "supersede ", "supersedes ",
    "superseded by ", "superceded by ", "replace ", "replaced by ", "amend ", "amended by ",
    "adds to ", "extend ", "extends ", "This ADR ", "this decision record ", "the present ",
    "document ", "is ", "ADR-3", "[ADR 4]", "weed ", "between ", "ſupersede ", "é", ". ",
]
SUBJECT_LINES = st.lists(st.sampled_from(SUBJECT_PIECES), max_size=8).map("".join)


def _old_gate(text: str, lower: str) -> bool:
    return successors.may_hold(text, lower, "this", "present", "we")


@settings(max_examples=3000, deadline=None)
@given(SUBJECT_LINES)
def test_the_subject_guard_passes_every_line_the_pattern_matches(text: str) -> None:
    if r._SUBJECT.search(text):
        assert r._may_name_subject(text, text.lower()), text


@settings(max_examples=1500, deadline=None)
@given(SUBJECT_LINES, st.booleans())
def test_the_scan_finds_what_it_found_with_the_old_subject_gate(
    text: str, status_line: bool
) -> None:
    lower = text.lower()
    spans = [Span(m, m + 5, Link("0003-x.md", "ADR-3", 1)) for m in _at(text, "ADR-3")]
    new = r._scan(text, lower, None, spans, False, status_line)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(r, "_may_name_subject", _old_gate)
        old = r._scan(text, lower, None, spans, False, status_line)
    assert new == old


def _at(text: str, word: str) -> list[int]:
    out, at = [], text.find(word)
    while at != -1:
        out.append(at)
        at = text.find(word, at + len(word))
    return out


def test_written_we_lines() -> None:
    for text, may in (
        ("We will replace Redis for payments.", False),
        ("We hereby supersede ADR-3", True),
        ("- we  partially amend ADR-3", True),
        ("We in part supersede ADR-3", True),
        ("_we amend ADR-3", False),  # ``\W`` is no ``_``
        ("Weed replaces nothing", False),
        ("We replace ADR-3", True),
        ("We", False),
        ("This ADR supersedes ADR-3", True),
        ("Wé replace ADR-3", True),  # not ASCII: may
    ):
        assert r._may_name_subject(text, text.lower()) is may, text
        if r._SUBJECT.search(text):
            assert may, text


# -- a record naming itself -----------------------------------------------------------------
SELF_PIECES = [
    "this ", "This ", "adr ", "decision record ", "document ", "now ", "hereby ", "partially ",
    "supersedes ", "supercedes ", "replaces ", "obsoletes ", "superseded by ", "replaced by ",
    "diese ", "entscheidung ", "ersetzt ", "cette ", "décision ", "remplace ", "esta ", "este ",
    "decisión ", "reemplaza ", "sustituye ", "a ", "decisão ", "substitui ", "questa ",
    "decisione ", "sostituisce ", "deze ", "besluit ", "vervangt ", "это ", "решение ",
    "заменяет ", "本决策", "取代", "status: ", "the ", "ADR-3", "[ADR 4](0004-x.md)", ", ",
    " and ", "0005-new-way", ". ",
]
SELF_LINES = st.lists(st.sampled_from(SELF_PIECES), max_size=8).map("".join)


@settings(max_examples=3000, deadline=None)
@given(SELF_LINES)
def test_the_self_guard_passes_every_text_the_pattern_matches(text: str) -> None:
    marked = successors.mark(text)
    if successors._SELF_SUBJECT.search(marked.text):
        assert successors._may_name_itself(marked.text), marked.text


@settings(max_examples=1500, deadline=None)
@given(SELF_LINES, st.booleans())
def test_phrases_are_what_they_were_without_the_self_guard(text: str, status_line: bool) -> None:
    marked = successors.mark(text)
    new = successors.phrases(marked, status_line)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(successors, "_may_name_itself", lambda _text: True)
        old = successors.phrases(marked, status_line)
    assert new == old


def test_written_self_texts() -> None:
    for text, may in (
        ("superseded by \x01", False),
        ("supersedes \x01", False),
        ("this adr supersedes \x01", True),
        ("cette décision remplace \x01", True),
        ("diese entscheidung ersetzt \x01", True),
        ("esta adr reemplaza a \x01", True),
        ("este documento sustituye \x01", True),
        ("esta adr substitui \x01", True),
        ("questa decisione sostituisce \x01", True),
        ("deze adr vervangt \x01", True),
        ("本决策取代 \x01", True),
    ):
        assert successors._may_name_itself(text) is may, text
        assert (successors._SELF_SUBJECT.search(text) is not None) is may, text
    marked = successors.mark("This ADR supersedes ADR-3")
    assert [p.targets for p in successors.phrases(marked, False)] == [(("ADR-3", "", 1),)]


# -- a status entry's dates ---------------------------------------------------------------------
ENTRY_PIECES = [
    "Accepted", "Proposed", "Superseded by ADR-749", "Supersedes [749. Old way](0749-x.md)",
    "2023-05-03", "2023-05-03: Accepted", "2024-01-02 Proposed", "03/05/2023 accepted",
    "5 May 2023: deprecated", "May 5, 2023 - accepted", "on 1/2/23 accepted", "v1234",
    "Date: 2023-05-03", "Rejected 2021.11.30", "12 34", "٢٠٢٣-٠٥-٠٣ accepted",
]
SECTIONS = st.tuples(
    st.lists(st.sampled_from(ENTRY_PIECES), min_size=1, max_size=4),
    st.sampled_from(["\n\n", "\n", "\n- "]),
)


def _record(entries: list[str], joint: str) -> bytes:
    lead = "- " if joint == "\n- " else ""
    return f"# Use queues\n\n## Status\n\n{lead}{joint.join(entries)}\n\n## Context\n\nText.\n".encode()


def _parsed(data: bytes) -> bytes:
    source = SourceFile(path="docs/adr/0004-x.md", root="docs/adr", data=data)
    encoded = encode(parse(source, Options()))
    assert encoded is not None  # every record these tests build encodes faithfully
    return encoded


@settings(max_examples=600, deadline=None)
@given(SECTIONS)
def test_a_status_section_reads_as_it_did_with_every_entrys_dates_read(
    section: tuple[list[str], str]
) -> None:
    data = _record(*section)
    new = _parsed(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(status, "may_hold_date", lambda _text: True)  # every entry's dates read
        old = _parsed(data)
    assert new == old


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789٢٣ -/.:年月日abcdefghijklmnopqrstuvwxyzMJ", max_size=24))
def test_a_text_that_may_hold_no_date_has_none(text: str) -> None:
    if not status.may_hold_date(text):
        for pattern in (status._ISO_DATE, status._NAMED_DATE, status._DMY_DATE):
            assert pattern.search(text) is None, text


def test_a_dated_history_is_still_read() -> None:
    data = _record(["2023-05-03: Proposed", "2024-01-02: Accepted"], "\n\n")
    source = SourceFile(path="docs/adr/0004-x.md", root="docs/adr", data=data)
    assert parse(source, Options()).status_raw == "2024-01-02: Accepted"
