"""Patterns a hook run no longer compiles (issue 30) answer exactly as before.

The clause-start rules are tried by the first character of the clause instead of behind an
alternation of all of them; the keyword alternations and the date pieces are built from their
sources, so reading them compiles nothing. The old patterns are copied here as the oracle.
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import RelKind
from adrguard.core.parse import relations, status, successors

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
    assert relations._ASCII_WORDS == tuple(
        dict.fromkeys(w for w in joined.split("|") if w.isascii())
    )
    assert successors.ASCII_KEYWORDS == tuple(
        w for w in successors.KEYWORDS.pattern.split("|") if w.isascii()
    )
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


def test_importing_the_parser_compiles_none_of_these_patterns() -> None:
    code = (
        "from adrguard.core.parse import relations, status, successors\n"
        "lazies = [successors.KEYWORDS, relations._MAY_DECLARE, status._ISO_DATE,\n"
        "          status._DMY_DATE, *(p for p, _ in relations._START_RULES)]\n"
        "print(sum('match' in vars(p) for p in lazies))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
