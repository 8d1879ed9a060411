"""Parse many records: in this process, or (for a large corpus) shared with helper interpreters.

:func:`parse_all` is the only place that shares a parse, and only when the caller allows it
(``jobs`` other than 1: the command line and the MCP server do; library use parses in the
calling process). Below :data:`SHARE_MIN` records it parses here. Above, it gives one or more
helpers (:mod:`adrguard.api.pipeline.helpers`) the records at the end of the list, and parses
the records at the start itself while the helpers work. This process gets :data:`HEAD_START`
more records than each helper it starts now, because a helper spends that long starting, and
:data:`HEAD_START_AHEAD` more than each helper the caller started ahead of the run (ADR 64),
which has started by then. A helper sends back each record encoded for the cache
(:mod:`adrguard.core.serialize`, never pickle), or nothing for a record it cannot encode
faithfully; this process parses such a record, and every record of a helper that failed or
answered in a shape it does not expect, itself. So what comes back is exactly what a serial
parse gives. A run's cancellation token (:mod:`adrguard.core.cancel`) is checked between
records here and while this process waits for a helper; a cancelled run ends its helpers.
When run as a module, this is a helper (:func:`_serve`): it does the work it is given (a parse,
:func:`parse_part`, or a share of the citation scan, ADR 66) and ends without tearing its
interpreter down once it has answered (ADR 65).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TypeVar

import msgspec

from adrguard.api.pipeline.helpers import MAX_PARSERS, Ahead, Helper, cpus
from adrguard.core.cancel import Token, checkpoint
from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.serialize import decode, encode

# Measured (ADR 63, `benchmarks/parse_share.py`): a helper interpreter takes about as long to
# start as this process takes to parse HEAD_START records, and sharing paid from about SHARE_MIN
# records on a 2-core machine. A helper started ahead (ADR 64) is ready when this process
# starts parsing: it parses a record more slowly than this process, and this process decodes
# what the helper answers, which about evens out at equal slices.
SHARE_MIN = 700
HEAD_START = 450
HEAD_START_AHEAD = 0

T = TypeVar("T")
Parsed = tuple[Decision, bytes | None]  # a record, and its encoding when asked for and faithful
_ANSWER = msgspec.msgpack.Decoder(list[bytes | None])


def parse_all(
    sources: Sequence[SourceFile],
    options: Options,
    *,
    encoded: bool,
    jobs: int = 1,
    cancel: Token | None = None,
    ahead: Ahead | None = None,
) -> list[Parsed]:
    """Every source parsed, in order; with ``encoded``, each with its cache encoding. ``jobs``:
    how many processes parse, this one included: 1 parses here alone, 0 one per core (up to
    :data:`MAX_PARSERS`), N uses N. ``cancel``: stop with
    :class:`~adrguard.core.cancel.Cancelled` once it is cancelled. ``ahead``: helpers the
    caller started ahead of the run (ADR 64), taken before any is started now; the caller ends
    those not taken."""
    parsers = jobs if jobs > 0 else min(cpus(), MAX_PARSERS)
    ready = ahead is not None and len(ahead) >= min(parsers, MAX_PARSERS) - 1
    bounds = shares(len(sources), parsers, HEAD_START_AHEAD if ready else HEAD_START)
    if not bounds:
        return _parse_here(sources, options, encoded, cancel)
    helpers: list[Helper | None] = []
    try:
        for start, end in bounds:  # None where no process starts (a sandbox): parsed here
            helpers.append(_helper_for(sources[start:end], options, ahead))
        out = _parse_here(sources[: bounds[0][0]], options, encoded, cancel)
        for helper, (start, end) in zip(helpers, bounds, strict=True):
            part = sources[start:end]
            answer = _answer(helper, cancel, len(part)) if helper is not None else None
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


def _helper_for(
    sources: Sequence[SourceFile], options: Options, ahead: Ahead | None
) -> Helper | None:
    """A helper at work on ``sources``: one started ahead when one waits, else one started
    now; None when none can take them (then they are parsed here)."""
    import pickle  # only a run that shares its parse needs it

    try:
        records = pickle.dumps((parse_part, (options, list(sources))),
                               protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None  # an option that cannot be sent (none known): parse here
    waiting = ahead.take() if ahead is not None else None
    if waiting is not None:
        if waiting.feed(records):
            return waiting
        waiting.stop()  # it ended before it was fed: start one now
    return Helper.start(records)


def _answer(helper: Helper, cancel: Token | None, count: int) -> list[bytes | None] | None:
    """Each record's encoding (None for one it could not encode), or None when the helper
    failed or answered in another shape."""
    return answered(helper, cancel, count, _ANSWER)


def answered(
    helper: Helper, cancel: Token | None, count: int, decoder: msgspec.msgpack.Decoder[list[T]]
) -> list[T] | None:
    """What ``helper`` answered (one MessagePack array of ``count`` items, of ``decoder``'s
    type), once it has ended; None when it failed or answered in another shape (then this
    process does its work)."""
    blob = helper.answer(cancel)
    if blob is None:
        return None
    try:
        answer = decoder.decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return answer if len(answer) == count else None


def _decoded(blob: bytes | None) -> Decision | None:
    """The record a helper sent, or None for nil or bytes that are not exactly a record (then
    this process parses it: a helper's answer never decides a result alone)."""
    if blob is None:
        return None
    try:
        return decode(blob)
    except ValueError:
        return None


def shares(count: int, parsers: int, head_start: int = HEAD_START) -> list[tuple[int, int]]:
    """The (start, end) slices of ``count`` records that helpers parse, from the end of the
    list, when ``parsers`` processes share them; empty when this process parses them alone.
    This process keeps the first slice, ``head_start`` records longer than each helper's."""
    if parsers < 2 or count < SHARE_MIN:
        return []
    parsers = min(parsers, MAX_PARSERS)
    each = (count - head_start) // parsers
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


def parse_part(options: Options, sources: list[SourceFile]) -> bytes:
    """A helper's parse: each record's cache encoding (nil for one it cannot encode
    faithfully), as one MessagePack array."""
    from adrguard.core.parse.record import parse

    return msgspec.msgpack.encode([encode(parse(src, options)) for src in sources])


def _serve() -> None:
    """A helper's whole life: read its work from stdin (a function of adrguard and its
    arguments, pickled by this process: :func:`parse_part`, or a citation scan's
    :func:`~adrguard.api.pipeline.scan_share.scan_part`, ADR 66), do it and write the bytes it
    gives to stdout. A helper started ahead imports the parser before it reads; stdin closed
    empty (it was not needed) ends it without a word."""
    import pickle

    from adrguard.core.parse.record import parse  # noqa: F401 (imported while it waits)

    request = sys.stdin.buffer.read()
    if not request:
        return
    work, args = pickle.loads(request)
    sys.stdout.buffer.write(work(*args))


if __name__ == "__main__":
    _serve()
    # A helper ends as the command does (ADR 65): its answer is written, and tearing its
    # interpreter down (15 to 25 ms) would only keep the process that waits for it waiting.
    sys.stdout.flush()
    os._exit(0)
