"""The ``adrguard`` command ends without tearing the interpreter down (ADR 65): what it printed
arrives whole, with its exit code, through a pipe larger than the pipe's buffer; a reader that
leaves early costs no traceback; another thread still at work makes it exit the usual way, which
waits for that thread. Real processes, real pipes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

RECORD = "# {n}. Use store {n}\n\nDate: 2024-01-{day:02d}\n\n## Status\n\nSometime\n\n" \
         "## Context\n\nStore {n} needs a home; see ADR-{gone}.\n\n## Decision\n\nUse it.\n"


def _run(code: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, timeout=60, check=False)


def test_a_check_through_the_command_prints_all_of_it_with_its_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({f"docs/adr/{n:04d}-use-store-{n}.md": RECORD.format(n=n, day=n % 28 + 1,
                                                                     gone=900 + n)
                for n in range(1, 401)})
    repo.commit("records")
    argv = ["check", "--format", "json", "--no-baseline", "--today", "2024-06-01",
            "--fail-on", "warning"]
    done = subprocess.run([sys.executable, "-m", "adrguard", *argv], cwd=repo.path,
                          capture_output=True, timeout=120, check=False)
    monkeypatch.chdir(repo.path)
    code = main(argv)
    printed = capsys.readouterr().out.encode()
    assert len(printed) > 2 * 65536  # more than a pipe holds: the reader had to drain it
    assert (done.returncode, done.stdout) == (code, printed) == (1, printed)
    assert len(json.loads(done.stdout)["findings"]) >= 400  # at least a status per record


def test_buffered_output_is_flushed_before_the_process_ends() -> None:
    done = _run("""
        import sys
        from adrguard.cli import end
        sys.stdout.write("x" * 200_000)
        sys.stderr.write("note: said once")
        end(3)
        """)
    assert done.returncode == 3
    assert done.stdout == b"x" * 200_000
    assert done.stderr == b"note: said once"


def test_a_reader_that_leaves_early_costs_no_traceback() -> None:
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys
        from adrguard.cli import end
        try:
            for _ in range(200):
                sys.stdout.write("y" * 10_000)
        except BrokenPipeError:
            pass
        end(0)
        """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10) == b"y" * 10
    process.stdout.close()
    assert process.wait(60) == 0
    assert process.stderr.read() == b""
    process.stderr.close()


def test_another_thread_at_work_is_waited_for(tmp_path: Path) -> None:
    marker = tmp_path / "late"
    done = _run("""
        import sys, threading, time
        from adrguard.cli import end
        def late():
            time.sleep(0.3)
            with open(sys.argv[1], "w") as out:
                out.write("done")
        threading.Thread(target=late).start()
        end(4)
        """, str(marker))
    assert done.returncode == 4
    assert marker.read_text() == "done"
