"""Patterns the parser no longer runs on text they cannot change, and a search it no longer
repeats, answer exactly as before (issue 30, parsing per record).

A label line's label is read by a greedy repeat instead of a lazy one; inline markup, a heading's
closing marks and an anchor's dropped characters are looked for only when a character they need
is there; a body is searched for relation keywords only when its blocks hold one or a table, and
first for the keywords its blocks hold. The old patterns and the old flow are the oracles.

Plain-string guards stand before seven more patterns (a name's date, a resolver's number, a
status's list marks, a heading's combiners, a moved status, a placeholder number, a link's id
segment): whenever a guard says a pattern cannot match, the pattern indeed does not. The
character facts the guards rely on (``\\s`` is ``str.isspace``, ``\\d`` is ``str.isdecimal``,
which characters match a letter when case is ignored) are checked over every code point.
A status line is searched for markup only when it holds a character of it, and an emoji
checklist is looked for only in text that is not ASCII (no tick or box is).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.conventions import kinds, sections
from adrguard.core.graph import resolve
from adrguard.core.parse import (
    document,
    fields,
    formats,
    front_matter,
    ids,
    keyed,
    relations,
    status,
)
from adrguard.core.parse.markdown import walk
from adrguard.rules import links, numbering

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
def test_declares_answers_the_same_whatever_keywords_are_tried_first(
    text: str, known: list[str]
) -> None:
    assert relations.declares(text, known) == relations.declares(text, ())


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
    old_blocks = blocks if relations.declares(body, ()) else []
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
            _where(), {}, [], blocks if relations.declares(body, ()) else [], False
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
    assert relations.keyword_hits(texts) == _by_offset(_old_keyword_hits(texts))


def _by_offset(
    answer: tuple[list[list[tuple[int, str]]], bool],
) -> tuple[list[list[tuple[int, str]]], bool]:
    """The old answer with each text's hits in the order keyword_hits gives now: by offset."""
    return [sorted(found) for found in answer[0]], answer[1]


def test_keyword_roots_are_in_their_keywords() -> None:
    assert [w for _root, w in relations._ROOTED] == list(relations._ASCII_WORDS)
    for root, word in relations._ROOTED:
        assert root in word
    grouped = [*relations._UNROOTED, *(w for _r, ws in relations._ROOT_GROUPS for w in ws)]
    assert sorted(grouped) == sorted(relations._ASCII_WORDS)
    for root, words in relations._ROOT_GROUPS:
        assert words and all(root in w for w in words)
    assert not any(r in w for w in relations._UNROOTED for r in relations._ROOTS)
    texts = ["It supersedes ADR-2 and supplants the template", "Overrides: none", "plain"]
    assert relations.keyword_hits(texts) == _by_offset(_old_keyword_hits(texts))
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



# Every code point (no surrogates): the guards' character facts hold for all of them.
EVERY_CHARACTER = "".join(chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000)


def test_the_patterns_spaces_and_digits_are_the_strings() -> None:
    assert set(re.findall(r"\s", EVERY_CHARACTER)) == {c for c in EVERY_CHARACTER if c.isspace()}
    assert set(re.findall(r"\d", EVERY_CHARACTER)) == {
        c for c in EVERY_CHARACTER if c.isdecimal()
    }
    assert "\x1c".isspace() and re.fullmatch(r"\s", "\x1c")  # a file separator is both


def test_letters_that_match_when_case_is_ignored_lower_to_themselves() -> None:
    for letters in ["moved", "relocated", "adrnx"]:
        for c in set(re.findall(f"[{letters}]", EVERY_CHARACTER, re.I)):
            assert len(c.lower()) == 1 and c.lower() in letters, (letters, c)
    for c in set(re.findall("[a-z]", EVERY_CHARACTER, re.I)):  # K (Kelvin), ſ, ı, İ among them
        assert c.isalpha(), c
    assert re.fullmatch("[a-z]", "\u212a", re.I)  # so a letter test, not an ASCII one


# A name's date (ids._DATED, ids._YEAR_MONTH) --------------------------------------------------

