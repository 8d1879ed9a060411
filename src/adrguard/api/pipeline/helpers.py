"""The helper interpreters a shared parse runs (ADR 63), and helpers started ahead of a run
(ADR 64) that share its parse, or its citation scan when the log is too small to share a parse
(ADR 66): starting one, giving it its work, reading its answer, ending it.

A helper is ``python -P -m adrguard.api.pipeline.parsing``: a fresh interpreter that imports
the parser (and the scanner only when it is given a scan), with nothing of this process copied
and the repository's folder never on its import path. It reads its whole stdin (its work, a
function of adrguard and its arguments, pickled by this process), and writes its answer to
stdout, an anonymous temporary file read once it has ended. Its stdin is one of two things:

- a temporary file holding its records, for a helper started when the parse is shared
  (:meth:`Helper.start` with ``records``): this process never waits on a pipe while it parses;
- a pipe, for a helper started ahead of the run (:class:`Ahead`): it imports the parser while
  this process imports the rest of adrguard and discovers the records, then waits on the pipe.
  :meth:`Helper.feed` writes the records there and closes it. A helper that gets none (the pipe
  closed empty) ends at once without an answer; one that is not needed is killed.

This module imports no parser and no MessagePack, and ``subprocess`` and ``tempfile`` only when
it starts a helper: the command line starts helpers before it imports the rest of adrguard,
and a helper, which imports this module with the parser, never imports those two.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING

from adrguard.adapters.cache.store import looks_cold
from adrguard.core.cancel import Token, checkpoint

if TYPE_CHECKING:
    import subprocess

MAX_PARSERS = 4  # this process and up to three helpers
ENTRY = "adrguard.api.pipeline.parsing"  # the module a helper runs


def cpus() -> int:
    """The processors this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Helper:
    """One helper interpreter: it does the work it is given (a parse, a scan) and answers
    once."""

    def __init__(self, process: subprocess.Popen[bytes], answer: IO[bytes]) -> None:
        self._process = process
        self._answer = answer

    @classmethod
    def start(cls, records: bytes | None = None) -> Helper | None:
        """A helper reading ``records`` (from a temporary file written now), or, without them,
        one that waits for its records on a pipe (:meth:`feed`). None when no process can be
        started (no interpreter to start, no temporary folder to write in, a sandbox)."""
        import subprocess  # only a run that starts a helper needs these two (a helper neither)
        import tempfile

        if not sys.executable:
            return None
        try:
            answer = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
        except OSError:
            return None

        def spawn(stdin: IO[bytes] | int) -> Helper:
            return cls(subprocess.Popen([sys.executable, "-P", "-m", ENTRY], stdin=stdin,
                                        stdout=answer, stderr=subprocess.DEVNULL), answer)

        try:
            if records is None:
                return spawn(subprocess.PIPE)
            with tempfile.TemporaryFile() as file:  # the helper keeps it open; this process not
                file.write(records)
                file.seek(0)
                return spawn(file)
        except (OSError, ValueError):
            answer.close()
            return None

    def feed(self, records: bytes) -> bool:
        """Give a helper waiting on its pipe its records; False when it cannot take them (it
        has ended, or it was started with them)."""
        pipe = self._process.stdin
        if pipe is None:
            return False
        try:
            with pipe:
                pipe.write(records)
        except (OSError, ValueError):  # a helper that has ended: a broken pipe
            return False
        return True

    def answer(self, cancel: Token | None) -> bytes | None:
        """What the helper wrote, once it has ended; None when it failed. Waits for it, looking
        at ``cancel`` now and then."""
        import subprocess

        while True:
            checkpoint(cancel)
            try:
                code = self._process.wait(0.05 if cancel is not None else None)
                break
            except subprocess.TimeoutExpired:
                continue
        if code != 0:
            return None
        try:
            self._answer.seek(0)
            return self._answer.read()
        except OSError:
            return None

    def stop(self) -> None:
        """End the helper if it still runs (not needed, or a cancelled or failed run), wait for
        it and drop its pipe and its answer's file."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._answer.close()


class Ahead:
    """Helpers started ahead of a run that may parse a whole log (ADR 64), one per extra
    processor (up to :data:`MAX_PARSERS` processes in all): each imports the parser while this
    process gets ready, and :func:`adrguard.api.pipeline.parsing.parse_all` takes them
    (:meth:`take`) when the parse is large enough to share; the citation scan takes those it
    left waiting when it is large enough to share (ADR 66). The caller that started them ends
    the ones nobody took (:meth:`close`)."""

    def __init__(self, helpers: list[Helper]) -> None:
        self._waiting = helpers

    @classmethod
    def start(cls) -> Ahead:
        """One helper per processor beyond this process's, up to :data:`MAX_PARSERS` in all
        (none on one processor, or where no process can be started)."""
        helpers = []
        for _ in range(min(cpus(), MAX_PARSERS) - 1):
            helper = Helper.start()
            if helper is None:
                break
            helpers.append(helper)
        return cls(helpers)

    @classmethod
    def if_cold(cls, no_cache: bool) -> Ahead | None:
        """Helpers started ahead (:meth:`start`) when more than one processor is free and the
        record cache looks cold (:func:`adrguard.adapters.cache.store.looks_cold`;
        ``no_cache``: the run goes without it), so the run may well parse every record; else
        None."""
        if cpus() < 2:
            return None
        return cls.start() if looks_cold(no_cache) else None

    def __len__(self) -> int:
        """How many helpers still wait for records."""
        return len(self._waiting)

    def take(self) -> Helper | None:
        """A waiting helper, now the caller's to feed and stop; None when none waits."""
        return self._waiting.pop(0) if self._waiting else None

    def close(self) -> None:
        """End every helper nobody took."""
        waiting, self._waiting = self._waiting, []
        for helper in waiting:
            helper.stop()

    def __enter__(self) -> Ahead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
