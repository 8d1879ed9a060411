"""A body line's relation scan, made with less work, finds what it found (issue 30, the cold
check): the key line and supersession phrases are read only where a colon or a successor
keyword is, a start rule is tried only when the line holds one of its keywords, and the
key-line deduplication runs only when there is something to deduplicate. The old scan and the
old start-rule lookup are the oracles."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from linkspans import link_spans

from adrguard.core.model import RelKind
from adrguard.core.parse import keyed, relations, successors
from adrguard.core.parse.document import Span
from adrguard.core.parse.relations import Found


def _old_start(text: str, begin: int) -> tuple[re.Match[str], RelKind] | None:
    first = text[begin : begin + 1]
    rules = (
        relations._STARTS_BY_FIRST.get(first.lower(), ())
        if first.isascii()
        else relations._START_RULES
    )
    for pattern, kind in rules:
        m = pattern.match(text, begin)
        if m:
            return m, kind
    return None


def _old_scan(
    text: str,
    lower: str,
    present: set[str] | None,
    spans: list[Span],
    partly_superseded: bool,
    status: bool,
) -> list[Found]:
    r = relations
    if present is None:
        successor = successors.has_keyword(lower)
    else:
        successor = not r._SUCCESSOR_WORDS.isdisjoint(present)
    out = [
        Found(kind, target, label, col)
        for kind, (target, label, col) in keyed.declared(text, spans, status, successor)
    ]
    declared = len(out)
    for clause in r._clauses(text) if r._may_pass(text, lower, present, r._STARTS) else ():
        begin = r._lead_end(text, clause)
        started = _old_start(text, begin)
        if started:
            m, kind = started
            out.extend(
                Found(kind, t, label, col) for t, label, col in r._targets(text, spans, m.end())
            )
    subject = (
        r._SUBJECT.finditer(text)
        if r._may_pass(text, lower, present, r._VERBS)
        and successors.may_hold(text, lower, "this", "present", "we")
        else ()
    )
    for m in subject:
        verb = re.sub(r"\s+", " ", m.group("verb").casefold())
        if verb.startswith("supersede") and " of" in verb:
            kind = RelKind.AMENDS
        else:
            kind = r._VERB_KIND.get(verb, RelKind.SUPERSEDES)
            if m.group("partial"):
                kind = r._PARTIAL.get(kind, kind)
        out.extend(Found(kind, t, label, col) for t, label, col in r._targets(text, spans, m.end()))
    replaces = (
        r._REPLACES_DESCRIBED.finditer(text)
        if r._may_pass(text, lower, present, r._REPLACES)
        else ()
    )
    for m in replaces:
        found = r._targets(text, spans, m.end())
        out.extend(Found(RelKind.SUPERSEDES, t, label, col) for t, label, col in found)
    for m in r._PASSIVE.finditer(text) if successors.may_hold(text, lower, "been") else ():
        kind = RelKind.AMENDED_BY if m.group("partial") else RelKind.SUPERSEDED_BY
        out.extend(Found(kind, t, label, col) for t, label, col in r._targets(text, spans, m.end()))
    out.extend(r._object_first(text, spans))
    keyed_targets = {f.target for f in out[:declared]}
    out = out[:declared] + [f for f in out[declared:] if f.target not in keyed_targets]
    if partly_superseded:
        out = [
            Found(r._PARTIAL.get(f.kind, f.kind), f.target, f.text, f.column)
            if f.kind is RelKind.SUPERSEDED_BY
            else f
            for f in out
        ]
    return out


# Pieces of relation wording, the leads and marks around it, ids, keys with colons, successor
# phrases in other languages, and letters that fold to ASCII ones under re.I (``ſ``, the Kelvin
# sign) or lower to more than one character (``İ``).
PIECES = [
    "Supersedes ", "supersedes parts of ", "superseded by ", "Superceded by ", "partially ",
    "in part ", "partly ", "replaces ", "Replaced by ", "amends ", "Amended by ", "refines ",
    "refined by ", "extends ", "Extended by ", "depends on ", "Depends ", "dependency ",
    "rejected in favour of ", "Rejected (see ", "this is an addendum to ", "an addendum to ",
    "This ADR ", "the present decision ", "We ", "hereby ", "adds to ", "adds  to ",
    "has been superseded by ", "have been ", "is superseded", "can be considered superseded",
    "replaces the plugin pattern described in ", "Status: ", "Note: ", "nb: ", "marked as ",
    "mark as ", "2023-05-03: ", "Supersedes: ", "superseded-by: ", "Updates: ", "Enhances: ",
    "Depends-On: ", "Supersedes：", "Superseded-By：", "Updates：", "ersetzt durch ",
    "remplacé par ", "sustituye a ", "obsoletes ", "overrides ",
    "ADR-2", "ADR 12", "RFC-7", "0003-x.md", "[ADR 4]", " ", "  ", "; ", " - ", " — ", ", ",
    ", and ", ".", ". ", ":", "：", "(", ")", "already ", "The ", "it", "N/A", "none",
    "ſupersedes ", "\u212aeeps ", "İ", "é", "_",
]


def _present(text: str) -> set[str] | None:
    """The line's keywords as :func:`relations.collect` knows them (None: not ASCII)."""
    hits, exact = relations.keyword_hits([text])
    return {w for _at, w in hits[0]} if exact else None


