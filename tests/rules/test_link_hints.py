"""The "did you mean" of ADR201: it names the file meant, and never guesses across prefixes."""

from __future__ import annotations

from pathlib import Path

from adrguard import api


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (root / ".adrguard.toml").write_text('select = ["ADR201"]\n', encoding="utf-8")


def _messages(root: Path) -> list[str]:
    return [f.message for f in api.check(root).findings if f.code == "ADR201"]


def test_a_record_moved_away_from_its_picture_is_pointed_back_to_it(tmp_path: Path) -> None:
    _write(tmp_path, {
        "notes/decisions/pictures/flow-chart.png": "png",
        "notes/archive/0001-poll.md": "# 1. Poll\n\n## Status\n\nAccepted\n\n"
                                       "![flow](pictures/flow-chart.png)\n",
        "notes/decisions/0002-push.md": "# 2. Push\n\n## Status\n\nAccepted\n",
    })
    (tmp_path / ".adrguard.toml").write_text(
        'select = ["ADR201"]\nroots = ["notes/archive", "notes/decisions"]\n', encoding="utf-8"
    )
    [message] = _messages(tmp_path)
    assert "did you mean ../decisions/pictures/flow-chart.png?" in message


def test_a_name_two_files_share_gets_no_guess(tmp_path: Path) -> None:
    _write(tmp_path, {
        "a/flow-chart.png": "png",
        "b/flow-chart.png": "png",
        "docs/adr/0001-poll.md": "# 1. Poll\n\n## Status\n\nAccepted\n\n"
                                 "![flow](pictures/flow-chart.png)\n",
    })
    [message] = _messages(tmp_path)
    assert "did you mean" not in message
    assert "fix the path or remove the image" in message


def test_a_number_under_another_prefix_is_not_suggested(tmp_path: Path) -> None:
    _write(tmp_path, {
        "specs/spec-0020.md": "# Token\n\n## Status\n\nFinal\n",
        "specs/spec-0021.md": "# Wallet\n\n## Status\n\nFinal\n\nLike [TIP-20](./tip-20.md).\n",
        "specs/spec-0022.md": "# Fees\n\n## Status\n\nFinal\n\nAfter [SPEC-20](./spec-20.md).\n",
    })
    (tmp_path / ".adrguard.toml").write_text(
        'select = ["ADR201"]\nroots = ["specs"]\n', encoding="utf-8"
    )
    by_line = {m.split(" does not exist")[0]: m for m in _messages(tmp_path)}
    assert "did you mean" not in by_line["broken link: ./tip-20.md"]
    assert "did you mean spec-0020.md?" in by_line["broken link: ./spec-20.md"]


def test_an_anchor_declared_with_its_hash_sign_is_named_as_such(tmp_path: Path) -> None:
    _write(tmp_path, {
        "docs/adr/0001-pick.md": "# 1. Pick\n\nThe [weight](#weight) decides.\n\n## Status\n\n"
                                 "Accepted\n\n<span id=\"#weight\"></span>The weight.\n",
    })
    (tmp_path / ".adrguard.toml").write_text('select = ["ADR202"]\n', encoding="utf-8")
    [finding] = [f for f in api.check(tmp_path).findings if f.code == "ADR202"]
    assert 'declared as id="#weight"' in finding.message
    assert "did you mean" not in finding.message


def test_a_citation_of_a_renamed_record_says_it_does_not_exist_and_names_the_record(
    tmp_path: Path,
) -> None:
    _write(tmp_path, {
        "docs/adr/0001-use-a-queue.md": "# 1. Use a queue\n\n## Status\n\nAccepted\n",
        "docs/adr/0002-retry-twice.md": "# 2. Retry twice\n\n## Status\n\nAccepted\n",
        "specs/retries.md": "# Retries\n\nSee [ADR 2](../docs/adr/0002-retry-three-times.md).\n",
    })
    (tmp_path / ".adrguard.toml").write_text(
        'select = ["ADR601"]\n[citations]\nenabled = true\n', encoding="utf-8"
    )
    [finding] = [f for f in api.check(tmp_path).findings if f.code == "ADR601"]
    assert "which does not exist; record 2 there is docs/adr/0002-retry-twice.md" in (
        finding.message
    )


def test_a_record_numbered_after_it_was_linked_is_suggested(tmp_path: Path) -> None:
    _write(tmp_path, {
        "proposals/PRO-0007-opt-in.md": "# Opt-in\n\n## Status\n\nAccepted\n",
        "proposals/PRO-0009-markers.md": "# Markers\n\n## Status\n\nAccepted\n\n"
                                         "Uses [opt-in](opt-in.md).\n",
    })
    (tmp_path / ".adrguard.toml").write_text(
        'select = ["ADR201"]\nroots = ["proposals"]\n', encoding="utf-8"
    )
    [message] = _messages(tmp_path)
    assert "did you mean PRO-0007-opt-in.md?" in message


def test_addresses_written_without_their_scheme_are_named(tmp_path: Path) -> None:
    _write(tmp_path, {
        "docs/adr/0001-pick.md": "# 1. Pick\n\n## Status\n\nAccepted\n\n"
                                 "By [Ann](ann@example.org), see [the issue](example.org/issue/7)"
                                 " and [the script](tools/run.sh).\n",
    })
    messages = _messages(tmp_path)
    assert any("write mailto:ann@example.org" in m for m in messages)
    assert any("write https://example.org/issue/7" in m for m in messages)
    assert any("tools/run.sh" in m and "fix the path or remove the link" in m for m in messages)
