"""Generated documentation must not drift from its sources, and the README must stay true."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from adrguard.reporters.catalogue import expected_docs


def test_rule_pages_match_docstrings(repo_dir: Path) -> None:
    docs = repo_dir / "docs" / "rules"
    expected = expected_docs()
    committed = {p.name: p.read_text(encoding="utf-8") for p in docs.glob("*.md")}
    stale = sorted(n for n in expected if committed.get(n) != expected[n])
    extra = sorted(set(committed) - set(expected))
    assert not stale and not extra, (
        f"docs/rules drifted (stale: {stale}, extra: {extra}); "
        "regenerate with: adrguard rules --write-docs docs/rules"
    )


def test_readme_starts_with_the_two_setup_commands(repo_dir: Path) -> None:
    text = (repo_dir / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    assert "pip install" in blocks[0] and "adrguard check" in blocks[0]
    assert blocks[1].strip() == "python -m pytest"
    ci = (repo_dir / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in ci


@pytest.mark.parametrize("extra", [[], ["-q"]], ids=["as written", "with -q"])
def test_the_readme_test_command_shows_the_summary_line(
    repo_dir: Path, tmp_path: Path, extra: list[str]
) -> None:
    """Issue 28.8: pyproject's `-q` plus a `-q` on the command line hid pytest's summary line
    ("N passed"); the README's test command, with or without `-q`, must show it."""
    text = (repo_dir / "README.md").read_text(encoding="utf-8")
    command = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)[1].split()
    assert command[:3] == ["python", "-m", "pytest"]
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert 1 + 1 == 2\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *command[3:], *extra, "-c",
         str(repo_dir / "pyproject.toml"), "--rootdir", str(tmp_path), "-p", "no:cacheprovider",
         str(tmp_path / "test_one.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b1 passed\b", done.stdout), done.stdout


_PIN = re.compile(r"^\s*(?:-\s*)?(?:rev:\s*|uses:\s*adrguard/adrguard@)(?P<ref>[^\s#]+)", re.M)
_RELEASED = re.compile(r"^## \[?v?(?P<version>\d+\.\d+\.\d+)\]? [-–(] ?\d{4}-\d{2}-\d{2}", re.M)


def test_docs_pin_commits_until_a_release_is_tagged(repo_dir: Path) -> None:
    """Issue 28.8: the README and docs pinned `rev: v0.1.0`, a tag that does not exist. A pin
    is a full commit SHA or the `<commit>` placeholder; a version tag only once CHANGELOG.md
    dates that release. The version itself lives in one place: `adrguard.__version__`."""
    from importlib.metadata import version

    import adrguard

    released = set(_RELEASED.findall((repo_dir / "CHANGELOG.md").read_text(encoding="utf-8")))
    pages = [repo_dir / "README.md", *sorted((repo_dir / "docs").rglob("*.md")),
             *sorted((repo_dir / "docs" / "examples").rglob("*.yml"))]
    pins = [(p.relative_to(repo_dir).as_posix(), m.group("ref"))
            for p in pages for m in _PIN.finditer(p.read_text(encoding="utf-8"))]
    assert len(pins) >= 8
    wrong = [(page, ref) for page, ref in pins
             if ref not in ("<commit>", "<sha>")
             and not re.fullmatch(r"[0-9a-f]{40}", ref)
             and ref.removeprefix("v") not in released]
    assert wrong == [], "pin a commit (docs/install.md#pinning-adrguard), not an untagged version"
    assert version("adrguard") == adrguard.__version__
    pyproject = (repo_dir / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'path = "src/adrguard/__init__.py"' in pyproject
