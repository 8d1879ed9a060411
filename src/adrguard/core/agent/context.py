"""``adrguard context``: decision text for an agent, under a hard budget. Pure.

A response holds at most ``max_units`` units and ``max_chars`` Unicode code points, counting
titles, sources and warnings as well as the text. A unit is a whole record, or a part of a long
record split at its headings (then at blank lines, then at line ends, as a last resort inside a
line); every part says which part of how many it is, so nothing is cut silently. What did not
fit is counted, and a continuation cursor resumes after it. The cursor is bound to a fingerprint
of the corpus (sha256 over the sorted ``(path, sha256)`` pairs) and to the request, so a cursor
from an older corpus or another request is refused.

Relationships are followed at most 3 hops (archived records at most 1); asked for a superseded
record, its current successor comes first, but only when the chain has one end
(:mod:`.succession`): an ambiguous successor is never picked. Sizes are reported three ways:
code points (the budget), UTF-8 bytes, and a rough model-token estimate (:func:`estimate_tokens`),
because a character count is not a token count.

An *intent* says what the text is for (seed 001's selectors):

* ``current`` (the default): what is in force. The records asked for (their current successor
  first), then related records up to 3 hops — but only those of the statuses asked for (the
  governing ones by default) that are not archived: a superseded ancestor or an archived record
  is never followed to, only returned when it is itself asked for (by identifier, or by its
  status with ``--status``).
* ``rationale``: why a decision is what it is. The records asked for, then one hop: what each
  supersedes and amends and what it depends on (archived ones too), and what amends it.
* ``history``: how it came to be. The records asked for, then back along the supersession chain
  (what each supersedes, then what that superseded, ...), archived records included; one page
  at a time, and a page never opens more than one more hop of archived records: the cursor
  walks further back.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adrguard.core.errors import UserError
from adrguard.core.graph import graph as graph_mod
from adrguard.core.model import Corpus, Decision, status_key
from adrguard.core.schemas import load_json
from adrguard.core.wording import plural

if TYPE_CHECKING:
    from adrguard.core.graph.graph import Graph

DEFAULT_MAX_UNITS = 8
DEFAULT_MAX_CHARS = 12_000
MIN_CHARS = 1_000
MAX_HOPS = 3
ARCHIVED_HOPS = 1
CURRENT, RATIONALE, HISTORY = "current", "rationale", "history"
INTENTS = (CURRENT, RATIONALE, HISTORY)
INTENT_HELP = (  # what each intent asks for (the CLI's --intent, the MCP tool's intent)
    "current (default): what is in force, never a superseded ancestor or an archived record "
    "unless asked; rationale: the record and what it replaced, amends or depends on; history: "
    "back along the supersession chain, a page at a time")
RESERVE = 400  # room kept in every response for warnings and the unit's metadata
MAX_WARNINGS = 5  # warnings a caller may pass in (each cut to 300 code points)
_KIND_ORDER = ("supersedes", "depends-on", "amends", "relates-to", "in-favour-of")
TOKEN_METHOD = (
    "heuristic: ceil(ASCII code points / 4) + one per non-ASCII code point; no model's "
    "tokenizer was run"
)


@dataclass(frozen=True, slots=True)
class Unit:
    """A record, or one part of it, as sent to an agent."""

    key: str  # "ADR-0007" for a whole record, "ADR-0007#2" for its second part
    decision: Decision
    part: int
    parts: int
    heading: str | None  # first heading inside the unit
    start_line: int  # file lines
    end_line: int
    text: str
    why: str  # "requested", "current successor of ADR-0003", "depends-on from ADR-0005", ...
    hop: int

    @property
    def cost(self) -> int:
        """Code points this unit takes from the budget (text, title, source, labels)."""
        d = self.decision
        meta = (self.key, shown_title(d), d.path, self.heading or "", self.why, status_key(d))
        return len(self.text) + sum(len(m) for m in meta)


@dataclass(frozen=True)
class ContextResult:
    """One page of units within the budget, with a cursor for the rest."""

    units: tuple[Unit, ...]
    total_units: int
    left_out: int  # units after this page
    cursor: str | None  # resumes after the last unit returned (None: nothing left)
    fingerprint: str
    warnings: tuple[str, ...]
    code_points: int
    bytes: int
    max_units: int
    max_chars: int
    tokens: int = 0  # estimate_tokens of the same text


def estimate_tokens(text: str) -> int:
    """A rough count of model tokens in ``text`` (see :data:`TOKEN_METHOD`): about four ASCII
    characters per token, and a token per other code point (CJK, emoji, accented letters)."""
    ascii_count = len(text.encode("ascii", "ignore"))
    return -(-ascii_count // 4) + (len(text) - ascii_count)


def fingerprint(corpus: Corpus) -> str:
    """sha256 over the sorted (path, content sha256) pairs of every record."""
    h = hashlib.sha256()
    for path, sha in sorted((d.path, d.sha256) for d in corpus.decisions):
        h.update(f"{path}\0{sha}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def plan(
    corpus: Corpus,
    seeds: Sequence[tuple[Decision, str]],
    intent: str = CURRENT,
    in_force: Collection[str] | None = None,
) -> list[tuple[Decision, str, int]]:
    """Records in response order for ``intent`` (see the module docstring). ``in_force``: the
    statuses a related record must have to be followed to under ``current`` (None: any status,
    archived records included up to ARCHIVED_HOPS)."""
    from adrguard.core.agent.succession import CURRENT as CHAIN_ENDS
    from adrguard.core.agent.succession import succession

    g = graph_mod.build(corpus)
    order: list[tuple[Decision, str, int]] = []
    seen: set[str] = set()

    def add(d: Decision, why: str, hop: int) -> bool:
        if d.path in seen or (d.archived and hop > ARCHIVED_HOPS and intent != HISTORY):
            return False
        seen.add(d.path)
        order.append((d, why, hop))
        return True

    if intent == HISTORY:
        return _history(g, seeds, add, order)
    frontier: list[Decision] = []
    for d, why in seeds:
        chain = succession(g, d)
        succ = chain.successor if chain.state == CHAIN_ENDS else None
        if succ is not None and add(succ, f"current successor of {d.id}", 0):
            frontier.append(succ)
        if add(d, why, 0):
            frontier.append(d)
    hops = 1 if intent == RATIONALE else MAX_HOPS
    for hop in range(1, hops + 1):
        nxt: list[Decision] = []
        for d in frontier:
            if d.archived and hop > 1:
                continue
            for kind, outs, ins in _edges(g, d, intent):
                found = [(p, f"{kind} from {d.id}") for p in outs]
                found += [(p, f"{kind} {d.id}") for p in ins]
                for p, why in found:
                    other = g.decision(p)
                    if intent == CURRENT and in_force is not None and (
                        other.archived or status_key(other) not in in_force
                    ):
                        continue  # current: never a superseded ancestor or an archived record
                    if add(other, why, hop):
                        nxt.append(other)
        frontier = nxt
    return order


def _edges(g: Graph, d: Decision, intent: str) -> list[tuple[str, list[str], list[str]]]:
    """(kind, targets, sources) of the edges ``intent`` follows from ``d``, in a fixed order."""
    out: list[tuple[str, list[str], list[str]]] = []
    for kind in _KIND_ORDER:
        outs = sorted(g.out_edges[kind].get(d.path, ()))
        ins = sorted(g.in_edges[kind].get(d.path, ()))
        if intent == RATIONALE:
            if kind not in ("supersedes", "depends-on", "amends"):
                continue
            ins = ins if kind == "amends" else []
        out.append((kind, outs, ins))
    return out


def _history(
    g: Graph,
    seeds: Sequence[tuple[Decision, str]],
    add: Callable[[Decision, str, int], bool],
    order: list[tuple[Decision, str, int]],
) -> list[tuple[Decision, str, int]]:
    """The seeds, then back along the supersession chain, breadth-first, each record once."""
    frontier = [d for d, why in seeds if add(d, why, 0)]
    hop = 0
    while frontier:
        hop += 1
        nxt: list[Decision] = []
        for d in frontier:
            for p in sorted(x.path for x in g.predecessors(d)):
                other = g.decision(p)
                step = "step" if hop == 1 else "steps"
                if add(other, f"superseded by {d.id} (history, {hop} {step} back)", hop):
                    nxt.append(other)
        frontier = nxt
    return order


def _segments(d: Decision) -> list[tuple[str | None, int, list[str]]]:
    """(heading, first body line index, lines) for the preamble and each section."""
    lines = d.text.split("\n")
    starts = sorted({max(0, s.line - 1 - d.body_line_offset): s.title for s in d.sections}.items())
    if not starts or starts[0][0] != 0:
        starts.insert(0, (0, None))  # type: ignore[arg-type]
    out: list[tuple[str | None, int, list[str]]] = []
    for i, (start, title) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(lines)
        if start < end:
            out.append((title, start, lines[start:end]))
    return out


def _pieces(lines: list[str], start: int, limit: int) -> list[tuple[int, str]]:
    """Split one segment into pieces of at most ``limit`` code points: at blank lines, then at
    line ends, then inside a line."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    buf_start = start
    size = 0

    def flush() -> None:
        nonlocal buf, size
        if buf:
            out.append((buf_start, "\n".join(buf)))
        buf, size = [], 0

    for offset, line in enumerate(lines):
        at = start + offset
        if len(line) > limit:
            flush()
            out.extend((at, line[i : i + limit]) for i in range(0, len(line), limit))
            buf_start = at + 1
            continue
        if size + len(line) + 1 > limit:
            flush()
            buf_start = at
        if not buf:
            buf_start = at
        buf.append(line)
        size += len(line) + 1
    flush()
    return out


