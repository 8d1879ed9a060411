"""Habits users bring from ruff, markdownlint and adr-tools (issue 28, point 7), on real
temporary git repositories: ``--output-format concise``, ``--statistics``, ``-q``,
``list --status/--format``, and what happens on a terminal (through a real pseudo-terminal):
colour in ``list``/``show`` (never piped, never with NO_COLOR), ``show`` through the pager when
long, ``explain`` rendered."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from termrun import run as term

from adrguard.cli import main
from adrguard.reporters import catalogue

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CONCISE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>ADR\d{3}) (?P<msg>.+)$")


def nygard(n: int, title: str, status: str, body: str = "") -> str:
    return (f"# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n"
            f"## Context\n\nWhy {n}.\n\n## Decision\n\nWhat {n}.{body}\n\n"
            "## Consequences\n\nSo.\n")


@pytest.fixture()
def log(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({
        "docs/adr/0001-use-mysql.md": nygard(1, "Use MySQL", "Superseded by [3](0003-use-postgres.md)"),
        "docs/adr/0002-cache.md": nygard(2, "Cache | pipes *and* stars", "Proposed",
                                         "\n\nSee [a](missing-a.md) and [b](missing-b.md)."),
        "docs/adr/0003-use-postgres.md": nygard(3, "Use Postgres", "Accepted\n\nSupersedes "
                                                "[1](0001-use-mysql.md)", "\n\nSee [c](gone.md)."),
        "docs/adr/0004-queue.md": nygard(4, "Queue", "Rejected"),
    })
    repo.commit()
    return repo


@pytest.fixture()
def clean(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "clean")
    repo.write({"docs/adr/0001-use-mysql.md": nygard(1, "Use MySQL", "Accepted")})
    repo.commit()
    return repo


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- check: concise, statistics, quiet ------------------------------------------------------


def test_output_format_concise_is_one_editor_line_per_finding(
    log: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `--output-format` was an unknown option (exit 2) and no format wrote
    `path:line:col: CODE message`."""
    root = str(log.path)
    code, out, err = cli(capsys, "check", "--repo", root, "--output-format", "concise")
    assert code == 1
    lines = out.splitlines()
    matches = [CONCISE.match(line) for line in lines]
    assert all(matches) and len(lines) == 3, out
    assert [(m["path"], m["code"]) for m in matches if m] == [
        ("docs/adr/0002-cache.md", "ADR201"), ("docs/adr/0002-cache.md", "ADR201"),
        ("docs/adr/0003-use-postgres.md", "ADR201")]
    first = matches[0]
    assert first is not None
    text = (log.path / first["path"]).read_text(encoding="utf-8").splitlines()
    assert text[int(first["line"]) - 1][int(first["col"]) - 1:].startswith("[a](missing-a.md)")
    # the summary the format has no room for goes to stderr; -q drops it
    assert err == "adrguard: 3 errors, 0 warnings, 0 notes in 4 decisions (4 files)\n"
    # --format concise is the same option: one registry of formats
    assert cli(capsys, "check", "--repo", root, "--format", "concise")[1] == out
    code, quiet_out, quiet_err = cli(capsys, "check", "--repo", root, "--format", "concise", "-q")
    assert (code, quiet_out, quiet_err) == (1, out, "")
    # and it can go to a file like any other format
    target = log.path.parent / "findings.txt"
    code, text_out, _ = cli(capsys, "check", "--repo", root, "--output-format",
                            f"concise:{target}", "--format", "text")
    assert target.read_text(encoding="utf-8") == out and "3 errors" in text_out


