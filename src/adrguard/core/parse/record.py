"""``parse(SourceFile, Options) -> Decision``: tolerant, total, one markdown pass per file.

The bytes are decoded here, split into front matter and body (:mod:`.front_matter`), the body
walked once (:mod:`.markdown`), and what the record says is read from both (:mod:`.fields`).
Unreadable input becomes an ADR001 problem and broken front matter an ADR002 problem; the
record is still returned with whatever could be read. Nothing here raises.
"""

from __future__ import annotations

import hashlib

from adrguard.core.model import Decision, Problem, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse import formats, ids
from adrguard.core.parse.fields import Fields
from adrguard.core.parse.front_matter import preamble, salvage, split
from adrguard.core.parse.markdown import walk

_BOM = b"\xef\xbb\xbf"


def parse(source: SourceFile, options: Options) -> Decision:
    """Read one record. Never raises: problems are recorded on the returned Decision."""
    name = formats.record_name(source.path, source.root)
    own = ids.parse_name(name)
    fallback_id, number = own.id or name, own.number
    sha = ""
    try:
        text, sha, problem = _decode(source, options)
        if text is None:
            return _unread(source, fallback_id, number, sha, (problem,) if problem else ())
        fm, fm_lines, body, offset, fm_problem = split(text)
        if not fm and fm_problem is None:
            found = preamble(body, offset)
            if found is not None:
                fm, fm_lines = dict(found[0]), found[1]
        doc = walk(body, offset, options.derived("heading slugs", dict))
        fields = Fields(source, options, fm, fm_lines, doc, body, (name, own))
        if fm_problem is not None and not fm:
            fields.salvage_statuses(salvage(text, offset))
        return fields.build(fallback_id, number, sha, body, offset, fm_problem)
    except Exception as exc:  # a bug must not abort a whole run: report it on the record
        message = f"could not be parsed ({type(exc).__name__}: {exc})"
        return _unread(source, fallback_id, number, sha, (Problem("ADR001", message),))


def _unread(
    source: SourceFile, id_: str, number: int | None, sha: str, problems: tuple[Problem, ...]
) -> Decision:
    """A record whose text could not be read or parsed: its name, place and problems only."""
    return Decision(id=id_, path=source.path, root=source.root, number=number,
                    archived=source.archived, sha256=sha, problems=problems)


def _decode(source: SourceFile, options: Options) -> tuple[str | None, str, Problem | None]:
    """(text with LF line ends, sha256, problem) of a source file."""
    if source.error:
        return None, "", Problem("ADR001", source.error)
    data = source.data
    if data is None:
        return None, "", Problem("ADR001", "the file could not be read")
    if b"\r" in data:
        sha = hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()
    else:
        sha = source.sha256 or hashlib.sha256(data).hexdigest()
    if len(data) > options.max_file_size:
        msg = f"file is {len(data)} bytes, over the {options.max_file_size}-byte limit"
        return None, sha, Problem("ADR001", msg)
    nul = data.find(b"\x00")
    if nul != -1:
        line = data.count(b"\n", 0, nul) + 1
        return None, sha, Problem("ADR001", "file holds a NUL byte (binary?)", line)
    if data.startswith(_BOM):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        msg = f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        return None, sha, Problem("ADR001", msg, line)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, sha, None


__all__ = ["parse"]
