"""The read guard's policy on layouts written here: what is allowed, hinted at once per session,
or denied with a receipt; archived means "in an archive folder of an ADR root", never a folder
that is merely called archive."""

from __future__ import annotations

from adrguard.core.guard.layout import LogLayout, PathState
from adrguard.core.guard.policy import (
    Answer,
    Mode,
    Output,
    Read,
    Search,
    Seen,
    Target,
    decide,
)

LAYOUT = LogLayout(
    roots=("docs/adr", "services/pay/docs/adr"),
    archive_dirs=("archive",),
    records={
        "docs/adr/0001-use-adrs.md": False,
        "docs/adr/0003-use-postgres.md": False,
        "docs/adr/archive/0002-use-mysql.md": True,
        "docs/adr/security/0004-encrypt.md": False,
        "services/pay/docs/adr/0001-use-stripe.md": False,
        "services/pay/docs/adr/archive/0002-use-paypal.md": True,
    },
    navigation={"docs/adr/INDEX.md", "docs/adr/archive/INDEX.md", "docs/adr/CURRENT.md"},
)


def read(*paths: str | None, part: str = "") -> Read:
    return Read(tuple(Target(p) for p in paths), part)


def search(*scopes: str | None, **kw: object) -> Search:
    return Search(tuple(Target(s) for s in scopes) or (Target("."),), **kw)  # type: ignore[arg-type]


def test_states_come_from_the_layout_not_from_folder_names() -> None:
    assert LAYOUT.state("docs/adr/archive/0002-use-mysql.md") is PathState.ARCHIVED
    assert LAYOUT.state("docs/adr/0001-use-adrs.md") is PathState.ACTIVE
    assert LAYOUT.state("docs/adr/archive/INDEX.md") is PathState.NAVIGATION
    # a folder called archive outside every ADR root is nobody's archive
    assert LAYOUT.state("src/archive/notes.md") is PathState.OUTSIDE
    assert LAYOUT.state("docs/archive/0002-use-mysql.md") is PathState.OUTSIDE
    # below a root but not a record, and not markdown in an archive folder
    assert LAYOUT.state("docs/adr/images/flow.png") is PathState.OTHER
    assert LAYOUT.state("docs/adr/archive/diagram.png") is PathState.OTHER
    # markdown in an archive folder git does not list yet: archived by the same layout rule
    assert LAYOUT.state("docs/adr/archive/0009-new.md") is PathState.ARCHIVED


def test_another_archive_folder_name_is_what_counts() -> None:
    layout = LogLayout(("docs/adr",), ("retired",), {"docs/adr/archive/0002-x.md": False,
                                                     "docs/adr/retired/0003-y.md": True})
    assert layout.state("docs/adr/archive/0002-x.md") is PathState.ACTIVE
    assert layout.state("docs/adr/retired/0003-y.md") is PathState.ARCHIVED
    assert layout.state("docs/adr/archive/0005-z.md") is PathState.OTHER


def test_off_allows_everything_and_counts_nothing() -> None:
    verdict = decide(LAYOUT, Mode.OFF, [read("docs/adr/archive/0002-use-mysql.md"), search()])
    assert verdict.answer is Answer.ALLOW
    assert verdict.notices == () and verdict.evidence == ()


def test_targeted_reads_and_navigation_are_allowed() -> None:
    for mode in (Mode.WARN, Mode.GUARD):
        verdict = decide(LAYOUT, mode, [read("docs/adr/0001-use-adrs.md", "docs/adr/INDEX.md",
                                             "src/app.py", None)])
        assert verdict.answer is Answer.ALLOW
        assert [(e.path, e.state) for e in verdict.evidence] == [
            ("docs/adr/0001-use-adrs.md", PathState.ACTIVE),
            ("docs/adr/INDEX.md", PathState.NAVIGATION),
        ]