def test_statistics_counts_findings_per_rule(
    log: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `--statistics` was an unknown option (exit 2)."""
    root = str(log.path)
    code, out, err = cli(capsys, "check", "--repo", root, "--statistics", "--select",
                         "ADR201,ADR3")
    assert code == 1 and err == ""
    assert out == ("3  ADR201  broken-link  error\n\n"
                   "3 errors, 0 warnings, 0 notes in 4 decisions (4 files)\n")
    code, out, _ = cli(capsys, "check", "--repo", root, "--statistics", "-q")
    assert code == 1 and out.splitlines()[0].split() == ["3", "ADR201", "broken-link", "error"]
    assert "decisions" not in out
    # another format on stdout is refused (exit 2); with a PATH it is written in full
    code, _, err = cli(capsys, "check", "--repo", root, "--statistics", "--format", "json")
    assert code == 2 and "--statistics" in err
    report = log.path.parent / "report.json"
    code, out, _ = cli(capsys, "check", "--repo", root, "--statistics", "--format",
                       f"json:{report}")
    assert code == 1 and "ADR201  broken-link" in out
    assert len(json.loads(report.read_text(encoding="utf-8"))["findings"]) == 3


def test_quiet_prints_the_findings_and_nothing_else(
    log: GitRepo, clean: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `-q` was an unknown option (exit 2)."""
    code, out, err = cli(capsys, "check", "--repo", str(log.path), "-q")
    assert code == 1 and err == ""
    assert out.splitlines()[0] == "docs/adr/0002-cache.md"
    assert "errors" not in out and not out.endswith("\n\n")
    code, loud, _ = cli(capsys, "check", "--repo", str(log.path))
    assert loud.startswith(out) and loud.endswith("3 errors, 0 warnings, 0 notes in 4 decisions "
                                                  "(4 files)\n")
    assert cli(capsys, "check", "--repo", str(clean.path), "--quiet") == (0, "", "")
    # stderr decoration goes too (graph's "left out" line), errors stay
    code, _, err = cli(capsys, "graph", "--repo", str(log.path), "-q")
    assert code == 0 and err == ""
    code, _, err = cli(capsys, "graph", "--repo", str(log.path), "-q", "--focus", "99")
    assert code == 2 and err.startswith("error: ")
    code, _, err = cli(capsys, "check", "--repo", str(log.path), "-q", "-v")
    assert code == 2 and "not allowed with" in err


# -- list --status, list --format ----------------------------------------------------------


def test_list_filters_by_status_in_any_of_the_logs_words(
    log: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `list --status` was an unknown option (exit 2)."""
    root = str(log.path)
    code, out, _ = cli(capsys, "list", "--repo", root, "--status", "accepted,proposed")
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()] == ["ADR-0002", "ADR-0003"]
    code, out, _ = cli(capsys, "list", "--repo", root, "--status", "abgelehnt", "--format", "json")
    assert [d["id"] for d in json.loads(out)["decisions"]] == ["ADR-0004"]
    code, out, _ = cli(capsys, "list", "--repo", root, "--status", "superseded", "--status", "all")
    assert len(out.splitlines()) == 4
    code, out, err = cli(capsys, "list", "--repo", root, "--status", "draft")
    assert (code, out) == (0, "") and "none of the 4 decision records has the status draft" in err
    code, _, err = cli(capsys, "list", "--repo", root, "--status", "bogus")
    assert code == 2 and "--status 'bogus' is not a status" in err


def test_list_as_a_markdown_table(log: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `list --format markdown` was refused (text and json only)."""
    code, out, _ = cli(capsys, "list", "--repo", str(log.path), "--format", "markdown")
    lines = out.splitlines()
    assert code == 0 and lines[:2] == ["| Record | Status | Title | File |", "|---|---|---|---|"]
    assert lines[3] == ("| ADR-0002 | proposed | Cache \\| pipes and stars | "
                        "docs/adr/0002-cache.md |")
    assert all(line.count(" | ") == 3 for line in lines[2:])


# -- search ---------------------------------------------------------------------------------


def test_search_is_ranked_shows_the_match_and_exits_1_on_no_match(
    log: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: results in discovery order, a title match showed the file's opening as the
    excerpt, and no match exited 0."""
    root = str(log.path)
    code, out, _ = cli(capsys, "search", "postgres", "--repo", root)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("ADR-0003  Use Postgres")  # title match first
    assert lines[3].startswith("ADR-0001")  # mentions it only in its status line
    assert lines[2] == "    # 3. Use Postgres"  # its only match: the heading, alone
    assert lines[5].startswith("    …") and "Superseded by [3](0003-use-postgres.md)" in lines[5]
    code, out, _ = cli(capsys, "search", "no-such-word", "--repo", root)
    assert code == 1 and out == "0 matching records\n"
    code, out, _ = cli(capsys, "search", "no-such-word", "--repo", root, "--format", "json")
    assert code == 1 and json.loads(out)["results"] == [] and json.loads(out)["total"] == 0
    assert cli(capsys, "search", "postgres", "--repo", root, "-q")[:2] == (0, "")
    assert cli(capsys, "search", "nothing-at-all", "--repo", root, "-q")[:2] == (1, "")
    code, out, _ = cli(capsys, "search", "use", "--repo", root, "--limit", "1")
    assert code == 0 and out.splitlines()[-1] == ("2 matching records, the best 1 shown (raise "
                                                  "--limit above 1 for more)")


# -- on a terminal ---------------------------------------------------------------------------


def test_list_and_show_are_coloured_on_a_terminal_only(log: GitRepo) -> None:
    """Before: list and show wrote no colour anywhere."""
    for argv in (["list"], ["show", "3", "--no-pager"]):
        on_tty = term(argv, log.path)
        assert on_tty.code == 0 and ANSI.search(on_tty.out), argv
        piped = term(argv, log.path, tty=False)
        assert piped.code == 0 and "\x1b" not in piped.out
        assert ANSI.sub("", on_tty.out) == piped.out, argv  # the same text, coloured
        no_colour = term(argv, log.path, env={"NO_COLOR": "1"})
        assert "\x1b" not in no_colour.out and no_colour.out == piped.out, argv
    # a machine format stays plain on a terminal
    as_json = term(["list", "--format", "json"], log.path)
    assert "\x1b" not in as_json.out and json.loads(as_json.out)["decisions"]


def test_hostile_titles_cannot_drive_the_terminal(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "hostile")
    repo.write({"docs/adr/0001-x.md": "---\ntitle: \"\\e[2J\\e]0;pwned\\a red [bold]x[/bold]\"\n"
                "status: accepted\n---\n\n# Hostile\n"})
    repo.commit()
    for argv in (["list"], ["show", "1", "--no-pager"]):
        shown = term(argv, repo.path)
        assert shown.code == 0, shown.err
        assert "\x1b[2J" not in shown.out and "\x1b]" not in shown.out and "\a" not in shown.out
        assert "\\x1b[2J" in shown.out and "[bold]x[/bold]" in shown.out  # shown, not obeyed


FAKE_PAGER = """\
import sys
data = sys.stdin.read()
with open(sys.argv[1], "w", encoding="utf-8") as fh:
    fh.write(data)
sys.stdout.write("PAGED %d lines\\n" % data.count("\\n"))
"""


def test_a_long_record_goes_through_the_pager_on_a_terminal_only(
    log: GitRepo, tmp_path: Path
) -> None:
    """Before: `show` printed every line straight to the terminal."""
    long = nygard(5, "Long", "Accepted", "".join(f"\n\nLine {i}." for i in range(60)))
    log.write({"docs/adr/0005-long.md": long})
    log.commit()
    pager = tmp_path / "pager.py"
    pager.write_text(FAKE_PAGER, encoding="utf-8")
    got = tmp_path / "paged.txt"
    env = {"PAGER": f"{sys.executable} {pager} {got}"}
    shown = term(["show", "5"], log.path, rows=20, env=env)
    assert shown.code == 0 and shown.out.startswith("PAGED ")
    paged = got.read_text(encoding="utf-8")
    assert "Line 59." in paged and "\x1b" not in paged  # not less: the plain text
    plain = term(["show", "5"], log.path, tty=False, env=env)
    assert plain.out == paged  # the pager got exactly what a pipe gets
    got.unlink()
    for argv, extra, rows in ((["show", "5"], {"PAGER": ""}, 20),  # PAGER empty
                              (["show", "5", "--no-pager"], env, 20),
                              (["show", "4"], env, 40)):  # fits on the screen
        direct = term(argv, log.path, rows=rows, env={**env, **extra})
        assert direct.code == 0 and not direct.out.startswith("PAGED") and not got.exists()
        assert "## Context" in direct.out
    piped = term(["show", "5"], log.path, tty=False, rows=20, env=env)
    assert piped.out == plain.out and not got.exists()  # piped: never paged


def test_explain_is_rendered_on_a_terminal_and_markdown_when_piped(log: GitRepo) -> None:
    """Before: explain printed the Markdown source on a terminal too."""
    page = catalogue.explain("ADR201")
    assert page is not None
    piped = term(["explain", "ADR201"], log.path, tty=False)
    assert piped.out == page and piped.out.startswith("# ADR201 broken-link")
    shown = term(["explain", "ADR201"], log.path)
    assert shown.code == 0 and ANSI.search(shown.out)
    visible = ANSI.sub("", shown.out)
    assert "ADR201 broken-link" in visible and "# ADR201" not in visible  # a heading, drawn
    assert "**Summary:**" not in visible and "Summary:" in visible
    assert "\x1b" not in term(["explain", "ADR201"], log.path, env={"NO_COLOR": "x"}).out
