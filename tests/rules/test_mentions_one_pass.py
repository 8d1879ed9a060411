"""ADR204's and ADR205's record facts, found with less work, are what they were (issue 30, the
cold check; ADR 62). ADR204's mentions come from the masked lines alone: the text is searched
first only when blanking its comments changed it; a mention's line is cut out where its masked
line starts and only that line's link texts are measured; fenced lines come from the lines that
can open or close a fence. ADR204 and ADR205 read the default pattern's number in place. The old
ways (the whole text split into lines, every line walked for fences, every line's link texts
measured, the number read by the general rule) are the oracles."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from mentionoracle import OLD_FENCE, old_link_texts

from adrguard.core.model import Decision, Link, Mention
from adrguard.core.options import DECISION_ID_PATTERN
from adrguard.core.parse.masking import blank_comments, mask_line
from adrguard.core.saferegex import Match, Regex, compile_user
from adrguard.rules import mentions
from adrguard.rules.links import _DATE_AFTER, link_ids_of, mentions_of
from adrguard.rules.mentions import fenced_lines, for_lines, needed


def _old_number(m: Match) -> int | None:
    digits = m.group(1) if m.groups() else re.sub(r"\D", "", m.group(0))
    return int(digits) if digits and digits.isdigit() else None


def _old_matching_lines(body: str, pattern: Regex) -> set[int]:
    found: set[int] = set()
    for m in pattern.finditer(body):
        found.add(body.count("\n", 0, m.start()) + 1)
    return found


def _old_skipped(lines: list[str]) -> set[int]:
    """The lines the old walk over every line skipped as a fence's or inside a fenced block."""
    skipped: set[int] = set()
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
        if "`" in line or "~" in line:
            m = OLD_FENCE.match(line)
            if fence is not None:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                skipped.add(number)
                continue
            if m:
                fence = m.group(1)
                skipped.add(number)
                continue
        elif fence is not None:
            skipped.add(number)
    return skipped


def _old_masked_lines(text: str, pattern: Regex) -> Iterator[tuple[int, str]]:
    body = blank_comments(text)
    lines = body.split("\n")
    matching = _old_matching_lines(body, pattern)
    skipped = _old_skipped(lines)
    for number, line in enumerate(lines, start=1):
        if number in skipped or number not in matching:
            continue
        if line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+")):
            continue
        yield number, mask_line(line)


def _old_mentions_of(d: Decision, pattern: Regex) -> list[Mention]:
    """ADR204's fact as it was found: the whole text searched first, then split."""
    out: list[Mention] = []
    held = needed(pattern)
    if not d.text or (held is not None and held not in d.text):
        return out
    if pattern.search(d.text) is None:
        return out
    linked: dict[int, list[tuple[int, int]]] | None = None
    for number, line in _old_masked_lines(d.text, pattern):
        for m in pattern.finditer(line):
            if _DATE_AFTER.match(line, m.end()):
                continue
            if linked is None:
                linked = old_link_texts(d)
            inside = any(a <= m.start() < b for a, b in linked.get(number, ()))
            out.append((number, m.start(), m.group(0), _old_number(m), inside))
    return out


def _old_link_ids_of(d: Decision, pattern: Regex) -> list[Mention]:
    out: list[Mention] = []
    for i, link in enumerate(d.links):
        if not link.text:
            continue
        for m in pattern.finditer(link.text):
            if not _DATE_AFTER.match(link.text, m.end()):
                out.append((i, m.start(), m.group(0), _old_number(m), False))
    return out


PIECES = ["ADR-0042", "ADR 7", "ADR042", "ADR-2023-05-09", "ADR-123456", "ADR-12345", "adr-5", "see ", "[",
          "]", "](0007-x.md)", "[ADR 3]", "\n", "`ADR-1`", "x", " ", "\\[", "[[ADR-5]]", "é",
          "<!-- ADR-8 -->", "<!--", "-->", "    ", "\t", "- ", "```", "````", "~~~", "   ```",
          "    ```", " ~~~~", "`", "~", "\r", "ＡＤＲ-1", "<https://x.org/ADR-9>"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)
LINKS = st.lists(
    st.tuples(st.integers(1, 8), st.integers(1, 30),
              st.sampled_from(["inline", "reference", "autolink", "html"]), st.booleans()),
    max_size=6,
)
PATTERNS = [
    for_lines(compile_user(DECISION_ID_PATTERN, line_local=True)),  # the standard engine
    compile_user(DECISION_ID_PATTERN, line_local=True),  # RE2: the same number, read in place
    compile_user(r"ADR[- ](\d+)", line_local=True),
    compile_user(r"(?i)\badr-?\d+", line_local=True),  # no group: the digits of the match
    compile_user(r" {4}ADR-?(\d)", line_local=True),  # may match a blanked comment's spaces
]