NAME_PIECES = ["19", "20", "21", "2100", "1999", "2023", "05", "13", "0", "1", "9", "٣", "-", "_",
               ".", " ", "x", "adr", "use-x", "2023-05-01", "20230501", "0012", "\n", "𝟚"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(NAME_PIECES), max_size=8).map("".join))
def test_a_name_the_date_guard_rules_out_is_no_date(name: str) -> None:
    if not ids._may_be_dated(name):
        assert ids._DATED.match(name) is None
        assert ids._YEAR_MONTH.match(name) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789٣-_. x", max_size=12))
def test_a_digit_name_the_date_guard_rules_out_is_no_date(name: str) -> None:
    if not ids._may_be_dated(name):
        assert ids._DATED.match(name) is None and ids._YEAR_MONTH.match(name) is None


def test_the_date_guard_on_written_names() -> None:
    for name in ["2023-03-02-x", "20230302-x", "202012-receive-split", "2013-10-gen",
                 "2021-06-05_001-x", "٢٠٢٣٠٣٠٢-x", "3023-03-02-x", "19"]:
        assert ids._may_be_dated(name), name
    assert ids.parse_name("2021-06-05_001-x").number == 1
    assert ids.parse_name("2023-03-02-x").number is None
    assert ids.parse_name("٢٠٢٣٠٣٠٢-x").number is None  # eight decimal digits of any script
    for name in ["0012-use-x", "adr-0042", "use-x", "", "1234-5-67"]:
        assert not ids._may_be_dated(name), name
        assert ids._DATED.match(name) is None and ids._YEAR_MONTH.match(name) is None
    assert ids.parse_name("0012-use-x").number == 12


# A resolver's number (resolve._NUMBER) ---------------------------------------------------------

NUMBER_PIECES = ["adr", "ADR", "Adr", "#", "0", "00", "7", "42", "٣", "𝟚", "1234567", "-", "_",
                 " ", "\n", "\r", "x", ".md", "0003-x.md", "/"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(NUMBER_PIECES), max_size=6).map("".join))
def test_a_target_the_digit_guard_rules_out_is_no_number(target: str) -> None:
    if not resolve._ends_in_digit(target):
        assert resolve._NUMBER.match(target) is None


def test_the_digit_guard_on_written_targets() -> None:
    for target in ["#5", "ADR-0007", "adr 12", "0042", "٣", "7\n"]:
        assert resolve._ends_in_digit(target), target
        assert resolve._NUMBER.match(target), target
    for target in ["0003-x.md", "#section", "adr-7.md", "", "7\n\n", "\n"]:
        assert not resolve._ends_in_digit(target), target
        assert resolve._NUMBER.match(target) is None, target


# A status's list marks (status._MAY_LIST, searched in the first _HELP_LIMIT characters) --------

LIST_PIECES = ["|", "/", ",", "、", "，", ";", "或", "または", "また", "は", "또는", "또", "는", " or ",
               " oder ", " ou ", " o ", " of ", " или ", "or", "и", "o", " ", "\t", "\n",
               "\u2003", "\u00a0", "\x1c", "accepted", "proposed", "rejected", "a" * 150, "O"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(LIST_PIECES), max_size=10).map("".join))
def test_a_status_the_list_guard_rules_out_lists_nothing(folded: str) -> None:
    if not status._may_list(folded):
        assert status._MAY_LIST.search(folded, 0, status._HELP_LIMIT) is None


def test_the_list_guard_on_written_statuses() -> None:
    for folded in ["proposed | accepted", "accepted or rejected", "accepted\tor\u2003rejected",
                   "提案または承認", "제안 또는 승인", "принято или отклонено", "a / b / c",
                   "akzeptiert oder abgelehnt", "aceito ou rejeitado"]:
        assert status._may_list(folded), folded
        assert status._MAY_LIST.search(folded, 0, status._HELP_LIMIT), folded
    for folded in ["accepted", "in-progress", "superseded by adr-3", "",
                   "a" * status._HELP_LIMIT + " | b"]:  # the mark past the limit is not read
        assert not status._may_list(folded), folded
        assert status._MAY_LIST.search(folded, 0, status._HELP_LIMIT) is None, folded
    assert status._may_list("in progress")  # a space and an o: asked, and the pattern says no
    assert status._MAY_LIST.search("in progress", 0, status._HELP_LIMIT) is None
    assert status.is_template_text("accepted or rejected", {"accepted": "accepted",
                                                            "rejected": "rejected"})


