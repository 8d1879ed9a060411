"""Supersession in any language, read from text written for these tests: a status that names its
successor after a word for "deprecated", passive and agent-first forms, relation keys written as
body lines or table rows, and prose in which the record replaces another."""

from __future__ import annotations

import pytest

from adrguard.core.model import Decision, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse import successors
from adrguard.core.parse.record import parse

ROOT = "docs/adr"


def rec(text: str, name: str = "0003-old-cache.md") -> Decision:
    return parse(SourceFile(path=f"{ROOT}/{name}", root=ROOT, data=text.encode()), Options())


def rels(d: Decision) -> list[tuple[str, str]]:
    return [(r.kind.value, r.target_raw) for r in d.relationships]


def with_status(heading: str, value: str) -> str:
    return f"# 3. Old cache\n\n## {heading}\n\n{value}\n\n## Context\n\nThe cache is slow.\n"


@pytest.mark.parametrize(
    ("heading", "value"),
    [
        # a native word for abolished / deprecated, then the successor
        ("ステータス", "廃止済み — superseded by [キャッシュ刷新](./0004-new-cache.md)"),
        ("ステータス", "廃止（[新しいキャッシュ](0004-new-cache.md) によって置き換え）"),
        ("状态", "已弃用；由 [第 4 号决策](0004-new-cache.md) 取代"),
        ("Status", "Veraltet, abgelöst durch [ADR 4](0004-new-cache.md)"),
        ("Statut", "Obsolète (remplacé par l'[ADR 4](0004-new-cache.md))"),
        ("Estado", "Obsoleto, reemplazado por [ADR 4](0004-new-cache.md)"),
        ("Status", "Descontinuado; substituído por [ADR 4](0004-new-cache.md)"),
        ("Stato", "Deprecato, sostituito da [ADR 4](0004-new-cache.md)"),
        ("Status", "Verouderd, vervangen door [ADR 4](0004-new-cache.md)"),
        ("상태", "폐기됨 ([ADR 4](0004-new-cache.md)로 대체)"),
        ("상태", "대체됨: [ADR 4](0004-new-cache.md)"),
        # passive forms
        ("状态", "现已被 [第 4 号决策](0004-new-cache.md) 所取代"),
        ("状态", "已被 [新的缓存方案](0004-new-cache.md) 替代"),
        ("ステータス", "[ADR-0004](0004-new-cache.md) に置き換え"),
        ("상태", "[ADR 4](0004-new-cache.md)에 의해 대체됨"),
        ("Status", "Deprecated and superseded by [ADR 4](0004-new-cache.md)"),
        ("Status", "This ADR has been replaced by [ADR 4](0004-new-cache.md)."),
    ],
)
def test_a_successor_in_the_status_decides_it(heading: str, value: str) -> None:
    d = rec(with_status(heading, value))
    assert d.status is Status.SUPERSEDED
    assert rels(d) == [("superseded-by", d.relationships[0].target_raw)]
    assert d.relationships[0].target_raw.lstrip("./") == "0004-new-cache.md"


def test_a_successor_named_by_id_only() -> None:
    d = rec(with_status("状态", "废弃，由 ADR-0004 取代"))
    assert (d.status, rels(d)) == (Status.SUPERSEDED, [("superseded-by", "ADR-0004")])


@pytest.mark.parametrize(
    "value",
    [
        "已接受（缓存部分已被 [ADR 4](0004-new-cache.md) 取代）",
        "accepted（第 2、3 条已被 [ADR 4](0004-new-cache.md) 取代；其余继续有效）",
        "Accepted (the eviction part was superseded by [ADR 4](0004-new-cache.md))",
        "Accepted, partly superseded by [ADR 4](0004-new-cache.md)",
        "採用（一部は [ADR-0004](0004-new-cache.md) によって置き換え）",
    ],
)
def test_a_part_replaced_leaves_the_record_in_force(value: str) -> None:
    d = rec(with_status("Status", value))
    assert d.status is Status.ACCEPTED
    assert rels(d) == [("amended-by", "0004-new-cache.md")]


@pytest.mark.parametrize(
    "value",
    [
        "Deprecated (no superseding ADR)",
        "废弃（由新的缓存方案取代）",  # relation wording without a target
        "Accepted",
    ],
)
def test_no_target_no_successor(value: str) -> None:
    d = rec(with_status("Status", value))
    assert d.status is not Status.SUPERSEDED
    assert rels(d) == []


def test_another_record_as_the_subject_is_not_this_records_successor() -> None:
    d = rec("# 7. Queues\n\n## Context\n\n[ADR 3](0003-a.md) 已被 [ADR 5](0005-b.md) 取代。\n")
    assert rels(d) == []
    d = rec("# 7. Queues\n\n## Context\n\nThe old cache was superseded by [ADR 5](0005-b.md).\n")
    assert rels(d) == []


