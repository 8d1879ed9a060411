"""The decision graph as a picture: labels, escaping, styles, what is drawn, and the limits.

The browser test (tests/browser) proves the same in real Mermaid; these run everywhere, fast.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from adrguard.core.graph.graph import build
from adrguard.core.model import Corpus, Decision, Location, Relationship, RelKind, Status
from adrguard.core.textsafe import neutralise
from adrguard.reporters.comment import GRAPH_NODES, mermaid, neighbourhood
from adrguard.reporters.graph import (
    EDGE_STYLES,
    MAX_EDGES,
    MAX_TEXT,
    STATUS_STYLES,
    TITLE_LIMIT,
    clip,
    label,
    mermaid_text,
    render_dot,
    render_mermaid,
    short_id,
    too_large,
    view,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "graph.md"
_ENTITY = re.compile(r"#(\d+);")


def _decode(text: str) -> str:
    return _ENTITY.sub(lambda m: chr(int(m.group(1))), text)


def _d(n: int, title: str | None = "T", ident: str | None = None, status: Status | None = None,
       *rels: tuple[RelKind, int]) -> Decision:
    path = f"docs/adr/{n:04d}-x.md"
    relationships = tuple(Relationship(kind, f"ADR-{n}", f"{t:04d}-x.md", Location(path, 3))
                          for kind, t in rels)
    return Decision(id=ident or f"ADR-{n:04d}", path=path, root="docs/adr", number=n,
                    title=title, status=status, relationships=relationships)


def _corpus(*decisions: Decision) -> Corpus:
    return Corpus(tuple(decisions), ("docs/adr",), frozenset(d.path for d in decisions))


# -- labels -----------------------------------------------------------------------------------

def test_every_interpreted_character_is_an_entity_code() -> None:
    text = 'See https://x.example `a` **b** _c_ ~~d~~ a@b.c $$e$$ <i> & "q" [l](u) 50% x;y\\z'
    out = mermaid_text(text)
    assert out == (
        "See https#58;//x.example #96;a#96; #42;#42;b#42;#42; #95;c#95; #126;#126;d#126;#126; "
        "a#64;b.c #36;#36;e#36;#36; #60;i#62; #38; #34;q#34; #91;l#93;#40;u#41; 50#37; "
        "x#59;y#92;z"
    )


def test_block_markdown_at_the_start_and_autolinks_are_defused() -> None:
    assert mermaid_text("- a list") == "#45; a list"
    assert mermaid_text("+ b") == "#43; b"
    assert mermaid_text("> quote") == "#62; quote"
    assert mermaid_text("12. Twelve") == "12#46; Twelve"
    assert mermaid_text("12) Twelve") == "12#41; Twelve"
    assert mermaid_text("see www.example.org") == "see www#46;example.org"
    assert mermaid_text("a - b + c 1. d") == "a - b + c 1. d"  # only at the start
    assert mermaid_text("Plain title, 2 words") == "Plain title, 2 words"


def test_control_characters_and_workflow_commands_are_neutralised() -> None:
    out = mermaid_text("::error::x\x1b[31m\nnext ##[group]")
    assert "\x1b" not in out and "\n" not in out
    assert _decode(out) == "\\x3a:error::x\\x1b[31m\\x0anext #\\x23[group]"
    assert "::error" not in _decode(out)


@given(st.text(max_size=200))
def test_escaping_is_exact_and_leaves_nothing_special(text: str) -> None:
    out = mermaid_text(text)
    plain = _ENTITY.sub("", out)
    assert not set(plain) & set('"#&<>[](){}|%;`*_~\\!@:$\n\r')
    assert _decode(out) == " ".join(neutralise(text).split())


def test_short_ids_drop_repeated_slugs() -> None:
    def sid(ident: str, title: str = "Use markdown records") -> str:
        return short_id(_d(1, title, ident))

    assert sid("20200924-use-markdown-architectural-decision-records") == "20200924"
    assert sid("2022-10-01-ci-cd-interface") == "2022-10-01"
    assert sid("adr-0004-use-x") == "adr-0004"
    assert sid("ADR-0004") == "ADR-0004"
    assert sid("SCS-0001-v1") == "SCS-0001-v1"
    assert sid("use-markdown-records") == ""  # the title's own slug
    assert sid("payments-platform-team-guidelines") == "payments-platform-team…"


def test_labels_cut_long_titles_at_a_word() -> None:
    long = "Use a single shared PostgreSQL cluster for every service that stores orders " * 2
    text = _decode(label(_d(7, long)))
    assert text.startswith("ADR-0007: Use a single shared") and text.endswith("…")
    assert len(text) <= len("ADR-0007: ") + TITLE_LIMIT
    assert clip("short", 70) == "short"
    assert _decode(label(_d(3, None))) == "ADR-0003: (untitled)"
    # the id already in the title is not repeated
    assert _decode(label(_d(2, "ADR-0002 Use X"))) == "ADR-0002 Use X"


# -- styles -----------------------------------------------------------------------------------

def _luminance(colour: str) -> float:
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_styles_read_on_light_and_dark_backgrounds() -> None:
    for background in ("#ffffff", "#0d1117"):  # GitHub light and dark
        for kind, edge in EDGE_STYLES.items():
            assert _contrast(edge.colour, background) >= 3, (kind, background)
        for status, node in STATUS_STYLES.items():
            assert _contrast(node.stroke, background) >= 3 or _contrast(
                node.stroke, node.fill) >= 3, (status, background)
    for status, node in STATUS_STYLES.items():
        assert _contrast(node.text, node.fill) >= 4.5, status
    looks = {(s.fill, s.stroke, s.dash) for s in STATUS_STYLES.values()}
    assert len(looks) == len(STATUS_STYLES)  # every status looks different
    assert STATUS_STYLES["superseded"].dash and STATUS_STYLES["draft"].fill != "#ffffff"
    assert EDGE_STYLES["supersedes"].dash is None
    assert len({(e.colour, e.dash) for e in EDGE_STYLES.values()}) == len(EDGE_STYLES)


def test_docs_say_exactly_what_each_looks_like() -> None:
    doc = DOCS.read_text(encoding="utf-8")
    names = {None: "solid", "2 2": "dotted", "6 3": "dashed"}
    for status, s in STATUS_STYLES.items():
        row = (f"| {status} | {s.looks} | `{s.fill}` | `{s.stroke}` {names[s.dash]} "
               f"| `{s.text}` |")
        assert row in doc, row
    for kind, e in EDGE_STYLES.items():
        dash = f"`{e.dash}`" if e.dash else "solid"
        row = f"| {kind} | `{e.arrow}` | {e.looks} | `{e.colour}` | {dash} |"
        assert row in doc, row


def test_mermaid_and_dot_apply_the_styles() -> None:
    old = _d(1, "Old", status=Status.SUPERSEDED)
    new = _d(2, "New", None, Status.ACCEPTED, (RelKind.SUPERSEDES, 1), (RelKind.DEPENDS_ON, 3))
    dep = _d(3, "Dep", status=Status.DRAFT)
    v = view(build(_corpus(old, new, dep)), new)
    text = render_mermaid(v)
    assert "  classDef st_accepted_em fill:#dafbe1,stroke:#1a7f37,color:#0f3d1c,stroke-width:4px" \
        in text
    assert "stroke-dasharray:6 3" in text and "stroke-dasharray:2 2" in text
    assert "  n1 -.->|depends-on| n2" in text and "  n1 -->|supersedes| n0" in text
    dot = render_dot(v)
    assert 'style="rounded,filled,dashed", penwidth=2' in dot
    assert 'style="rounded,filled", penwidth=4' in dot  # the focus
    assert 'color="#0969da", fontcolor="#0969da", style=dotted' in dot


# -- what is drawn ----------------------------------------------------------------------------

def test_default_view_leaves_out_unconnected_records() -> None:
    records = [_d(n, f"R{n}", None, Status.ACCEPTED) for n in range(1, 65)]
    records[1] = _d(2, "R2", None, Status.ACCEPTED, (RelKind.SUPERSEDES, 1))
    records[4] = _d(5, "R5", None, Status.ACCEPTED, (RelKind.AMENDS, 4))
    g = build(_corpus(*records))
    v = view(g)
    assert [d.number for d in v.nodes] == [1, 2, 4, 5] and len(v.edges) == 2
    assert v.omitted == 60
    everything = view(g, everything=True)
    assert len(everything.nodes) == 64 and everything.omitted == 0
    lonely = view(g, records[10])  # --focus on a record without relationships
    assert [d.number for d in lonely.nodes] == [11] and lonely.emphasis == {records[10].path}


def test_size_limits() -> None:
    assert too_large("x" * MAX_TEXT, MAX_EDGES) is None
    assert too_large("x" * (MAX_TEXT + 1), 0) == "50,001 characters (Mermaid draws at most 50,000)"
    assert too_large("🚀" * (MAX_TEXT // 2 + 1), 0) is not None  # UTF-16: two units each
    assert too_large("", MAX_EDGES + 1) == "501 edges (Mermaid draws at most 500)"


# -- the pull-request comment -----------------------------------------------------------------

def test_comment_keeps_neighbours_and_drops_unconnected_governing_first() -> None:
    records = [_d(n, f"Lonely {n}", None, Status.ACCEPTED) for n in range(1, 61)]
    # 61..100: 20 governing records, each superseding one older record (20 pairs)
    for n in range(61, 81):
        records.append(_d(n, f"New {n}", None, Status.ACCEPTED, (RelKind.SUPERSEDES, n + 20)))
        records.append(_d(n + 20, f"Old {n + 20}", None, Status.SUPERSEDED))
    g = build(_corpus(*records))
    lonely = [d for d in records if d.number is not None and d.number <= 60]
    linked = [d for d in records if d.number is not None and 61 <= d.number <= 80]
    governing = lonely[:30] + linked  # unconnected ones first in the impact order
    v = neighbourhood(g, governing)
    assert len(v.nodes) == GRAPH_NODES == 40
    assert {d.number for d in v.nodes} == set(range(61, 101))  # all 20 pairs, no lonely box
    assert len(v.edges) == 20 and v.emphasis == {d.path for d in linked}
    lines = mermaid(g, governing)
    assert "30 governing decisions not drawn" in "\n".join(lines)
    # a cut keeps whole neighbourhoods
    small = neighbourhood(g, linked, limit=7)
    assert len(small.nodes) == 6 and len(small.edges) == 3


def test_comment_draws_no_graph_without_relationships() -> None:
    records = [_d(n, f"R{n}", None, Status.ACCEPTED) for n in range(1, 5)]
    assert mermaid(build(_corpus(*records)), records) == []


def test_comment_never_emits_a_diagram_mermaid_refuses() -> None:
    # 20 governing records each amending and superseding 20 others: 800 edges among 40 nodes
    targets = list(range(21, 41))
    governing = [_d(n, f"G{n}", None, Status.ACCEPTED,
                    *[(RelKind.AMENDS, t) for t in targets],
                    *[(RelKind.SUPERSEDES, t) for t in targets]) for n in range(1, 21)]
    others = [_d(n, f"O{n}", None, Status.SUPERSEDED) for n in targets]
    lines = mermaid(build(_corpus(*governing, *others)), governing)
    text = "\n".join(lines)
    assert "```mermaid" not in text
    assert "800 edges (Mermaid draws at most 500)" in text
    assert "`adrguard graph --focus ID --depth 1`" in text
    # and the hostile titles of the comment graph stay inert
    hostile = _d(50, "<img src=x onerror=alert(1)> ::error::x", None, Status.ACCEPTED,
                 (RelKind.SUPERSEDES, 51))
    body = "\n".join(mermaid(build(_corpus(hostile, _d(51, "x"))), [hostile]))
    assert "<img" not in body and "::error" not in body and "onerror=alert#40;1#41;" in body
    assert "<img src=x" in html.unescape(_decode(body))  # shown as text, as written
