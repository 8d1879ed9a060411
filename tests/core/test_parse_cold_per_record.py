"""Work a cold check did once per record, done once per run or with less work, gives what it
gave (issue 30, the cold check): a heading's slug kept per heading text for a run's parses,
a record's status headings looked up per heading text for the run, and a masked line's link
targets found without the general scanner when the line holds no ``<`` or ``://``. The old ways
are the oracles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.parse.document import github_slug
from adrguard.core.parse.markdown import walk

HEADING_PIECES = ["Context", " and ", "Problem", "Statement", "Status", "Décision", "Ｓtatus",
                  " & ", "(v2.0)", "_x_", "-", "  ", "ſ", "İ", "`code`", "Options", "1", "é",
                  "e\u0301", "**Bold**", "[link](x.md)", "#", ":"]
HEADINGS = st.lists(st.sampled_from(HEADING_PIECES), min_size=1, max_size=5).map("".join)
BODIES = st.lists(
    st.lists(st.tuples(st.integers(1, 4), HEADINGS), max_size=6), min_size=1, max_size=4
)


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
        assert together.headings == alone.headings
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