def test_guard_denies_an_archived_read_with_a_receipt() -> None:
    verdict = decide(LAYOUT, Mode.GUARD, [read("docs/adr/0001-use-adrs.md",
                                               "docs/adr/archive/0002-use-mysql.md")])
    assert verdict.answer is Answer.DENY
    (notice,) = verdict.notices
    assert notice.kind == "archived" and notice.paths == ("docs/adr/archive/0002-use-mysql.md",)
    assert notice.receipt is not None
    assert notice.receipt.command == "adrguard context docs/adr/archive/0002-use-mysql.md"
    assert notice.receipt.tool == "adr_context"
    assert notice.receipt.arguments == {"identifier": "docs/adr/archive/0002-use-mysql.md"}
    assert notice.receipt.history_arguments == {
        "identifier": "docs/adr/archive/0002-use-mysql.md", "history": True}
    assert "adrguard context docs/adr/archive/0002-use-mysql.md" in verdict.reason
    assert verdict.evidence == ()  # nothing is read


def test_warn_says_it_once_per_record_per_session() -> None:
    call = [read("docs/adr/archive/0002-use-mysql.md")]
    first = decide(LAYOUT, Mode.WARN, call)
    assert first.answer is Answer.WARN
    assert [n.key for n in first.notices] == ["archived:docs/adr/archive/0002-use-mysql.md"]
    told = Seen(frozenset(e.key for e in first.evidence), frozenset(n.key for n in first.notices))
    again = decide(LAYOUT, Mode.WARN, call, told)
    assert again.answer is Answer.ALLOW and again.notices == ()
    other = decide(LAYOUT, Mode.WARN, [read("services/pay/docs/adr/archive/0002-use-paypal.md")],
                   told)
    assert other.answer is Answer.WARN  # another record: said once for it too


def test_a_repeated_read_gets_one_hint_in_warn_and_guard() -> None:
    call = [read("docs/adr/0001-use-adrs.md", part="lines 1+40")]
    first = decide(LAYOUT, Mode.GUARD, call)
    assert first.answer is Answer.ALLOW
    seen = Seen(frozenset(e.key for e in first.evidence))
    second = decide(LAYOUT, Mode.GUARD, call, seen)
    assert second.answer is Answer.WARN
    assert second.notices[0].kind == "repeat"
    assert "read already" in second.reason
    told = Seen(seen.reads, frozenset(n.key for n in second.notices))
    assert decide(LAYOUT, Mode.GUARD, call, told).answer is Answer.ALLOW
    # another part of the same record is not a repeat
    other_part = [read("docs/adr/0001-use-adrs.md", part="lines 41+40")]
    assert decide(LAYOUT, Mode.GUARD, other_part, seen).answer is Answer.ALLOW


def test_an_unscoped_content_search_is_denied_in_guard_and_hinted_in_warn() -> None:
    call = [search(pattern=r"\bpostgres(ql)?\b", tool="Grep")]
    verdict = decide(LAYOUT, Mode.GUARD, call)
    assert verdict.answer is Answer.DENY
    (notice,) = verdict.notices
    assert notice.kind == "unscoped"
    assert "6 decision records (2 of them archived)" in notice.text
    assert notice.receipt is not None and notice.receipt.arguments == {"topic": "postgres ql"}
    assert '"!{docs/adr,services/pay/docs/adr}/**"' in notice.text  # how to search code only
    assert decide(LAYOUT, Mode.WARN, call).answer is Answer.WARN


def test_file_names_and_counts_are_discovery() -> None:
    for output in (Output.NAMES, Output.COUNT):
        verdict = decide(LAYOUT, Mode.GUARD, [search(output=output, pattern="mysql")])
        assert verdict.answer is Answer.ALLOW


def test_a_code_search_that_leaves_the_records_out_is_allowed() -> None:
    allowed = [
        search(globs=("*.py",)),
        search(globs=("!docs/adr/**", "!services/pay/docs/adr/**")),
        search(globs=("!{docs/adr,services/pay/docs/adr}/**",)),
        search(globs=("!*.md",)),
        search(types=("py",)),
        search(types_not=("md",)),
        search("src"),
        search("docs/adr/images"),
    ]
    for request in allowed:
        assert decide(LAYOUT, Mode.GUARD, [request]).answer is Answer.ALLOW, request
    denied = [
        search(globs=("!docs/adr/**",)),  # the module root is still searched
        search(globs=("*.md",)),
        search(globs=("*.{md,py}",)),
        search(types=("md",)),
        search("docs"),
        search("docs/adr/archive", "docs/adr/security"),
    ]
    for request in denied:
        assert decide(LAYOUT, Mode.GUARD, [request]).answer is Answer.DENY, request


