"""The ADR logs the browser test draws, written for it (never taken from the corpora): a
supersession chain of hostile titles, a 64-record log with 2 relationships, the sample log shown
in docs/graph.md."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from adrguard.core.model import Corpus, Decision, Location, Relationship, RelKind, Status


def nygard(n: int, title: str, status: str, *relations: str, slug: str = "x") -> tuple[str, str]:
    body = "\n\n".join((f"# {n}. {title}", "## Status", status, *relations, "## Context", "Text."))
    return f"docs/adr/{n:04d}-{slug}.md", body + "\n"


def front_matter(n: int, title: str, status: str, *relations: str) -> tuple[str, str]:
    """A record whose title comes from YAML (so it reaches us exactly as written)."""
    head = f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\nstatus: {status}\n---\n\n# Record {n}\n\n"
    return f"docs/adr/{n:04d}-r.md", head + "\n\n".join((*relations, "## Context", "Text.")) + "\n"


HOSTILE_TITLES = (
    "See https://example.com/x and www.example.org or mail a@b.example",
    "- starts like a list item",
    "1. starts like an ordered list",
    "* star list, + plus list",
    "# looks like a heading",
    "> looks like a quote",
    "`code` **bold** __under__ *em* _em_ ~~gone~~ ~x~",
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    '<a href="javascript:alert(3)">click</a> & <b onmouseover="x()">b</b>',
    "Entities &lt;b&gt; &amp; #quot; #35; #lt;i#gt; &#x3C;",
    "[link](http://evil.example) ![img](x.png) <http://auto.example>",
    "Math $$x^2$$ and $y$, fa:fa-user icon, 50% off; 100%% done",
    '"quotes" \'single\' |pipes| {braces} (parens) [brackets] back\\slash',
    "::error::pwned ##[set-output name=x]y \x1b[31mred\x1b[0m",
    '%%{init: {"theme": "dark"}}%% click n0 call alert() style n0 fill:#f00',
    "Ünïcödé 日本語 emoji 🚀 and a title long enough to be cut: " + "word " * 30,
)


def hostile_log() -> dict[str, str]:
    """Each record supersedes the one before (a chain, so all are drawn by default); the
    first two also amend and depend on each other."""
    files = dict([nygard(1, "Plain start", "Superseded")])
    for i, title in enumerate(HOSTILE_TITLES, start=2):
        prev = "0001-x.md" if i == 2 else f"{i - 1:04d}-r.md"
        rel = f"Supersedes [previous]({prev})"
        files.update([front_matter(i, title, "accepted" if i == len(HOSTILE_TITLES) + 1
                                   else "superseded", rel)])
    files.update([nygard(30, "Amends the chain", "Proposed", "Amends [2](0002-r.md)", slug="y"),
                  nygard(31, "Depends on it", "Draft", "Depends on [30](0030-y.md)", slug="z")])
    return files


def hostile_decisions() -> Corpus:
    """The hostile titles (and ids) exactly as written, past any parser: a supersession chain."""
    decisions = []
    ids = ["- 1", "<b>2</b>", "`3`", "ADR-4 https://x.example"]
    for i, title in enumerate(HOSTILE_TITLES, start=1):
        path = f"docs/adr/{i:04d}.md"
        rel = (Relationship(RelKind.SUPERSEDES, "x", f"{i - 1:04d}.md", Location(path, 3)),)
        ident = ids[i - 1] if i <= len(ids) else f"ADR-{i}"
        decisions.append(Decision(id=ident, path=path, root="docs/adr", number=i, title=title,
                                  status=Status.SUPERSEDED, relationships=rel if i > 1 else ()))
    return Corpus(tuple(decisions), ("docs/adr",), frozenset(d.path for d in decisions))


def wide_log(count: int = 64) -> dict[str, str]:
    """``count`` records, 2 relationships (one supersedes, one amends)."""
    files: dict[str, str] = {}
    for n in range(1, count + 1):
        rel = {2: ("Supersedes [1](0001-x.md)",), 5: ("Amends [4](0004-x.md)",)}.get(n, ())
        status = "Superseded by [2](0002-x.md)" if n == 1 else "Accepted"
        files.update([nygard(n, f"Decision number {n} about something", status, *rel)])
    return files


def docs_log() -> dict[str, str]:
    """The sample log drawn in docs/graph.md: every status and every edge kind."""
    return dict([
        nygard(1, "Use MySQL for orders", "Superseded by [3](0003-x.md)"),
        nygard(2, "Record architecture decisions", "Accepted"),
        nygard(3, "Use PostgreSQL for orders", "Accepted", "Supersedes [1](0001-x.md)"),
        nygard(4, "Use read replicas", "Proposed", "Depends on [3](0003-x.md)"),
        nygard(5, "Partition orders by month", "Draft", "Amends [3](0003-x.md)"),
        nygard(6, "Use a document store", "Rejected", "Rejected in favour of [3](0003-x.md)"),
        ("docs/adr/0007-x.md", "---\nrelated-to: 0003-x.md\n---\n\n# 7. Nightly CSV export\n\n"
                               "## Status\n\nDeprecated\n"),
        nygard(8, "Use an event bus", "Accepted"),
    ])


def write(root: Path, files: Mapping[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
