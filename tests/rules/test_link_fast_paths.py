"""ADR204 and ADR205 skip text the decision-id pattern cannot match in and run the default
pattern by the standard library's engine, and the link walk takes each destination apart once
per folder: findings stay exactly as before (issue 30, the rules' links and mentions).

The oracles: the pattern itself, by RE2, run on every text (a pattern spelled differently, with
the same matches, takes the unguarded path), and parse_target called for every link.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from mentionoracle import old_link_texts

from adrguard import api
from adrguard.core.graph.resolve import parse_target
from adrguard.core.model import Corpus, Decision, Link
from adrguard.core.options import Options
from adrguard.core.repository import Repository
from adrguard.core.saferegex import compile_user
from adrguard.rules.base import RuleContext
from adrguard.rules.links import (
    _checked_links,
    _link_text_spans,
    _links_by_line,
    link_ids_of,
    mentions_of,
)
from adrguard.rules.mentions import for_lines, needed

DEFAULT = Options().decision_id_pattern
# The default pattern written another way: the same matches and groups, but no known text every
# match holds, so the rules run it on every text (the path before the guard).
SAME = r"(?:\bADR[- ]?(\d{1,5})\b)"

PIECES = ["ADR", "adr", "AdR", "AD", "R", "A", "D", "-", " ", "0", "42", "12345", "123456",
          "2023-05-09", "\n", "\t", "é", "x", "_", "[", "](0042-x.md)", "](https://a.b/ADR-3)",
          "`", "```", "<!-- ", " -->", "    ", "#", "ADR-0042", "ADR 7", "ADR042", "ＡＤＲ",
          "٣", "²", ".", "/", "ADRADR", "xADR-1", "_ADR", "AADR 9"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


def test_the_default_pattern_is_the_one_with_a_known_text() -> None:
    assert needed(compile_user(DEFAULT, line_local=True)) == "ADR"
    assert needed(compile_user(DEFAULT)) == "ADR"
    assert needed(compile_user(SAME, line_local=True)) is None
    assert needed(compile_user(r"\bDR-(\d+)")) is None


@settings(max_examples=600, deadline=None)
@given(TEXTS)
def test_without_the_known_text_the_pattern_matches_nothing(text: str) -> None:
    for line_local in (True, False):
        pattern = compile_user(DEFAULT, line_local=line_local)
        held = needed(pattern)
        assert held is not None
        if held not in text:
            assert pattern.search(text) is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_without_the_known_text_any_text_has_no_match(text: str) -> None:
    pattern = compile_user(DEFAULT, line_local=True)
    if "ADR" not in text:
        assert pattern.search(text) is None


def _matches(pattern: object, text: str) -> list[tuple[int, int, str, tuple[object, ...]]]:
    return [(m.start(), m.end(), m.group(0), m.groups())
            for m in pattern.finditer(text)]  # type: ignore[attr-defined]


@settings(max_examples=600, deadline=None)
@given(st.one_of(TEXTS, st.text(max_size=60)))
def test_the_default_pattern_run_by_re_matches_what_re2_matches(text: str) -> None:
    re2_pattern = compile_user(DEFAULT, line_local=True)
    twin = for_lines(re2_pattern)
    assert twin is not re2_pattern
    assert _matches(twin, text) == _matches(re2_pattern, text)
    for line in text.split("\n"):
        assert _matches(twin, line) == _matches(re2_pattern, line)
        for match in ("match", "fullmatch"):
            one, other = getattr(twin, match)(line), getattr(re2_pattern, match)(line)
            assert (one and (one.span(), one.groups())) == (other and (other.span(),
                                                                       other.groups()))
    assert (twin.search(text) is None) == (re2_pattern.search(text) is None)
    assert twin.groups == re2_pattern.groups == 1


def test_only_the_default_pattern_line_local_gets_the_twin() -> None:
    for pattern in (compile_user(DEFAULT), compile_user(SAME, line_local=True),
                    compile_user(r"\bDR-(\d+)", line_local=True)):
        assert for_lines(pattern) is pattern
    written = ("ADR-1 ADR 22 ADR333 xADR-4 _ADR-5 éADR-6 ADR-123456 ADR-٣ ADR-12a ADR--7 "
               "ADR 2023-05-09 \u212aADR-8 ＡＤＲ-9 ADR-00042")
    twin = for_lines(compile_user(DEFAULT, line_local=True))
    assert _matches(twin, written) == _matches(compile_user(DEFAULT, line_local=True), written)
    assert [m[2] for m in _matches(twin, written)] == [
        "ADR-1", "ADR 22", "ADR333", "ADR-6", "ADR 2023", "ADR-8", "ADR-00042"]


def _decision(text: str, links: tuple[Link, ...] = ()) -> Decision:
    return Decision(id="ADR-0001", path="docs/adr/0001-x.md", root="docs/adr", number=1,
                    text=text, links=links)


@settings(max_examples=500, deadline=None)
@given(TEXTS, st.lists(TEXTS, max_size=4))
def test_mentions_and_link_ids_are_what_the_unguarded_pattern_finds(
    text: str, link_texts: list[str]
) -> None:
    links = tuple(Link("0002-x.md", t, 1, 1) for t in link_texts)
    d = _decision(text, links)
    guarded = for_lines(compile_user(DEFAULT, line_local=True))
    plain = compile_user(SAME, line_local=True)
    assert mentions_of(d, guarded) == mentions_of(d, plain)
    assert link_ids_of(d, guarded) == link_ids_of(d, plain)


def test_mentions_on_written_text() -> None:
    text = ("See ADR-0042 and [ADR 7](0007-x.md).\n`ADR-9` in code, <!-- ADR-8 -->\n"
            "[docs](https://example.org/ADR-5)\n    ADR-6 indented\nadr-3 lower\n"
            "ADR-2023-05-09 a date\n")
    links = (Link("0007-x.md", "ADR 7", 1, 18), Link("https://example.org/ADR-5", "docs", 3, 1),
             Link("0003-x.md", "the third", 4, 1))
    d = _decision(text, links)
    guarded = for_lines(compile_user(DEFAULT, line_local=True))
    found = mentions_of(d, guarded)
    assert found == mentions_of(d, compile_user(SAME, line_local=True))
    assert [(n, m, num, linked) for n, _s, m, num, linked in found] == [
        (1, "ADR-0042", 42, False), (1, "ADR 7", 7, True)]
    assert link_ids_of(d, guarded) == [(0, 0, "ADR 7", 7, False)]
    assert mentions_of(_decision("no ids here\n"), guarded) == []


def _log(root: Path, pattern: str | None) -> list[tuple[str, str, int, str]]:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True, exist_ok=True)
    body = "# {n}. Title {n}\n\n## Status\n\nAccepted\n\n## Context\n\n{text}\n"
    texts = {
        1: "Builds on ADR-0002 and ADR-0009; [ADR-0003](0002-x.md) and [ADR 99](0003-x.md).",
        2: "No ids. [the third](0003-x.md), [ADR-0001](0001-x.md#status).",
        3: "`ADR-0077` in code; [ADR-0002](https://example.org/ADR-0004); ADR-0031 here.",
        4: "lower adr-0088 and ADR-2023-05-09; [docs](../../README.md) [ADR-0005](0001-x.md)",
    }
    for n, text in texts.items():
        (adr / f"000{n}-x.md").write_text(body.format(n=n, text=text), encoding="utf-8")
    (root / "README.md").write_text("# Readme\n", encoding="utf-8")
    config = 'select = ["ADR201", "ADR202", "ADR203", "ADR204", "ADR205"]\n'
    if pattern is not None:
        config += f"decision-id-pattern = '{pattern}'\n"
    (root / ".adrguard.toml").write_text(config, encoding="utf-8")
    return sorted((f.code, f.location.path, f.location.line, f.message)
                  for f in api.check(root).findings)


def test_the_rules_report_what_the_unguarded_pattern_reports(tmp_path: Path) -> None:
    guarded = _log(tmp_path / "default", None)
    assert guarded == _log(tmp_path / "same", SAME)
    assert {(code, path.rpartition("/")[2], line) for code, path, line, _m in guarded} == {
        ("ADR204", "0001-x.md", 9), ("ADR204", "0003-x.md", 9),
        ("ADR205", "0001-x.md", 9), ("ADR205", "0004-x.md", 9)}


def test_each_destination_is_taken_apart_once_per_folder() -> None:
    shared = ("0002-x.md", "../../README.md#top", "https://github.com/o/r/blob/main/a.md",
              "#status", "", "sub/../0001-x.md?x=1")
    records = tuple(
        Decision(id=f"ADR-{n}", path=f"{folder}/000{n}-x.md", root=folder, number=n,
                 links=tuple(Link(t, "x", i + 1, 1) for i, t in enumerate(shared)))
        for n, folder in [(1, "docs/adr"), (2, "docs/adr"), (3, "svc/docs/adr"), (4, "")]
    )
    repository = Repository("https://github.com/o/r", "main")
    ctx = RuleContext(Corpus(records, repository=repository), Options())
    walk = _checked_links(ctx)
    assert [t for _d, _link, t in walk] == [
        parse_target(link.target, d.path, repository) for d, link, _t in walk]
    by_folder: dict[tuple[str, str], object] = {}
    for d, link, t in walk:
        seen = by_folder.setdefault((d.path.rpartition("/")[0], link.target), t)
        assert seen is t  # one Target per folder and destination
    assert walk[0][2] is not walk[2 * len(shared)][2]  # another folder: taken apart anew
    assert walk[0][2].repo_path == "docs/adr/0002-x.md"
    assert walk[2 * len(shared)][2].repo_path == "svc/docs/adr/0002-x.md"
    assert walk[3 * len(shared)][2].repo_path == "0002-x.md"
    assert walk[2][2].kind == "path" and walk[2][2].from_url
    # another repository (a run of other options) takes them apart again
    other = RuleContext(Corpus(records), Options())
    assert [t.kind for _d, _l, t in _checked_links(other)][2] == "external"


def _link_texts(d: Decision) -> dict[int, list[tuple[int, int]]]:
    """Every line's link texts as ADR204 measures those of a mention's line."""
    lines = d.text.split("\n")
    out: dict[int, list[tuple[int, int]]] = {}
    for number, on_line in _links_by_line(d).items():
        if 1 <= number <= len(lines):
            spans = _link_text_spans(lines[number - 1], on_line)
            if spans:
                out[number] = spans
    return out


LINE_PIECES = ["[", "]", "\\", "!", "x", "ADR-1", " ", "(a.md)", "é", "\n"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(LINE_PIECES), max_size=16).map("".join), st.booleans())
def test_link_texts_are_measured_as_the_bracket_count_measures_them(
    text: str, image: bool
) -> None:
    links = tuple(Link("a.md", "t", text.count("\n", 0, i) + 1,
                       i - (text.rfind("\n", 0, i) + 1) + 1 - (1 if image else 0),
                       "reference" if i % 2 else "inline", image)
                  for i, ch in enumerate(text) if ch == "[")
    d = _decision(text, links)
    assert _link_texts(d) == old_link_texts(d)


def test_link_texts_on_written_lines() -> None:
    text = "see [ADR-1](a.md), \\[not](b.md) [a [nested] one](c.md) [esc\\]aped](d.md) [open"
    links = tuple(Link("x.md", "t", 1, i + 1) for i, ch in enumerate(text) if ch == "[")
    d = _decision(text, links)
    assert _link_texts(d) == old_link_texts(d)
    assert [text[a:b] for a, b in _link_texts(d)[1]] == [
        "ADR-1", "not](b.md) [a [nested", "a [nested] one", "nested", "esc\\]aped"]
