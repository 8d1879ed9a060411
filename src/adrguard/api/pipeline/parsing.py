"""Parse many records: in this process, or (for a large corpus) shared with helper interpreters.

:func:`parse_all` is the only place that starts processes, and only when the caller allows it
(``jobs`` other than 1: the command line and the MCP server do; library use parses in the
calling process). Below :data:`SHARE_MIN` records it parses here. Above, it starts one or more
helpers (``python -P -m adrguard.api.pipeline.parsing``: a fresh interpreter that imports only
the parser, with nothing of this process copied and the repository's folder never on its import
path), hands each the records at the end of the list, and parses the records at the start
itself while the helpers start and work; this process gets :data:`HEAD_START` more records than
each helper because a helper spends that long starting. A helper sends back each record encoded
for the cache (:mod:`adrguard.core.serialize`, never pickle), or nothing for a record it cannot
encode faithfully; this process parses such a record, and every record of a helper that failed
or answered in a shape it does not expect, itself. So what comes back is exactly what a serial
parse gives. A run's cancellation token (:mod:`adrguard.core.cancel`) is checked between records
here and while this process waits for a helper; a cancelled run ends its helpers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from typing import IO

import msgspec

from adrguard.core.cancel import Token, checkpoint
from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.serialize import decode, encode

# Measured (ADR 63, `benchmarks/parse_share.py`): a helper interpreter takes about as long to
# start as this process takes to parse HEAD_START records, and sharing paid from about SHARE_MIN
# records on a 2-core machine.
SHARE_MIN = 700
HEAD_START = 450
MAX_PARSERS = 4  # this process and up to three helpers

Parsed = tuple[Decision, bytes | None]  # a record, and its encoding when asked for and faithful
_ANSWER = msgspec.msgpack.Decoder(list[bytes | None])


def parse_all(
    sources: Sequence[SourceFile],
    options: Options,
    *,
    encoded: bool,
    jobs: int = 1,
    cancel: Token | None = None,
) -> list[Parsed]:
    """Every source parsed, in order; with ``encoded``, each with its cache encoding. ``jobs``:
    how many processes parse, this one included: 1 parses here alone, 0 one per core (up to
    :data:`MAX_PARSERS`), N uses N. ``cancel``: stop with
    :class:`~adrguard.core.cancel.Cancelled` once it is cancelled."""
    parsers = jobs if jobs > 0 else min(_cpus(), MAX_PARSERS)
    bounds = shares(len(sources), parsers)
    if not bounds:
        return _parse_here(sources, options, encoded, cancel)
    helpers: list[_Helper | None] = []
    try:
        for start, end in bounds:  # None where no process starts (a sandbox): parsed here
            helpers.append(_Helper.start(sources[start:end], options))
        out = _parse_here(sources[: bounds[0][0]], options, encoded, cancel)
        for helper, (start, end) in zip(helpers, bounds, strict=True):
            part = sources[start:end]
            answer = helper.answer(cancel) if helper is not None else None
            if answer is None:  # the helper failed or never started: parse its records here
                out += _parse_here(part, options, encoded, cancel)
                continue
            for src, blob in zip(part, answer, strict=True):
                decision = _decoded(blob)
                if decision is None:  # a record the cache cannot hold exactly
                    out += _parse_here([src], options, encoded, cancel)
                else:
                    out.append((decision, blob if encoded else None))
        return out
    finally:
        for helper in helpers:
            if helper is not None:
                helper.stop()


def _decoded(blob: bytes | None) -> Decision | None:
    """The record a helper sent, or None for nil or bytes that are not exactly a record (then
    this process parses it: a helper's answer never decides a result alone)."""
    if blob is None:
        return None
    try:
        return decode(blob)
    except ValueError:
        return None


def shares(count: int, parsers: int) -> list[tuple[int, int]]:
    """The (start, end) slices of ``count`` records that helpers parse, from the end of the
    list, when ``parsers`` processes share them; empty when this process parses them alone.
    This process keeps the first slice, :data:`HEAD_START` records longer than each helper's."""
    if parsers < 2 or count < SHARE_MIN:
        return []
    parsers = min(parsers, MAX_PARSERS)
    each = (count - HEAD_START) // parsers
    if each < 1:
        return []
    first = count - each * (parsers - 1)
    return [(first + i * each, first + (i + 1) * each) for i in range(parsers - 1)]


def _parse_here(
    sources: Sequence[SourceFile], options: Options, encoded: bool, cancel: Token | None
) -> list[Parsed]:
    from adrguard.core.parse.record import parse

    out: list[Parsed] = []
    for src in sources:
        checkpoint(cancel)
        d = parse(src, options)
        out.append((d, encode(d) if encoded else None))
    return out


class _Helper:
    """One helper interpreter parsing a slice of the records. Its stdin and stdout are anonymous
    temporary files (in the system's temporary folder, gone when closed): the records are
    written before it starts and its answer is read once it has ended, so this process never
    waits on a pipe (or on a thread of its own) while it parses its own slice."""

    def __init__(self, process: subprocess.Popen[bytes], answer: IO[bytes], count: int) -> None:
        self._process = process
        self._answer = answer
        self._count = count

    @classmethod
    def start(cls, sources: Sequence[SourceFile], options: Options) -> _Helper | None:
        """A helper at work on ``sources``, or None when no process can be started."""
        import pickle  # only a run that shares its parse needs these two
        import tempfile

        if not sys.executable:
            return None
        try:  # no temporary folder to write in (read-only, full): parse here
            records = tempfile.TemporaryFile()  # noqa: SIM115 (closed below)
        except OSError:
            return None
        with records:
            try:
                pickle.dump((options, list(sources)), records, protocol=pickle.HIGHEST_PROTOCOL)
                records.seek(0)
                answer = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
            except OSError:
                return None
            except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
                return None  # an option that cannot be sent (none known): parse here
            try:
                process = subprocess.Popen(
                    [sys.executable, "-P", "-m", __name__],
                    stdin=records, stdout=answer, stderr=subprocess.DEVNULL,
                )
            except (OSError, ValueError):
                answer.close()
                return None
        return cls(process, answer, len(sources))

    def answer(self, cancel: Token | None) -> list[bytes | None] | None:
        """Each record's encoding (None for one it could not encode), or None when the helper
        failed or answered in another shape. Waits for it, looking at ``cancel`` now and
        then."""
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
            answer = _ANSWER.decode(self._answer.read())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return None
        return answer if len(answer) == self._count else None

    def stop(self) -> None:
        """End the helper if it still runs (a cancelled or failed run), wait for it and drop
        its answer's file."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._answer.close()


def _serve() -> None:
    """A helper's whole life: read the options and the records from stdin, write each record's
    encoding (or nil) to stdout, as one MessagePack array."""
    import pickle

    from adrguard.core.parse.record import parse

    options, sources = pickle.loads(sys.stdin.buffer.read())
    answer = [encode(parse(src, options)) for src in sources]
    sys.stdout.buffer.write(msgspec.msgpack.encode(answer))


def _cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


if __name__ == "__main__":
    _serve()
