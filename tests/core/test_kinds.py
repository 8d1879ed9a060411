"""Files under a root that are not decision records, found by content (written for these
tests): an index listing the log, a part of a record in a folder named after it, an example."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from adrguard.core.conventions.kinds import non_records
from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

ROOT = "docs/records"


def rec(path: str, text: str) -> Decision:
    return parse(SourceFile(path=f"{ROOT}/{path}", root=ROOT, data=text.encode()), Options())


def record(path: str, title: str) -> Decision:
    return rec(path, f"# {title}\n\n## Status\n\nAccepted\n\n## Context\n\nWe need it.\n")


LOG = [
    record("ops/OPS-001-alerting.md", "OPS-001: Alerting"),
    record("ops/OPS-002-backups.md", "OPS-002: Backups"),
    record("api/API-001-paging.md", "API-001: Paging"),
    record("api/API-002-errors.md", "API-002: Errors"),
]


def test_a_file_that_lists_the_log_is_its_index() -> None:
    index = rec("records.md", "# Our records\n\n" + "".join(
        f"- [{d.title}]({d.path[len(ROOT) + 1:]})\n" for d in LOG[:3]))
    assert non_records([*LOG, index]) == {index.path: "index"}


def test_a_record_that_links_a_few_others_is_a_record() -> None:
    links = "See [1](ops/OPS-001-alerting.md) and [2](ops/OPS-002-backups.md).\n"
    overview = rec("ops/OPS-003-on-call.md", f"# OPS-003: On call\n\n## Status\n\nAccepted\n\n{links}")
    assert non_records([*LOG, overview]) == {}


def test_a_file_in_a_folder_named_after_a_record_is_part_of_it() -> None:
    part = rec("resources/OPS-002/restore-steps.md", "## Restore steps\n\n1. Stop the writers.\n")
    assert non_records([*LOG, part]) == {part.path: "part"}


def test_a_numbered_record_in_a_record_named_folder_stays_a_record() -> None:
    nested = record("OPS-002/OPS-004-restore-drills.md", "OPS-004: Restore drills")
    assert non_records([*LOG, nested]) == {}


def test_a_sample_whose_title_and_status_are_placeholders_is_an_example() -> None:
    sample = rec(
        "000-sample-record.md",
        "# ADR 000 - {title}\n\n## Status\n\nproposed | accepted | deprecated | superseded\n",
    )
    assert non_records([*LOG, sample]) == {sample.path: "example"}


def test_a_record_named_example_that_is_filled_in_stays_a_record() -> None:
    real = record("OPS-005-example-dashboards.md", "OPS-005: Example dashboards for teams")
    assert non_records([*LOG, real]) == {}


def test_a_note_left_where_a_record_moved_is_a_redirect() -> None:
    moved = rec("OPS-007-old-home.md", "Moved to [OPS-007/README.md](OPS-007/README.md).\n")
    status = rec("OPS-008-x.md", "---\nstatus: Moved\n---\n\nThis file now lives at "
                 "https://example.org/records/ops-008.\n")
    found = non_records([*LOG, moved, status])
    assert found == {moved.path: "redirect", status.path: "redirect"}


def test_a_record_that_mentions_a_move_is_a_record() -> None:
    real = rec("OPS-009-move-backups.md", "# OPS-009: Move the backups\n\n## Status\n\nAccepted\n\n"
               "## Decision\n\nThe backups moved to [the cold store](https://example.org).\n")
    assert non_records([*LOG, real]) == {}


def test_dated_notes_in_a_sub_folder_of_a_numbered_log_are_a_journal() -> None:
    notes = [rec(f"meetings/2020-0{m}-01.md", "# Meeting\n\nWe met.\n") for m in (1, 2, 3)]
    found = non_records([*LOG, *notes])
    assert found == {n.path: "journal" for n in notes}
    assert non_records([*LOG, *notes[:2]]) == {}  # two files are not yet a journal


def test_an_archive_of_dated_numbered_records_is_no_journal() -> None:
    moved = [
        parse(SourceFile(path=f"{ROOT}/archive/2022-0{m}-01_00{m}-x.md", root=ROOT,
                         data=b"# X\n\n## Status\n\nSuperseded\n", archived=True), Options())
        for m in (1, 2, 3)
    ]
    assert non_records([*LOG, *moved]) == {}


def test_the_repositorys_own_paperwork_under_a_root_is_no_record() -> None:
    conduct = rec("CODE_OF_CONDUCT.md", "# Code of conduct\n\nBe kind to each other.\n")
    agents = rec("Agents.md", "# Notes for coding agents\n\nRun the tests first.\n")
    issue = rec(".github/ISSUE_TEMPLATE/idea.md", "## Idea\n\nDescribe the idea.\n")
    section = rec("ops/_index.md", "---\ntitle: Operations\n---\n\nRecords about operations.\n")
    found = non_records([*LOG, conduct, agents, issue, section])
    assert found == {p.path: "repository" for p in (conduct, agents, issue, section)}


def test_a_record_named_like_paperwork_that_states_a_status_stays_a_record() -> None:
    security = record("security.md", "Encrypt every backup")
    numbered = rec("OPS-003-contributing.md", "# OPS-003: Contributing\n\nWho may merge.\n")
    assert non_records([*LOG, security, numbered]) == {}


def test_notes_in_an_attachments_folder_are_assets() -> None:
    notes = rec("attachments/load-test-notes.md", "# Load test notes\n\n300 requests a second.\n")
    kept = record("attachments/OPS-005-keep-attachments.md", "OPS-005: Keep attachments")
    assert non_records([*LOG, notes, kept]) == {notes.path: "asset"}


def test_a_checklist_in_a_hidden_folder_is_no_record_even_with_a_status_field() -> None:
    checklist = rec(".github/OPS-REVIEW.md", "# OPS review\n\n- Status: set to Proposed\n")
    assert non_records([*LOG, checklist]) == {checklist.path: "repository"}


def test_an_install_guide_beside_a_numbered_log_that_states_statuses_is_a_guide() -> None:
    log = [record(f"OPS-{n:03d}-topic-{n}.md", f"OPS-{n:03d}: Topic {n}") for n in range(1, 9)]
    guide = rec("install.md", "---\ntitle: Installation\n---\n\n## Installation\n\nRun make.\n")
    unnumbered = rec("caching.md", "# Caching\n\n## Context\n\nSlow pages.\n")
    assert non_records([*log, guide, unnumbered]) == {guide.path: "guide"}


def test_a_small_log_keeps_its_unlike_files_as_records() -> None:
    guide = rec("install.md", "## Installation\n\nRun make.\n")
    assert non_records([*LOG, guide]) == {}


def _eager(decisions: list[Decision]) -> dict[str, str]:
    """The classification with every test asked in full and the log's names gathered up
    front (the order the fast paths of non_records skip parts of)."""
    from adrguard.core.conventions import kinds
    from adrguard.core.model import Status
    from adrguard.core.parse import formats, ids

    def example(d: Decision) -> bool:
        stem = kinds._stem(d.path).casefold()
        number = ids.parse_name(stem).number
        named = any(w in stem for w in ("example", "sample", "demo")) and bool(
            kinds._EXAMPLE_NAME.search(stem))
        placeholder = d.title is None and d.title_raw is not None
        template = d.status is Status.UNKNOWN and bool(d.status_raw)
        return (named or number == 0) and (placeholder or template)

    out: dict[str, str] = {}
    log = list(decisions)
    names = kinds._record_names(log, formats.Names())
    paths = frozenset(d.path for d in log)
    journals, guides = kinds._journals(log), kinds._guides(log)
    for d in log:
        tests = [
            ("journal", d.path in journals), ("repository", kinds._is_repository_file(d)),
            ("asset", kinds._is_asset(d)), ("guide", d.path in guides),
            ("redirect", kinds._is_redirect(d)), ("example", example(d)),
            ("part", kinds._is_part(d, lambda: names)), ("index", kinds._is_index(d, paths)),
        ]
        kind = next((k for k, hit in tests if hit), None)
        if kind is not None:
            out[d.path] = kind
    return out


_FOLDERS = ["", "ADR-1/", "0002-cache/", "notes/", "assets/", "ADR-9/"]
_STEMS = ["0001-use-x", "0002-cache", "adr-000-example", "sample", "profile", "0000-template",
          "README", "demo-notes", "ADR-1"]
_BODIES = [
    "# {n}. Title\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n",
    "# ADR {{title}}\n\n## Status\n\n{{proposed | accepted}}\n",
    "# Notes\n\nSome notes.\n",
    "# Example\n\nStatus: ????\n",
    "# Index\n\n- [a](0001-use-x.md)\n- [b](0002-cache.md)\n- [c](ADR-1/profile.md)\n",
]


@given(st.lists(st.tuples(st.sampled_from(_FOLDERS), st.sampled_from(_STEMS),
                          st.sampled_from(_BODIES)), max_size=10))
def test_the_fast_paths_classify_as_every_test_asked_in_full(
    files: list[tuple[str, str, str]]
) -> None:
    log = {}
    for n, (folder, stem, body) in enumerate(files, 1):
        path = f"{folder}{stem}.md"
        log[path] = rec(path, body.format(n=n))
    decisions = list(log.values())
    assert non_records(decisions) == _eager(decisions)
