"""The rules' string scans that stand in for a pattern (so a run compiles it only when it may
match) answer exactly as the pattern does; the walk over every link is made once a run."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from adrguard import api
from adrguard.core.model import Corpus, Decision, Link
from adrguard.core.options import Options
from adrguard.rules.base import RuleContext
from adrguard.rules.links import _checked_links, _may_be_domain
from adrguard.rules.statuses import _phrases, _status_key

# The patterns as they were written before the scans replaced them (the references).
PHRASE = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
KEY_END = re.compile(r"[^\w\s'’-]")
DOMAIN = re.compile(
    r"^(?:[a-z0-9][a-z0-9-]{0,62}\.){1,4}(?:com|org|net|io|dev|gov|edu|co|ai|info|tech|cloud|"
    r"uk|de|fr|eu|ch|nl|jp|cn|ru|us|ca|au|be|at|se|no|fi|dk|pl|es|it|br|xyz)(?:/|$)",
    re.IGNORECASE,
)
EMAIL = re.compile(r"^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+$")

# Letters, digits of other scripts, blanks of other kinds, the characters that ignoring case
# makes match ASCII letters (Kelvin sign, long s, dotted and dotless i), marks, punctuation.
CHARS = ("abzAZ09 -_'’.,;:()/@#\n\t\u00a0\u2003\u212a\u017f\u0130\u0131é\u0301ßØ"
         "٣२²½Ⅷ中ωΣ—–✅")


def _old_key(folded: str) -> str:
    head = KEY_END.split(folded, maxsplit=1)[0]
    return " ".join(head.split()[:3])[:40] or folded[:40]


@given(st.text(st.sampled_from(CHARS), max_size=40), st.integers(1, 20))
def test_the_phrase_scan_finds_what_the_pattern_finds(text: str, limit: int) -> None:
    assert _phrases(text, limit) == PHRASE.findall(text)[:limit]


def test_the_phrase_scan_on_statuses() -> None:
    for text, phrases in [
        ("parked (since may)", ["parked", "since may"]),
        ("on-hold - see adr 12", ["on-hold", "see adr"]),
        ("  in   review²", ["in", "review²"]),
        ("", []),
    ]:
        assert _phrases(text, 16) == phrases == PHRASE.findall(text)


@given(st.text(st.sampled_from(CHARS), max_size=40))
def test_the_status_key_is_what_the_pattern_splits_off(text: str) -> None:
    assert _status_key(text) == _old_key(text)


def test_the_status_key_of_house_statuses() -> None:
    for folded, key in [("parked (since may)", "parked"), ("on hold: q3", "on hold"),
                        ("won't do", "won't do"), ("in-flight ✅ soon", "in-flight")]:
        assert _status_key(folded) == key == _old_key(folded)


@given(st.text(st.sampled_from(CHARS + "comrgiuk"), max_size=30))
def test_a_path_the_guard_turns_away_is_no_web_address(path: str) -> None:
    if DOMAIN.match(path):
        assert _may_be_domain(path)


def test_the_guard_lets_web_addresses_through_and_turns_record_links_away() -> None:
    for path in ("golang.org/issue/1", "Example.COM", "docs.python.org/3/",
                 "a.b.c.d.io", "x.\u212axyz", "go.dev\n"):
        assert _may_be_domain(path)
    for path in ("0002-use-kafka.md", "../notes/plan.txt", "img/flow.png", "README"):
        assert not _may_be_domain(path) and not DOMAIN.match(path)
        assert "@" not in path and not EMAIL.match(path)


def _record(n: int, *targets: str) -> Decision:
    links = tuple(Link(target, f"link {i}", i + 3, 1) for i, target in enumerate(targets))
    return Decision(id=f"ADR-000{n}", path=f"docs/adr/000{n}-x.md", root="docs/adr",
                    number=n, links=links)


def test_the_link_walk_is_made_once_for_the_records_a_rule_gets() -> None:
    one = _record(1, "0002-x.md", "../../README.md#top")
    two = _record(2)
    three = _record(3, "https://example.org", "0001-x.md")
    ctx = RuleContext(Corpus((one, two, three)), Options())
    walk = _checked_links(ctx)
    assert _checked_links(ctx) is walk
    assert [(d.path, link.target, t.repo_path) for d, link, t in walk] == [
        ("docs/adr/0001-x.md", "0002-x.md", "docs/adr/0002-x.md"),
        ("docs/adr/0001-x.md", "../../README.md#top", "README.md"),
        ("docs/adr/0003-x.md", "https://example.org", None),
        ("docs/adr/0003-x.md", "0001-x.md", "docs/adr/0001-x.md"),
    ]
    # the run without a record (a rule crashed on it, engine/contain.py) walks the others'
    # links again, each destination still taken apart once
    without = dataclasses.replace(ctx, corpus=replace(ctx.corpus, decisions=(one, two)))
    again = _checked_links(without)
    assert [x[:2] for x in again] == [x[:2] for x in walk[:2]]
    assert all(a[2] is b[2] for a, b in zip(again, walk, strict=False))
    # a record edited in the meantime (other links) has them taken apart anew
    edited = replace(one, links=(Link("0003-x.md", "moved", 3, 1),))
    later = dataclasses.replace(ctx, corpus=replace(ctx.corpus, decisions=(edited, two, three)))
    assert [t.repo_path for _d, _link, t in _checked_links(later)] == [
        "docs/adr/0003-x.md", None, "docs/adr/0001-x.md"]


def test_a_configured_filename_pattern_still_reports_names_that_break_links(
    tmp_path: Path,
) -> None:
    """ADR107 with `filename-pattern`: a name with nothing that ends a link's path is judged by
    the pattern alone (its parts are not worked out); one with `#`, `?` or `%` still gets the
    finding about links to it, matching the pattern or not."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    body = "# {n}. Title\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"
    for n, name in [(1, "0001-fine.md"), (2, "0002-Not_Fine.md"), (3, "0003-why#not.md"),
                    (4, "0004-half%off.md")]:
        (adr / name).write_text(body.format(n=n), encoding="utf-8")
    (tmp_path / ".adrguard.toml").write_text(
        "select = [\"ADR107\"]\nfilename-pattern = '^\\d{4}-[a-z0-9#%-]+\\.md$'\n", encoding="utf-8")
    found = sorted((f.location.path.rpartition("/")[2], f.message.split(":")[0])
                   for f in api.check(tmp_path).findings)
    assert found == [
        ("0002-Not_Fine.md",
         "file name '0002-Not_Fine.md' does not match filename-pattern "
         "`^\\d{4}-[a-z0-9#%-]+\\.md$`"),
        ("0003-why#not.md",
         "file name '0003-why#not.md' contains '#', which ends the path of a relative link "
         "(`#` starts an anchor, `?` a query, `%` an escape), so links to this record break"),
        ("0004-half%off.md",
         "file name '0004-half%off.md' contains '%', which ends the path of a relative link "
         "(`#` starts an anchor, `?` a query, `%` an escape), so links to this record break"),
    ]


def test_plain_iso_days_are_judged_without_the_log_habit(tmp_path: Path) -> None:
    """ADR109: a real day written as YYYY-MM-DD is only ever in the future; a day that does
    not exist and other spellings are still read the full way, against the log's habit."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    body = "# {n}. Title\n\nDate: {date}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n"
    for n, date in [(1, "2024-01-05"), (2, "2030-07-01"), (3, "2024-02-30"), (4, "2024-1-5"),
                    *((n, f"March {n}, 2024") for n in range(5, 10))]:  # the log's habit
        (adr / f"000{n}-x.md").write_text(body.format(n=n, date=date), encoding="utf-8")
    (tmp_path / ".adrguard.toml").write_text('select = ["ADR109"]\n', encoding="utf-8")
    found = sorted((f.location.path.rpartition("/")[2], f.message)
                   for f in api.check(tmp_path, today="2026-01-01").findings)
    assert [path for path, _message in found] == ["0002-x.md", "0003-x.md", "0004-x.md"]
    assert found[0][1] == ("date 2030-07-01 lies in the future (today is 2026-01-01): correct "
                           "the date")
    assert found[1][1].startswith("date '2024-02-30' is impossible")
    assert "this one writes '2024-1-5'" in found[2][1]
