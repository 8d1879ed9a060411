"""Whole-pipeline fuzzing: hypothesis builds small repositories out of hostile pieces (globs
with reversed ranges, catastrophic and invalid regexes, control characters and workflow
commands, floods of comment openers and suppression comments) and runs the real CLI on each.
adrguard must never crash (exit 3) nor hang (a deadline per example), and its output must never
hold a raw control character or a workflow command the GitHub runner would run."""

from __future__ import annotations

import json
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_workflow_commands import UNSAFE_RAW, executed

from adrguard.cli import main

PIECES = [
    "<!--", "-->", "](", ")", "[", "]", "`", "```", "<a:", ">", "::error::x", "##[warning]",
    "\x1b[31m", "\u202e", "\x85", "\r", "\n", "\n\n", "  ", "ADR-7", "ADR-0001", "#", "## ",
    "<!-- adrguard-disable ADR201 -->", "<!-- adrguard-disable-next-line x y -->",
    "[link](missing.md)", "[self](0001-a.md)", "Status: Accepted", "Superseded by ADR-0002",
    "a", "é", "\t", "*", "_", "|",
]
GLOBS = ["src/**", "[z-a]", "src/[9-0]*.py", "**", "!src", "/abs", "../up", "a[", "\\", "*.py",
         "src/[!a-z]/x", "", "[[:alpha:]]", "**/***"]
PATTERNS = [None, r"\bADR-(\d+)\b", "(a+)+$", "(x|x)*y", "(ADR", "a{1000}{1000}", "(?=a)",
            r"\d+", "^(a|aa)+$", "", ".*", "(?i)adr[- ]?(\\d+)"]
SCHEMAS = [None, {"properties": {"id": {"pattern": "^(a+)+$"}}},
           {"patternProperties": {"(x+x+)+y": {"type": "string"}}, "additionalProperties": False},
           {"properties": {"status": {"$ref": "https://example.invalid/x"}}},
           {"type": "object", "required": ["status"]}]

text = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
flood = st.tuples(st.sampled_from(["<!--", "<!-- adrguard-disable ADR2 -->\n", "](", "`",
                                   "[z-a]", "::a::\n"]),
                  st.integers(0, 3000)).map(lambda t: t[0] * t[1])


@st.composite
def repository(draw: st.DrawFn) -> dict[str, str]:
    files: dict[str, str] = {}
    config: list[str] = []
    pattern = draw(st.sampled_from(PATTERNS))
    if pattern is not None:
        config.append(f"decision-id-pattern = {json.dumps(pattern)}")
    schema = draw(st.sampled_from(SCHEMAS))
    if schema is not None:
        files["adr.schema.json"] = json.dumps(schema)
        config.append('frontmatter-schema = "adr.schema.json"')
    if config:
        files[".adrguard.toml"] = "\n".join(config) + "\n"
    if draw(st.booleans()):
        files[".adrguard-impact.json"] = json.dumps({"schemaVersion": 1, "mappings": [
            {"paths": draw(st.lists(st.sampled_from(GLOBS), min_size=1, max_size=3)),
             "decision": "ADR-0001"}]})
    for n in range(1, draw(st.integers(1, 4)) + 1):
        globs = draw(st.lists(st.sampled_from(GLOBS), max_size=3))
        title = draw(text).replace("\n", " ")
        front = f"---\naffected-paths: {json.dumps(globs)}\nscope: {json.dumps(globs[:1])}\n---\n"
        body = f"# {n}. {title}\n\n## Status\n\n{draw(text)}\n\n{draw(text)}{draw(flood)}\n"
        name = draw(st.sampled_from(["a", "::error::x", "##[b", "c d", "é"]))
        files[f"docs/adr/{n:04d}-{name}.md"] = (front if draw(st.booleans()) else "") + body
    files["src/app.py"] = "x = 1\n"
    return files


@settings(max_examples=60, deadline=timedelta(seconds=20),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])  # capsys is drained
@given(files=repository(), fmt=st.sampled_from(["text", "json", "github", "markdown", "sarif"]))
def test_hostile_repositories_never_crash_hang_or_inject(
    files: dict[str, str], fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, content in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8", newline="")
        capsys.readouterr()
        code = main(["check", "--no-cache", "--repo", tmp, "--format", fmt])
        out, err = capsys.readouterr()
        assert code in (0, 1, 2), err
        if code == 2:
            assert err.startswith("error: ") and err.count("\n") == 1, err
        assert not UNSAFE_RAW.search(out + err)
        commands = executed(out + "\n" + err)
        if fmt == "github":  # annotations are commands on purpose, one per line
            assert set(commands) <= {"error", "warning", "notice"}
            assert len(commands) == out.count("\n")
        else:
            assert commands == []
        for other in (["list"], ["graph"], ["search", "ADR"]):
            capsys.readouterr()
            assert main([*other, "--no-cache", "--repo", tmp]) in (0, 1, 2)
            out, err = capsys.readouterr()
            assert executed(out + "\n" + err) == [] and not UNSAFE_RAW.search(out + err)
