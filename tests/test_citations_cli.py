"""Citations end to end, in-process, on a real temporary git repository: code, documents and an
RFC-style document citing accepted, superseded, rejected, deprecated and unknown decisions.
Findings, ``citations``, ``show``, ``list``, ``search adr:N``, ``impact`` via citation, and the
MCP ``get_adr`` / ``search_adrs`` through the SDK's own client."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.schemas import validator

MYSQL = "# 1. Use MySQL\n\n## Status\n\nSuperseded by [2. Use Postgres](0002-use-postgres.md)\n"
POSTGRES = (
    "# 2. Use Postgres\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n"
)
KAFKA = "# 3. Use Kafka\n\n## Status\n\nRejected\n"
XML = "# 4. Config in XML\n\n## Status\n\nDeprecated\n"
DB_PY = """\
import os

# Sessions live in MySQL per ADR-0001.
POOL = 4  # pool size per ADR-0002
LABEL = "ADR-0001 in a string is no citation"
HADR_3 = 1  # an identifier that holds the letters
# docs: https://example.com/handbook/ADR-0003
"""
EVENTS_TS = """\
// Events go through Kafka (ADR-0003).
// adrguard-disable-next-line ADR602
// Old sessions code followed ADR-0001.
export const topic = "events";
"""
RFC = """\
---
title: Search
adrs: [2, 9]
---
# RFC 7: Search

| **ADRs** | 0002 (Postgres), 0004 |

