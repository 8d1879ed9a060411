"""A rule fact of the cold check, made with less work, is what it was (issue 30): ADR204
splits a record's text to find link texts only when a mention stands on a line that holds a
link. The old form (the text split at the first mention) is the oracle. ADR107's record fact
(whether ``filename-pattern`` is found in a record's name) is pinned as the pattern's search."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mentionoracle import old_link_texts

from adrguard.core.model import Decision, Link, Mention
from adrguard.core.options import Options
from adrguard.core.saferegex import Regex, compile_user
from adrguard.rules import links, numbering
from adrguard.rules.links import _DATE_AFTER, _number, mentions_of
from adrguard.rules.mentions import for_lines, masked_lines, needed


def _old_mentions_of(d: Decision, pattern: Regex) -> list[Mention]:
    out: list[Mention] = []
    if not d.text or pattern.search(d.text) is None:
        return out
    linked: dict[int, list[tuple[int, int]]] | None = None
    held = needed(pattern)
    for number, line in masked_lines(d.text, pattern):
        if held is not None and held not in line:
            continue
        for m in pattern.finditer(line):
            if _DATE_AFTER.match(line, m.end()):
                continue
            if linked is None:
                linked = old_link_texts(d)
            inside = any(a <= m.start() < b for a, b in linked.get(number, ()))
            out.append((number, m.start(), m.group(0), _number(m), inside))
    return out


def test_filename_pattern_fact_is_the_search() -> None:
    from adrguard.core.parse import formats

    pattern = compile_user(r"^\d{4}-[a-z0-9-]+\.md$")
    names = formats.Names()
    for path, expected in (("docs/adr/0001-use-x.md", True), ("docs/adr/Use X.md", False),
                           ("docs/adr/0002-y/README.md", True)):
        d = Decision(id="X", path=path, root="docs/adr", text="")
        assert numbering._matches(pattern, d, names) is expected
        name = numbering.record_name(d.path, d.root, names)
        assert expected is (pattern.search(name) is not None)


PIECES = ["ADR-0042", "ADR 7", "ADR-2023-05-09", "see ", "[", "]", "](0007-x.md)", "[ADR 3]",
          "\n", "`ADR-1`", "x", " ", "\\[", "[[ADR-5]]", "é", "<!-- ADR-8 -->", "    "]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=20).map("".join)
LINKS = st.lists(
    st.tuples(st.integers(1, 8), st.integers(1, 30),
              st.sampled_from(["inline", "reference", "autolink", "html", "image"]),
              st.booleans()),
    max_size=6,
)


@settings(max_examples=800, deadline=None)
@given(TEXTS, LINKS, st.integers(0, 3), st.sampled_from([None, r"ADR[- ](\d+)"]))
def test_mentions_are_what_they_were(
    text: str, where: list[tuple[int, int, str, bool]], offset: int, own: str | None
) -> None:
    found = tuple(Link("0007-x.md", "ADR 7", line + offset, column, kind, image)
                  for line, column, kind, image in where)
    d = Decision(id="ADR-0001", path="docs/adr/0001-x.md", root="docs/adr", number=1,
                 text=text, links=found, body_line_offset=offset)
    source = own or Options().decision_id_pattern
    pattern = for_lines(compile_user(source, line_local=True))
    assert mentions_of(d, pattern) == _old_mentions_of(d, pattern)


def test_mentions_on_link_lines_and_off_them() -> None:
    text = "ADR-0042 here\nsee [ADR 7](0007-x.md) and ADR-9\n"
    d = Decision(id="ADR-0001", path="docs/adr/0001-x.md", root="docs/adr", number=1, text=text,
                 links=(Link("0007-x.md", "ADR 7", 2, 5),))
    pattern = for_lines(compile_user(Options().decision_id_pattern, line_local=True))
    got = [(n, m, inside) for n, _s, m, _num, inside in links.mentions_of(d, pattern)]
    assert got == [(1, "ADR-0042", False), (2, "ADR 7", True), (2, "ADR-9", False)]
    assert links.mentions_of(d, pattern) == _old_mentions_of(d, pattern)
