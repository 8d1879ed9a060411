"""ADR0xx/ADR1xx helpers and messages (the behaviour itself is in the case files)."""

from __future__ import annotations

import pytest

from adrguard.core.conventions.sections import fold
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, Decision, Section, Status, StatusStatement
from adrguard.core.options import DEFAULT_STATUS_SYNONYMS, Options
from adrguard.core.parse import formats
from adrguard.rules import RULES_BY_CODE, RuleContext
from adrguard.rules.numbering import record_name
from adrguard.rules.structure import suggest_status


def messages(code: str, *decisions: Decision, options: Options | None = None) -> list[str]:
    ctx = RuleContext(Corpus(decisions=decisions), options or Options())
    return [f.message for f in RULES_BY_CODE[code]().check(ctx)]


def decision(**fields: object) -> Decision:
    base: dict[str, object] = {"id": "ADR-0001", "path": "docs/adr/0001-a.md", "root": "docs/adr"}
    base.update(fields)
    return Decision(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "hint"),
    [
        ("Acepted", "accepted"),
        ("Superseeded", "superseded"),
        ("✅ Aproved by @alice", "accepted"),
        ("Rejectd (see ADR-3)", "rejected"),
        ("Parked", None),
    ],
)
def test_suggest_status(raw: str, hint: str | None) -> None:
    vocabulary = dict(DEFAULT_STATUS_SYNONYMS)
    expected = f" (did you mean {hint!r}?)" if hint else ""
    assert suggest_status(raw, vocabulary) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("## 2. Decision Outcome:", "decision outcome"),
        ("Context and problem statement", "context and problem statement"),
        ("1) Context", "context"),
        ("III. Consequences", "consequences"),
        ("**Decision**", "decision"),
    ],
)
def test_fold_heading(title: str, expected: str) -> None:
    assert fold(title) == expected


@pytest.mark.parametrize(
    ("path", "root", "name", "number"),
    [
        ("docs/adr/0012-use-x.md", "docs/adr", "0012-use-x.md", 12),
        ("docs/arch/adr-05.md", "docs/arch", "adr-05.md", 5),
        ("docs/adr/00011-remote.md", "docs/adr", "00011-remote.md", 11),
        ("docs/adr/20200925-slug.md", "docs/adr", "20200925-slug.md", None),
        ("d/2023-03-02-slug/README.md", "d", "2023-03-02-slug.md", None),
        ("docs/adr/Use Kafka.md", "docs/adr", "Use Kafka.md", None),
    ],
)
def test_record_name_and_number(path: str, root: str, name: str, number: int | None) -> None:
    assert record_name(path, root) == name
    assert formats.name_id(path, root).number == number


def test_unknown_status_message_suggests_and_explains() -> None:
    d = decision(status=Status.UNKNOWN, status_raw="Superseeded", status_line=5)
    (msg,) = messages("ADR103", d)
    assert "'Superseeded'" in msg and "did you mean 'superseded'" in msg and "statuses" in msg


def test_filename_message_never_invents_a_name_from_the_title() -> None:
    logged = [decision(path=f"docs/adr/000{i}-record-{i}.md", number=i) for i in range(1, 5)]
    odd = decision(path="docs/adr/Use Kafka.md", number=7, title="Use Kafka")
    (msg,) = messages("ADR107", *logged, odd)
    assert "'Use Kafka.md'" in msg and "4 of 5 records" in msg and "'0001-record-1.md'" in msg
    assert "use-kafka" not in msg and "filename-pattern" in msg


def test_filename_width_message_keeps_the_slug() -> None:
    logged = [decision(path=f"docs/adr/{i:04d}-x{i}.md", number=i) for i in range(1, 6)]
    wide = decision(path="docs/adr/00011-remote-access.md", number=11)
    (msg,) = messages("ADR107", *logged, wide)
    assert "'0011-remote-access.md'" in msg and "sorts out of order" in msg


