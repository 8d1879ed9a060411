"""What a log's habits are learned as: names, dates, section meanings, statuses, sign-posts."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adrguard.core.conventions import dates, naming
from adrguard.core.conventions.log import Log, is_signpost, status_habit
from adrguard.core.conventions.sections import Requirement, heading_keys, pseudo_headings
from adrguard.core.model import Decision, Section, Status


def record(path: str, number: int | None = None, **fields: object) -> Decision:
    base: dict[str, object] = {"id": path, "path": path, "root": "docs/adr", "number": number}
    base.update(fields)
    return Decision(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "kind", "prefix", "digits", "date", "slug", "folder"),
    [
        ("docs/adr/0012-use-x.md", "numbered", "", "0012", "", "use-x", False),
        ("docs/adr/adr-05.md", "numbered", "adr", "05", "", "", False),
        ("docs/adr/ADR012_use_y.md", "numbered", "ADR", "012", "", "use_y", False),
        ("docs/adr/20200925-use-z.md", "dated", "", "", "20200925", "use-z", False),
        ("docs/adr/2023-03-02-use-w/README.md", "dated", "", "", "2023-03-02", "use-w", True),
        ("docs/adr/Use Kafka.md", "plain", "", "", "", "Use Kafka", False),
    ],
)
def test_names_split_into_parts(
    path: str, kind: str, prefix: str, digits: str, date: str, slug: str, folder: bool
) -> None:
    name = naming.split(path, "docs/adr")
    assert (name.kind, name.prefix, name.digits, name.date, name.slug, name.folder) == (
        kind, prefix, digits, date, slug, folder
    )


def test_a_scheme_flags_only_padded_numbers_of_another_width() -> None:
    names = [naming.split(f"d/{n:04d}-x.md", "d") for n in range(1, 9)]
    scheme = naming.learn(names)
    assert scheme.structure.holds and scheme.padded and scheme.width.value == 4
    assert scheme.width_harm(naming.split("d/00011-x.md", "d"))
    assert scheme.width_harm(naming.split("d/12-x.md", "d"))
    assert not scheme.width_harm(naming.split("d/10000-x.md", "d"))  # grew past the width
    natural = naming.learn(naming.split(f"d/adr-{n}.md", "d") for n in (1, 2, 10, 11))
    assert not natural.width_harm(naming.split("d/adr-3.md", "d"))


@pytest.mark.parametrize(
    ("written", "family", "value", "problem"),
    [
        ("2018-06-19", "iso", dt.date(2018, 6, 19), ""),
        ("2024-05-22 (back dated)", "iso", dt.date(2024, 5, 22), ""),
        ("2024-05", "iso", None, ""),
        ("2023-13-10", "iso", None, "impossible"),
        ("June 19, 2018", "human", dt.date(2018, 6, 19), ""),
        ("8th June 2023", "human", dt.date(2023, 6, 8), ""),
        ("May 2023", "human", None, ""),
        ("25/03/2020", "numeric", dt.date(2020, 3, 25), ""),
        ("05/02/2018", "numeric", None, "ambiguous"),
        ("05.02.2018", "numeric", dt.date(2018, 2, 5), ""),
        ("08/01/24", "numeric", None, "ambiguous"),
        ("2017/11/22", "numeric", dt.date(2017, 11, 22), ""),
        ("2020-1-5", "numeric", dt.date(2020, 1, 5), ""),
        ("1/2/3", "unknown", None, ""),
        ("20180619", "compact", dt.date(2018, 6, 19), ""),
        ("2017年11月22日", "cjk", dt.date(2017, 11, 22), ""),
        ("someday", "unknown", None, ""),
        # decoration is read past: a template's brackets kept, a note after the date
        ("[2025-03-07]", "iso", dt.date(2025, 3, 7), ""),
        ("2025.09.02 (see PR #46)", "numeric", dt.date(2025, 9, 2), ""),
        ("June 19, 2018 (approved)", "human", dt.date(2018, 6, 19), ""),
        ("[YYYY-MM-DD when it was decided]", "unknown", None, ""),
        ("29-Oct-2019", "human", dt.date(2019, 10, 29), ""),
        ("25-November-2018", "human", dt.date(2018, 11, 25), ""),
    ],
)
def test_dates_are_read_by_family(
    written: str, family: str, value: dt.date | None, problem: str
) -> None:
    reading = dates.read(written)
    assert (reading.family, reading.value, reading.problem) == (family, value, problem)


def test_the_date_habit_needs_a_majority_else_iso() -> None:
    human = dates.learn(dates.read(w) for w in ("June 1, 2020", "7 May 2021", "2022-01-01"))
    assert (human.family, human.count, human.total, human.learned) == ("human", 2, 3, True)
    mixed = dates.learn(dates.read(w) for w in ("June 1, 2020", "01/06/2020"))
    assert (mixed.family, mixed.learned) == ("iso", False)
    ordered = dates.learn(dates.read(w) for w in ("25/03/2020", "26/04/2020", "05/02/2021"))
    assert ordered.day_first is True


@given(st.text(max_size=40))
def test_any_text_reads_as_some_family(text: str) -> None:
    assert dates.read(text).family in {"iso", "human", "numeric", "compact", "cjk", "unknown"}


@pytest.mark.parametrize(
    ("heading", "carries"),
    [
        ("## Decision: use a queue", True),
        ("### Decision Outcome: AWS Lambda", True),
        ("## 2. Decisions", True),
        ("## Proposal", True),
        ("## Decision Drivers", False),
        ("## Decision-makers", False),
        ("## Considered Options", False),
        ("## Solution proposed", True),
        ("## Final decision", True),
        ("## Decision for the storage layer", True),
        ("## Decision to adopt a queue", True),
    ],
)
def test_what_carries_a_decision(heading: str, carries: bool) -> None:
    assert Requirement.parse("decision outcome").carried_by(heading) is carries


def test_combined_headings_and_own_names() -> None:
    context = Requirement.parse("context and problem statement")
    assert context.carried_by("## Background & Context", own=True)
    assert context.carried_by("## Motivation") and not context.carried_by("## Motivation", own=True)
    assert {"background", "context"} <= heading_keys("Background & Context")
    consequences = Requirement.parse("consequences|outcome")
    assert consequences.carried_by("## Outcome") and not consequences.carried_by("## Proposal")


@pytest.mark.parametrize(
    ("heading", "carries"),
    [
        ("## Need", True),
        ("## Statement of the problem", True),
        ("## Context of the problem", True),
        ("## Context or problem to solve", True),
        ("## Areas of impact", False),
        ("## Known problems of the old client", False),
    ],
)
def test_what_carries_a_context(heading: str, carries: bool) -> None:
    assert Requirement.parse("context and problem statement").carried_by(heading) is carries


def test_pseudo_headings_need_content() -> None:
    text = "**Context**\n\nWhy.\n\n**Decision:** we do it\n\n**Empty**\n\n## Next\n"
    assert list(pseudo_headings(text)) == ["Context", "Decision:"]


def test_status_habit_whole_log_adoption_and_none() -> None:
    def log(*stated: bool) -> list[Decision]:
        return [
            record(f"docs/adr/{i:04d}-x.md", i, status=Status.ACCEPTED if s else None)
            for i, s in enumerate(stated, 1)
        ]

    most = status_habit(log(False, True, True, True))
    assert (most.since, most.stated, most.total) == (0, 3, 4)
    later = status_habit(log(False, False, False, True, True, True, False))
    assert (later.since, later.stated, later.total) == (3, 3, 4)
    never = status_habit(log(False, True, False, False, False))
    assert never.since is None and never.stated == 1


def test_signposts_are_short_statusless_pointers() -> None:
    pointer = record("docs/adr/0004-x.md", 4, text="# 4. X\n\nKept at https://wiki.example.org/x\n",
                     sections=(Section("4. X", 1, 1, 3, "Kept at https://wiki.example.org/x"),))
    full = record("docs/adr/0005-y.md", 5, sections=(Section("Context", 2, 3, 4, "Why."),))
    assert is_signpost(pointer) and not is_signpost(full)
    assert Log("docs/adr", [pointer, full]).substantive == (full,)


_HEADINGS = ["Context", "Background & Motivation", "Decision: use X", "Decision Drivers",
             "Proposal", "Consequences", "Implications", "Outcome", "Notes", "2. Problem"]
_BOLD = ["", "**Decision Outcome**\n\nWe do it.\n", "**Context:** why\n", "**Impact**\n\n- a\n"]
_ENTRIES = ["context", "decision", "consequences", "consequences|outcome", "notes",
            "context and problem statement", "decision outcome"]


@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(_HEADINGS), max_size=4), st.sampled_from(_BOLD)),
        max_size=8,
    ),
    st.lists(st.sampled_from(_ENTRIES), min_size=1, max_size=4),
)
def test_shares_and_missing_agree_with_carries_record_by_record(
    shapes: list[tuple[list[str], str]], entries: list[str]
) -> None:
    records = []
    for i, (titles, bold) in enumerate(shapes, 1):
        sections = tuple(Section(t, 2, 3 + 2 * j, 4 + 2 * j, "Text.") for j, t in enumerate(titles))
        text = f"# {i}. X\n\n" + "".join(f"## {t}\n\nText.\n\n" for t in titles) + bold
        records.append(record(f"docs/adr/{i:04d}-x.md", i, text=text, title_line=1,
                              sections=sections, status=Status.ACCEPTED))
    requirements = tuple(Requirement.parse(e) for e in entries)
    slow, fast = Log("docs/adr", records), Log("docs/adr", records)
    expected = {
        r.entry: (sum(1 for d in slow.substantive if slow.carries(d, r, own=True)),
                  len(slow.substantive))
        for r in requirements
    }
    assert fast.shares(requirements) == expected
    assert {r.entry: fast.share(r) for r in requirements} == expected
    for d in records:
        assert fast.missing(d, requirements) == [r for r in requirements if not slow.carries(d, r)]