LINES = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)


@settings(max_examples=1500, deadline=None)
@given(LINES, st.integers(0, 3), st.booleans(), st.booleans())
def test_scan_finds_what_the_old_scan_found(
    text: str, links: int, partly: bool, status: bool
) -> None:
    lower = text.lower()
    spans = link_spans(text, links)
    for present in (_present(text), None):
        if present is not None and not present:
            continue  # collect scans no line of an ASCII block without a keyword
        new = relations._scan(text, lower, present, spans, partly, status)
        old = _old_scan(text, lower, present, spans, partly, status)
        assert new == old


@settings(max_examples=1500, deadline=None)
@given(LINES, st.integers(0, 12))
def test_start_tries_the_rules_that_may_match(text: str, begin: int) -> None:
    begin = min(begin, len(text))
    present = _present(text)
    got = relations._start(text, begin, present)
    want = _old_start(text, begin)
    assert (got and (got[0].span(), got[1])) == (want and (want[0].span(), want[1]))


def test_each_start_rule_needs_one_of_its_keywords() -> None:
    # every rule, matched at the start of wording written to match it, holds one of its keywords
    samples = [
        "partially supersedes ADR-1", "supersedes parts of ADR-1", "superseding ADR-1",
        "in part superceded by ADR-1", "superceded by ADR-1", "replaces ADR-1",
        "replaced by ADR-1", "amends ADR-1", "an addendum to ADR-1", "refines ADR-1",
        "extended by ADR-1", "extends ADR-1", "depends on ADR-1", "rejected, see ADR-1",
    ]
    assert len(samples) == len(relations._START_SOURCES) == len(relations._START_NEEDS)
    for text, (pattern, _kind), needs in zip(
        samples, relations._START_RULES, relations._START_NEEDS, strict=True
    ):
        m = pattern.match(text)
        assert m is not None, text
        assert any(word in m.group().lower() for word in needs), text


def test_a_line_with_only_a_dependency_wording_still_declares_at_a_clause_start() -> None:
    text = "Depends on [ADR-2](0002-x.md); the queue already depends on it"
    spans = link_spans(text, 1)
    present = _present(text)
    assert present == {"depend"}
    found = relations._scan(text, text.lower(), present, spans, False, False)
    assert [(f.kind, f.target) for f in found] == [(RelKind.DEPENDS_ON, "ADR-2.md")]
    assert relations._scan(
        "the queue already depends on it", "the queue already depends on it", present, [],
        False, False,
    ) == []


def test_a_key_line_with_a_full_width_colon_is_still_read() -> None:
    for text, kind in (("Superseded-By：ADR-7", RelKind.SUPERSEDED_BY),
                       ("Updates：ADR-7", RelKind.AMENDS)):
        found = relations._scan(text, text.lower(), _present(text), [], False, False)
        assert [(f.kind, f.target) for f in found] == [(kind, "ADR-7")]