def units_of(d: Decision, why: str, hop: int, limit: int) -> list[Unit]:
    """The record as one unit, or split at headings into parts of at most ``limit`` points."""
    off = d.body_line_offset
    text = d.text
    if len(text) <= limit:
        end = off + text.count("\n") + 1
        title = clip(d.title) if d.title else None
        return [Unit(d.id, d, 1, 1, title, off + 1, end, text, why, hop)]
    chunks: list[tuple[str | None, int, str]] = []  # heading, first body line, text
    for heading, start, lines in _segments(d):
        body = "\n".join(lines)
        if len(body) <= limit:
            if chunks and len(chunks[-1][2]) + 1 + len(body) <= limit:
                h, s, t = chunks[-1]
                chunks[-1] = (h, s, t + "\n" + body)
            else:
                chunks.append((heading, start, body))
            continue
        for at, piece in _pieces(lines, start, limit):
            chunks.append((heading, at, piece))
    n = len(chunks)
    out: list[Unit] = []
    for i, (heading, start, body) in enumerate(chunks, 1):
        heading = clip(heading) if heading else heading
        first = off + start + 1
        out.append(
            Unit(f"{d.id}#{i}", d, i, n, heading, first, first + body.count("\n"), body, why, hop)
        )
    return out


def _request_key(request: str) -> str:
    return hashlib.sha256(request.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _page_opening(
    corpus: Corpus, request: str, max_chars: int, cursor: str | None, warnings: Sequence[str]
) -> tuple[str, int, list[str]]:
    """How a page of context opens: the corpus's fingerprint, the offset the cursor resumes at
    (0 without one) and the warnings it carries; a budget below the minimum is refused."""
    if max_chars < MIN_CHARS:
        raise UserError(f"max-chars must be at least {MIN_CHARS:,}")
    fp = fingerprint(corpus)
    start = read_cursor(cursor, fp, request) if cursor else 0
    return fp, start, [clip(w) for w in warnings[:MAX_WARNINGS]]


def make_cursor(fp: str, request: str, offset: int) -> str:
    raw = json.dumps({"v": 1, "fp": fp[:32], "q": _request_key(request), "o": offset})
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def read_cursor(cursor: str, fp: str, request: str) -> int:
    """The offset a cursor resumes at; UserError when it is not for this corpus and request."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = load_json(base64.urlsafe_b64decode(padded.encode("ascii")))
        offset = int(data["o"])
        made_fp, made_q = str(data["fp"]), str(data["q"])
    except (ValueError, KeyError, TypeError, UnicodeError, binascii.Error):
        raise UserError(
            "the cursor is not one adrguard made: pass the cursor exactly as returned"
        ) from None
    if made_fp != fp[:32]:
        raise UserError(
            "the cursor was made for an older version of the decision records (they changed "
            "since): repeat the request without a cursor"
        )
    if made_q != _request_key(request) or offset < 0:
        raise UserError("the cursor belongs to a different request: repeat that request with it")
    return offset


def build(
    corpus: Corpus,
    seeds: Sequence[tuple[Decision, str]],
    *,
    request: str,
    max_units: int = DEFAULT_MAX_UNITS,
    max_chars: int = DEFAULT_MAX_CHARS,
    cursor: str | None = None,
    part: int | None = None,
    warnings: Sequence[str] = (),
    intent: str = CURRENT,
    in_force: Collection[str] | None = None,
) -> ContextResult:
    """One page of context units for ``seeds`` (``part``: only that part of the first seed),
    planned for ``intent`` (:func:`plan`)."""
    if max_units < 1:
        raise UserError("max-units must be at least 1")
    fp, start, notes = _page_opening(corpus, request, max_chars, cursor, warnings)
    records = plan(corpus, seeds, intent, in_force)
    units: list[Unit] = []
    for d, why, hop in records:
        meta = len(d.id) + 8 + len(shown_title(d)) + len(d.path) + len(why) + 24
        parts = units_of(d, why, hop, max(200, max_chars - RESERVE - meta))
        if part is not None and seeds and d.path == seeds[0][0].path:
            if not 1 <= part <= len(parts):
                raise UserError(
                    f"{d.id} has {plural(len(parts), 'part')}: ask for #1 to #{len(parts)}")
            parts = [parts[part - 1]]
        units.extend(parts)
    page: list[Unit] = []
    used = sum(len(n) for n in notes)
    archive_hop: int | None = None  # history: the one hop of archived records this page opens
    for unit in units[start:]:
        d = unit.decision
        if intent == HISTORY and d.archived:
            if archive_hop is None:
                archive_hop = unit.hop
            elif unit.hop > archive_hop and page:
                break
        extra: list[str] = []
        if not d.text and d.problems:
            extra.append(clip(f"{d.id} ({d.path}): content unavailable: {d.problems[0].message}"))
        if d.archived and unit.part == 1:
            extra.append(f"{d.id} is archived")
        cost = unit.cost + sum(len(x) for x in extra)
        if page and (len(page) >= max_units or used + cost > max_chars):
            break
        page.append(unit)
        notes.extend(extra)
        used += cost
    end = start + len(page)
    left = len(units) - end
    next_cursor = make_cursor(fp, request, end) if left > 0 else None
    content = list(notes)
    for u in page:
        d = u.decision
        content += [u.key, shown_title(d), d.path, u.heading or "", u.why, status_key(d), u.text]
    joined = "".join(content)
    return ContextResult(
        units=tuple(page),
        total_units=len(units),
        left_out=left,
        cursor=next_cursor,
        fingerprint=fp,
        warnings=tuple(notes),
        code_points=len(joined),
        bytes=len(joined.encode("utf-8", "surrogatepass")),
        max_units=max_units,
        max_chars=max_chars,
        tokens=estimate_tokens(joined),
    )


def succession_notes(corpus: Corpus, seeds: Sequence[Decision]) -> list[str]:
    """Warnings for the seeds whose successor is ambiguous or loops (never guessed)."""
    from adrguard.core.agent.succession import succession

    g = graph_mod.build(corpus)
    notes = (succession(g, d).describe(d) for d in seeds)
    return [n for n in notes if n]


def clip(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` code points, a cut one ending in an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_title(d: Decision) -> str:
    """The title as units show it (at most 300 code points)."""
    return clip(d.title or "")


def unit_json(u: Unit) -> dict[str, object]:
    d = u.decision
    return {
        "key": u.key,
        "identifier": d.id,
        "title": shown_title(d) if d.title is not None else None,
        "status": status_key(d),
        "path": d.path,
        "part": u.part,
        "parts": u.parts,
        "heading": u.heading,
        "startLine": u.start_line,
        "endLine": u.end_line,
        "why": u.why,
        "hop": u.hop,
        "archived": d.archived,
        "text": u.text,
    }


# --- the index ------------------------------------------------------------------------------
# ``adrguard context`` with no selector: the log's index, within the same budget. One row per
# record (identifier, title, status, path) in discovery order, as many as fit in ``max_chars``
# code points together with the warnings; the rest is counted and a cursor (bound to the corpus
# fingerprint and the request, like every context cursor) resumes after the last row returned.
# The first row always fits, so a page is never empty while rows are left.


@dataclass(frozen=True)
class Overview:
    """One page of the index."""

    rows: tuple[Decision, ...]
    total: int  # rows in the whole index
    left_out: int  # rows after this page
    cursor: str | None
    fingerprint: str
    warnings: tuple[str, ...]
    code_points: int
    bytes: int
    tokens: int
    max_chars: int


def row_fields(d: Decision) -> tuple[str, str, str, str]:
    """The strings a row shows (and the budget counts)."""
    return d.id, shown_title(d), status_key(d), d.path


def overview(
    corpus: Corpus,
    records: Sequence[Decision],
    *,
    request: str,
    max_chars: int,
    cursor: str | None = None,
    warnings: Sequence[str] = (),
) -> Overview:
    """The page of ``records`` (already filtered, in discovery order) that fits the budget."""
    fp, start, notes = _page_opening(corpus, request, max_chars, cursor, warnings)
    content = list(notes)
    used = sum(len(n) for n in notes)
    page: list[Decision] = []
    for d in records[start:]:
        fields = row_fields(d)
        cost = sum(len(f) for f in fields)
        if page and used + cost > max_chars:
            break
        page.append(d)
        content.extend(fields)
        used += cost
    end = start + len(page)
    left = max(0, len(records) - end)
    joined = "".join(content)
    return Overview(
        rows=tuple(page),
        total=len(records),
        left_out=left,
        cursor=make_cursor(fp, request, end) if left else None,
        fingerprint=fp,
        warnings=tuple(notes),
        code_points=len(joined),
        bytes=len(joined.encode("utf-8", "surrogatepass")),
        tokens=estimate_tokens(joined),
        max_chars=max_chars,
    )
