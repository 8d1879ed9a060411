"""ADR104's heading work, done with less, gives what it gave (issue 30, the cold check; ADR 62):
a folded heading is split by the combiners only when it holds one of their marks or words, its
title is unnumbered and casefolded once, and a record's bold line starts are found from where
``**`` and ``__`` occur. The old ways (the split tried on every heading of three words or more,
the title folded twice, the multiline pattern) are the oracles."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.conventions import sections
from adrguard.core.conventions.log import starts_a_line_bold

_OLD_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+", re.IGNORECASE)
_OLD_PUNCT = re.compile(r"[^\w\s]")
_OLD_SEPARATED = re.compile(r"\s*[:(\[,;|/–—]|\s+-\s|\s+(?:of|for|to)\s+")
_OLD_COMBINERS = re.compile(
    r"\s+(?:&|and|or|und|oder|et|ou|y|o|e|en|и|или|\+)\s+|\s*[/,;&+|]\s*|\s*、\s*"
)
_OLD_LINE_START_BOLD = re.compile(r"^[ \t]{0,3}(?:\*\*|__)", re.M)


def _old_fold(title: str) -> str:
    text = _OLD_NUMBERING.sub("", title.strip().lstrip("#").strip())
    return " ".join(_OLD_PUNCT.sub(" ", text.casefold()).split())


def _old_heading_keys(heading: str) -> frozenset[str]:
    """Every heading folded twice, and split by the combiners whatever it holds."""
    keys = {_old_fold(heading)}
    light = " ".join(_OLD_NUMBERING.sub("", heading.strip().lstrip("#").strip()).casefold()
                     .split())
    light = light.strip("*_` ")
    m = _OLD_SEPARATED.search(light)
    if m and m.start() > 0:
        keys.add(_old_fold(light[: m.start()]))
    parts = [_old_fold(p) for p in _OLD_COMBINERS.split(light)]
    if len(parts) > 1:
        keys.update(p for p in parts if p)
    keys.update([k[:-1] if k.endswith("s") and not k.endswith("ss") else k for k in keys])
    keys.discard("")
    return frozenset(keys)


_PIECES = st.sampled_from([
    "#", "## ", " ", "\t", "\u00a0", "\u3000", "\n", "1", "2.", "iv.", "Decision", "Context",
    "Outcome", "Problem", " of ", " - ", ":", "(", ",", ";", "|", "/", "&", "+", "、", "*", "_",
    "`", " and ", " AND ", " or ", " Or ", " und ", " oder ", " et ", " ou ", " y ", " Y ",
    " o ", " e ", " en ", " и ", " И ", " или ", " ИЛИ ", "and", "or", "y", "o", "e", "en",
    "andy", " andes ", "Ø", "ǅ", "ß", "s",
])
_HEADING = st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=12).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_HEADING)
def test_a_headings_keys_are_those_of_the_split_tried_on_every_heading(heading: str) -> None:
    assert sections.fold(heading) == _old_fold(heading)
    assert sections.heading_keys(heading) == _old_heading_keys(heading)


@settings(max_examples=1500, deadline=None)
@given(_HEADING)
def test_the_combiners_never_split_a_heading_the_guard_passes_over(heading: str) -> None:
    light = " ".join(heading.casefold().split()).strip("*_` ")
    for text in (light, heading):  # as a heading gives it, and any text at all
        if len(_OLD_COMBINERS.split(text)) > 1:
            assert sections._may_combine(text), text


def test_written_headings_split_only_at_a_combiner() -> None:
    assert sections.heading_keys("Context and Problem Statement") >= {
        "context and problem statement", "context", "problem statement"}
    assert sections.heading_keys("Contexto y problema") >= {"contexto", "problema"}
    assert sections.heading_keys("Контекст и проблема") >= {"контекст", "проблема"}
    assert sections.heading_keys("Pros of the Options") == _old_heading_keys(
        "Pros of the Options")
    assert not sections._may_combine("pros of the options")
    assert not sections._may_combine("decision drivers and")  # "and" with no word after it...
    assert sections._may_combine("a and b")
    assert len(_OLD_COMBINERS.split("decision drivers and")) == 1  # ...splits nothing


_BOLD_PIECES = st.sampled_from(["**", "__", "*", "_", " ", "  ", "   ", "    ", "\t", "\n",
                                "\r", "x", "Decision", ":", "é", "\u00a0"])
_BOLD_TEXT = st.lists(_BOLD_PIECES, max_size=24).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_BOLD_TEXT)
def test_bold_line_starts_are_those_the_multiline_pattern_finds(text: str) -> None:
    assert starts_a_line_bold(text) is (_OLD_LINE_START_BOLD.search(text) is not None)


def test_written_bold_line_starts() -> None:
    assert starts_a_line_bold("intro\n**Decision:** use X\n")
    assert starts_a_line_bold("x __a__\n \t __Outcome__\n")
    assert not starts_a_line_bold("a **bold** word\n    **indented**\n")
    assert not starts_a_line_bold("_ __ not at a start\n")
