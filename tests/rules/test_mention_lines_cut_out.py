"""ADR204's masked lines, made with less work, are what they were (issue 30, the cold check):
without a fence in the text, each matching line is cut out where it starts (the text is not
split into all its lines), and a line without ``<`` or ``://`` has its link targets found
without the general scanner. The old ways are the oracles."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from mentionoracle import OLD_FENCE

from adrguard.core.options import DECISION_ID_PATTERN
from adrguard.core.parse import masking
from adrguard.core.parse.masking import _apply, blank_comments, code_spans
from adrguard.core.saferegex import Regex, compile_user
from adrguard.rules import mentions


def _old_mask_line(line: str) -> str:
    if "<" in line or "](" in line or "://" in line:
        line = _apply(line, masking._scanned_spans(line))
    if "`" in line:
        line = _apply(line, code_spans(line))
    return line


def _old_matching_lines(body: str, pattern: Regex) -> set[int]:
    """1-based numbers of the lines where ``pattern`` matches: one pass over the body (the
    pattern is compiled line-local, so no match spans a line break)."""
    found: set[int] = set()
    line, pos = 1, 0
    for m in pattern.finditer(body):
        start = m.start()
        line += body.count("\n", pos, start)
        pos = start
        found.add(line)
    return found


def _old_masked_lines(text: str, pattern: Regex) -> Iterator[tuple[int, str]]:
    body = blank_comments(text)
    lines = body.split("\n")
    matching = _old_matching_lines(body, pattern)
    if "`" not in body and "~" not in body:
        for number in sorted(matching):
            line = lines[number - 1]
            if not (
                line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+"))
            ):
                yield number, _old_mask_line(line)
        return
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
        if "`" in line or "~" in line:
            m = OLD_FENCE.match(line)
            if fence is not None:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
        elif fence is not None:
            continue
        if number not in matching:
            continue
        if line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "+")):
            continue
        yield number, _old_mask_line(line)


LINE_PIECES = ["ADR-12", "ADR 3", "adr-4", "xADR-5", "[ADR-0782](0782-x.md)", "](", ")", "(",
               "]", "[", "<", ">", "<!--", "-->", "<https://x.org/ADR-9>", "http://a.b/ADR-7",
               " ", "    ", "\t", "- ", "text ", "`ADR-8`", "é", "ADR-1)", "](ADR-2)"]
LINES = st.lists(st.sampled_from(LINE_PIECES), max_size=10).map("".join)
TEXTS = st.lists(st.one_of(LINES, st.sampled_from(["", "```", "~~~", "<!--", "-->"])),
                 max_size=8).map("\n".join)
PATTERNS = [
    mentions.for_lines(compile_user(DECISION_ID_PATTERN, line_local=True)),
    compile_user(DECISION_ID_PATTERN, line_local=True),
    compile_user(r"(?i)\badr[- ]?\d+", line_local=True),
]


@settings(max_examples=1000, deadline=None)
@given(LINES)
def test_link_spans_are_those_the_general_scanner_finds(line: str) -> None:
    assert masking._link_spans(line) == masking._scanned_spans(line)
    assert masking.mask_line(line) == _old_mask_line(line)


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from(range(len(PATTERNS))))
def test_masked_lines_are_those_of_the_split_text(text: str, which: int) -> None:
    pattern = PATTERNS[which]
    assert list(mentions.masked_lines(text, pattern)) == list(_old_masked_lines(text, pattern))


def test_masked_lines_on_written_text() -> None:
    pattern = PATTERNS[0]
    text = (
        "Intro\n\nSee [ADR-0782](0782-x.md) and ADR-3.\n    ADR-4 in code\n- ADR-5](y)\n"
        "last ADR-6"
    )
    got = list(mentions.masked_lines(text, pattern))
    assert got == [
        (3, "See [ADR-0782" + " " * len("](0782-x.md)") + " and ADR-3."),
        (5, "- ADR-5" + " " * len("](y)")),
        (6, "last ADR-6"),
    ]
    assert got == list(_old_masked_lines(text, pattern))
