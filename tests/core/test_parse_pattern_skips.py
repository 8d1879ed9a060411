"""Patterns the parser no longer runs on text they cannot change, and a search it no longer
repeats, answer exactly as before (issue 30, parsing per record).

A label line's label is read by a greedy repeat instead of a lazy one; inline markup, a heading's
closing marks and an anchor's dropped characters are looked for only when a character they need
is there; a body is searched for relation keywords only when its blocks hold one or a table, and
first for the keywords its blocks hold. The old patterns and the old flow are the oracles.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.parse import document, fields, formats, front_matter, keyed, relations, status
from adrguard.core.parse.markdown import walk

OLD_LABEL_LINE = re.compile(r"^\s*([^\W\d][\w \-()（）/]{0,40}?)\s*[:：]\s*(\S.*)$")
OLD_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
OLD_INLINE_MARKUP = re.compile(r"(?<!\w)[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?!\w)|`")
OLD_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)
OLD_HEADING_MARKS = re.compile(r"^\s{0,3}#{1,6}[ \t]*|[ \t]+#+[ \t]*$")


def _old_label_line(line: str) -> tuple[str, str] | None:
    m = OLD_LABEL_LINE.match(line)
    return (m.group(1).strip().casefold(), m.group(2).strip()) if m else None


def _old_render_inline(text: str) -> str:
    return OLD_INLINE_MARKUP.sub("", OLD_MD_LINK.sub(r"\1", text)).strip()


def _old_slug(text: str, seen: dict[str, int]) -> str:
    import unicodedata

    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    slug = OLD_SLUG_DROP.sub("", text.strip().lower()).replace(" ", "-")
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return slug if count == 0 else f"{slug}-{count}"


LABEL_PIECES = [
    "Status", "status", "Date", "a", "Z", "é", "ß", "_", "0", "٣", " ", "  ", "\t", "\u2003",
    "\u00a0", ":", "：", "-", "(", ")", "（", "）", "/", "*", "`", "[x](y.md)", "\n", "\r",
    "Accepted", "x" * 20, "y" * 41, ".",
]
LABEL_TEXTS = st.lists(st.sampled_from(LABEL_PIECES), max_size=14).map("".join)


@settings(max_examples=800, deadline=None)
@given(LABEL_TEXTS)
def test_label_line_reads_what_the_lazy_pattern_read(text: str) -> None:
    assert formats.label_line(text) == _old_label_line(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_label_line_on_any_text(text: str) -> None:
    assert formats.label_line(text) == _old_label_line(text)


def test_label_line_on_written_lines() -> None:
    for line in ["Status   : Accepted", "* Date:  2024-01-02 ", "Decision makers (lead): Ana",
                 "This builds on ADR-0032: The stable module uses CQRS.",
                 "A label that is far too long to be any label at all, really: no",
                 "상태：승인됨", "Status:", "9 lives: no", "Status\t: tab"]:
        assert formats.label_line(line) == _old_label_line(line), line
    assert formats.label_line("Status   : Accepted") == ("status", "Accepted")


INLINE_PIECES = [
    "Use ", "X", "[", "]", "(", ")", "[ADR 3](0003-x.md)", "![i](a.png)", "*", "**", "_", "__",
    "`", "code", " ", "\n", "é", "word", "snake_case", "2024-01-02",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(INLINE_PIECES), max_size=12).map("".join))
def test_render_inline_is_what_both_patterns_made_of_it(text: str) -> None:
    assert formats.render_inline(text) == _old_render_inline(text)


def test_render_inline_on_written_values() -> None:
    for value in ["2015-03-26", " proposed ", "**Accepted**", "[ADR-3](0003-x.md) wins",
                  "`code` and _more_", "bob, grace, alice"]:
        assert formats.render_inline(value) == _old_render_inline(value), value
    assert formats.render_inline(" proposed ") == "proposed"


SLUG_PIECES = ["Use", " ", "-", "_", "X", "0", ".", "'", "é", "É", "ſ", "(", "#", "\t", "/",
               "e\u0301", "中", "", "  "]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SLUG_PIECES), max_size=8).map("".join), max_size=5))
def test_github_slug_is_what_the_pattern_made_of_it(headings: list[str]) -> None:
    seen_new: dict[str, int] = {}
    seen_old: dict[str, int] = {}
    for text in headings:
        assert document.github_slug(text, seen_new) == _old_slug(text, seen_old)
    assert seen_new == seen_old


def test_github_slug_on_written_headings() -> None:
    seen: dict[str, int] = {}
    assert document.github_slug("Context and Problem Statement", seen) == (
        "context-and-problem-statement"
    )
    assert document.github_slug("Pros & Cons (v2.0)", seen) == "pros--cons-v20"
    assert document.github_slug("Context and Problem Statement", seen) == (
        "context-and-problem-statement-1"
    )
    assert document.github_slug("snake_case - x", None) == "snake_case---x"


HEADING_PIECES = ["#", "##", "#######", " ", "   ", "    ", "\t", "\u2003", "Title", "C#", "x",
                  "# ", " #", "\\#"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(HEADING_PIECES), max_size=10).map("".join))
def test_heading_marks_are_cut_as_the_pattern_cut_them(line: str) -> None:
    assert fields._without_marks(line) == OLD_HEADING_MARKS.sub("", line).strip()


def test_heading_marks_on_written_headings() -> None:
    for line in ["# 30. Keep OAuth 2 for configuration", "## Use C# ##", "   ### x ###  ",
                 "#Title", "#", "Use C#"]:
        assert fields._without_marks(line) == OLD_HEADING_MARKS.sub("", line).strip(), line


KEYWORD_TEXTS = st.lists(
    st.sampled_from(["plain ", "depends", "DEPENDS", "supersedes", "ersetzt", "abgelöst", "取代",
                     "ſupers", "é", "amend", "x", "\n"]),
    max_size=8,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(KEYWORD_TEXTS, st.lists(st.sampled_from([*relations._ASCII_WORDS, "abgelöst", "取代"])))
def test_declares_is_may_declare_whatever_keywords_are_tried_first(
    text: str, known: list[str]
) -> None:
    assert relations.declares(text, known) == relations.may_declare(text)


MARKDOWN_PIECES = [
    "Superseded by [ADR 3](0003-x.md)", "sup**ers**edes ADR-4", "&#115;upersedes ADR-5",
    "`adds\nto` ADR-6", "depends on ADR-7", "Amends ADR-8", "\n\n", "\n", "| Supersedes | ADR-9 |\n",
    "| --- | --- |\n", "\n| &#83;upersedes | ADR-10 |\n| --- | --- |\n", "| Status | Accepted |\n", "# Title\n", "## Status\n", "Accepted\n",
    "Status: superseded by ADR-2\n", "- replaced by ADR-11\n", "plain text ", "[link](0012-x.md)",
    "<!-- supersedes ADR-13 -->", "ersetzt durch ADR-14", "Ersetzt durch [ADR 15](0015-x.md)",
]
MARKDOWN = st.lists(st.sampled_from(MARKDOWN_PIECES), max_size=10).map("".join)


def _where() -> relations.Where:
    return relations.Where("docs/adr/0001-x.md", "ADR-0001", {}, set())


@settings(max_examples=400, deadline=None)
@given(MARKDOWN, st.booleans())
def test_collect_with_the_body_is_collect_of_the_blocks_the_body_allowed(
    body: str, partly: bool
) -> None:
    blocks = walk(body).blocks
    old_blocks = blocks if relations.may_declare(body) else []
    old = relations.collect(_where(), {}, [], old_blocks, partly)
    assert relations.collect(_where(), {}, [], walk(body).blocks, partly, body) == old


def test_collect_with_the_body_on_written_records() -> None:
    for body in ["Superseded by [ADR 3](0003-x.md)\n",
                 "It sup**ers**edes nothing here\n",  # a keyword only in the text: none in the body
                 "| Supersedes | ADR-9 |\n| --- | --- |\n",
                 "| &#83;upersedes | ADR-10 |\n| --- | --- |\n",  # a key only in the cell's text
                 "Plain prose.\n"]:
        blocks = walk(body).blocks
        old = relations.collect(
            _where(), {}, [], blocks if relations.may_declare(body) else [], False
        )
        assert relations.collect(_where(), {}, [], walk(body).blocks, False, body) == old, body
    found = relations.collect(
        _where(), {}, [], walk("Superseded by [ADR 3](0003-x.md)\n").blocks, False,
        "Superseded by [ADR 3](0003-x.md)\n",
    )
    assert [(r.kind.value, r.target_raw) for r in found] == [("superseded-by", "0003-x.md")]


def _old_keyword_hits(texts: list[str]) -> tuple[list[list[tuple[int, str]]], bool]:
    """keyword_hits as it was: every ASCII keyword searched for in the joined text."""
    from bisect import bisect_right

    lowered = [t.lower() for t in texts]
    joined = "\0".join(lowered)
    out: list[list[tuple[int, str]]] = [[] for _ in texts]
    hits: list[tuple[int, str]] = []
    exact = joined.isascii()
    if exact:
        for word in relations._ASCII_WORDS:
            at = joined.find(word)
            while at != -1:
                hits.append((at, word))
                at = joined.find(word, at + len(word))
    else:
        hits = [(m.start(), m.group()) for m in relations._MAY_DECLARE.finditer(joined)]
    starts: list[int] = []
    pos = 0
    for low in lowered:
        starts.append(pos)
        pos += len(low) + 1
    for at, word in hits:
        i = bisect_right(starts, at) - 1
        out[i].append((at - starts[i], word))
    return out, exact


ROOT_TEXTS = st.lists(
    st.lists(
        st.sampled_from(["super", "supers", "superc", "superad", "superat", "stitu", "sustitu",
                         "substitu", "sostitu", "plant", "supplant", "suplant", "overr",
                         "overrid", "overrul", "mpla", "remplac", "reemplaz", "template",
                         "ersetz", "rimpiazz", "reject", "z", "j", "Jazz",
                         "depends", "Supersedes", "x", " ", "\n", "é", "abgelöst"]),
        max_size=8,
    ).map("".join),
    max_size=5,
)


@settings(max_examples=600, deadline=None)
@given(ROOT_TEXTS)
def test_keyword_hits_behind_roots_are_the_hits_of_every_keyword(texts: list[str]) -> None:
    assert relations.keyword_hits(texts) == _old_keyword_hits(texts)


def test_keyword_roots_are_in_their_keywords() -> None:
    assert [w for _root, w in relations._ROOTED] == list(relations._ASCII_WORDS)
    for root, word in relations._ROOTED:
        assert root in word
    texts = ["It supersedes ADR-2 and supplants the template", "Overrides: none", "plain"]
    assert relations.keyword_hits(texts) == _old_keyword_hits(texts)
    assert relations.keyword_hits(texts)[0][0] == [(3, "supers"), (24, "supplant")]


def _old_starts(data: bytes) -> list[int]:
    from itertools import accumulate

    lines = data.split(b"\n")
    lines.pop()
    return list(accumulate([len(line) + 1 for line in lines], initial=0))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\n", b"\r", b"\r\n", b"\x0b", b"\x0c", b"\x1c", b" ",
                                 "é".encode(), b""]), max_size=12).map(b"".join))
def test_body_line_starts_from_split_lines_are_those_of_the_line_breaks(data: bytes) -> None:
    assert document.Body(data, 0).starts == _old_starts(data)


def test_body_line_starts_on_written_text() -> None:
    for data in [b"", b"x", b"\n", b"# T\n\nText\n", b"# T\n\nText", b"a\rb\nc"]:
        assert document.Body(data, 3).starts == _old_starts(data), data
    assert document.Body(b"# T\n\nText", 3).line(5) == 6


def _old_front_matter_key(key: str) -> object:
    folded = re.sub(r"(?<=[a-z])(?=[A-Z])", "-", key.strip())
    return keyed.FRONT_MATTER_KEYS.get(folded.replace("_", "-").replace(" ", "-").casefold())


KEY_PIECES = ["superseded", "Superseded", "By", "_by", "-by", " by", "supersedes", "Amends",
              "depends", "On", " ", "\t", "ß", "ﬀ", "İ", "x", "relates", "To", "obsoleted"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(KEY_PIECES), max_size=6).map("".join))
def test_front_matter_key_of_a_long_key_is_none_as_folding_found(key: str) -> None:
    assert keyed.front_matter_key(key) == _old_front_matter_key(key)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_front_matter_key_on_any_text(key: str) -> None:
    assert keyed.front_matter_key(key) == _old_front_matter_key(key)


def test_front_matter_key_on_written_keys() -> None:
    for key in ["supersededBy", " Superseded-By ", "superseded_by", "This builds on ADR-0032",
                "relates-to", "obsoleted-by"]:
        assert keyed.front_matter_key(key) == _old_front_matter_key(key), key
    assert keyed.front_matter_key("This builds on ADR-0032") is None


# The lead as a pattern matched at the clause's start (``match(text, clause)``); it has no ``^``,
# which would match only at the line's start and so never strip a later clause's lead.
OLD_LEAD = re.compile(
    r"[\W_]*(?:\d{4}-\d{1,2}-\d{1,2}\s*[:：\-–—]?\s*[\W_]*)?"
    r"(?:(?:status|statut|note|nb)\s*[:：]\s*[\W_]*)?(?:mark(?:ed)?\s+as\s+)?",
    re.I,
)
LEAD_TEXTS = st.lists(
    st.sampled_from(["Status: ", "statut : ", "NB: ", "Note:", "marked as ", "Mark as ", "- ",
                     "* ", "2023-05-03: ", "٢٠٢٣-05-03 ", "ſtatus: ", "_", "Superseded by ",
                     "rejected", "x", "; ", "é", " ", "\n", "9"]),
    max_size=8,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(LEAD_TEXTS)
def test_lead_ends_where_the_pattern_ended_it(text: str) -> None:
    for clause in range(len(text) + 1):
        lead = OLD_LEAD.match(text, clause)
        assert relations._lead_end(text, clause) == (lead.end() if lead else clause)


def test_lead_on_written_clauses() -> None:
    for text in ["Status: superseded by ADR-3", "- 2023-05-03: Mark as rejected in favour of 4",
                 "Superseded by ADR-2", "The team depends on it", "note: amends ADR-1"]:
        lead = OLD_LEAD.match(text, 0)
        assert relations._lead_end(text, 0) == (lead.end() if lead else 0), text
    assert relations._lead_end("Status: superseded by ADR-3", 0) == 8


OLD_PREAMBLE = re.compile(
    r"\A(?:[ \t]*(?:#{1,6}[^\n]*|<!--[^\n]*-->)?[ \t]*\n){0,4}[ \t]*(?P<fence>```|~~~)"
    r"(?:text|txt|yaml|yml|preamble)?[ \t]*\n"
    r"(?P<lines>[ \t]*[A-Za-z][\w \-()/]{0,40}:[^\n]*\n(?:(?![ \t]*(?:```|~~~))[^\n]*\n){1,60})"
    r"[ \t]*(?P=fence)[ \t]*(?:\n|\Z)"
)
PREAMBLE_TEXTS = st.lists(
    st.sampled_from(["## Preamble\n", "# T\n", "<!-- c -->\n", "\n", " \t\n", "```\n", "~~~\n",
                     "```yaml\n", "Title: X\n", "Status: Final\n", "Author: A\n", "  B\n",
                     "text\n", "``", "~~", "`"]),
    max_size=10,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(PREAMBLE_TEXTS)
def test_a_body_without_a_fence_near_its_top_has_no_preamble(body: str) -> None:
    if not front_matter._fence_near_top(body):
        assert OLD_PREAMBLE.match(body, 0, 64 * 1024) is None
        assert front_matter.preamble(body, 0) is None


def test_preamble_on_written_bodies() -> None:
    body = "## Preamble\n\n```\nTitle: Bump\nStatus: Final\n```\n"
    assert front_matter._fence_near_top(body)
    assert front_matter.preamble(body, 0) == (
        {"Title": "Bump", "Status": "Final"}, {"Title": 4, "Status": 5}
    )
    assert not front_matter._fence_near_top("# T\n\nText\n\n## S\n\n```\nTitle: X\nStatus: Y\n```\n")
    assert front_matter.preamble("# T\n\nText\n\n## S\n\n```\nTitle: X\nStatus: Y\n```\n", 0) is None


def _old_fold(raw: str) -> str:
    text = status._MD_LINK.sub(r"\1", raw)
    text = status._MD_REF.sub(r"\1", text)
    text = status._DECORATION.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = status._strip_symbols(text)
    text = status._LABEL.sub("", text)
    return status._strip_symbols(text).casefold()


FOLD_PIECES = ["Accepted", "accepted", "Status", "Statut", "status", ": ", "：", " - ", "–", "-",
               "[x](y.md)", "[ADR 3][r]", "[", "]", "(", ")", "**", "_", "`", "~", ">", "\"", "“",
               "«", "「", "✅", " ", "  ", "\t", "\n", "\u2003", "\x1c", "é", "1", "ſ"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(FOLD_PIECES), max_size=10).map("".join))
def test_fold_is_what_every_pattern_made_of_it(raw: str) -> None:
    assert status.fold(raw) == _old_fold(raw)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_fold_on_any_text(raw: str) -> None:
    assert status.fold(raw) == _old_fold(raw)


def test_fold_on_written_values() -> None:
    for raw in ["Accepted", "**Accepted** ✅", "Status: Superseded by [ADR 3](0003-x.md)",
                "  in   progress ", "Statut : Accepté", "> *Proposed*"]:
        assert status.fold(raw) == _old_fold(raw), raw
    assert status.fold("  in   progress ") == "in progress"


def _old_words(text: str) -> list[str]:
    folded = status._HEADING_NUMBER.sub("", status._strip_symbols(text.casefold()))
    return [w for w in status._HEADING_SPLIT.split(folded) if w]


HEADING_WORD_PIECES = ["Status", "2. ", "1.2 ", "iv. ", "IV. ", "x. ", "v", "ı. ", "٣ ", "Statut",
                       "상태", " (", ")", "/", "|", ":", "-", "—", ",", "、", "·", " ", "\t",
                       "\u2003", "Current", "x"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(HEADING_WORD_PIECES), max_size=8).map("".join))
def test_heading_words_are_what_both_patterns_made_of_it(text: str) -> None:
    folded = status._strip_symbols(text.casefold())
    assert status._heading_words(status._unnumbered(folded)) == _old_words(text)
    assert status._unnumbered(folded) == status._HEADING_NUMBER.sub("", folded)
    keys = frozenset({"status", "statut", "상태"})
    old_plain = bool(_old_words(text)) and all(w in keys for w in _old_words(text))
    assert status.is_plain_status_heading(text, keys) == old_plain


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_heading_words_on_any_text(text: str) -> None:
    folded = status._strip_symbols(text.casefold())
    assert status._heading_words(status._unnumbered(folded)) == _old_words(text)


def test_heading_words_on_written_headings() -> None:
    for text in ["Status", "2. Statut", "상태 (Status)", "Status / 状态", "Current state",
                 "IV. Status", "Vote"]:
        assert status._heading_words(status._unnumbered(status._strip_symbols(text.casefold()))) == (
            _old_words(text)
        ), text
    assert status.is_status_heading("2. Statut", frozenset({"statut"}))
