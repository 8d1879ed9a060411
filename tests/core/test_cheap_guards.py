"""The plain-string tests that spare a run a regex compile (issue 30) answer exactly as the
patterns they guard: each is checked against its pattern on generated text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core import relpath
from adrguard.core.conventions import kinds, log, naming
from adrguard.core.model import Decision, Status

_PIECES = ["a", "b", "#", "?", "%", "\x01", "\x7f", "\t", " ", "*", "_", "\n", "é", "\u200d",
           "example", "sample", "demo", "s-", "-", ".", "git", "Example", "0", "1"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(shown=_TEXT)
def test_harmful_characters_as_the_pattern_finds_them(shown: str) -> None:
    name = naming.Name(shown, False, "plain", "", "", "", "", shown, "")
    assert name.harmful == "".join(dict.fromkeys(naming._HARMFUL.findall(shown)))


def _record(stem: str, title: str | None = None, status: Status | None = None) -> Decision:
    return Decision(id=stem, path=f"docs/adr/{stem}.md", root="docs/adr", title=title,
                    title_raw="Title", status=status, status_raw="?" if status else None)


@settings(max_examples=300, deadline=None)
@given(stem=_TEXT.map(lambda s: s.replace("/", "").replace("\n", "") or "x"))
def test_example_names_as_the_pattern_finds_them(stem: str) -> None:
    for d in (_record(stem), _record(stem, "T", Status.UNKNOWN), _record(stem, "T")):
        folded = stem.casefold()
        number = kinds.ids.parse_name(folded).number
        named = kinds._EXAMPLE_NAME.search(folded) is not None or number == 0
        expected = named and ((d.title is None and d.title_raw is not None)
                              or (d.status is Status.UNKNOWN and bool(d.status_raw)))
        assert kinds._is_example(d) == expected, stem


def test_example_names_written_out() -> None:
    assert kinds._is_example(_record("0001-example-record"))
    assert kinds._is_example(_record("demo"))
    assert not kinds._is_example(_record("0001-examplery"))
    assert not kinds._is_example(_record("0001-use-samples", "Use samples"))


# the pattern the bold line probe stands for (ADR 62 finds its answer from ** and __)
_LINE_START_BOLD = re.compile(r"^[ \t]{0,3}(?:\*\*|__)", re.M)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_bold_line_probe_as_the_pattern_finds_it(text: str) -> None:
    d = Decision(id="ADR-1", path="docs/adr/0001-a.md", root="docs/adr", text=text)
    found = log.Log("docs/adr", (d,))._pseudo_headings(d)
    bold = _LINE_START_BOLD.search(text) is not None
    expected = tuple(log.pseudo_headings(text)) if bold else ()
    assert found == expected


@settings(max_examples=300, deadline=None)
@given(segment=_TEXT)
def test_git_names_as_the_pattern_reads_them(segment: str) -> None:
    name = relpath._HFS_IGNORED.sub("", segment).rstrip(". ").casefold()
    assert relpath.is_git_name(segment) == (name in (".git", "git~1"))


def test_git_names_written_out() -> None:
    assert relpath.is_git_name(".git")
    assert relpath.is_git_name(".gi\u200ct")
    assert relpath.is_git_name(".GIT. ")
    assert not relpath.is_git_name(".gitx")


@settings(max_examples=300, deadline=None)
@given(message=st.lists(st.sampled_from(["a", "\r", "\n", "\r\n", " ", "\x0b", "\u2028"]),
                        max_size=10).map("".join))
def test_message_lines_as_the_pattern_splits_them(message: str) -> None:
    from adrguard.reporters import text

    expected = re.split(r"\r\n|\r|\n", message) if ("\n" in message or "\r" in message) else [
        message]
    assert text.message_lines(message) == expected  # the text and concise formats


@pytest.mark.parametrize("path", ["C:x", "z:/a", "c:"])
def test_drive_paths_are_not_manifest_paths(path: str) -> None:
    from adrguard.core.generated.manifest import path_problem

    assert path_problem(path, "docs/adr") is not None


@pytest.mark.parametrize("path", ["é:/a", "1:/a", "ab:c", "0001-a.md"])
def test_other_colons_are_manifest_paths(path: str) -> None:
    from adrguard.core.generated.manifest import path_problem

    assert path_problem(path, ".") is None
    assert "outside the root" in (path_problem(path, "docs/adr") or "")


_DRIVE = re.compile(r"^[A-Za-z]:")  # what relpath.has_drive() tests without a pattern


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["C", "z", "é", "1", ":", "/", "\\", "a", " ", "ǅ"]),
                     max_size=5).map("".join))
def test_drives_as_the_pattern_finds_them(text: str) -> None:
    assert relpath.has_drive(text) == (_DRIVE.match(text) is not None)
    absolute = "is absolute" in (relpath.problem(text) or "")
    folded = text.strip().replace("\\", "/")
    if text.strip():
        assert absolute == (folded.startswith("/") or _DRIVE.match(folded) is not None)


_NAME_PIECES = ["0001", "-x", ".", "zh", "zh-CN", "pt_BR", "md", "markdown", "MD", "en", "a"]


@settings(max_examples=300, deadline=None)
@given(name=st.lists(st.sampled_from(_NAME_PIECES), max_size=8).map("".join))
def test_a_language_tagged_name_is_told_by_its_dots_as_by_the_pattern(name: str) -> None:
    """A name with fewer than two dots is never a tag-suffixed translation's: the count that
    skips the pattern answers as the pattern does."""
    from adrguard.core.parse import mirrors

    lower = name.lower()
    ext = next((e for e in mirrors._MARKDOWN if lower.endswith(e)), None)
    m = mirrors._SUFFIXED.match(name[: -len(ext)]) if ext is not None else None
    expected = None
    if m is not None and mirrors.is_language_tag(m.group("tag")):
        expected = (m.group("base") + name[len(name) - len(ext or ""):], m.group("tag"))
    assert mirrors._split(name) == expected


_PATH_PIECES = ["docs", "adr", "0001-x", "README", "index", ".md", ".MD", ".txt", "/", "a"]


@settings(max_examples=300, deadline=None)
@given(
    path=st.lists(st.sampled_from(_PATH_PIECES), min_size=1, max_size=8).map("".join),
    root=st.sampled_from(["", ".", "docs", "docs/adr", "docs/adr/"]),
    name_first=st.booleans(),
)
def test_a_runs_record_names_answer_as_the_functions_do(
    path: str, root: str, name_first: bool
) -> None:
    """:class:`formats.Names` keeps what the record name's folder test found: asked in either
    order, it answers as the plain functions."""
    from adrguard.core.parse import formats

    names = formats.Names()
    if name_first:
        assert names.record_name(path, root) == formats.record_name(path, root)
    assert names.is_folder_record(path, root) == formats.is_folder_record(path, root)
    assert names.record_name(path, root) == formats.record_name(path, root)
    assert names.name_id(path, root) == formats.name_id(path, root)


@settings(max_examples=300, deadline=None)
@given(name=st.text(alphabet="ab/*?[]\\.{}!", max_size=8))
def test_a_configured_root_is_a_glob_as_the_pattern_finds_it(name: str) -> None:
    import re

    from adrguard.adapters import roots

    assert (not roots._GLOB.isdisjoint(name)) == (re.search(r"[*?\[]", name) is not None)
