"""Untrusted ADR text must stay inert: workflow commands for GitHub, Markdown for PR comments."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pyromark
import pytest

from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import Location
from adrguard.reporters import REPORTERS, DecisionInfo, ReportContext
from adrguard.reporters.github import escape_data, escape_property
from adrguard.reporters.markdown import escape

COMMAND = re.compile(r"^::(error|warning|notice)( [^:]*)?::(.*)$")
HOSTILE = "one, two: 100%\r\nnext line ::error::pwned\n::warning file=x::y %0A"


def _finding(
    severity: Severity, message: str, path: str = "docs/adr/0001-a.md", n: int = 1
) -> Finding:
    return Finding(
        "ADR303", "relationship-cycle", severity, message, Location(path, n, 2), "ADR-0001"
    )


def _unescape_data(value: str) -> str:
    return value.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def _properties(raw: str) -> dict[str, str]:
    pairs = (item.split("=", 1) for item in raw.strip().split(","))
    return {
        key: _unescape_data(value.replace("%3A", ":").replace("%2C", ",")) for key, value in pairs
    }


# GitHub workflow commands ---------------------------------------------------------------------


def test_escape_rules() -> None:
    assert escape_data("50%\nnext\r") == "50%25%0Anext%0D"
    assert escape_property("a: b, c%") == "a%3A b%2C c%25"
    assert escape_data("a: b, c") == "a: b, c"
    assert escape_data("a\x1b[2Kb\tc\u202e") == "a\ufffd[2Kb c\ufffd"


def test_hostile_message_and_path_stay_one_command(ctx: ReportContext) -> None:
    path = "docs/adr/0001-a,b:c %d.md"
    report = Report((_finding(Severity.ERROR, HOSTILE, path, 7),), 1, 1)
    out = REPORTERS["github"](report, ctx)
    lines = out.splitlines()
    assert out.endswith("\n") and len(lines) == 1 and "\r" not in out
    m = COMMAND.match(lines[0])
    assert m is not None and m.group(1) == "error"
    props = _properties(m.group(2))
    assert props == {
        "file": path,
        "line": "7",
        "col": "2",
        "title": "adrguard ADR303 (relationship-cycle)",
    }
    assert _unescape_data(m.group(3)) == HOSTILE
    assert "%250A" in m.group(3)  # a literal "%0A" in the text is not turned into a newline


def test_at_most_ten_per_level_most_severe_first(ctx: ReportContext) -> None:
    findings = [_finding(Severity.NOTE, f"note {i}", n=i + 1) for i in range(12)]
    findings += [_finding(Severity.ERROR, f"error {i}", n=i + 1) for i in range(25)]
    findings += [_finding(Severity.WARNING, f"warning {i}", n=i + 1) for i in range(3)]
    report = Report(tuple(sorted(findings, key=lambda f: f.sort_key)), 40, 40)
    lines = REPORTERS["github"](report, ctx).splitlines()
    kinds = [COMMAND.match(line).group(1) for line in lines]  # type: ignore[union-attr]
    assert kinds == ["error"] * 10 + ["warning"] * 3 + ["notice"] * 9 + ["notice"]
    assert lines[-1].startswith("::notice title=adrguard%3A 18 more findings::")
    assert "18 more findings (15 errors, 3 notes) not shown" in lines[-1]
    assert [line.rsplit("::", 1)[1] for line in lines[:3]] == ["error 0", "error 1", "error 2"]


def test_ten_notes_and_nothing_hidden_use_all_ten(ctx: ReportContext) -> None:
    findings = tuple(_finding(Severity.NOTE, f"n{i}", n=i + 1) for i in range(10))
    lines = REPORTERS["github"](Report(findings, 1, 1), ctx).splitlines()
    assert len(lines) == 10 and all(line.startswith("::notice file=") for line in lines)


def test_no_findings_no_commands(ctx: ReportContext) -> None:
    assert REPORTERS["github"](Report((), 3, 3), ctx) == ""


# Markdown ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ping @org/team", "ping @&#8203;org/team"),
        ("fixes #123 and GH-7", "fixes #&#8203;123 and GH&#8203;-7"),
        ("# heading-ish #abc", "# heading-ish #abc"),
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("[a](https://x.io)", "\\[a\\](https&#8203;://x.io)"),
        ("![i](p.png)", "!\\[i\\](p.png)"),
        ("a|b `c`", "a\\|b \\`c\\`"),
        ("line1\r\nline2\nline3", "line1<br>line2<br>line3"),
        ("see www.evil.com", "see www&#8203;.evil.com"),
        ("x&amp;y", "x&amp;amp;y"),
        ("$x$ *b* _i_ ~s~ \\", "\\$x\\$ \\*b\\* \\_i\\_ \\~s\\~ \\\\"),
        ("bell\x07 bidi\u202e tab\t.", "bell\ufffd bidi\ufffd tab ."),
        ("café ✓", "café ✓"),
    ],
)
def test_markdown_escape(raw: str, expected: str) -> None:
    assert escape(raw) == expected


def _html(markdown: str) -> str:
    return str(pyromark.html(markdown, options=pyromark.Options.ENABLE_TABLES))


def test_rendered_markdown_is_inert(tricky: Report, ctx: ReportContext) -> None:
    md = REPORTERS["markdown"](tricky, ctx)
    html = _html(md)
    assert "<img" not in html and "&lt;img src=x" in html
    assert 'href="https://evil' not in html
    links = re.findall(r'href="([^"]*)"', html)
    assert links and all(link.startswith("https://github.com/adrguard/adrguard/") for link in links)
    assert re.search(r"@(?!&#8203;|\u200b)", md) is None
    assert re.search(r"(?<!&)#\d", md) is None
    assert "<em>" not in html and "<strong>" not in html.split("<table>")[1]
    # the table keeps its shape: one row per finding, five cells each
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    assert len(rows) == len(tricky.findings)
    assert all(row.count("<td") == 5 for row in rows)


def test_markdown_orders_by_severity_and_names_decisions(
    tricky: Report, ctx: ReportContext
) -> None:
    md = REPORTERS["markdown"](tricky, ctx)
    rows = [
        line
        for line in md.splitlines()
        if line.startswith("| 🔴") or line.startswith("| 🟡") or line.startswith("| 🔵")
    ]
    assert [r.split(" ", 3)[2] for r in rows] == ["error", "error", "error", "warning", "note"]
    assert "ADR-0001: Use Kafka" in md
    assert "Decisions by status: 2 accepted, 1 no status, 1 proposed." in md


def test_markdown_links_files_when_the_repository_is_known(ctx: ReportContext) -> None:
    from msgspec.structs import replace

    report = Report((_finding(Severity.WARNING, "m", "docs/adr/0001 a#b.md", 9),), 1, 1)
    md = REPORTERS["markdown"](report, replace(ctx, repo_url="https://github.com/o/r/"))
    target = "https://github.com/o/r/blob/HEAD/docs/adr/0001%20a%23b.md#L9"
    assert f"[docs/adr/0001 a#b.md:9]({target})" in md
    assert unquote(target.split("HEAD/")[1].split("#L")[0]) == "docs/adr/0001 a#b.md"


def test_markdown_clean(clean: Report, ctx: ReportContext) -> None:
    md = REPORTERS["markdown"](clean, ReportContext(version="1"))
    assert md == "## adrguard\n\n✅ No problems found in 1 decision (1 file) · profile strict\n"
    assert "Decisions by status" in REPORTERS["markdown"](clean, ctx)


def test_decision_titles_are_escaped(ctx: ReportContext) -> None:
    info = DecisionInfo("ADR-0009", "docs/adr/0009.md", "<script>@x</script>", "accepted")
    ctx2 = ReportContext(version="1", decisions={"ADR-0009": info})
    f = Finding("ADR303", "relationship-cycle", Severity.ERROR, "m", Location("a.md"), "ADR-0009")
    md = REPORTERS["markdown"](Report((f,), 1, 1), ctx2)
    assert "ADR-0009: &lt;script&gt;@&#8203;x&lt;/script&gt;" in md


def test_markdown_cut_to_a_size_limit(ctx: ReportContext) -> None:
    from adrguard.reporters.markdown import render

    findings = tuple(
        _finding(Severity.WARNING, f"message {i} " + "x" * 80, f"docs/adr/{i:04d}-r.md", 3)
        for i in range(2000)
    )
    report = Report(findings, 2000, 2000)
    full = render(report, ctx)
    assert len(full.encode("utf-8")) > 65_536 and "not shown" not in full
    cut = render(report, ctx, max_bytes=65_536)
    assert len(cut.encode("utf-8")) <= 65_536
    shown = sum(1 for line in cut.splitlines() if line.startswith("| 🟡"))
    assert 0 < shown < 2000
    assert f"**{2000 - shown} more findings not shown**" in cut
    assert cut.endswith("</sub>\n")
    assert render(report, ctx, max_bytes=10_000_000) == full
