"""Run ``adrguard`` with its standard output on a real pseudo-terminal (or a pipe), for the
tests of what the CLI does on a terminal: colour, the pager, rendered Markdown."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Ran:
    code: int
    out: str  # what reached the terminal (or the pipe)
    err: str


def _env(extra: Mapping[str, str | None], rows: int, columns: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "PAGER", "LESS", "GITHUB_ACTIONS")}
    env.update({"TERM": "xterm-256color", "LINES": str(rows), "COLUMNS": str(columns)})
    for key, value in extra.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run(argv: Sequence[str], cwd: Path, *, tty: bool = True, rows: int = 24,
        columns: int = 100, env: Mapping[str, str | None] | None = None,
        timeout: float = 120.0) -> Ran:
    """``python -m adrguard ARGV`` in ``cwd``; stdout is a ``rows`` x ``columns`` terminal
    (``tty``) or a pipe; stdin is empty, stderr a pipe."""
    command = [sys.executable, "-m", "adrguard", *argv]
    environ = _env(env or {}, rows, columns)
    if not tty:
        done = subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=timeout, check=False)
        return Ran(done.returncode, done.stdout, done.stderr)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.ONLCR  # keep "\n" as written (no "\r\n")
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    proc = subprocess.Popen(command, cwd=cwd, env=environ, stdout=slave,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                data = b""
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise TimeoutError(f"adrguard {' '.join(argv)} did not finish")
    os.close(master)
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    code = proc.wait(timeout=timeout)
    return Ran(code, b"".join(chunks).decode("utf-8", "replace"), err)
