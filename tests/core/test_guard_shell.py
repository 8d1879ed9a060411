"""The shell reader of the read guard: the simple reads and searches a command holds, found by
scanning it (never running it); anything else is reported as not recognised."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.guard.policy import Output
from adrguard.core.guard.shell import (
    MAX_COMMAND,
    Reading,
    ShellRead,
    ShellSearch,
    Unparsable,
    read_command,
)


def reads(command: str) -> list[tuple[str, list[str]]]:
    return [(c.tool, [w.text for w in c.paths]) for c in read_command(command).calls
            if isinstance(c, ShellRead)]


def searches(command: str) -> list[ShellSearch]:
    return [c for c in read_command(command).calls if isinstance(c, ShellSearch)]


def test_direct_reads() -> None:
    assert reads("cat docs/adr/0001-a.md docs/adr/0002-b.md") == [
        ("cat", ["docs/adr/0001-a.md", "docs/adr/0002-b.md"])]
    assert reads("head -n 20 a.md") == [("head", ["a.md"])]
    assert reads("head -n20 -q a.md") == [("head", ["a.md"])]
    assert reads("tail -20 a.md") == [("tail", ["a.md"])]
    assert reads("tail --lines=5 -f a.md") == [("tail", ["a.md"])]
    assert reads("less +G -p Decision a.md") == [("less", ["a.md"])]
    assert reads("sed -n '1,20p' a.md") == [("sed", ["a.md"])]
    assert reads("sed -n -e 1,20p a.md b.md") == [("sed", ["a.md", "b.md"])]
    assert reads("cat < a.md") == [("cat", ["a.md"])]
    assert reads("/bin/cat -- -odd.md") == [("cat", ["-odd.md"])]
    assert reads("LC_ALL=C command cat a.md") == [("cat", ["a.md"])]


def test_quoting_is_the_shells() -> None:
    assert reads("cat 'docs/adr/a b.md' \"c d.md\" e\\ f.md") == [
        ("cat", ["docs/adr/a b.md", "c d.md", "e f.md"])]
    assert reads("cat 'a;b.md'") == [("cat", ["a;b.md"])]  # quoted: not a separator
    assert reads("cat x.md # cat y.md") == [("cat", ["x.md"])]
    assert reads("cat x#y.md") == [("cat", ["x#y.md"])]  # not a comment inside a word


def test_lists_pipelines_and_cd() -> None:
    reading = read_command("cd docs/adr && cat 0001-a.md | head -5; cd ../x || tail y.md\n"
                           "grep -rn mysql .")
    assert [(type(c).__name__, c.cd) for c in reading.calls] == [
        ("ShellRead", ("docs/adr",)),
        ("ShellRead", ("docs/adr", "../x")),
        ("ShellSearch", ("docs/adr", "../x")),
    ]
    assert read_command("cd $HOME && cat a.md").calls[0].cd == (None,)  # unknown from here on
    assert read_command("cd && cat a.md").calls[0].cd == (None,)


def test_redirections_are_not_arguments() -> None:
    assert reads("cat a.md 2>/dev/null >out.txt") == [("cat", ["a.md"])]
    assert reads("cat a.md 2>&1 | tee log") == [("cat", ["a.md"])]
    assert reads("cat a.md &>/dev/null") == [("cat", ["a.md"])]


def test_not_reads() -> None:
    for command in ("cat", "cat -n", "head -n 5", "sed -i s/a/b/ a.md", "sed -i.bak -n p a.md",
                    "sed --in-place=.b p a.md", "grep foo", "echo cat a.md", "ls docs/adr",
                    "git show HEAD:docs/adr/0001-a.md", "python -c 'print(open(\"a\").read())'"):
        assert not read_command(command).calls, command


def test_dynamic_paths_are_not_judged() -> None:
    reading = read_command('cat "$F" && cat $(ls *.md) && cat `x`')
    assert reading.calls == () and reading.unrecognised == ("cat", "ls")
    loop = read_command('for f in docs/adr/archive/*.md; do cat "$f"; done')
    assert loop.calls == ()
    assert set(loop.unrecognised) == {"for", "do", "done"}


def test_wildcards_and_braces() -> None:
    reading = read_command("cat docs/adr/archive/*.md docs/adr/{0001,0002}-x.md 'lit*.md'")
    words = [(w.text, w.wildcard) for w in reading.calls[0].paths]
    assert words == [("docs/adr/archive/*.md", True), ("docs/adr/0001-x.md", False),
                     ("docs/adr/0002-x.md", False), ("lit*.md", False)]  # quoted: literal


def test_grep_forms() -> None:
    (s,) = searches("grep -rn 'use mysql' docs")
    assert (s.pattern, [w.text for w in s.paths], s.recursive, s.output) == (
        "use mysql", ["docs"], True, Output.CONTENT)
    (s,) = searches("grep -e a -e b -r")
    assert s.pattern == "a b" and s.paths == () and s.recursive
    (s,) = searches("grep -l -r mysql .")
    assert s.output is Output.NAMES
    (s,) = searches("grep -c mysql a.md")
    assert s.output is Output.COUNT and not s.recursive
    (s,) = searches("grep -r --include='*.py' --exclude=*.md --exclude-dir=adr x .")
    assert s.globs == ("*.py", "!*.md", "!adr/")
    (s,) = searches("grep -A3 -B 2 -d recurse x src")
    assert s.recursive and [w.text for w in s.paths] == ["src"]
    (s,) = searches("egrep -ri 'a|b' docs")
    assert s.pattern == "a|b"
    assert searches("grep --exclude-from=list -r x .") == []


def test_rg_forms() -> None:
    (s,) = searches("rg mysql")
    assert s.tool == "rg" and s.paths == () and s.output is Output.CONTENT
    (s,) = searches("rg -g '!docs/adr/**' --glob=*.py -tpy -T md -e mysql src lib")
    assert s.globs == ("!docs/adr/**", "*.py")
    assert s.types == ("py",) and s.types_not == ("md",)
    assert [w.text for w in s.paths] == ["src", "lib"]
    (s,) = searches("rg --files docs/adr")
    assert s.output is Output.NAMES and [w.text for w in s.paths] == ["docs/adr"]
    (s,) = searches("rg -c x")
    assert s.output is Output.COUNT
    (s,) = searches("rg -A 3 --max-count 2 -- -x- docs")
    assert s.pattern == "-x-" and [w.text for w in s.paths] == ["docs"]
    assert searches("rg --type-add 'adr:*.md' -tadr x") == []
    assert searches('rg -g "$G" x') == []


def test_unparsable_commands() -> None:
    with pytest.raises(Unparsable):
        read_command("cat 'docs/adr/0001.md")
    with pytest.raises(Unparsable):
        read_command('cat "x')
    with pytest.raises(Unparsable):
        read_command("x" * (MAX_COMMAND + 1))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("cat grep rg -n'\"\\|&;()<>$`*{},.\n #a/")),
               max_size=80))
def test_any_command_is_read_or_refused_never_crashes(command: str) -> None:
    try:
        reading = read_command(command)
    except Unparsable:
        return
    assert isinstance(reading, Reading)
