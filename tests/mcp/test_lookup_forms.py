"""One record lookup: every front end names a record the same ways (id, number, path, the tail
of a path, the file stem), and refuses the same unknown or ambiguous names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcphelp import fails, ok

from adrguard.api.lookup import find_decision
from adrguard.cli import main
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, Decision

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

Accepted

## Context

See [the first](0001-first.md).

## Decision

Yes.

## Consequences

Some.
"""

FORMS = [
    "ADR-0002",
    "adr-0002",
    "2",
    "0002",
    "ADR-2",
    "#2",
    "docs/adr/0002-second-one.md",
    "0002-second-one.md",
    "adr/0002-second-one.md",
    "0002-second-one",
]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lookup") / "repo"
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, slug, title in [(1, "first", "First"), (2, "second-one", "Second one")]:
        (adr / f"{n:04d}-{slug}.md").write_text(RECORD.format(n=n, title=title), "utf-8")
    return root


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main([*argv, "--repo", str(root), "--no-cache"])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("form", FORMS)
def test_every_cli_front_end_accepts_the_same_forms(
    small: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    code, out = _cli(small, capsys, "show", form, "--format", "json")
    assert code == 0 and json.loads(out)["id"] == "ADR-0002", out
    code, out = _cli(small, capsys, "relationships", form, "--format", "json")
    assert code == 0 and json.loads(out)["decision"] == "ADR-0002", out
    code, out = _cli(small, capsys, "graph", "--format", "json", "--focus", form)
    assert code == 0 and "ADR-0002" in out, out
    code, out = _cli(small, capsys, "context", form, "--format", "json")
    assert code == 0 and json.loads(out)["units"][0]["identifier"] == "ADR-0002", out


@pytest.mark.anyio
@pytest.mark.parametrize("form", FORMS)
async def test_every_mcp_tool_accepts_the_same_forms(small: Path, form: str) -> None:
    assert (await ok(small, "get_adr", {"identifier": form}))["adr"]["identifier"] == "ADR-0002"
    related = await ok(small, "get_adr_relationships", {"identifier": form})
    assert related["adr"]["identifier"] == "ADR-0002"
    units = (await ok(small, "adr_context", {"identifier": form}))["units"]
    assert units[0]["identifier"] == "ADR-0002"


@pytest.mark.anyio
async def test_unknown_names_fail_alike(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["show", "9"], ["relationships", "9"], ["graph", "--focus", "9"]):
        code, out = _cli(small, capsys, *argv)
        assert code == 2 and "no decision matches '9'" in out, argv
    for tool in ("get_adr", "get_adr_relationships", "adr_context"):
        message = await fails(small, tool, {"identifier": "9"}, "invalid-params")
        assert "no decision matches '9'" in message


def _record(path: str, number: int) -> Decision:
    return Decision(id=f"ADR-{number:04d}", path=path, root=path.split("/")[0], number=number)


def test_ambiguous_names_say_so() -> None:
    corpus = Corpus(
        (_record("a/0003-x.md", 3), _record("b/0003-y.md", 3)), roots=("a", "b")
    )
    with pytest.raises(UserError, match="matches several decisions"):
        find_decision(corpus, "3")
    assert find_decision(corpus, "b/0003-y.md").path == "b/0003-y.md"
    assert find_decision(corpus, "0003-y").path == "b/0003-y.md"