# A status quoted for a message: spaces folded by str.split instead of \s+ ----------------------

SPACE_PIECES = ["a", "é", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                "\x1f", "\x85", "\u00a0", "\u1680", "\u2003", "\u2028", "\u3000", "\u200b", "\ufeff"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(SPACE_PIECES), max_size=12).map("".join))
def test_quote_folds_spaces_as_the_pattern_did(raw: str) -> None:
    assert " ".join(raw.split()) == re.sub(r"\s+", " ", raw).strip()
    old = re.sub(r"\s+", " ", raw).strip()
    assert status.quote(raw) == repr(old if len(old) <= 80 else old[:79].rstrip() + "…")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_quote_on_any_text(raw: str) -> None:
    assert " ".join(raw.split()) == re.sub(r"\s+", " ", raw).strip()


def test_quote_on_written_statuses() -> None:
    assert status.quote("  in \x1c progress\u2003 ") == "'in progress'"
    assert status.quote("a\u200bb") == "'a\\u200bb'"  # a zero-width space is no space
    assert status.quote("x " * 60) == repr(("x " * 40)[:79].rstrip() + "…")


# A heading's combiners (sections._COMBINERS, which the heading is split by) --------------------

COMBINER_PIECES = ["/", ",", ";", "&", "+", "|", "、", "and", "or", "und", "oder", "et", "ou",
                   "y", "o", "e", "en", "и", "или", " ", "\t", "\u2003", "\x1c", "context",
                   "decision", "x"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(COMBINER_PIECES), max_size=8).map("".join))
def test_a_heading_the_combiner_guard_rules_out_is_not_split(light: str) -> None:
    if not sections._may_combine(light):
        assert sections._COMBINERS.search(light) is None
        assert sections._COMBINERS.split(light) == [light]


def test_the_combiner_guard_on_written_headings() -> None:
    for light in ["background & context", "pros and cons", "context/problem", "a, b",
                  "背景、文脈", "kontext und problem", "contexte et problème", "a+b"]:
        assert sections._may_combine(light), light
        assert sections._COMBINERS.search(light), light
    for light in ["context", "decision outcome", "", "and", "x and"]:
        assert not sections._may_combine(light), light
        assert sections._COMBINERS.split(light) == [light], light
    assert {"background", "context"} <= sections.heading_keys("Background & Context")
    assert sections.heading_keys("Decision Outcome") == frozenset({"decision outcome"})


# A moved status (kinds._MOVED_STATUS, case ignored) --------------------------------------------

MOVED_PIECES = ["moved", "MOVED", "Moved", "mOvEd", "relocated", "RELOCATED", "ReLoCaTeD", "move",
                "relocate", "d", "D", "m", " ", "*", "-", "_", "→", "İ", "\u212a", "ſ", "x", "to",
                "\n", "é", "[", "](x.md)"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(MOVED_PIECES), max_size=6).map("".join))
def test_a_status_the_moved_guard_rules_out_is_not_moved(raw: str) -> None:
    if not kinds._may_say_moved(raw):
        assert kinds._MOVED_STATUS.match(raw) is None


def test_the_moved_guard_on_written_statuses() -> None:
    for raw in ["Moved to [ADR-3](0003-x.md)", "**RELOCATED**", "→ moved", "Relocated."]:
        assert kinds._may_say_moved(raw), raw
        assert kinds._MOVED_STATUS.match(raw), raw
    for raw in ["Accepted", "Superseded", "Relocation", "move", ""]:
        assert not kinds._may_say_moved(raw), raw
        assert kinds._MOVED_STATUS.match(raw) is None, raw
    for raw in ["Unmoved", "Removed", "movedx"]:  # the words, not at a match's place: asked
        assert kinds._may_say_moved(raw) and not kinds._MOVED_STATUS.match(raw), raw


