"""Blanking the parts of a line that cannot mention a decision, in linear time.

ADR204 looks for decision ids in prose, so HTML comments, link targets (``](...)``), autolinks
(``<scheme:...>``), bare URLs and code spans are turned into spaces first (their width kept, so
columns stay right). Regular expressions such as ``<!--.*?-->`` or ``\\]\\([^)]*\\)`` would
rescan the rest of the line from every opener that is never closed, which is quadratic in a
flood of openers; these scanners look for each closer once and stop trying an opener for good
when its closer no longer occurs.
"""

from __future__ import annotations

from collections.abc import Callable

_SCHEME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def blank_comments(text: str) -> str:
    """``text`` with every complete ``<!-- ... -->`` blanked (line breaks kept)."""
    if "<!--" not in text:
        return text
    spans: list[tuple[int, int]] = []
    at = text.find("<!--")
    while at != -1:
        close = text.find("-->", at + 4)
        if close == -1:
            break
        spans.append((at, close + 3))
        at = text.find("<!--", close + 3)
    return _apply(text, spans)


def _apply(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out.append(text[pos:start])
        piece = text[start:end]
        out.append("\n".join(" " * len(p) for p in piece.split("\n")))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def mask_line(line: str) -> str:
    """One line with comments, link targets, autolinks, URLs and code spans blanked."""
    if "<" in line or "](" in line or "://" in line:
        line = _apply(line, _link_spans(line))
    if "`" in line:
        line = _apply(line, code_spans(line))
    return line


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _find_all(line: str, token: str) -> list[int]:
    found: list[int] = []
    at = line.find(token)
    while at != -1:
        found.append(at)
        at = line.find(token, at + 1)
    return found


def _url_starts(line: str) -> list[int]:
    """Where a bare URL (``\\b[a-z][a-z0-9+.-]*://\\S+``) can start: for each ``://`` the
    leftmost letter of the scheme run before it that starts a word."""
    starts: list[int] = []
    floor = 0
    for colon in _find_all(line, "://"):
        if colon + 3 >= len(line) or line[colon + 3].isspace():
            continue
        begin = colon
        while begin > floor and line[begin - 1] in _SCHEME:
            begin -= 1
        for i in range(begin, colon):
            if line[i] in _LETTERS and (i == 0 or not _is_word(line[i - 1])):
                starts.append(i)
                break
        floor = colon
    return starts


def _link_spans(line: str) -> list[tuple[int, int]]:
    """Spans of ``<!--...-->``, ``](...)``, ``<scheme:...>`` and ``scheme://...``, taken left
    to right, the first that fits at a position winning (as the alternatives of one regex).
    Only the positions where one can start are visited."""
    if "<" not in line and "://" not in line:
        return _target_spans(line)
    return _scanned_spans(line)


def _scanned_spans(line: str) -> list[tuple[int, int]]:
    """:func:`_link_spans` by the general scanner, for any line (the shortcut for a line
    without ``<`` or ``://`` must give what this gives)."""
    spans: list[tuple[int, int]] = []
    open_ok = {"-->": True, ")": True, ">": True}  # False once a closer occurs no more

    def closer(token: str, start: int) -> int:
        if not open_ok[token]:
            return -1
        found = line.find(token, start)
        if found == -1:
            open_ok[token] = False
        return found

    urls = _url_starts(line)
    u = 0
    pos = 0
    # next occurrence of each opener from the last search (found once, not once per position)
    ahead = {t: line.find(t) for t in ("<", "<!--", "](")}

    def after(token: str, start: int) -> int:
        at = ahead[token]
        if at != -1 and at < start:
            at = ahead[token] = line.find(token, start)
        return at

    while True:
        # while an autolink can still close every `<` is worth a look; then only `<!--`
        lt = after("<", pos) if open_ok[">"] else after("<!--", pos) if open_ok["-->"] else -1
        br = after("](", pos) if open_ok[")"] else -1
        while u < len(urls) and urls[u] < pos:
            u += 1
        url = urls[u] if u < len(urls) else -1
        found = [c for c in (lt, br, url) if c != -1]
        if not found:
            return spans
        i = min(found)
        end = _span_at(line, i, closer)
        if end != -1:
            spans.append((i, end))
            pos = end
        else:
            pos = i + 1


def _target_spans(line: str) -> list[tuple[int, int]]:
    """:func:`_link_spans` of a line without ``<`` or ``://`` (most lines with a link): only
    link targets, each ``](`` to the next ``)``, and none after a ``](`` that no ``)`` closes."""
    spans: list[tuple[int, int]] = []
    find = line.find
    at = find("](")
    while at != -1:
        close = find(")", at + 2)
        if close == -1:
            break
        spans.append((at, close + 1))
        at = find("](", close + 1)
    return spans


def _span_at(line: str, i: int, closer: Callable[[str, int], int]) -> int:
    """End of the span that starts at ``i`` (-1 when none does), alternatives in order."""
    n = len(line)
    ch = line[i]
    if ch == "<" and line.startswith("<!--", i):
        close = closer("-->", i + 4)
        if close != -1:
            return close + 3
    if ch == "]":
        close = closer(")", i + 2)
        return close + 1 if close != -1 else -1
    if ch == "<" and i + 1 < n and line[i + 1] in _LETTERS:
        j = i + 2
        while j < n and line[j] in _SCHEME:
            j += 1
        if j < n and line[j] == ":":
            close = closer(">", j + 1)
            return close + 1 if close != -1 else -1
        return -1
    if ch in _LETTERS:
        k = line.index("://", i) + 3
        while k < n and not line[k].isspace():
            k += 1
        return k
    return -1


def code_spans(line: str) -> list[tuple[int, int]]:
    """Code spans as CommonMark reads them on one line: a run of N backticks opens, the next
    run of exactly N closes; an opener with no closer is literal text."""
    runs: list[tuple[int, int]] = []  # (start, length)
    i, n = 0, len(line)
    while True:
        i = line.find("`", i)
        if i == -1:
            break
        j = i
        while j < n and line[j] == "`":
            j += 1
        runs.append((i, j - i))
        i = j
    following: list[int] = [-1] * len(runs)  # index of the next run of the same length
    last: dict[int, int] = {}
    for r in range(len(runs) - 1, -1, -1):
        following[r] = last.get(runs[r][1], -1)
        last[runs[r][1]] = r
    spans: list[tuple[int, int]] = []
    r = 0
    while r < len(runs):
        close = following[r]
        if close == -1:
            r += 1
            continue
        start, _length = runs[r]
        spans.append((start, runs[close][0] + runs[close][1]))
        r = close + 1
    return spans
