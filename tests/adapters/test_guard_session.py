"""The read guard's session counters: one file per session (a hash of its id) in the cache
folder, expiring after a day idle, damaged files started again, never a symlink followed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from adrguard.adapters.guard.session import FOLDER, TTL, Session, SessionError, file_name
from adrguard.core.guard.layout import PathState
from adrguard.core.guard.policy import Answer, Evidence, Notice, Verdict

READ = Verdict(Answer.WARN, (Notice("repeat:a.md#", "repeat", "again", None),),
               (Evidence("a.md", PathState.ACTIVE, "a.md#"),))


def test_counts_survive_between_calls(tmp_path: Path) -> None:
    session = Session.open(tmp_path, "abc", now=1000.0)
    assert session.new and session.seen().reads == frozenset()
    session.record(READ, {"a.md": 10})
    session.save()
    again = Session.open(tmp_path, "abc", now=1010.0)
    assert not again.new
    assert again.seen().reads == {"a.md#"} and again.seen().told == {"repeat:a.md#"}
    again.record(READ, {"a.md": 10})
    assert again.summary() == {"calls": 2, "recordsRead": 1, "repeats": 1, "bytesRead": 20,
                               "denied": 0}
    again.record(Verdict(Answer.DENY), {})
    assert again.summary()["denied"] == 1


def test_a_session_expires_and_old_files_are_removed(tmp_path: Path) -> None:
    old = Session.open(tmp_path, "old", now=1000.0)
    old.save()
    os.utime(tmp_path / FOLDER / file_name("old"), (1000.0, 1000.0))
    later = 1000.0 + TTL + 1
    assert Session.open(tmp_path, "old", now=later).new  # expired: a new session
    Session.open(tmp_path, "new", now=later).save()  # a new session sweeps the folder
    assert sorted(p.name for p in (tmp_path / FOLDER).iterdir()) == [file_name("new")]


def test_a_damaged_file_starts_again_and_says_so(tmp_path: Path) -> None:
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / file_name("s")).write_text(json.dumps({"format": "something else"}))
    session = Session.open(tmp_path, "s")
    assert session.new and session.problem is not None and "damaged" in session.problem


def test_a_symlink_in_place_of_the_file_or_folder_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    (tmp_path / "cache" / FOLDER).mkdir(parents=True)
    os.symlink(target, tmp_path / "cache" / FOLDER / file_name("s"))
    with pytest.raises(SessionError):
        Session.open(tmp_path / "cache", "s")
    (tmp_path / "real").mkdir()
    (tmp_path / "c3").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "c3" / FOLDER)
    with pytest.raises(SessionError):
        Session.open(tmp_path / "c3", "s")


def test_the_file_name_is_a_hash_whatever_the_id(tmp_path: Path) -> None:
    for hostile in ("../../x", "/etc/passwd", "a/b", "\x00", "é" * 3000):
        name = file_name(hostile)
        assert len(name) == 69 and "/" not in name and name.endswith(".json")
