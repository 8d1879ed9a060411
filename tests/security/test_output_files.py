"""Attack 1: output files. ``--format NAME:PATH`` never follows or replaces a symlink, writes
through a device or a FIFO without replacing it, and ``-`` is stdout."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest
from hostile import make_repo, record, run

from adrguard.adapters.write import UnsafeTarget, write_atomic


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    r = make_repo(tmp_path / "repo", {"docs/adr/0001-a.md": record(1)})
    monkeypatch.chdir(r.path)
    return r.path


def test_symlink_target_is_refused_and_left_alone(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "gitconfig"
    victim.write_text("[user]\n\tname = me\n", encoding="utf-8")
    (repo / "adrguard.json").symlink_to(victim)
    result = run(capsys, "check", "--format", "json:adrguard.json")
    assert result.code == 2
    assert result.err.startswith("error: cannot write adrguard.json: is a symlink")
    assert result.err.count("\n") == 1
    assert victim.read_text(encoding="utf-8") == "[user]\n\tname = me\n"
    assert (repo / "adrguard.json").is_symlink()


def test_dangling_symlink_is_not_created_through(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "out.sarif").symlink_to(tmp_path / "planted")
    assert run(capsys, "check", "--format", "sarif:out.sarif").code == 2
    assert not (tmp_path / "planted").exists()


def test_directory_target_is_an_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "out").mkdir()
    result = run(capsys, "check", "--format", "json:out")
    assert result.code == 2 and "is a directory" in result.err


def test_fifo_is_written_through_not_replaced(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run(capsys, "check", "--format", f"json:{fifo}")
    reader.join(10)
    assert result.code == 0
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["summary"]["decisions"] == 1


def test_character_device_is_written_through_not_replaced(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--format json:/dev/null`` as root replaced the device node; here on a private copy of
    the null device (made with mknod, which needs root), so a failure breaks nothing."""
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    result = run(capsys, "check", "--format", f"json:{null}")
    assert result.code == 0
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert run(capsys, "check", "--format", "json:/dev/null").code == 0
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_dash_means_stdout(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "json:-")
    assert result.code == 0 and json.loads(result.out)["summary"]["decisions"] == 1
    assert not (repo / "-").exists()
    both = run(capsys, "check", "--format", "json:-", "--format", "text")
    assert both.code == 2 and "only one --format may write to stdout" in both.err


def test_regular_file_is_replaced_atomically_keeping_its_mode(repo: Path) -> None:
    out = repo / "report.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o600)
    write_atomic(out, "new")
    assert out.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_hard_link_to_a_file_elsewhere_is_replaced_not_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep", encoding="utf-8")
    (tmp_path / "ws").mkdir()
    os.link(outside, tmp_path / "ws" / "out.txt")
    write_atomic(tmp_path / "ws" / "out.txt", "report")
    assert outside.read_text(encoding="utf-8") == "keep"


def test_within_refuses_a_folder_that_resolves_elsewhere(tmp_path: Path) -> None:
    ws, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    ws.mkdir()
    elsewhere.mkdir()
    (ws / "reports").symlink_to(elsewhere)
    with pytest.raises(UnsafeTarget, match="outside"):
        write_atomic(ws / "reports" / "x.sarif", "{}", within=[ws])
    with pytest.raises(UnsafeTarget, match="outside"):
        write_atomic(ws / ".." / "x.sarif", "{}", within=[ws])
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "x.sarif").exists()
    write_atomic(ws / "new" / "x.sarif", "{}", within=[ws])
    assert (ws / "new" / "x.sarif").read_text(encoding="utf-8") == "{}"
