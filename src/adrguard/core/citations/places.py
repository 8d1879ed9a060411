"""Places in one file: which spans hold a position, the text outside fenced code blocks,
line numbers counted once, ``adrguard-disable`` comments in the file's own syntax, and the
short excerpt of a line. Pure; every function is linear in the file (or bounded per call).
"""

from __future__ import annotations

from bisect import bisect_right

from adrguard.core.citations.syntax import Syntax
from adrguard.core.model import Waiver

DIRECTIVE = b"adrguard-disable"
EXCERPT_BEFORE = 100  # bytes of the line kept before a citation
EXCERPT_AFTER = 140


class Spans:
    """Sorted, non-overlapping ``(start, end)`` spans: which one holds a position."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [s for s, _ in spans]

    def find(self, pos: int) -> int | None:
        i = bisect_right(self.starts, pos) - 1
        if i >= 0 and pos < self.spans[i][1]:
            return i
        return None


def outside_fences(data: bytes) -> list[tuple[int, int]]:
    """The spans of a markdown file outside fenced code blocks (``` and ~~~)."""
    if b"```" not in data and b"~~~" not in data:
        return [(0, len(data))]
    spans: list[tuple[int, int]] = []
    fence: bytes | None = None
    start = 0
    pos = 0
    size = len(data)
    while pos < size:
        nl = data.find(b"\n", pos)
        line_end = size if nl < 0 else nl
        line = data[pos:line_end]
        stripped = line.lstrip(b" ")
        if len(line) - len(stripped) <= 3 and stripped[:3] in (b"```", b"~~~"):
            mark = stripped[:1]
            run = len(stripped) - len(stripped.lstrip(mark))
            if fence is None:
                spans.append((start, pos))
                fence = mark * run
            elif stripped.startswith(fence) and not stripped.lstrip(mark).strip():
                fence = None
                start = line_end
        pos = line_end + 1
    if fence is None:
        spans.append((start, size))
    return [(s, e) for s, e in spans if e > s]


def waivers(
    data: bytes, syntax: Syntax, inside: Spans
) -> tuple[tuple[Waiver, ...], list[tuple[int, int]]]:
    """``adrguard-disable`` directives that open a comment of the file's own syntax, and the
    spans of their text."""
    if DIRECTIVE not in data:
        return (), []
    out: list[Waiver] = []
    spans: list[tuple[int, int]] = []
    lines = Lines(data)
    pos = data.find(DIRECTIVE)
    while pos >= 0:
        line_start = data.rfind(b"\n", max(0, pos - 200), pos) + 1
        lead = data[line_start:pos].strip()
        eol = data.find(b"\n", pos)
        eol = len(data) if eol < 0 else eol
        if _opens_comment(lead, syntax) and inside.find(pos) is not None:
            text = data[pos : min(eol, pos + 500)].decode("utf-8", "replace").strip()
            for mark in ("*/", "-->"):
                text = text.removesuffix(mark).rstrip()
            close = _comment_end(data, pos, eol, syntax, inside)
            line = lines.at(pos)
            out.append(Waiver(text, line, _next_content_line(data, close, lines.at(close))))
            spans.append((pos, eol))
        pos = data.find(DIRECTIVE, eol)
    return tuple(out), spans


def _opens_comment(lead: bytes, syntax: Syntax) -> bool:
    """Whether the text before a directive on its line is just a comment opener."""
    if syntax.kind == "doc":
        return (lead.endswith(b"<!--") and not lead[:-4].strip(b" \t>*-")) or lead == b".."
    # the family's own openers only: an HTML comment in a Python docstring is an example
    openers = b"#/*-;%!'\" \t" + (b"<" if syntax.family in _HTML_FAMILIES else b"")
    return not lead.strip(openers + (b"{" if syntax.family == "haskell" else b""))


_HTML_FAMILIES = frozenset({"markup", "vue"})


def _comment_end(data: bytes, pos: int, eol: int, syntax: Syntax, inside: Spans) -> int:
    """The offset where the directive's comment ends (its last line counts as the comment)."""
    if syntax.kind == "doc":
        close = data.find(b"-->", pos, pos + 10_000)
        return eol if close < 0 else close
    index = inside.find(pos)
    return eol if index is None else max(pos, inside.spans[index][1] - 1)


def _next_content_line(data: bytes, after: int, line: int) -> int | None:
    """The number of the first non-blank line after ``line`` (which holds offset ``after``),
    looked for over at most 200 lines; None when there is none."""
    pos = data.find(b"\n", after)
    for _ in range(200):
        if pos < 0:
            return None
        line += 1
        nxt = data.find(b"\n", pos + 1)
        if data[pos + 1 : len(data) if nxt < 0 else nxt].strip():
            return line
        pos = nxt
    return None


class Lines:
    """Line numbers of increasing offsets, counted once (linear over a whole file)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.line, self.counted = data, 1, 0

    def at(self, pos: int) -> int:
        if pos < self.counted:  # going back (rare): count again from the start
            self.line, self.counted = 1, 0
        self.line += self.data.count(b"\n", self.counted, pos)
        self.counted = pos
        return self.line
def excerpt(data: bytes, pos: int) -> str:
    """The line around ``pos``, on one line, at most about 240 characters, ``…`` where cut."""
    low = max(0, pos - EXCERPT_BEFORE)
    newline = data.rfind(b"\n", low, pos)
    start = newline + 1 if newline >= 0 else low
    cut_start = newline < 0 and low > 0
    end = data.find(b"\n", pos, pos + EXCERPT_AFTER)
    cut_end = end < 0 and pos + EXCERPT_AFTER < len(data)
    if end < 0:
        end = min(len(data), pos + EXCERPT_AFTER)
    text = " ".join(data[start:end].decode("utf-8", "replace").split())
    return ("…" if cut_start else "") + text + ("…" if cut_end else "")


def code_spans(data: bytes) -> list[tuple[int, int]]:
    """The inline code spans of a markdown text (```x```, ````` ``x`` `````), one line at a
    time: a run of backticks opens a span that the next run of the same length on the line
    closes. Sorted, non-overlapping; one pass over the backticks."""
    spans: list[tuple[int, int]] = []
    open_at = -1
    open_len = 0
    line_end = -1
    pos = data.find(b"`")
    while pos >= 0:
        run = pos
        while run < len(data) and data[run] == 96:  # a run of backticks
            run += 1
        if pos > line_end:  # a new line: an unclosed opener is plain text
            nl = data.find(b"\n", pos)
            line_end = len(data) if nl < 0 else nl
            open_at = -1
        if open_at < 0:
            open_at, open_len = pos, run - pos
        elif run - pos == open_len:
            spans.append((open_at, run))
            open_at = -1
        pos = data.find(b"`", run)
    return spans
