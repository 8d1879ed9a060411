"""Receipts: the bounded retrieval to call instead, as a shell command (every argument quoted)
and as the MCP call with its arguments."""

from __future__ import annotations

import shlex

from adrguard.core.guard.receipts import exclusion_glob, for_record, for_search, topic_of


def test_a_record_receipt() -> None:
    receipt = for_record("docs/adr/archive/0002-use-mysql.md")
    assert receipt.to_json() == {
        "command": "adrguard context docs/adr/archive/0002-use-mysql.md",
        "mcp": {"tool": "adr_context",
                "arguments": {"identifier": "docs/adr/archive/0002-use-mysql.md"}},
        "history": {"command": "adrguard show docs/adr/archive/0002-use-mysql.md",
                    "mcp": {"tool": "get_adr",
                            "arguments": {"identifier": "docs/adr/archive/0002-use-mysql.md",
                                          "history": True}}},
    }
    assert 'adr_context {"identifier": "docs/adr/archive/0002-use-mysql.md"}' in receipt.text()


def test_a_hostile_path_is_quoted_and_neutralised() -> None:
    path = "docs/adr/archive/$(rm -rf ~); `x`\x1b[31m.md"
    receipt = for_record(path)
    assert shlex.split(receipt.command) == ["adrguard", "context", path]
    assert "\x1b" not in receipt.text()


def test_search_receipts_name_the_words_of_the_pattern() -> None:
    assert topic_of(r"\bevent[- ]sourc(e|ing)\b") == "event sourc ing"
    assert topic_of(".*") is None
    assert topic_of("a" * 300 + " b") is None  # one word longer than a topic: none
    assert len(topic_of(" ".join(f"w{i:03d}" for i in range(200))) or "") <= 256
    assert for_search("use mysql").arguments == {"topic": "use mysql"}
    assert for_search("use mysql").command == "adrguard context --topic 'use mysql'"
    overview = for_search("[0-9]+")
    assert overview.command == "adrguard context" and overview.arguments == {}


def test_the_glob_that_leaves_the_log_out() -> None:
    assert exclusion_glob(["docs/adr"]) == "!docs/adr/**"
    assert exclusion_glob(["docs/adr", "svc/docs/adr"]) == "!{docs/adr,svc/docs/adr}/**"
    assert exclusion_glob(["."]) == "!**/*.md"
