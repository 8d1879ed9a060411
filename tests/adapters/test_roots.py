"""Finding the ADR roots with no config: by name (any case, many folders), by the ADR tools'
settings, by content; over the 25 real collections (as copied, and inside a git repository);
and on layouts written here to check that the rules generalise."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from adrguard.adapters.files import discover
from adrguard.config import Config
from adrguard.core.errors import UserError

NYGARD = "# {n}. {t}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"
MADR = "---\nstatus: accepted\n---\n# {t}\n\n## Context and Problem Statement\n\nC.\n"
BARE = "# {t}\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nSo.\n"
GUIDE = "# Step {n}: {t}\n\nInstall the tool, then run it.\n\n## Troubleshooting\n\nRetry.\n"


def write(base: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text, "utf-8")
    return base


def records(base: Path, folder: str, names: list[str], template: str = NYGARD) -> dict[str, str]:
    return {f"{folder}/{name}": template.format(n=i + 1, t=f"Decide {i}")
            for i, name in enumerate(names)}


def roots(base: Path) -> dict[str, str]:
    found = discover(base, Config(cache=False))
    return {r.path: r.why for r in found.search.roots}


def git_init(base: Path) -> None:
    env = {"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(base)}
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=base, check=True, capture_output=True, env=env)


# --- by name ------------------------------------------------------------------------------------


@pytest.mark.parametrize("folder", [
    "ADR", "adrs", "Decisions", "decision-records", "decision-record", "docs/ADRs",
    "doc/architecture/decisions", "docs/design/adr", "docs/developer/decision-records",
    "documentation/adr", "architecture-decision-records", "docs/architecture/adr",
])
def test_named_folders_in_any_case_and_place(tmp_path: Path, folder: str) -> None:
    write(tmp_path, records(tmp_path, folder, ["0001-a.md", "0002-b.md"]))
    assert list(roots(tmp_path)) == [folder]


def test_module_logs_are_found_next_to_the_global_one(tmp_path: Path) -> None:
    files = {}
    for folder in ("docs/adr", "packages/core/docs/adr", "services/billing/docs/adr",
                   "repo/domains/crud/docs/adr"):
        files.update(records(tmp_path, folder, ["0001-a.md"]))
    write(tmp_path, files)
    assert list(roots(tmp_path)) == [
        "docs/adr", "packages/core/docs/adr", "repo/domains/crud/docs/adr",
        "services/billing/docs/adr",
    ]


def test_code_test_and_dependency_folders_are_not_logs(tmp_path: Path) -> None:
    files = records(tmp_path, "docs/adr", ["0001-a.md"])
    # named like a log, but in code and holding no numbered record: not a root
    for folder in ("src/decisions", "app/models/adr"):
        files.update(records(tmp_path, folder, ["README.md"]))
    # test data, dependencies, hidden and example folders are never searched, whatever they hold
    for folder in ("tests/fixtures/docs/adr", "node_modules/pkg/docs/adr",
                   "vendor/lib/docs/decisions", ".github/adr", "examples/docs/adr"):
        files.update(records(tmp_path, folder, ["0001-x.md", "0002-y.md", "0003-z.md"]))
    write(tmp_path, files)
    assert list(roots(tmp_path)) == ["docs/adr"]


def test_a_named_folder_elsewhere_holding_numbered_records_is_a_log(tmp_path: Path) -> None:
    write(tmp_path, records(tmp_path, "tools/adr", ["0001-a.md"]))
    assert list(roots(tmp_path)) == ["tools/adr"]


def test_a_nested_named_folder_belongs_to_its_enclosing_root(tmp_path: Path) -> None:
    write(tmp_path, {**records(tmp_path, "docs/adr", ["0001-a.md"]),
                     **records(tmp_path, "docs/adr/decisions", ["0002-b.md"])})
    found = discover(tmp_path, Config(cache=False))
    assert found.roots == ("docs/adr",)
    assert [s.path for s in found.sources] == ["docs/adr/0001-a.md", "docs/adr/decisions/0002-b.md"]


def test_the_tools_own_settings_name_the_folder(tmp_path: Path) -> None:
    write(tmp_path, {".adr-dir": "handbook/records\n",
                     **records(tmp_path, "handbook/records", ["0001-a.md"])})
    assert roots(tmp_path) == {"handbook/records": "named in .adr-dir (adr-tools)"}
    shutil.rmtree(tmp_path / "handbook")
    (tmp_path / ".adr-dir").unlink()
    write(tmp_path, {
        ".log4brains.yml": "project:\n  name: x\n  adrFolder: ./kb/global\n  packages:\n"
                           "    - name: core\n      path: ./core\n      adrFolder: ./core/kb\n",
        **records(tmp_path, "kb/global", ["20240101-a.md"], MADR),
        **records(tmp_path, "core/kb", ["20240102-b.md"], MADR),
    })
    assert roots(tmp_path) == {"core/kb": "named in .log4brains.yml (log4brains)",
                               "kb/global": "named in .log4brains.yml (log4brains)"}


# --- by content ---------------------------------------------------------------------------------


@pytest.mark.parametrize("names,template", [
    (["adr-01.md", "adr-02.md", "adr-03.md", "adr-04.md"], NYGARD),
    (["ADR001-use-x.md", "ADR002-use-y.md", "ADR003-use-z.md"], BARE),
    (["2023-01-02-a.md", "2023-02-03-b.md", "2023-04-05-c.md"], MADR),
    (["20230102-a.md", "20230203-b.md", "20230405-c.md"], MADR),
    (["std-0001-v1-a.md", "std-0002-v1-b.md", "std-0003-v2-c.md"], MADR),
])
def test_a_folder_of_numbered_records_is_found_by_content(
    tmp_path: Path, names: list[str], template: str
) -> None:
    write(tmp_path, {**records(tmp_path, "docs/arch", names, template),
                     "docs/arch/README.md": "# Architecture\n"})
    found = discover(tmp_path, Config(cache=False))
    (root,) = found.search.roots
    assert root.path == "docs/arch" and root.shallow
    assert f"{len(names)} of the {len(names)} read look like decision records" in root.why
    assert sorted(s.path for s in found.sources) == sorted(f"docs/arch/{n}" for n in names)
    assert found.skipped == ("docs/arch/README.md",)


def test_records_at_the_repository_root_leave_the_other_files_alone(tmp_path: Path) -> None:
    write(tmp_path, {
        **records(tmp_path, ".", ["adr-001-a.md", "adr-002-b.md", "adr-003-c.md"]),
        "README.md": "# Project\n", "CONTRIBUTING.md": "# Contributing\n\n## Context\n\nx\n",
        "guide/intro.md": "# Intro\n",
    })
    found = discover(tmp_path, Config(cache=False))
    assert found.roots == (".",)
    assert [s.path for s in found.sources] == ["adr-001-a.md", "adr-002-b.md", "adr-003-c.md"]
    assert "guide/intro.md" not in found.skipped
    assert set(found.skipped) == {"CONTRIBUTING.md", "README.md"}


def test_numbered_documents_that_are_not_records_are_left_alone(tmp_path: Path) -> None:
    write(tmp_path, {
        **records(tmp_path, "docs/tutorial", ["01-install.md", "02-run.md", "03-tune.md"], GUIDE),
        **records(tmp_path, "docs/adr", ["0001-a.md"]),
    })
    found = discover(tmp_path, Config(cache=False))
    assert found.roots == ("docs/adr",)
    assert found.search.examined == ("docs/tutorial",)


def test_two_numbered_files_are_not_enough_evidence(tmp_path: Path) -> None:
    write(tmp_path, records(tmp_path, "notes", ["0001-a.md", "0002-b.md"]))
    with pytest.raises(UserError) as err:
        discover(tmp_path, Config(cache=False))
    assert "looked for folders named" in str(err.value)


def test_detection_is_bounded_and_deterministic(tmp_path: Path) -> None:
    from adrguard.adapters import roots as mod

    files = {}
    for i in range(mod.MAX_CANDIDATES + 10):
        files.update(records(tmp_path, f"area{i:03d}", ["01-a.md", "02-b.md", "03-c.md"], GUIDE))
    write(tmp_path, files)
    files_read: list[str] = []
    real = mod._by_content

    def spy(base: Path, real_base: str, config: Config, cands: list[tuple[str, list[str]]],
            store: object = None) -> list[mod.Root]:
        files_read.extend(f for f, _ in cands)
        return real(base, real_base, config, cands)

    mp = pytest.MonkeyPatch()
    mp.setattr(mod, "_by_content", spy)
    try:
        with pytest.raises(UserError):
            discover(tmp_path, Config(cache=False))
    finally:
        mp.undo()
    assert len(files_read) == mod.MAX_CANDIDATES


def test_inside_a_git_repository_only_what_git_sees_counts(tmp_path: Path) -> None:
    write(tmp_path, {**records(tmp_path, "docs/arch", ["adr-01.md", "adr-02.md", "adr-03.md"]),
                     ".gitignore": "build/\n",
                     **records(tmp_path, "build/adr", ["0001-a.md"])})
    git_init(tmp_path)
    assert list(roots(tmp_path)) == ["docs/arch"]


# --- the real collections -----------------------------------------------------------------------


def _copy(collection: Path, dest: Path) -> set[str]:
    truth = json.loads((collection / "TRUTH.json").read_text("utf-8"))["files"]
    for rel in truth:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(collection / rel, dest / rel)
    return {p for p, v in truth.items() if v["kind"] == "adr"}


def _share(found: set[str], labelled: set[str]) -> float:
    return len(found & labelled) / len(labelled)


def test_no_config_finds_the_records_of_the_real_collections(
    corpora_dir: Path, tmp_path: Path
) -> None:
    """The goal: >= 95% of the labelled records in >= 23 of the 25 layouts, with no config,
    both in the folder as copied (no git) and in a git repository made from a copy."""
    collections = sorted(p for p in corpora_dir.iterdir() if (p / "TRUTH.json").is_file())
    assert len(collections) >= 25
    rows: list[str] = []
    good = {"plain": 0, "git": 0}
    for coll in collections:
        labelled = {p for p, v in json.loads((coll / "TRUTH.json").read_text("utf-8"))["files"]
                    .items() if v["kind"] == "adr"}
        plain = discover(coll, Config(cache=False))
        copy = tmp_path / coll.name
        _copy(coll, copy)
        git_init(copy)
        in_git = discover(copy, Config(cache=False))
        assert in_git.uses_git
        shares = {}
        for mode, found in (("plain", plain), ("git", in_git)):
            shares[mode] = _share({s.path for s in found.sources}, labelled)
            good[mode] += shares[mode] >= 0.95
        rows.append(f"{coll.name}: {len(labelled)} labelled, {shares['plain']:.0%} found; "
                    + "; ".join(f"{r.path} ({r.why})" for r in plain.search.roots))
    assert good["plain"] >= 23 and good["git"] >= 23, rows


def test_the_content_test_is_kept_in_the_record_cache(tmp_path: Path) -> None:
    """With the record cache's store, a folder found by content is not parsed again while its
    sampled files stay the same (a warm run never imports the parser); the answer follows the
    files' bytes: numbered files that stop reading like records stop making a root, and the
    roots are those of a run without the store every time."""
    import os
    import sys

    from adrguard.adapters.cache.store import Store

    repo = tmp_path / "repo"
    write(repo, {**records(repo, "docs/arch", ["adr-01.md", "adr-02.md", "adr-03.md"]),
                 "docs/guide/01-a.md": GUIDE.format(n=1, t="a"),
                 "docs/guide/02-b.md": GUIDE.format(n=2, t="b"),
                 "docs/guide/03-c.md": GUIDE.format(n=3, t="c")})
    cache = tmp_path / "cache"

    def found(with_store: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        store = Store.open(cache) if with_store else None
        try:
            got = discover(repo, Config(cache=False), store)
        finally:
            if store is not None:
                store.close()
        return got.roots, got.search.examined

    assert found(True) == found(False) == (("docs/arch",), ("docs/arch", "docs/guide"))
    assert found(True) == found(False)  # from the store now
    script = (
        "import sys\nfrom pathlib import Path\nfrom adrguard.adapters.cache.store import Store\n"
        "from adrguard.adapters.files import discover\nfrom adrguard.config import Config\n"
        f"store = Store.open(Path({str(cache)!r}))\n"
        f"got = discover(Path({str(repo)!r}), Config(cache=False), store)\n"
        "assert got.roots == ('docs/arch',), got.roots\n"
        "assert 'adrguard.core.parse.record' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, env={**os.environ})
    # the sampled files change: the kept answer is not used for them
    for name in ("adr-01.md", "adr-02.md", "adr-03.md"):
        (repo / "docs/arch" / name).write_text(GUIDE.format(n=1, t=name), "utf-8")
    (repo / "docs/guide/01-a.md").write_text(NYGARD.format(n=1, t="a"), "utf-8")
    (repo / "docs/guide/02-b.md").write_text(NYGARD.format(n=2, t="b"), "utf-8")
    (repo / "docs/guide/03-c.md").write_text(NYGARD.format(n=3, t="c"), "utf-8")
    assert found(True) == found(False) == (("docs/guide",), ("docs/arch", "docs/guide"))
    # a damaged entry is a miss
    damaged = [e for e in cache.rglob("*") if e.is_file() and e.name != "CACHEDIR.TAG"]
    assert damaged
    for entry in damaged:
        entry.write_bytes(b"damaged")
    assert found(True) == found(False)
