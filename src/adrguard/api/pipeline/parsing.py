"""Parse many records: in this process, or (for a large corpus) in a pool of worker processes.

:func:`parse_all` is the only place that starts processes, and only when the caller allows it
(``jobs`` other than 1: the command line does; library use parses in the calling process,
because a fresh interpreter imports the caller's main module again). Below :data:`POOL_MIN`
records it parses here; above, a :class:`concurrent.futures.ProcessPoolExecutor` started with
``spawn`` (a fresh interpreter: nothing of this process is copied, and it is safe beside the MCP
server's threads) parses chunks of records. A run's cancellation token (:mod:`adrguard.core.cancel`)
is checked between records here and between chunks from the pool (chunks not started yet are
dropped). Workers send back each record encoded for the
cache (:mod:`adrguard.core.serialize`), or the record itself when it cannot be encoded
faithfully, so what comes back is exactly what a serial parse gives.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from adrguard.core.cancel import Cancelled, Token, checkpoint
from adrguard.core.model import Decision, SourceFile
from adrguard.core.options import Options
from adrguard.core.serialize import decode, encode

# Measured (benchmarks/RESULTS.md, "parse pool"): starting the workers costs about 0.4 s, as much
# as parsing 800 records; on a busy 2-core machine the pool broke even near 4,000 records.
POOL_MIN = 4000
CHUNK = 250

Parsed = tuple[Decision, bytes | None]  # a record, and its encoding when asked for and faithful


def parse_all(
    sources: Sequence[SourceFile],
    options: Options,
    *,
    encoded: bool,
    jobs: int = 1,
    cancel: Token | None = None,
) -> list[Parsed]:
    """Every source parsed, in order; with ``encoded``, each with its cache encoding. ``jobs``:
    1 parses here, 0 uses one process per core (up to 4), N uses N. ``cancel``: stop with
    :class:`~adrguard.core.cancel.Cancelled` once it is cancelled."""
    workers = jobs if jobs > 0 else min(_cpus(), 4)
    if len(sources) < POOL_MIN or workers < 2:
        return _parse_here(sources, options, encoded, cancel)
    try:
        return _parse_pooled(sources, options, encoded, workers, cancel)
    except (OSError, RuntimeError):  # no processes here (a sandbox): parse in this process
        return _parse_here(sources, options, encoded, cancel)


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


def _parse_pooled(
    sources: Sequence[SourceFile],
    options: Options,
    encoded: bool,
    workers: int,
    cancel: Token | None,
) -> list[Parsed]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [list(sources[i : i + CHUNK]) for i in range(0, len(sources), CHUNK)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_worker, chunk, options) for chunk in chunks]
        results: list[list[Decision | bytes]] = []
        try:
            for future in futures:
                while True:  # wait for the chunk, looking at the token now and then
                    checkpoint(cancel)
                    try:
                        results.append(future.result(timeout=0.05 if cancel else None))
                        break
                    except TimeoutError:
                        continue
        except Cancelled:
            pool.shutdown(wait=True, cancel_futures=True)  # running chunks end; no new ones
            raise
    out: list[Parsed] = []
    for part in results:
        for item in part:
            if isinstance(item, Decision):
                out.append((item, None))
            else:
                out.append((decode(item), item if encoded else None))
    return out


def _worker(chunk: list[SourceFile], options: Options) -> list[Decision | bytes]:
    """In a worker: each record encoded (compact, cheap to send), else the record itself."""
    from adrguard.core.parse.record import parse

    out: list[Decision | bytes] = []
    for src in chunk:
        d = parse(src, options)
        data = encode(d)
        out.append(d if data is None else data)
    return out


def _cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
