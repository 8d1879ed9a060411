"""A large citation scan shared with the helpers a cold run started ahead (ADR 66).

A cold ``check`` starts parse helpers before it knows how large the log is (ADR 64), and a log
of fewer than :data:`~adrguard.api.pipeline.parsing.SHARE_MIN` records leaves them waiting.
Most real logs are that small, and in a repository with thousands of source files it is the
citation scan, not the parse, that takes most of a cold run. So when at least :data:`SHARE_MIN`
files are to be scanned and helpers still wait,
:func:`adrguard.api.pipeline.citation_scan.scan_found` gives each waiting helper a stripe of the
files (every second one, or every third, ...: :func:`start`) and scans its own stripe itself.

A helper runs :func:`scan_part`: it reads its files with the same
:class:`~adrguard.adapters.citing.Reader` (regular files inside the repository, never through a
symlink), scans them with the same :class:`~adrguard.core.citations.scan.Scanner` of the run's
exact scheme, and answers one MessagePack array with, per file, what the serial loop needs:
nil (gone, a folder), why it was not read, or the outcome in the citation cache's encoding
(:func:`encode`) with its cache entry (:func:`entry_of`). This process takes the answers
(:func:`answer`) and tallies every file in the order of the list; a helper that failed or
answered in another shape, and an outcome that does not decode, has its files scanned here. So
the citations are exactly those a serial scan finds, in the same order, with the same counts.

This module is what a helper imports for a scan: no git, no cache store, no configuration.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from adrguard.core.citations.scan import Outcome, Scanner, Scheme
from adrguard.core.model import CitingFile

if TYPE_CHECKING:
    from adrguard.api.pipeline.helpers import Ahead, Helper
    from adrguard.core.cancel import Token

# Measured on the pinned ecosystem logs (ADR 66): a real source file takes 80 to 330 µs to read
# and scan, about 135 µs on average; a helper needs about 15 ms to import the scanner and this
# process a few µs per file to take its answer. From a few hundred files on, a helper's slice
# saves more than it costs.
SHARE_MIN = 400

# per file: nil (gone), why it was not read, or (cache entry, encoded outcome)
Answer = list[str | tuple[bytes, bytes] | None]
_ANSWER = msgspec.msgpack.Decoder(Answer)


def entry_of(signature: bytes, path: str, data: bytes) -> bytes:
    """The citation cache's entry for ``path`` holding ``data``: one hash of the signature (of
    fixed length), the path ended by a NUL, and the bytes."""
    name = path.encode("utf-8", "surrogateescape")
    return hashlib.sha256(signature + name + b"\0" + data).digest()


def encode(outcome: Outcome) -> bytes:
    """An outcome as cache bytes: empty for nothing found, ``!reason`` for a skipped file,
    else the citing file (msgspec, faithful: it decodes to an equal value)."""
    if outcome.file is None:
        return b"" if outcome.skipped is None else b"!" + outcome.skipped.encode("ascii")
    return msgspec.msgpack.encode(outcome.file)


def decode(blob: bytes, path: str) -> Outcome | None:
    """The outcome ``blob`` holds for ``path``; None when it is damaged or for another file."""
    if not blob:
        return Outcome()
    if blob[:1] == b"!":
        return Outcome(skipped=blob[1:].decode("ascii", "replace"))
    try:
        found = msgspec.msgpack.decode(blob, type=CitingFile)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return Outcome(file=found) if found.path == path else None


def start(
    ahead: Ahead | None,
    paths: Sequence[str],
    real_base: str,
    scheme: Scheme,
    limit: int,
    signature: bytes,
) -> tuple[int, list[tuple[Helper, int]]]:
    """How many parties share the scan of ``paths``, and every waiting helper of ``ahead`` fed
    its stripe of them: party ``k`` scans ``paths[k::parties]``, this process party 0 and the
    stripe of any helper that could not take its own. Stripes, not slices: the files of one
    folder tend to cost alike, and a folder of large documents must not fall to one party.
    ``(1, [])`` when there are too few files or no helper waits."""
    import pickle  # only a run that shares its scan needs it

    if ahead is None or not len(ahead) or len(paths) < SHARE_MIN:
        return 1, []
    parties = len(ahead) + 1
    out: list[tuple[Helper, int]] = []
    for k in range(1, parties):
        helper = ahead.take()
        if helper is None:
            break
        request = pickle.dumps(
            (scan_part, (real_base, list(paths[k::parties]), scheme, limit, signature)),
            protocol=pickle.HIGHEST_PROTOCOL)
        if not helper.feed(request):  # it has ended: its stripe is this process's
            helper.stop()
            continue
        out.append((helper, k))
    return parties, out


def answer(helper: Helper, cancel: Token | None, count: int) -> Answer | None:
    """The helper's answer for its ``count`` files, or None when it failed or answered in
    another shape (then this process scans them)."""
    from adrguard.api.pipeline.parsing import answered  # a warm run imports no parsing

    return answered(helper, cancel, count, _ANSWER)


def scan_part(
    real_base: str, paths: list[str], scheme: Scheme, limit: int, signature: bytes
) -> bytes:
    """A helper's scan of ``paths`` in the work tree at ``real_base`` (resolved): per file,
    what :func:`answer` gives back, as one MessagePack array. ``signature``: the citation
    cache's (empty: the run has no cache, no entry is made)."""
    from adrguard.adapters.citing import Reader

    reader = Reader(real_base, limit)
    scanner = Scanner(scheme)
    out: Answer = []
    for path in paths:
        got = reader.read(path)
        if got is None:
            out.append(None)
            continue
        data, why = got
        if data is None:
            out.append(why or "unreadable")
            continue
        entry = entry_of(signature, path, data) if signature else b""
        out.append((entry, encode(scanner.scan(path, data))))
    return msgspec.msgpack.encode(out)
