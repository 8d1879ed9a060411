"""Baseline entries and matching (pure): message keys, the multiset match, renames, updates."""

from __future__ import annotations

import json

from adrguard.core.findings import Finding, Severity
from adrguard.core.gate import baseline as bl
from adrguard.core.model import Location


def finding(code: str, path: str, message: str, line: int = 1, decision: str | None = None
            ) -> Finding:
    return Finding(code, "rule", Severity.ERROR, message, Location(path, line), decision)


def test_message_key_masks_counts_and_lines_but_keeps_subjects() -> None:
    key = bl.message_key
    assert key("first difference on line 12; it lists 3 records") == (
        "first difference on line #; it lists # records"
    )
    assert key("31 of 33 records in docs/adr use YYYY-MM-DD") == key(
        "32 of 34 records in docs/adr use YYYY-MM-DD"
    )
    assert key("file is 1,234 bytes") == key("file is 99 bytes")
    # numbers inside names, ids, dates, paths and quotes are the subject: they stay
    for kept in ("0007-x.md", "ADR-0006", "docs/adr/0002-y.md", "05/02/2018", "'2023-01-02'",
                 "`^\\d{4}`", "v2", "adr-12.md"):
        assert kept in key(f"problem with {kept} here"), kept
    assert key("link 0007-a.md broken") != key("link 0008-a.md broken")
    assert key("a  b\n c") == "a b c"


def test_findings_survive_line_moves_and_count_drift() -> None:
    old = [finding("ADR201", "d/1.md", "link x.md broken", line=3),
           finding("ADR109", "d/1.md", "4 of 5 records use ISO dates; this one writes 1/2/20")]
    entries = bl.entries_of(old)
    now = [finding("ADR201", "d/1.md", "link x.md broken", line=40),
           finding("ADR109", "d/1.md", "5 of 6 records use ISO dates; this one writes 1/2/20")]
    result = bl.match(now, entries)
    assert result.known == tuple(now) and not result.new and not result.unmatched


def test_matching_is_a_multiset_and_exact_messages_win() -> None:
    entries = bl.entries_of([finding("ADR204", "d/1.md", "mentions ADR 42, which no record has")])
    now = [finding("ADR204", "d/1.md", "mentions ADR 43, which no record has", line=2),
           finding("ADR204", "d/1.md", "mentions ADR 42, which no record has", line=9)]
    result = bl.match(now, entries)
    # the unchanged finding keeps its entry; the other one (same key) is new
    assert [f.line for f in (x.location for x in result.known)] == [9]
    assert [f.location.line for f in result.new] == [2]
    twice = [finding("ADR201", "d/1.md", "link x.md broken", line=n) for n in (1, 2)]
    once = bl.match(twice, bl.entries_of(twice[:1]))
    assert len(once.known) == 1 and len(once.new) == 1


def test_unmatched_entries_are_the_fixed_ones() -> None:
    entries = bl.entries_of([finding("ADR102", "d/1.md", "no status"),
                             finding("ADR102", "d/2.md", "no status")])
    result = bl.match([finding("ADR102", "d/2.md", "no status")], entries)
    assert [e.path for e in result.unmatched] == ["d/1.md"]
    assert result.unmatched[0].describe() == "ADR102 d/1.md: no status"


def test_decision_and_code_and_path_keep_entries_apart() -> None:
    entries = bl.entries_of([finding("ADR102", "d/1.md", "no status", decision="ADR-0001")])
    for other in (finding("ADR103", "d/1.md", "no status", decision="ADR-0001"),
                  finding("ADR102", "d/2.md", "no status", decision="ADR-0001"),
                  finding("ADR102", "d/1.md", "no status", decision="ADR-0009")):
        assert bl.match([other], entries).new == (other,)


def test_renamed_file_keeps_its_entry_and_its_name_in_the_message() -> None:
    entries = bl.entries_of([finding("ADR107", "d/Use X.md", "file name 'Use X.md' is odd")])
    moved = bl.follow_renames(entries, {"d/Use X.md": "d/0001-use-y.md"})
    now = [finding("ADR107", "d/0001-use-y.md", "file name '0001-use-y.md' is odd")]
    assert bl.match(now, moved).known == tuple(now)
    assert bl.match(now, entries).new == tuple(now)  # without the rename it is new


def test_update_drops_fixed_keeps_known_and_adds_only_when_asked() -> None:
    entries = bl.entries_of([finding("ADR102", "d/1.md", "no status"),
                             finding("ADR201", "d/1.md", "link a.md broken")])
    now = [finding("ADR201", "d/1.md", "link a.md broken", line=7),
           finding("ADR201", "d/2.md", "link b.md broken")]
    assert [e.path + e.code for e in bl.updated(now, entries, add=False)] == ["d/1.mdADR201"]
    assert len(bl.updated(now, entries, add=True)) == 2


def test_json_round_trip_and_a_stable_fingerprint() -> None:
    entries = bl.entries_of([finding("ADR201", "d/1.md", "link a.md broken", decision="ADR-1")])
    data = bl.to_json(entries, "a" * 40)
    back, commit = bl.from_json(data)
    assert back == entries and commit == "a" * 40
    assert data["entries"][0]["fingerprint"] == entries[0].fingerprint  # type: ignore[index]
    assert len(entries[0].fingerprint) == 16
    from adrguard.core.schemas import validator

    validator("baseline.schema.json").validate(json.loads(json.dumps(data)))