# A placeholder number in a title (numbering._PLACEHOLDER_NUMBER, case ignored) -----------------

PLACEHOLDER_PIECES = ["adr", "ADR", "rfc", "RFC", "dr", "Dr", "-", "_", " ", "n", "N", "nn", "NNN",
                      "x", "X", "xxx", "#", "##", ".", ":", ")", "–", "—", "\t", "\u2003", "\x1c",
                      "1", "0012", "Use", "title", "é", "\n"]


def _span(m: re.Match[str] | None) -> tuple[int, int, str] | None:
    return (m.start(), m.end(), m.group(1)) if m else None


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PLACEHOLDER_PIECES), max_size=8).map("".join))
def test_placeholder_number_is_the_patterns_match(title: str) -> None:
    assert _span(numbering.placeholder_number(title)) == _span(
        numbering._PLACEHOLDER_NUMBER.match(title)
    )


def test_placeholder_number_on_written_titles() -> None:
    for title in ["n. Title", "NNNN - Title", "ADR-XXX: Title", "  ## ) x", "rfc_xx — y"]:
        assert numbering.placeholder_number(title), title
        assert _span(numbering.placeholder_number(title)) == _span(
            numbering._PLACEHOLDER_NUMBER.match(title)
        ), title
    for title in ["1. Use X", "Use X", "Next steps: x", "ADR-0001: Use X", ""]:
        assert numbering.placeholder_number(title) is None, title
        assert numbering._PLACEHOLDER_NUMBER.match(title) is None, title


# A link's id segment (links._ID_SEGMENT, case ignored) -----------------------------------------

SEGMENT_PIECES = ["adr", "ADR", "eip", "dr", "x" * 11, "-", "0", "00", "7", "721", "٣", "𝟚",
                  "1234567", ".md", ".MD", "\u212a", "ſ", "ı", "İ", "_", " ", "\n", "é", "1"]


SEGMENTS = st.one_of(
    st.lists(st.sampled_from(SEGMENT_PIECES), max_size=6).map("".join),
    st.tuples(  # shaped as a match is, each piece sometimes off
        st.sampled_from(["adr", "EIP", "x", "x" * 11, "\u212ap", "ſr", "ıd", "İd", "é", "1a", ""]),
        st.sampled_from(["-", "_", "", "--"]),
        st.sampled_from(["0", "007", "721", "٣", "𝟚", "1234567", "", "x"]),
        st.sampled_from(["", ".md", ".MD", ".txt", "\n", "-"]),
    ).map("".join),
)


@settings(max_examples=1500, deadline=None)
@given(SEGMENTS)
def test_a_segment_the_id_guard_rules_out_is_no_id(part: str) -> None:
    if not links._may_be_id_segment(part):
        assert links._ID_SEGMENT.match(part) is None


def test_the_id_guard_on_written_segments() -> None:
    for part in ["eip-721.md", "eip-721", "ADR-0007", "\u212ap-3", "ſr-٣"]:
        assert links._may_be_id_segment(part), part
        assert links._ID_SEGMENT.match(part), part
    for part in ["docs", "0003-x.md", "eip-x.md", "assets", "", "-721"]:
        assert not links._may_be_id_segment(part), part
        assert links._ID_SEGMENT.match(part) is None, part


MARKUP_PIECES = ["](", "]", "(", "~", "~~", "*", "**", "_", "__", "Accepted", " ", "|", "✅",
                 "⬜", "[", "x"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(MARKUP_PIECES), max_size=8).map("".join))
def test_a_line_the_markup_guard_rules_out_holds_no_markup(raw: str) -> None:
    from adrguard.core.parse import statements

    if not statements.may_have_markup(raw):
        assert not any(m in raw for m in statements._MARKUP)
        assert not any(m in raw for m in fields._MARKUP)


def test_the_markup_guard_on_written_lines() -> None:
    from adrguard.core.parse import statements

    for raw in ["~~Proposed~~ Accepted", "Proposed | **Accepted**", "[ADR-2](0002-x.md)", "__A__"]:
        assert statements.may_have_markup(raw), raw
        assert any(m in raw for m in statements._MARKUP), raw
    assert not statements.may_have_markup("Accepted (2024-01-02)")