def test_a_glob_is_read_below_the_folder_searched_and_below_the_working_directory() -> None:
    # from docs/, "!adr/**" leaves docs/adr out (ripgrep reads it below the searched folder)
    request = Search((Target("docs"),), cwd="docs", globs=("!adr/**",))
    assert decide(LAYOUT, Mode.GUARD, [request]).answer is Answer.ALLOW


def test_a_search_of_one_record_is_a_targeted_read_of_it() -> None:
    active = decide(LAYOUT, Mode.GUARD, [search("docs/adr/0003-use-postgres.md")])
    assert active.answer is Answer.ALLOW
    assert [e.path for e in active.evidence] == ["docs/adr/0003-use-postgres.md"]
    folder = decide(LAYOUT, Mode.GUARD, [search("docs/adr/security")])
    assert folder.answer is Answer.ALLOW  # one record below it
    archived = decide(LAYOUT, Mode.GUARD, [search("docs/adr/archive/0002-use-mysql.md")])
    assert archived.answer is Answer.DENY
    assert archived.notices[0].kind == "archived"
    narrowed = decide(LAYOUT, Mode.GUARD, [search("docs/adr", globs=("0003-*",))])
    assert narrowed.answer is Answer.ALLOW


def test_grep_without_recursion_reads_only_the_files_it_names() -> None:
    request = Search((Target("docs/adr"),), recursive=False, tool="grep")
    assert decide(LAYOUT, Mode.GUARD, [request]).answer is Answer.ALLOW


def test_shell_wildcards_are_matched_against_the_log() -> None:
    wild = Read((Target("docs/adr/archive/*.md", wildcard=True),), "cat")
    verdict = decide(LAYOUT, Mode.GUARD, [wild])
    assert verdict.answer is Answer.DENY
    assert [n.paths for n in verdict.notices] == [("docs/adr/archive/0002-use-mysql.md",)]
    nav = Read((Target("docs/adr/*.md", wildcard=True),), "cat")
    assert decide(LAYOUT, Mode.GUARD, [nav]).answer is Answer.ALLOW
    assert LAYOUT.matching("docs/adr/[!a]*") == ["docs/adr/0001-use-adrs.md",
                                                 "docs/adr/0003-use-postgres.md",
                                                 "docs/adr/CURRENT.md", "docs/adr/INDEX.md"]
    assert LAYOUT.matching("docs/adr/[0") == []  # an open bracket is literal: nothing listed


def test_a_denied_call_names_each_archived_record_once() -> None:
    path = "docs/adr/archive/0002-use-mysql.md"
    verdict = decide(LAYOUT, Mode.GUARD, [read(path), read(path, part="x"), search(path)])
    assert [n.key for n in verdict.notices] == [f"archived:{path}"]


def test_the_repository_root_as_a_log_root() -> None:
    layout = LogLayout((".",), ("archive",), {"0001-a.md": False, "archive/0002-b.md": True})
    assert layout.state("archive/0002-b.md") is PathState.ARCHIVED
    assert layout.records_in(".") == ["0001-a.md", "archive/0002-b.md"]
    verdict = decide(layout, Mode.GUARD, [Search((Target("."),), pattern="x", tool="rg")])
    assert verdict.answer is Answer.DENY
    assert "--glob '!**/*.md'" in verdict.reason


def test_a_glob_too_wide_to_read_never_leaves_the_records_out() -> None:
    wide = "{" + ",".join(f"d{i}" for i in range(100)) + "}"
    for glob in (f"!{wide}/**", f"{wide}/**"):
        assert decide(LAYOUT, Mode.GUARD, [search(globs=(glob,))]).answer is Answer.DENY
