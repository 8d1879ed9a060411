"""Attacks 6, 7 and 8: configuration stays inside the repository; errors say what happened
(one ``error:`` line, exit 2); messages tell the truth about files that exist but cannot be
read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile import Result, make_repo, record, run

SECRET_ENUM = ["launch-codes-1234", "internal-only"]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    r = make_repo(tmp_path / "repo", {
        "docs/adr/0001-a.md": "---\nstatus: nope\n---\n" + record(1),
        "src/app.py": "x = 1\n",
    })
    monkeypatch.chdir(r.path)
    return r.path


def _one_error(result: Result, *needles: str) -> None:
    assert result.code == 2, (result.out, result.err)
    assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err
    for needle in needles:
        assert needle in result.err, result.err


def _outside_schema(tmp_path: Path) -> Path:
    schema = tmp_path / "outside.schema.json"
    schema.write_text(json.dumps({"properties": {"status": {"enum": SECRET_ENUM}}}), "utf-8")
    return schema


def test_frontmatter_schema_outside_the_repository_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _outside_schema(tmp_path)
    for name in (str(schema), "../outside.schema.json"):
        (repo / ".adrguard.toml").write_text(f"frontmatter-schema = {json.dumps(name)}\n", "utf-8")
        result = run(capsys, "check")
        _one_error(result, "frontmatter-schema", "outside the repository")
        assert "launch-codes" not in result.out + result.err


def test_frontmatter_schema_symlinked_out_of_the_repository_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "adr.schema.json").symlink_to(_outside_schema(tmp_path))
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "adr.schema.json"\n', "utf-8")
    result = run(capsys, "check")
    _one_error(result, "outside the repository")
    assert "launch-codes" not in result.out + result.err


def test_frontmatter_schema_on_a_device_or_too_large_is_refused(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "zero.json").symlink_to("/dev/zero")  # resolves outside: refused before reading
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "zero.json"\n', "utf-8")
    _one_error(run(capsys, "check"), "outside the repository")
    os.mkfifo(repo / "fifo.json")
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "fifo.json"\n', "utf-8")
    _one_error(run(capsys, "check"), "not a regular file")
    (repo / "big.json").write_text('{"description": "' + "x" * (1 << 20) + '"}', "utf-8")
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "big.json"\n', "utf-8")
    _one_error(run(capsys, "check"), "the limit is 1,048,576")


def test_config_file_symlinked_out_of_the_repository_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "evil.toml"
    outside.write_text('profile = "legacy"\n', "utf-8")
    (repo / ".adrguard.toml").symlink_to(outside)
    _one_error(run(capsys, "check"), "config .adrguard.toml", "outside the repository")
    (repo / ".adrguard.toml").unlink()
    (repo / "pyproject.toml").symlink_to(outside)
    _one_error(run(capsys, "check"), "config pyproject.toml", "outside the repository")


@pytest.mark.parametrize("ref", [
    "https://example.invalid/schema.json",
    "http://127.0.0.1:9/schema.json",
    "file:///etc/passwd",
    "other.schema.json",
    "#/$defs/missing",
])
def test_remote_file_and_dangling_refs_are_refused(
    repo: Path, ref: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "other.schema.json").write_text('{"enum": ["x"]}', "utf-8")
    schema = {"properties": {"status": {"$ref": ref}}, "$defs": {"ok": {"type": "string"}}}
    (repo / "adr.schema.json").write_text(json.dumps(schema), "utf-8")
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "adr.schema.json"\n', "utf-8")
    _one_error(run(capsys, "check"), f"$ref {ref!r}", "cannot be resolved")


def test_local_refs_still_work(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = {"properties": {"status": {"$ref": "#/$defs/status"}},
              "$defs": {"status": {"enum": ["accepted"]}}}
    (repo / "adr.schema.json").write_text(json.dumps(schema), "utf-8")
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "adr.schema.json"\n', "utf-8")
    result = run(capsys, "check", "--format", "json")
    assert result.code == 1
    assert any("'nope' is not one of ['accepted']" in f["message"]
               for f in json.loads(result.out)["findings"])


@pytest.mark.parametrize(("name", "content", "needle"), [
    ("pyproject.toml", b"tool = 5\n", "`tool` must be a table"),
    ("pyproject.toml", b"[tool]\nadrguard = 5\n", "[tool.adrguard] must be a table"),
    (".adrguard.toml", b'profile = "\xff\xfe"\n', "not UTF-8"),
    (".adrguard.toml", b"roots = " + b"[" * 5000 + b"]" * 5000 + b"\n", "not valid TOML"),
    (".adrguard.toml", b'decision-id-pattern = "(a)\\\\1"\n', "decision-id-pattern"),
])
def test_broken_config_is_a_usage_error(
    repo: Path, name: str, content: bytes, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / name).write_bytes(content)
    _one_error(run(capsys, "check"), needle)


def test_schema_that_is_not_json_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "adr.schema.json").write_text("[" * 100_000, "utf-8")
    (repo / ".adrguard.toml").write_text('frontmatter-schema = "adr.schema.json"\n', "utf-8")
    _one_error(run(capsys, "check"), "is not valid JSON")


@pytest.mark.parametrize("today", ["yesterday", "2024-02-30", "2024-1-5", ""])
def test_today_must_be_an_iso_date(repo: Path, today: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    if not today:
        assert run(capsys, "check", "--today", "2024-02-29").code == 0
        return
    _one_error(run(capsys, "check", "--today", today), "--today", "YYYY-MM-DD")


def test_a_path_argument_that_names_nothing_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_error(run(capsys, "check", "docs/adr/0009-nope.md"), "0009-nope.md", "no such file")
    assert run(capsys, "check", "docs/adr/0001-a.md").code == 0


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("git") is None,
                    reason="needs root to give the repository to another user")
def test_a_repository_git_refuses_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = make_repo(tmp_path / "theirs", {"docs/adr/0001-a.md": record(1)})
    subprocess.run(["chown", "-R", "12345:12345", str(r.path)], check=True)
    monkeypatch.chdir(r.path)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # no safe.directory from the host
    _one_error(run(capsys, "check"), "git refuses the repository", "dubious ownership",
               "safe.directory")


def test_an_unreadable_folder_under_a_root_is_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside git the files are walked; a folder that cannot be listed is ADR001. (Root reads
    any folder, so the refusal is made by the scandir the walk calls.)"""
    base = tmp_path / "plain"
    (base / "docs/adr/locked").mkdir(parents=True)
    (base / "docs/adr/0001-a.md").write_text(record(1), "utf-8")
    (base / "docs/adr/locked/0002-b.md").write_text(record(2), "utf-8")
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(base)
    result = run(capsys, "check", "--repo", str(base), "--format", "json")
    found = [(f["code"], f["path"]) for f in json.loads(result.out)["findings"]]
    assert ("ADR001", "docs/adr/locked") in found
    message = next(f["message"] for f in json.loads(result.out)["findings"]
                   if f["path"] == "docs/adr/locked")
    assert "Permission denied" in message and "not checked" in message


def test_current_manifest_over_the_limit_or_symlinked_out_is_not_called_missing(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gitrepo import GitRepo

    (repo / "docs/adr/CURRENT.md").write_text("# Current\n", "utf-8")
    (repo / "docs/adr/CURRENT.sources.json").write_text(" " * (1 << 20) + "{}", "utf-8")
    GitRepo(repo, init=False).commit("big manifest")
    result = run(capsys, "check", "--format", "json")
    messages = [f["message"] for f in json.loads(result.out)["findings"]
                if f["path"] == "docs/adr/CURRENT.sources.json"]
    assert messages and all("missing" not in m and "could not be read" in m for m in messages)
    outside = tmp_path / "manifest.json"
    outside.write_text("{}", "utf-8")
    (repo / "docs/adr/CURRENT.sources.json").unlink()
    (repo / "docs/adr/CURRENT.sources.json").symlink_to(outside)
    GitRepo(repo, init=False).commit("symlinked manifest")
    result = run(capsys, "check", "--format", "json")
    codes = {(f["code"], f["path"]) for f in json.loads(result.out)["findings"]}
    assert ("ADR405", "docs/adr/CURRENT.sources.json") in codes
    assert not any(code == "ADR404" for code, _ in codes)
