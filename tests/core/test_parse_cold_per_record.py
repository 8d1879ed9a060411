"""Work a cold check did once per record, done once per run or with less work, gives what it
gave (issue 30, the cold check): a heading's slug kept per heading text for a run's parses, its
markdown source read only when asked for, a record's status headings looked up per heading
text for the run, and the supersession patterns that need a CJK word left out for ASCII text.
The old ways are the oracles."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.model import RelKind, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import ids, successors
from adrguard.core.parse import status as status_words
from adrguard.core.parse.document import Document, github_slug
from adrguard.core.parse.fields import Fields, _probe
from adrguard.core.parse.markdown import walk

HEADING_PIECES = ["Context", " and ", "Problem", "Statement", "Status", "Décision", "Ｓtatus",
                  " & ", "(v2.0)", "_x_", "-", "  ", "ſ", "İ", "`code`", "Options", "1", "é",
                  "e\u0301", "**Bold**", "[link](x.md)", "#", ":"]
HEADINGS = st.lists(st.sampled_from(HEADING_PIECES), min_size=1, max_size=5).map("".join)
BODIES = st.lists(
    st.lists(st.tuples(st.integers(1, 4), HEADINGS), max_size=6), min_size=1, max_size=4
)


def _seen(doc: Document) -> list[tuple[int, str, int, str, int, str]]:
    return [(h.level, h.text, h.line, h.anchor, h.block, h.raw) for h in doc.headings]


def _body(headings: list[tuple[int, str]]) -> str:
    return "".join(f"{'#' * level} {text}\n\nSome text.\n\n" for level, text in headings)


@settings(max_examples=400, deadline=None)
@given(BODIES)
def test_anchors_with_a_shared_slug_table_are_github_slugs(
    bodies: list[list[tuple[int, str]]],
) -> None:
    shared: dict[str, str] = {}
    for headings in bodies:
        alone = walk(_body(headings))
        together = walk(_body(headings), 0, shared)
        seen: dict[str, int] = {}
        want = [github_slug(h.text, seen) for h in alone.headings]
        assert [h.anchor for h in alone.headings] == want
        assert [h.anchor for h in together.headings] == want
        assert _seen(together) == _seen(alone)
        assert [b.text for b in together.blocks] == [b.text for b in alone.blocks]
    for text, slug in shared.items():
        assert slug == github_slug(text)


def test_repeated_headings_are_numbered_in_each_record_alone() -> None:
    shared: dict[str, str] = {}
    body = "# Title\n\n## Options\n\n### Options\n\n## Options\n"
    for _ in range(2):
        anchors = [h.anchor for h in walk(body, 0, shared).headings]
        assert anchors == ["title", "options", "options-1", "options-2"]
    assert shared == {"Title": "title", "Options": "options"}


STATUS_PIECES = ["Status", "status", "2. Statut", "상태 (Status)", "Status / 状态", "Current",
                 " state", "State", "Decision", " ", "Stand", "Ｓtatus", "İ", "ſtatus", ":",
                 "(", ")", "Experimental ", "Zustand", "1.", "x"]
STATUS_HEADINGS = st.lists(st.sampled_from(STATUS_PIECES), min_size=1, max_size=4).map("".join)


def _fields(doc: Document, body: str, options: Options) -> Fields:
    source = SourceFile(path="docs/adr/0001-x.md", root="docs/adr", data=b"")
    name = "0001-x"
    return Fields(source, options, {}, {}, doc, body, (name, ids.parse_name(name)))


def _old_status_sections(fields: Fields, options: Options) -> set[int]:
    _keys, probe, keys = _probe(options)
    out: set[int] = set()
    for i, h in enumerate(fields.doc.headings):
        folded = h.text.casefold()
        if folded in keys or (probe.search(folded) and status_words.is_status_heading(h.text, keys)):
            out.add(i)
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(STATUS_HEADINGS, max_size=5), min_size=1, max_size=4),
    st.sampled_from([(), ("Zustand",), ("State", "Current state")]),
)
def test_status_sections_with_the_runs_table_are_those_looked_up(
    records: list[list[str]], extra: tuple[str, ...]
) -> None:
    options = Options(status_headings=(*Options().status_headings, *extra))
    for headings in records:
        body = "".join(f"## {text}\n\nAccepted\n\n" for text in headings)
        shared = _fields(walk(body), body, options)  # the run's table, filled as it goes
        alone = _fields(walk(body), body, Options(status_headings=options.status_headings))
        want = _old_status_sections(alone, options)
        assert shared.status_sections == want
        assert alone.status_sections == want


def test_a_status_heading_is_found_in_each_record_of_a_run() -> None:
    options = Options()
    body = "# X\n\n## Status\n\nAccepted\n\n## Context\n\nText\n"
    for _ in range(3):
        assert _fields(walk(body), body, options).status_sections == {1}
    other = "# Y\n\n## Context\n\nText\n\n## Status\n\nDraft\n"
    assert _fields(walk(other), other, options).status_sections == {2}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), HEADINGS), min_size=1, max_size=6),
       st.sampled_from(["", "   ", "Title\n=====\n\n", "---\n"]))
def test_a_headings_source_is_the_bytes_it_spans(
    headings: list[tuple[int, str]], lead: str
) -> None:
    body = lead + _body(headings) + "Setext\n---\n\n" + "## Closed ##  \n"
    data = body.encode("utf-8", "surrogatepass")
    doc = walk(body, 3)
    for h in doc.headings:
        block = doc.blocks[h.block]
        assert block.kind == "heading"
        assert (h.start, h.end) == (block.start, block.end)
        assert h.raw == data[block.start : block.end].decode("utf-8", "replace").strip()
    assert doc.headings[-1].raw == "## Closed ##"


def _old_successors(
    marked: successors.Marked, status: bool
) -> Iterable[tuple[RelKind, tuple[successors.Target, ...]]]:
    text = marked.text
    if successors.MARK not in text:
        return
    for pattern in (successors._BY, *successors._AGENT):
        for m in pattern.finditer(text):
            subject = successors._subject(text, m.start())
            if subject == "own":
                yield RelKind.SUPERSEDED_BY, successors._targets(marked, m)
            elif subject == "partial" and status:
                yield RelKind.AMENDED_BY, successors._targets(marked, m)


def _old_phrases(marked: successors.Marked, status: bool) -> list[successors.Phrase]:
    s = successors
    if not marked.targets:
        return []
    out = [s.Phrase(kind, targets) for kind, targets in _old_successors(marked, status)]
    text = marked.text
    for m in s._SELF_SUBJECT.finditer(text):
        targets = s._targets(marked, m)
        if s._names_records(targets):
            kind = RelKind.AMENDS if m.group("partial") else RelKind.SUPERSEDES
            out.append(s.Phrase(kind, targets))
    for pattern in (s._CLAUSE_START, *s._OBJECT_FIRST):
        for m in pattern.finditer(text):
            targets = s._targets(marked, m)
            subject = s._subject(text, m.start())
            if subject != "other" and s._names_records(targets):
                kind = RelKind.AMENDS if subject == "partial" else RelKind.SUPERSEDES
                if subject == "own" or status or pattern is not s._CLAUSE_START:
                    out.append(s.Phrase(kind, targets))
    return out


PHRASE_PIECES = ["Superseded by ", "replaced with ", "ersetzt durch ", "remplacé par ", "ADR-3",
                 "ADR 0004", "0005-x.md", "[ADR 6]", ", ", " and ", "该决策", "已被", "取代",
                 "替代了", "によって置き換え", "を廃止する", "으로 대체", "를 대체한다", "This ADR ",
                 "supersedes ", "partly ", "; ", "(旧方式)", "中的", " ", "。", "由"]
PHRASES = st.lists(st.sampled_from(PHRASE_PIECES), max_size=8).map("".join)


@settings(max_examples=800, deadline=None)
@given(PHRASES, st.booleans())
def test_phrases_are_those_every_pattern_found(text: str, status: bool) -> None:
    marked = successors.mark(text, [])
    assert successors.phrases(marked, status) == _old_phrases(marked, status)
    if marked.text.isascii():  # what the ASCII path leaves out finds nothing there
        for pattern in (*successors._AGENT, successors._CLAUSE_START, *successors._OBJECT_FIRST):
            assert pattern.search(marked.text) is None


def test_phrases_in_other_scripts_are_still_read() -> None:
    for text in ["已被 ADR-3 取代", "ADR-3 を廃止する", "ADR-3으로 대체"]:
        marked = successors.mark(text, [])
        found = successors.phrases(marked, True)
        assert found and found == _old_phrases(marked, True), text


STATUS_PIECES_RAW = ["Accepted", "accepted", "Proposed", "Superseded by ADR-3", "Deprecated",
                     "~~Proposed~~ Accepted", "**Accepted**", " ", "2024-01-02", "draft",
                     "{proposed | accepted}", "已被 ADR-3 取代", "Rejected", "experimental",
                     "has been implemented", ", ", "[ADR 4](0004-x.md)", "x", "Partly "]
STATUS_RAWS = st.lists(st.sampled_from(STATUS_PIECES_RAW), max_size=4).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.lists(STATUS_RAWS, min_size=1, max_size=8), st.booleans())
def test_a_runs_status_answers_are_those_worked_out(raws: list[str], extra: bool) -> None:
    words = dict(Options().status_synonyms)
    if extra:
        words["experimental"] = "proposed"
    options = Options(status_synonyms=words)
    synonyms = options.status_synonyms
    for raw in raws + raws:  # the second time from the run's table
        want = status_words._normalise(raw, dict(words))
        assert status_words.normalise(raw, synonyms) == want
        assert status_words.normalise(raw, dict(words)) == want
