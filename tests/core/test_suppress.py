"""Suppression comments and code/prefix/name matching."""

from __future__ import annotations

import pytest

from adrguard.core.gate import suppress
from adrguard.core.model import Comment, Decision


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("<!-- adrguard-disable ADR104 -->", ("file", ("ADR104",))),
        ("<!--adrguard-disable-next-line adr201-->", ("next-line", ("adr201",))),
        (
            "<!-- adrguard-disable ADR104,ADR2  broken-link -->",
            ("file", ("ADR104", "ADR2", "broken-link")),
        ),
        (
            "<!-- adrguard-disable-next-line ADR201 -- the target is generated -->",
            ("next-line", ("ADR201",)),
        ),
        ("<!-- adrguard-disable -->", ("file", ())),
        (" adrguard-disable ADR104 ", ("file", ("ADR104",))),
        ("<!-- adrguard-disabled ADR104 -->", None),
        ("<!-- adrguard-disable-next ADR104 -->", None),
        ("<!-- vale off -->", None),
    ],
)
def test_parse_directive(comment: str, expected: tuple[str, tuple[str, ...]] | None) -> None:
    assert suppress.parse_directive(comment) == expected


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("ADR104", suppress.EXACT),
        ("adr104", suppress.EXACT),
        ("missing-section", suppress.EXACT),
        ("Missing-Section", suppress.EXACT),
        ("ADR", 3),
        ("ADR1", 4),
        ("ADR10", 5),
        ("ADR2", None),
        ("ADR1040", None),
        ("missing", None),
        ("", None),
    ],
)
def test_specificity(selector: str, expected: int | None) -> None:
    assert suppress.specificity(selector, "ADR104", "missing-section") == expected


def test_best_match_prefers_the_most_specific() -> None:
    assert suppress.best_match(["ADR", "ADR10", "ADR1"], "ADR104", "missing-section") == 5
    exact = suppress.best_match(["ADR1", "missing-section"], "ADR104", "missing-section")
    assert exact == suppress.EXACT
    assert suppress.best_match(["ADR2"], "ADR104", "missing-section") is None


def test_is_known() -> None:
    rules = [("ADR104", "missing-section"), ("ADR201", "broken-link")]
    assert suppress.is_known("ADR2", rules)
    assert suppress.is_known("broken-link", rules)
    assert not suppress.is_known("ADR3", rules)
    assert not suppress.is_known("ADR1044", rules)


def test_suppressions_find_the_next_non_blank_line() -> None:
    text = (
        "# 1. A\n\n<!-- adrguard-disable-next-line ADR201 -->\n\n   \n[x](y.md)\n"
        "<!--\nadrguard-disable ADR1\n-->\n"
    )
    d = Decision(
        id="ADR-0001",
        path="docs/adr/0001-a.md",
        root="docs/adr",
        text=text,
        body_line_offset=2,
        comments=(
            Comment("<!-- adrguard-disable-next-line ADR201 -->", 5),
            Comment("<!-- a plain comment -->", 6),
            Comment("<!--\nadrguard-disable ADR1\n-->", 9),
        ),
    )
    found = suppress.suppressions(d)
    assert found == (
        suppress.Suppression("next-line", ("ADR201",), 5, 8),
        suppress.Suppression("file", ("ADR1",), 9, None),
    )


def test_next_line_at_the_end_covers_nothing() -> None:
    d = Decision(
        id="ADR-0001",
        path="a.md",
        root=".",
        text="# A\n<!-- adrguard-disable-next-line ADR201 -->\n\n",
        comments=(Comment("<!-- adrguard-disable-next-line ADR201 -->", 2),),
    )
    (only,) = suppress.suppressions(d)
    assert only.target_line is None