def test_invalid_date_messages() -> None:
    iso = [decision(path=f"docs/adr/000{i}-a.md", date=f"2021-0{i}-01") for i in range(1, 5)]
    found = {
        written: messages("ADR109", *iso, decision(path="docs/adr/0009-z.md", date=written))
        for written in ("12/03/2021", "July 25, 2018", "2023-13-10", "someday", "24/03/2021")
    }
    assert "2021-03-12 day first or 2021-12-03 month first" in found["12/03/2021"][0]
    assert "4 of 5 dated records" in found["July 25, 2018"][0]
    assert "(2018-07-25)" in found["July 25, 2018"][0]
    assert "(did you mean 2023-10-13?)" in found["2023-13-10"][0]
    assert "not a date adrguard can read" in found["someday"][0]
    assert "(2021-03-24)" in found["24/03/2021"][0]


def test_future_date_needs_today() -> None:
    d = decision(date="2030-01-01T00:00:00+02:00")
    assert messages("ADR109", d) == []
    (msg,) = messages("ADR109", d, options=Options(today="2029-12-31"))
    assert "future" in msg


def test_front_matter_types() -> None:
    d = decision(
        front_matter={"status": ["a", "b"], "supersedes": [1, "ADR-2"], "depends-on": [{"x": 1}],
                      "date": True, "title": None, "tags": {"free": "form"}},
        front_matter_lines={"status": 2, "supersedes": 3, "depends-on": 4, "date": 5},
    )
    msgs = messages("ADR110", d)
    assert len(msgs) == 3
    assert any("`status` holds a list" in m for m in msgs)
    assert any("`depends-on` holds a list" in m for m in msgs)
    assert any("`date` holds bool True" in m for m in msgs)


def test_invalid_user_schema_is_a_user_error() -> None:
    d = decision(front_matter={"status": "accepted"})
    with pytest.raises(UserError, match="frontmatter-schema is not a valid JSON Schema"):
        messages("ADR110", d, options=Options(frontmatter_schema={"type": 12}))


def test_conflicting_status_names_both_statements() -> None:
    d = decision(
        status=Status.ACCEPTED,
        statuses=(
            StatusStatement("accepted", Status.ACCEPTED, 2, "front-matter"),
            StatusStatement("Unclear", Status.UNKNOWN, 7, "section"),
            StatusStatement("Superseded by ADR-9", Status.SUPERSEDED, 9, "line"),
        ),
    )
    (msg,) = messages("ADR112", d)
    assert "'Superseded by ADR-9'" in msg and "line 2" in msg


def test_empty_section_ignores_comments_and_counts_subsections() -> None:
    sections = (
        Section("Context", 2, 3, 4, "<!-- explain -->"),
        Section("Decision", 2, 5, 5, ""),
        Section("Chosen", 3, 6, 7, "Use X."),
        Section("Consequences", 2, 8, 9, ""),
    )
    d = decision(format="nygard", sections=sections)
    msgs = messages("ADR105", d)
    assert len(msgs) == 2
    assert "'Context'" in msgs[0] and "'Consequences'" in msgs[1]


def test_duplicate_id_lists_the_other_records() -> None:
    a = decision(number=1)
    b = decision(path="docs/adr/archive/0001-b.md", number=1, archived=True)
    c = decision(id="ADR-0009", path="docs/adr/0009-c.md", number=1)
    found = list(RULES_BY_CODE["ADR106"]().check(RuleContext(Corpus((a, b, c)), Options())))
    assert [f.location.path for f in found] == sorted([a.path, b.path, c.path])
    assert found[0].related == tuple(sorted([b.path, c.path]))


def test_learned_counts_leave_fingerprints_alone() -> None:
    from adrguard.core.findings import fingerprint

    iso = [decision(path=f"docs/adr/000{i}-a.md", date=f"2021-0{i}-01") for i in range(1, 5)]
    odd = decision(path="docs/adr/0009-z.md", id="ADR-0009", date="24/03/2021")
    ctx = RuleContext(Corpus(decisions=(*iso, odd)), Options())
    (before,) = RULES_BY_CODE["ADR109"]().check(ctx)
    more = decision(path="docs/adr/0005-a.md", id="ADR-0005", date="2021-05-01")
    (after,) = RULES_BY_CODE["ADR109"]().check(RuleContext(Corpus((*iso, more, odd)), Options()))
    assert "4 of 5" in before.message and "5 of 6" in after.message
    assert fingerprint(before) == fingerprint(after)