def _decision(text: str, where: list[tuple[int, int, str, bool]], offset: int) -> Decision:
    found = tuple(Link("0007-x.md", "ADR 7", line + offset, column, kind, image)
                  for line, column, kind, image in where)
    return Decision(id="ADR-0001", path="docs/adr/0001-x.md", root="docs/adr", number=1,
                    text=text, links=found, body_line_offset=offset)


@settings(max_examples=1500, deadline=None)
@given(TEXTS, LINKS, st.integers(0, 3), st.sampled_from(range(len(PATTERNS))))
def test_mentions_are_what_the_split_text_gave(
    text: str, where: list[tuple[int, int, str, bool]], offset: int, which: int
) -> None:
    d = _decision(text, where, offset)
    pattern = PATTERNS[which]
    assert mentions_of(d, pattern) == _old_mentions_of(d, pattern)
    assert [(n, line) for n, line in mentions.masked_lines(text, pattern)] == list(
        _old_masked_lines(text, pattern))


FENCE_LINES = st.lists(st.sampled_from(
    ["```", "````", "`````", "~~~", "~~~~", " ```", "  ~~~~", "   ````", "    ```", "x ```",
     "``", "```py", "~~~ x ```", "``` ~~~", "<!-- ```", "-->", "text", "", "ADR-1", "\t```",
     "```\r"]), max_size=12).map("\n".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXTS, FENCE_LINES))
def test_fenced_lines_are_those_the_walk_over_every_line_skipped(text: str) -> None:
    body = blank_comments(text)
    lines = body.split("\n")
    got = {n for first, last in fenced_lines(body)
           for n in range(first, min(last, len(lines)) + 1)}
    assert got == _old_skipped(lines)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from([*PIECES[:16], "ADR-00042", "ADR 99999"]), max_size=8),
       st.sampled_from(range(len(PATTERNS))))
def test_link_ids_are_what_they_were(texts: list[str], which: int) -> None:
    d = Decision(id="ADR-0001", path="docs/adr/0001-x.md", root="docs/adr", number=1,
                 text="x", links=tuple(Link("a.md", t, 1, 1) for t in texts))
    pattern = PATTERNS[which]
    assert link_ids_of(d, pattern) == _old_link_ids_of(d, pattern)


def test_a_pattern_matching_a_blanked_comments_spaces_finds_nothing_the_text_lacks() -> None:
    """Blanking a comment turns it into spaces; a pattern that matches those spaces finds no
    mention when the text itself has no match (the text is searched first: it changed)."""
    pattern = PATTERNS[4]
    d = _decision("<!--xx-->ADR-1 is here\n", [], 0)
    assert blank_comments(d.text) == "         ADR-1 is here\n"
    assert pattern.search(blank_comments(d.text)) is not None
    assert pattern.search(d.text) is None
    assert mentions_of(d, pattern) == [] == _old_mentions_of(d, pattern)
    # where the text matches too, the blanked line counts as it did
    d = _decision("x<!--xx-->ADR-1 is here\nthe     ADR-2\n", [], 0)
    assert mentions_of(d, pattern) == _old_mentions_of(d, pattern) == [
        (1, 6, "    ADR-1", 1, False), (2, 4, "    ADR-2", 2, False)]


def test_mentions_in_and_out_of_fences_and_link_texts() -> None:
    pattern = PATTERNS[0]
    text = ("ADR-1 first\n```\nADR-2 fenced\n~~~\nADR-3 still fenced\n```\n"
            "see [ADR 4](0004-x.md) and ADR-5\n  ~~~~\nADR-6 open fence\n")
    d = _decision(text, [(7, 5, "inline", False)], 2)
    got = [(n, m, inside) for n, _s, m, _num, inside in mentions_of(d, pattern)]
    assert got == [(1, "ADR-1", False), (7, "ADR 4", True), (7, "ADR-5", False)]
    assert mentions_of(d, pattern) == _old_mentions_of(d, pattern)
    assert fenced_lines(text) == [(2, 6), (8, sys.maxsize)]
    # a fence closes only with a run of its own character at least as long as the opening one
    text = "````\nADR-1\n```\nADR-2\n `````\nADR-3 out\n   ~~~\n    ~~~\nADR-4\n"
    assert fenced_lines(text) == [(1, 5), (7, sys.maxsize)]
    outside = [(n, m) for n, _s, m, _num, _inside in mentions_of(_decision(text, [], 0), pattern)]
    assert outside == [(6, "ADR-3")]