def test_a_banner_in_the_body_names_the_successor() -> None:
    d = rec("**已被 [ADR 0006](0006-tri.md) 取代**：保留本文档用于记录历史。\n\n# 双语文档\n")
    assert rels(d) == [("superseded-by", "0006-tri.md")]
    d = rec("# 3. Old\n\n> 本 ADR 已被 [ADR-0020](./0020-new.md) 替代。\n")
    assert rels(d) == [("superseded-by", "./0020-new.md")]


@pytest.mark.parametrize(
    ("line", "kind", "target"),
    [
        ("superseded_by: 0007-new-way", "superseded-by", "0007-new-way"),
        ("Superseded-By: 0007", "superseded-by", "0007"),
        ("supersedes: ADR-0002", "supersedes", "ADR-0002"),
        ("replaced_by: [the new way](0007-new-way.md)", "superseded-by", "0007-new-way.md"),
        ("supersedes: parts of ADR-0002", "amends", "ADR-0002"),
    ],
)
def test_a_relation_key_written_as_a_body_line(line: str, kind: str, target: str) -> None:
    d = rec(f"# 3. Old way\n\nstatus: superseded\n{line}\n\n## Context\n\nText.\n")
    assert rels(d) == [(kind, target)]


@pytest.mark.parametrize("value", ["N/A", "none", "—", "(none)", "なし"])
def test_a_relation_key_that_says_none_declares_nothing(value: str) -> None:
    assert rels(rec(f"# 3. Old way\n\nstatus: accepted\nsuperseded_by: {value}\n")) == []


def test_relation_rows_of_a_metadata_table() -> None:
    text = (
        "# 3. Old way\n\n| Field | Value |\n|---|---|\n| Status | Superseded |\n"
        "| Superseded by | [ADR 7](0007-new-way.md) |\n| Supersedes | — |\n"
    )
    d = rec(text)
    assert (d.status, rels(d)) == (Status.SUPERSEDED, [("superseded-by", "0007-new-way.md")])


@pytest.mark.parametrize(
    ("prose", "kind", "targets"),
    [
        ("This supersedes [ADR 3](0003-a.md).", "supersedes", ["0003-a.md"]),
        ("This supercedes the [rejected RFC 2](rfc-2.md).", "supersedes", ["rfc-2.md"]),
        ("Diese Entscheidung ersetzt [ADR 3](0003-a.md).", "supersedes", ["0003-a.md"]),
        ("Cette décision remplace [ADR 3](0003-a.md).", "supersedes", ["0003-a.md"]),
        ("Esta decisión reemplaza a [ADR 3](0003-a.md).", "supersedes", ["0003-a.md"]),
        ("本决策取代 [ADR 3](0003-a.md)。", "supersedes", ["0003-a.md"]),
        ("取代 ADR 3。", "supersedes", ["ADR 3"]),
        ("ADR-0003を廃止する。", "supersedes", ["ADR-0003"]),
        ("ADR-0001（旧方式）およびADR-0002を置き換える。", "supersedes", ["ADR-0001", "ADR-0002"]),
        ("이 ADR은 [ADR 0001](0001-a.md)을 대체한다.", "supersedes", ["0001-a.md"]),
        ("This partially supersedes [ADR 3](0003-a.md).", "amends", ["0003-a.md"]),
    ],
)
def test_prose_in_which_the_record_replaces_another(
    prose: str, kind: str, targets: list[str]
) -> None:
    d = rec(f"# 9. New way\n\n## Status\n\nAccepted\n\n## Decision\n\n{prose}\n", "0009-new.md")
    assert rels(d) == [(kind, t) for t in targets]


@pytest.mark.parametrize(
    "prose",
    [
        "This replaces [the old approach](../guides/cache.md).",  # names no record
        "取代 ADR 3 中的缓存方案。",  # a part of ADR 3
        "ADR-0003を廃止しない。",  # negated
        "ADR-0003を廃止する予定。",  # a plan
        "[ADR 5](0005-b.md) 取代 [ADR 3](0003-a.md)。",  # another record is the subject
        "This replaces usage of the old tool.",
        "One decision supercedes another.",
    ],
)
def test_prose_that_declares_nothing(prose: str) -> None:
    d = rec(f"# 9. New way\n\n## Decision\n\n{prose}\n", "0009-new.md")
    assert rels(d) == []


def test_targets_are_marked_in_linear_time() -> None:
    line = "superseded by " + "ADR-1 and " * 5000 + "已被 " * 5000
    marked = successors.mark(line)
    assert marked.text.count(successors.MARK) == 5000
    assert len(successors.phrases(marked, status=True)) >= 1
