"""A consolidation draft: one proposed record that, once accepted, replaces several records.
Pure.

The draft is a new record of the log (named, laid out and worded by :mod:`.compose`) whose
decision section holds, for each source, its decision and its consequences quoted from the
source and linked to it, and the open conflicts between the sources that a person must settle
before accepting it; its ``Supersedes`` lines (or front-matter key) name every source. What
the merged decision says is for a person to write: the draft quotes, it does not decide.

A quote is a markdown blockquote of the source's own lines (headings turned into bold lines,
so the draft keeps its own outline). When the quoted text would read as something more than a
quote in the draft (a relation such as ``Supersedes ADR-3``, a status line, a relative link
that would point elsewhere from the draft's folder), it is fenced as a code block instead:
the draft never declares what its sources declared.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Sequence

from adrguard.core.conventions.sections import Requirement
from adrguard.core.graph.graph import Graph
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Section, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

MARK = "<!-- adrguard:consolidation-draft -->"
QUOTE_LINES = 80  # lines quoted from one section at most; the rest is read in the source
_HEADING = lazy(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = lazy(r"`{3,}|~{3,}")
_RELATIVE = lazy(r"\]\((?!https?:|mailto:|#|/)([^)\s]+)")
DECISION = Requirement.parse("decision")
CONSEQUENCES = Requirement.parse("consequences")


# --- what the sources say -----------------------------------------------------------------


def _trees(d: Decision, wanted: Requirement, stop: Requirement | None) -> list[list[Section]]:
    """The sections carrying ``wanted`` with the sections nested below each (up to the next
    heading of the same or a higher level, or a nested one carrying ``stop``); a carrier
    nested in another carrier belongs to the outer one."""
    out: list[list[Section]] = []
    body = [s for s in d.sections if s.level > 1]
    i = 0
    while i < len(body):
        s = body[i]
        if not wanted.carried_by(s.title):
            i += 1
            continue
        tree = [s]
        j = i + 1
        while j < len(body) and body[j].level > s.level:
            if stop is not None and stop.carried_by(body[j].title):
                break
            tree.append(body[j])
            j += 1
        out.append(tree)
        while j < len(body) and body[j].level > s.level:
            j += 1
        i = j
    return out


def _lines(d: Decision, tree: Sequence[Section]) -> list[str]:
    """The source lines of a section tree, without its own heading, trimmed of blank lines
    at both ends; nested headings included (as they are written)."""
    text = d.text.splitlines()
    first = tree[0].line - d.body_line_offset  # 0-based index of the line after the heading
    last = tree[-1].end_line - d.body_line_offset
    lines = text[first:last]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def quoted(d: Decision) -> tuple[Section | None, list[str], Section | None, list[str]]:
    """(the decision section, its lines, the first consequences section, the lines of every
    consequences section) of ``d``."""
    decision = _trees(d, DECISION, CONSEQUENCES)
    consequences = _trees(d, CONSEQUENCES, None)
    dec_lines = _lines(d, decision[0]) if decision else []
    if not decision and not any(s.level > 1 for s in d.sections):
        # a record of one piece: its whole body (below the title and the header lines) decides
        head = max(d.title_line, d.status_line if d.statuses else 0,
                   d.date_line if d.date else 0)
        whole = Section(d.title or "", 1, head, d.body_line_offset + len(d.text.splitlines()),
                        "", "")
        lines = _lines(d, [whole])
        return whole, lines, None, []
    con_lines: list[str] = []
    for tree in consequences:
        if con_lines:
            con_lines.append("")
        if len(consequences) > 1:
            con_lines.append(f"**{tree[0].title}**")
            con_lines.append("")
        con_lines.extend(_lines(d, tree))
    return (decision[0][0] if decision else None, dec_lines,
            consequences[0][0] if consequences else None, con_lines)


def _cut(lines: list[str]) -> tuple[list[str], int]:
    if len(lines) <= QUOTE_LINES:
        return lines, 0
    return lines[:QUOTE_LINES], len(lines) - QUOTE_LINES


def _blockquote(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        m = _HEADING.match(line)
        if m is not None:
            line = f"**{m.group(2)}**" if m.group(2) else ""
        out.append(f"> {line}".rstrip())
    return out


def _fenced(lines: list[str]) -> list[str]:
    longest = max((len(m.group(0)) for line in lines for m in _FENCE.finditer(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}markdown", *lines, fence]


def _reads_as_quote(lines: list[str], same_folder: bool, options: Options) -> bool:
    """Whether ``lines`` as a blockquote in a record declare nothing (no relation, status or
    date) and link nowhere else than they did in their source."""
    if not same_folder and any(_RELATIVE.search(line) for line in lines):
        return False
    probe = "# Probe\n\n## Notes\n\n" + "\n".join(_blockquote(lines)) + "\n"
    d = parse(SourceFile("probe/0000-probe.md", "probe", probe.encode("utf-8")), options)
    return not d.relationships and not d.statuses and d.status is None


def quote_block(lines: list[str], same_folder: bool, options: Options) -> list[str]:
    """``lines`` quoted for the draft: a blockquote when it reads as one, else fenced."""
    shown, more = _cut(lines)
    block = _blockquote(shown) if _reads_as_quote(shown, same_folder, options) \
        else _fenced(shown)
    if more:
        block += ["", f"({more} more line(s): read them in the source.)"]
    return block


# --- conflicts ----------------------------------------------------------------------------


def conflicts(graph: Graph, sources: Sequence[Decision],
              unstated: Collection[str] = ()) -> list[str]:
    """What a person must settle before the draft replaces ``sources``: each as one line.
    Statuses that are not in force, successors and amendments outside the sources, relations
    that resolve to no record, sources that supersede one another while both are accepted,
    and records outside the sources that lean on one (their relation will point at a
    superseded record). ``unstated``: the paths of records that state no status where their
    log states none by habit; they are read as in force."""
    paths = {d.path for d in sources}
    out: list[str] = []
    for d in sources:
        status = d.status.value if d.status is not None else "without a status"
        if d.status not in (Status.ACCEPTED, Status.SUPERSEDED) and d.path not in unstated:
            out.append(f"{d.id} is {status}: it was never in force (or is no longer); say "
                       "whether the draft keeps what it says")
        for s in graph.successors(d):
            if s.path not in paths:
                out.append(f"{d.id} is superseded by {s.id} ({_status(s)}), which is not a "
                           f"source: what {d.id} decided may no longer hold; add {s.id} or "
                           "drop what it replaced")
            elif d.status is Status.ACCEPTED and s.status is Status.ACCEPTED:
                out.append(f"{d.id} and {s.id} are both accepted although {s.id} supersedes "
                           f"{d.id}: the draft must say which of them holds")
        for dec in graph.declared:
            if dec.source.path != d.path:
                continue
            state = graph.state(dec)
            if state in ("unresolved", "ambiguous"):
                out.append(f"{d.id} declares {dec.rel.kind.value} {dec.rel.target_raw!r}, which "
                           f"is {state}: settle what it points at")
        for kind, verb in (("amends", "amended"), ("depends-on", "depended on"),
                           ("relates-to", "related to")):
            for other in sorted(graph.in_edges[kind].get(d.path, ())):
                if other in paths or other == d.path:
                    continue
                o = graph.decision(other)
                if o.status in (Status.REJECTED, Status.SUPERSEDED):
                    continue
                hint = (f"the draft must state that amendment too, or add {o.id} as a source"
                        if kind == "amends" else
                        f"once {d.id} is superseded, point {o.id} at the new record")
                out.append(f"{d.id} is {verb} by {o.id} ({_status(o)}), not a source: {hint}")
    return list(dict.fromkeys(out))


def _status(d: Decision) -> str:
    return d.status.value if d.status is not None else "without a status"


# --- the draft ------------------------------------------------------------------------------


def section_text(draft: Decision, sources: Sequence[Decision], found: list[str],
                 options: Options, link_text: dict[str, str]) -> list[str]:
    """The content of the draft's decision section."""
    ids = ", ".join(d.id for d in sources)
    out = [
        MARK,
        "",
        f"**Draft for review.** This record consolidates {ids}. Write here the decision that "
        f"holds now, from what they say below; settle the open conflicts; then accept it with "
        f"`adrguard consolidate --accept {draft.id}`, which marks {ids} superseded by it.",
    ]
    folder = posixpath.dirname(draft.path)
    for d in sources:
        rel = posixpath.relpath(d.path, folder or ".")
        same = posixpath.dirname(d.path) == folder
        dec, dec_lines, con, con_lines = quoted(d)
        status = _status(d)
        out += ["", f"### {d.id}: {d.title or link_text[d.path]}", ""]
        if dec is not None and dec_lines:
            anchor = f"#{dec.anchor}" if dec.anchor else ""
            what = "Its decision" if dec.level > 1 else "What it says"
            out += [f"{what} ([{link_text[d.path]}]({rel}{anchor}), {status}):", ""]
            out += quote_block(dec_lines, same, options)
        else:
            out += [f"[{link_text[d.path]}]({rel}) ({status}) has no decision section adrguard "
                    "recognises: read it in the record."]
        if con is not None and con_lines:
            out += ["", f"Its consequences ([{link_text[d.path]}]({rel}#{con.anchor})):", ""]
            out += quote_block(con_lines, same, options)
    out += ["", "### Open conflicts", ""]
    if found:
        out += [f"- {line}" for line in found]
    else:
        out += ["None that adrguard can see (statuses, successors, amendments and relations "
                "agree); read the sources for conflicts of meaning."]
    return out


def fill(text: str, draft: Decision, content: list[str]) -> str:
    """``text`` (the rendered draft ``draft``) with ``content`` as the body of its decision
    section (its prompt replaced), or as a section of its own at the end."""
    lines = text.split("\n")
    trees = _trees(draft, DECISION, CONSEQUENCES)
    if not trees:
        while lines and lines[-1] == "":
            lines.pop()
        return "\n".join([*lines, "", "## Decision", "", *content]) + "\n"
    head = trees[0][0]
    start = head.line  # file line of the heading: index start is the line after it
    end = head.end_line  # last line of the section's own content
    before = lines[:start]
    after = lines[end:]
    while after and after[0] == "":
        after.pop(0)
    middle = ["", *content]
    if after:
        middle.append("")
    return "\n".join([*before, *middle, *after]).rstrip("\n") + "\n"


__all__ = ["MARK", "conflicts", "fill", "quote_block", "quoted", "section_text"]
