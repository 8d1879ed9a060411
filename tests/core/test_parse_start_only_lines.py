"""A relation line whose only keywords are ``depend``, ``refine`` or ``reject`` is scanned only
where a clause's wording can begin (issue 30, the cold check): start rules are tried at the
clauses whose lead ends at a start word, not at every clause. The general clause scan (every
clause of :func:`relations._clauses`, its lead, the start rules) is the oracle, and so is the
whole scan of the line without its keywords known."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from linkspans import link_spans

from adrguard.core.model import RelKind
from adrguard.core.parse import relations

r = relations


def _present(text: str) -> set[str] | None:
    hits, exact = r.keyword_hits([text])
    return {w for _at, w in hits[0]} if exact else None


def _general_starts(text: str, present: set[str]) -> list[tuple[tuple[int, int], RelKind]]:
    """The start rules' matches the general scan finds: every clause, in order."""
    out = []
    for clause in r._clauses(text) if r._may_pass(text, text.lower(), present, r._STARTS) else ():
        started = r._start(text, r._lead_end(text, clause), present)
        if started:
            out.append((started[0].span(), started[1]))
    return out


def _shortcut_starts(text: str, present: set[str]) -> list[tuple[tuple[int, int], RelKind]]:
    clauses = r._wording_clauses(text, text.lower(), present)
    if clauses is None:
        clauses = list(r._clauses(text))
    out = []
    for clause in clauses:
        started = r._start(text, r._lead_end(text, clause), present)
        if started:
            out.append((started[0].span(), started[1]))
    return out


# Start words and their look-alikes, what a lead may hold (labels, ``mark(ed) as``, dates,
# bullets, emphasis), words that end like a lead word, clause marks, ids.
PIECES = [
    "depends on ", "Depends on ", "DEPENDS ON ", "depends ", "dependency ", "independent ",
    "refines ", "Refined by ", "refined ", "rejected ", "Rejected (see ", "rejected, see ",
    "rejected in favour of ", "rejected in favor of ", "see ", "Status: ", "status:", "Statut : ",
    "Note: ", "NB: ", "nb:", "note ", "marked as ", "Mark as ", "as ", "has ", "was ", "alias ",
    "bas", "2023-05-03: ", "2023-5-3 - ", "1999 ", "7 ", "_", "**", "*", "- ", "> ", "`",
    "; ", ";", " - ", " -- ", "-", ", ", ",", ". ", "(", ")", ":", " ", "  ", "\t", "the queue ",
    "already ", "it", "ADR-2", "ADR 12", "[ADR 4]", "0003-x.md", "x",
]
LINES = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(max_examples=3000, deadline=None)
@given(LINES)
def test_the_start_rules_match_where_the_general_scan_finds_them(text: str) -> None:
    present = _present(text)
    if present is None or not present or not present <= r._START_ONLY:
        return
    assert _shortcut_starts(text, present) == _general_starts(text, present)


@settings(max_examples=2000, deadline=None)
@given(LINES, st.integers(0, 3), st.booleans(), st.booleans())
def test_the_scan_finds_what_it_finds_without_the_keywords_known(
    text: str, links: int, partly: bool, status: bool
) -> None:
    present = _present(text)
    if present is None or not present:
        return
    spans = link_spans(text, links)
    lower = text.lower()
    assert r._scan(text, lower, present, spans, partly, status) == r._scan(
        text, lower, None, spans, partly, status
    )


def test_written_lines() -> None:
    cases = {
        "Depends on [ADR-2]; the queue already depends on it": [RelKind.DEPENDS_ON],
        "the queue already depends on it": [],
        "independent of ADR-2": [],
        "We use a queue; depends on ADR-2": [RelKind.DEPENDS_ON],
        "We use a queue - depends on ADR-2": [RelKind.DEPENDS_ON],
        "We use a queue, depends on ADR-2": [],  # a comma starts no clause here
        "- 2023-05-03: Rejected (see ADR-4)": [RelKind.IN_FAVOUR_OF],
        "Status: rejected, see ADR-4": [RelKind.IN_FAVOUR_OF],
        "Marked as rejected in favour of ADR-5": [RelKind.IN_FAVOUR_OF],
        "Note: refines ADR-6": [RelKind.AMENDS],
        "NB: refined by ADR-7": [RelKind.AMENDED_BY],
        "It was rejected, see ADR-8": [],  # ``was`` ends like ``as``: no lead
        "**Refines** ADR-9": [RelKind.AMENDS],
        "A plan; - ; depends on ADR-10": [RelKind.DEPENDS_ON] * 2,  # two clauses, one lead end
    }
    for text, kinds in cases.items():
        present = _present(text)
        assert present and present <= r._START_ONLY, text
        found = r._scan(text, text.lower(), present, [], False, False)
        assert [f.kind for f in found] == kinds, text
        assert found == r._scan(text, text.lower(), None, [], False, False), text
        assert _shortcut_starts(text, present) == _general_starts(text, present), text


def test_each_start_rule_of_these_keywords_begins_with_a_start_word() -> None:
    samples = {
        "depend": ["depends on ADR-1", "Depends  On ADR-1"],
        "refine": ["refines ADR-1", "Refined by ADR-1"],
        "reject": ["rejected, see ADR-1", "Rejected in favour of ADR-1", "rejected (see ADR-1"],
    }
    assert set(samples) == r._START_ONLY
    for keyword, texts in samples.items():
        for text in texts:
            started = r._start(text, 0, {keyword})
            assert started is not None, text
            assert text.lower().startswith(r._STARTS.by_keyword[keyword]), text


LEADS = st.lists(
    st.sampled_from(
        ["- ", "* ", "**", "_", "> ", "2023-05-03", ": ", " - ", "Status", "statut", "Note",
         "NB", " : ", ":", "mark ", "Marked ", "as ", "As  ", "x", "7", "\t", "; "]
    ),
    max_size=8,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(LEADS)
def test_a_leads_last_run_of_letters_is_a_lead_end(text: str) -> None:
    # what _wording_clauses relies on: the letters a lead ends with are one of _LEAD_ENDS
    m = r._LEAD.match(text)
    assert m is not None
    runs = re.findall(r"[A-Za-z]+", m.group())
    if runs:
        assert runs[-1].lower() in r._LEAD_ENDS, text