_OLD_TICKED = "✅☑✔✓🟢"
_OLD_UNTICKED = "⬜☐◻□▢🔲🔳⚪○"


def _old_choose_checklist(raw: str) -> str | None:
    """choose's emoji checklist step as it was: a tick and a box each found by ``in``."""
    if any(c in raw for c in _OLD_TICKED) and any(c in raw for c in _OLD_UNTICKED):
        pieces = re.split(f"[{_OLD_UNTICKED}{_OLD_TICKED}]", raw)
        marks = re.findall(f"[{_OLD_UNTICKED}{_OLD_TICKED}]", raw)
        ticked = [pieces[i + 1] for i, m in enumerate(marks) if m in _OLD_TICKED]
        if len(ticked) == 1 and status.fold(ticked[0]):
            return ticked[0]
    return None


@settings(max_examples=800, deadline=None)
@given(
    st.lists(
        st.sampled_from(["✅", "⬜", "☑", "🔲", "○", " ", "Proposed", "Accepted", "é", "x"]),
        max_size=7,
    ).map("".join)
)
def test_choose_reads_an_emoji_checklist_as_before(raw: str) -> None:
    old = _old_choose_checklist(raw)
    if old is not None:
        assert status.choose(raw) == old
    elif "~" not in raw and "*" not in raw and "_" not in raw:
        assert status.choose(raw) == raw


def test_choose_on_a_written_emoji_checklist() -> None:
    assert status.choose("⬜ Proposed ✅ Accepted ⬜ Deprecated") == " Accepted "
    assert status.choose("✅ Accepted") == "✅ Accepted"  # no open box: not a checklist


# Capital sigma lowers by its context, the others on their own; the Kelvin sign lowers to an
# ASCII ``k``, the dotted capital I to two characters.
CASE_TEXTS = st.lists(
    st.lists(st.sampled_from(["Σ", "ΑΣ", "σ", "İ", "\u212a", "ſ", "A", "a", " ", "\n", "\0",
                              "Depends", "SUPERSEDES", "é", "\u0301", "'"]),
             max_size=6).map("".join),
    max_size=5,
)


@settings(max_examples=600, deadline=None)
@given(CASE_TEXTS)
def test_keyword_hits_lowering_the_joined_texts_is_lowering_each(texts: list[str]) -> None:
    joined = "\0".join(texts).lower()
    assert joined == "\0".join(t.lower() for t in texts)
    if joined.isascii():
        assert [len(t) for t in texts] == [len(t.lower()) for t in texts]
    assert relations.keyword_hits(texts) == _by_offset(_old_keyword_hits(texts))


def test_no_character_lowers_to_several_ascii_ones() -> None:
    for c in map(chr, range(0x110000)):
        low = c.lower()
        if low.isascii():
            assert len(low) == 1, hex(ord(c))


def _old_declares(text: str, known: list[str]) -> bool:
    """declares as it was: the text lowered first, then the known keywords, then all."""
    lower = text.lower()
    for word in known:
        if word in lower:
            return True
    return relations._holds_keyword(lower)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.sampled_from(["Σ", "İ", "\u212a", "ſupers", "plain ", "Depends", "depends",
                              "DEPEND", "supersedes", "abgelöst", "ABGELÖST", "取代", "\n"]),
             max_size=8).map("".join),
    st.lists(st.sampled_from([*relations._ASCII_WORDS, "abgelöst", "取代"]), max_size=3),
)
def test_declares_tries_the_known_keywords_as_written_first(text: str, known: list[str]) -> None:
    assert relations.declares(text, known) == _old_declares(text, known)
    for word in known:  # the shortcut's yes: a keyword as written is one lowered
        if word in text:
            assert word in text.lower()


def test_keywords_lower_to_themselves_letter_by_letter() -> None:
    for word in relations._MAY_DECLARE_SOURCE.split("|"):
        assert all(c.lower() == c for c in word), word
    assert relations.declares("It depends on ADR-2", ["depend"])
    assert relations.declares("It DEPENDS on ADR-2", ["depend"])
    assert not relations.declares("Plain prose", ["depend"])