We index as [the Postgres record](../adr/0002-use-postgres.md) says; retries follow ADR-0042.
"""
GUIDE = "# Guide\n\nSee [the log](adr/README.md) and `docs/adr/0002-use-postgres.md`.\n"


@pytest.fixture
def repo(tmp_path: Path) -> tuple[GitRepo, str]:
    r = GitRepo(tmp_path / "repo")
    r.write({
        "docs/adr/0001-use-mysql.md": MYSQL,
        "docs/adr/0002-use-postgres.md": POSTGRES,
        "docs/adr/0003-use-kafka.md": KAFKA,
        "docs/adr/0004-config-in-xml.md": XML,
        "docs/adr/README.md": "# Decisions\n",
        "src/db.py": DB_PY,
        "src/events.ts": EVENTS_TS,
        "docs/rfcs/0007-search.md": RFC,
        "docs/guide.md": GUIDE,
        "vendor/lib/x.py": "# ADR-0099 of another project\n",
        "src/app.py": "x = 1\n",
    })
    base = r.commit("base")
    r.write({"src/app.py": "# Retries as ADR-0002 says.\nx = 2\n"})
    r.commit("a change that cites a decision")
    return r, base


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv)
    assert code in (0, 1), err
    return json.loads(out)


def test_check_reports_each_kind_of_stale_citation(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    data = _json(capsys, "check", "--repo", str(r.path), "--format", "json",
                 "--select", "ADR601,ADR602,ADR603,ADR004")
    got = {(f["code"], f["path"], f["line"], f["severity"])
           for f in data["findings"]}
    assert got == {
        ("ADR602", "src/db.py", 3, "warning"),  # superseded
        ("ADR603", "src/events.ts", 1, "note"),  # rejected
        ("ADR601", "docs/rfcs/0007-search.md", 3, "warning"),  # front matter: no record 9
        ("ADR603", "docs/rfcs/0007-search.md", 7, "warning"),  # table row: deprecated
        ("ADR601", "docs/rfcs/0007-search.md", 9, "note"),  # a bare id: maybe another log's
    }
    superseded = next(f for f in data["findings"] if f["code"] == "ADR602")
    assert "ADR-0002 (Use Postgres)" in superseded["message"]  # the decision in force
    validator("report.schema.json").validate(data)


def test_citations_lists_every_citation_and_validates(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    data = _json(capsys, "citations", "--repo", str(r.path), "--format", "json")
    validator("citations.schema.json").validate(data)
    rows = {(c["path"], c["line"], c["form"], c["state"]) for c in data["citations"]}
    assert ("src/db.py", 3, "id", "resolved") in rows
    assert ("src/db.py", 4, "id", "resolved") in rows
    assert ("docs/rfcs/0007-search.md", 3, "front-matter", "unknown") in rows
    assert ("docs/rfcs/0007-search.md", 7, "table", "resolved") in rows
    assert ("docs/rfcs/0007-search.md", 9, "link", "resolved") in rows
    assert ("docs/guide.md", 3, "link", "resolved") in rows
    # not citations: a string literal, an identifier, a URL to another site, the log's README,
    # a vendored file
    assert not any(c["line"] in (5, 6, 7) for c in data["citations"] if c["path"] == "src/db.py")
    assert all(not c["path"].startswith("vendor/") for c in data["citations"])
    assert data["skipped"].get("vendored") == 1
    one = _json(capsys, "citations", "2", "--kind", "code", "--repo", str(r.path),
                "--format", "json")
    assert one["decision"]["id"] == "ADR-0002"
    assert {(c["path"], c["line"]) for c in one["citations"]} == {("src/db.py", 4),
                                                                  ("src/app.py", 1)}
    code, out, _ = run(capsys, "citations", "--state", "unknown", "--repo", str(r.path))
    assert code == 0
    assert "docs/rfcs/0007-search.md:9:" in out and "ADR-0042 -> unknown decision" in out


def test_show_and_list_say_who_relies_on_a_record(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    shown = _json(capsys, "show", "2", "--repo", str(r.path), "--format", "json")
    refs = shown["referencedBy"]
    assert {"kind": "decision", "id": "ADR-0001", "path": "docs/adr/0001-use-mysql.md",
            "title": "Use MySQL", "date": None} in refs
    cited = {(x["kind"], x["path"], x["line"]) for x in refs if x["kind"] != "decision"}
    assert ("code", "src/db.py", 4) in cited and ("doc", "docs/rfcs/0007-search.md", 7) in cited
    # each citing document with its title (front matter first) and date where it states them
    titles = {(x["path"], x["title"], x["date"]) for x in refs if x["kind"] != "decision"}
    assert ("docs/rfcs/0007-search.md", "Search", None) in titles
    assert ("docs/guide.md", "Guide", None) in titles and ("src/db.py", None, None) in titles
    code, out, _ = run(capsys, "show", "2", "--repo", str(r.path))
    assert code == 0 and "cited by:" in out and "src/db.py:4 (code)" in out
    listed = _json(capsys, "list", "--repo", str(r.path), "--format", "json")
    validator("list.schema.json").validate(listed)
    counts = {d["id"]: d["referencedBy"] for d in listed["decisions"]}
    assert counts["ADR-0002"] == {"decisions": 1, "code": 2, "doc": 2}
    assert counts["ADR-0003"] == {"decisions": 0, "code": 1, "doc": 0}


def test_search_adr_n_finds_the_citing_files(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    data = _json(capsys, "search", "adr:0002", "--repo", str(r.path), "--format", "json")
    assert [d["identifier"] for d in data["cites"]] == ["ADR-0002"]
    assert [h["identifier"] for h in data["results"]] == ["ADR-0001"]  # the record linking to it
    assert data["citationTotal"] == len(data["citations"])  # all of them: under the limit
    paths = {c["path"] for c in data["citations"]}
    assert paths == {"src/db.py", "src/app.py", "docs/rfcs/0007-search.md", "docs/guide.md"}
    narrowed = _json(capsys, "search", "adr:2 pool", "--repo", str(r.path), "--format", "json")
    assert [(c["path"], c["line"]) for c in narrowed["citations"]] == [("src/db.py", 4)]
    unknown = _json(capsys, "search", "adr:42", "--repo", str(r.path), "--format", "json")
    assert unknown["cites"] == [] and [c["line"] for c in unknown["citations"]] == [9]
    code, out, _ = run(capsys, "search", "adr:0002", "--repo", str(r.path))
    assert code == 0 and "citations of ADR-0002 in code and documents" in out


def test_impact_counts_a_changed_file_that_cites_a_decision(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    data = _json(capsys, "impact", "--base", "HEAD~1", "--repo", str(r.path), "--format", "json")
    validator("impact.schema.json").validate(data)
    affected = {a["id"]: a for a in data["affected"]}
    assert set(affected) == {"ADR-0002"}
    assert affected["ADR-0002"]["via"] == ["citation"]
    assert affected["ADR-0002"]["files"] == ["src/app.py"]


def test_config_turns_the_scan_off_and_checks_its_globs(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str]
) -> None:
    r, _ = repo
    r.write({".adrguard.toml": "[citations]\nenabled = false\n"})
    data = _json(capsys, "check", "--repo", str(r.path), "--format", "json")
    assert not [f for f in data["findings"] if f["code"].startswith("ADR6")]
    code, _, err = run(capsys, "citations", "--repo", str(r.path))
    assert code == 2 and err.startswith("error:") and "citations.enabled" in err
    r.write({".adrguard.toml": '[citations]\nexclude = ["docs/rfcs/**"]\n'})
    data = _json(capsys, "citations", "--repo", str(r.path), "--format", "json")
    assert data["skipped"]["config"] == 1
    assert all(not c["path"].startswith("docs/rfcs/") for c in data["citations"])
    r.write({".adrguard.toml": '[citations]\nexclude = ["src/[z-a].py"]\n'})
    code, _, err = run(capsys, "citations", "--repo", str(r.path))
    assert code == 2 and "citations.exclude" in err


def test_symlinks_are_never_followed(
    repo: tuple[GitRepo, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    r, _ = repo
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("# per ADR-0077\n")
    os.symlink(outside / "secret.py", r.path / "src" / "leak.py")
    os.symlink(outside, r.path / "linked")
    os.symlink(r.path / "src" / "db.py", r.path / "src" / "again.py")  # inside, but a link
    r.git("add", "-A")
    r.commit("links")
    data = _json(capsys, "citations", "--repo", str(r.path), "--format", "json")
    paths = {c["path"] for c in data["citations"]}
    assert not paths & {"src/leak.py", "src/again.py"}
    assert not any(p.startswith("linked/") for p in paths)
    assert data["skipped"]["symlink"] == 2


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_mcp_get_adr_and_search_adrs_carry_citations(repo: tuple[GitRepo, str]) -> None:
    from mcp import Client

    from adrguard.api.agent.surface import Workspace
    from adrguard.mcp.server import build_server

    r, _ = repo
    async with Client(build_server(Workspace.open(r.path, cache=False))) as client:
        got = await client.call_tool("get_adr", {"identifier": "ADR-0002"})
        assert not got.is_error  # the answer passed the published output model
        assert isinstance(got.structured_content, dict)
        data = got.structured_content["adr"]
        kinds = {(x["kind"], x["path"]) for x in data["referencedBy"]}
        assert ("decision", "docs/adr/0001-use-mysql.md") in kinds
        linking = {"kind": "decision", "identifier": "ADR-0001", "path": "docs/adr/0001-use-mysql.md",
                   "title": "Use MySQL", "date": None}
        assert linking in data["referencedBy"]
        assert ("code", "src/db.py") in kinds and ("doc", "docs/guide.md") in kinds
        # a long-lived server sees a tracked file that starts citing the record
        r.write({"src/events.ts": EVENTS_TS + "// Offsets live in Postgres (ADR-0002).\n"})
        again = await client.call_tool("get_adr", {"identifier": "ADR-0002"})
        assert isinstance(again.structured_content, dict)
        referrers = again.structured_content["adr"]["referencedBy"]
        assert "src/events.ts" in {x["path"] for x in referrers}
        found = await client.call_tool("search_adrs", {"query": "adr:0003"})
        assert not found.is_error
        result = found.structured_content
        assert isinstance(result, dict)
        assert [(c["path"], c["line"]) for c in result["citations"]] == [("src/events.ts", 1)]
        assert [d["identifier"] for d in result["cites"]] == ["ADR-0003"]
        assert result["citations"][0]["decision"]["identifier"] == "ADR-0003"
        assert result["citationTotal"] == 1
        plain = await client.call_tool("search_adrs", {"query": "postgres"})
        assert isinstance(plain.structured_content, dict)
        assert "citations" not in plain.structured_content  # only adr:ID terms add them
