"""Discovery and reading: real files in tmp_path, real temporary git repos, real corpora."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from adrguard.adapters import files
from adrguard.adapters.files import Discovery, discover
from adrguard.adapters.reading import SYMLINK_OUTSIDE
from adrguard.config import Config, from_mapping
from adrguard.core.errors import UserError

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.org",
    "GIT_AUTHOR_DATE": "2024-01-02T03:04:05Z",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.org",
    "GIT_COMMITTER_DATE": "2024-01-02T03:04:05Z",
    "GIT_CONFIG_NOSYSTEM": "1",
}
RECORD = b"# 1. Use ADRs\n\n## Status\n\nAccepted\n"


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV, "HOME": str(repo)}
    out = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=repo, env=env, check=True, capture_output=True, text=True,
    )
    return out.stdout


def init_repo(repo: Path, commit: bool = True) -> None:
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    if commit:
        git(repo, "commit", "-q", "-m", "records")


def write(base: Path, rel: str, data: bytes = RECORD) -> Path:
    path = base / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def cfg(**data: object) -> Config:
    return from_mapping(data)


def paths(found: Discovery) -> list[str]:
    return [s.path for s in found.sources]


# --- the real corpora ---------------------------------------------------------------------


def collections(corpora: Path) -> list[Path]:
    return sorted(p for p in corpora.iterdir() if (p / "TRUTH.json").is_file())


def copy_collection(src: Path, dest: Path) -> tuple[dict[str, dict[str, object]], list[str]]:
    truth = json.loads((src / "TRUTH.json").read_text(encoding="utf-8"))["files"]
    for rel in truth:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, target)
    line = next(
        ln for ln in (src / "SOURCE.txt").read_text(encoding="utf-8").splitlines()
        if "path(s) in repository:" in ln
    )
    roots = [r.strip() for r in line.split(":", 1)[1].split(",")]
    return truth, roots


def check_against_truth(found: Discovery, truth: dict[str, dict[str, object]]) -> None:
    records = {p for p, v in truth.items() if v["kind"] == "adr"}
    # documents a front-matter type marks as not decisions (a scorer may count them either
    # way, the corpora README says): discovery goes by paths, so they are records here
    typed = {p for p, v in truth.items() if v["kind"] == "other" and v.get("doc_type")}
    others = {p for p, v in truth.items() if v["kind"] != "adr"} - typed
    assert set(paths(found)) - typed == records
    assert set(found.skipped) - typed == others
    assert paths(found) == sorted(paths(found))
    assert all(s.error is None and s.data for s in found.sources)


def test_all_corpora_classified_like_truth(corpora_dir: Path, tmp_path: Path) -> None:
    """Discovery (by path) then the corpus (by content: front matter declaring a supplement)
    keep exactly the labelled records of every collection, and skip every other file."""
    from adrguard.api.pipeline.corpus import corpus_of

    names = [c.name for c in collections(corpora_dir)]
    assert len(names) >= 25
    wrong: list[str] = []
    for coll in collections(corpora_dir):
        dest = tmp_path / coll.name
        truth, roots = copy_collection(coll, dest)
        config = cfg(roots=roots)  # default excludes only
        found = discover(dest, config)
        records = {p for p, v in truth.items() if v["kind"] == "adr"}
        # discovery never drops a record and skips only files that are not records
        wrong += [f"{coll.name}: discovery drops record {p}" for p in sorted(
            records - set(paths(found)))]
        wrong += [f"{coll.name}: discovery skips {p}" for p in sorted(
            set(found.skipped) - (set(truth) - records))]
        assert paths(found) == sorted(paths(found))
        assert all(s.error is None and s.data for s in found.sources)
        assert found.roots == tuple(roots)
        assert not found.uses_git
        corpus = corpus_of(found, config)
        kept = {d.path for d in corpus.decisions}
        wrong += [f"{coll.name}: {truth.get(p, {}).get('kind', 'unlabelled')} file kept as a record {p}"
                  for p in sorted(kept - records)]
        wrong += [f"{coll.name}: record not kept {p}" for p in sorted(records - kept)]
        wrong += [f"{coll.name}: skipped but not labelled a non-record {p}"
                  for p in sorted(set(corpus.skipped) - (set(truth) - records))]
        wrong += [f"{coll.name}: non-record neither kept nor skipped {p}"
                  for p in sorted((set(truth) - records) - set(corpus.skipped) - kept)]
    assert wrong == []


def test_corpus_auto_detected_without_config(corpora_dir: Path, tmp_path: Path) -> None:
    truth, roots = copy_collection(corpora_dir / "alphagov__govuk-aws", tmp_path)
    found = discover(tmp_path, Config())
    assert found.roots == ("docs/architecture/decisions",) == tuple(roots)
    check_against_truth(found, truth)


def test_corpus_in_a_git_repo(corpora_dir: Path, tmp_path: Path) -> None:
    coll = corpora_dir / "eclipse-edc__Connector"
    truth, roots = copy_collection(coll, tmp_path)
    init_repo(tmp_path)
    git(tmp_path, "remote", "add", "origin", "git@github.com:eclipse-edc/Connector.git")
    write(tmp_path, f"{roots[0]}/2099-01-01-untracked/README.md")
    found = discover(tmp_path, cfg(roots=roots))
    assert found.uses_git
    check_against_truth(found, truth)
    assert found.untracked == (f"{roots[0]}/2099-01-01-untracked/README.md",)
    assert f"{roots[0]}/README.md" in found.other_texts


# --- roots --------------------------------------------------------------------------------


def test_no_adr_folder_is_a_one_line_user_error(tmp_path: Path) -> None:
    write(tmp_path, "notes/0001-x.md")
    with pytest.raises(UserError) as err:
        discover(tmp_path, Config())
    text = str(err.value)
    assert "\n" not in text
    assert str(tmp_path) in text
    assert "looked for folders named" in text and "numbered markdown files" in text
    assert "roots" in text and ".adrguard.toml" in text and "[tool.adrguard]" in text


def test_every_existing_default_root_is_used(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    write(tmp_path, "adr/0001-b.md")
    (tmp_path / "decisions").write_text("a file, not a folder")
    found = discover(tmp_path, Config())
    assert found.roots == ("adr", "docs/adr")
    assert paths(found) == ["adr/0001-b.md", "docs/adr/0001-a.md"]
    assert {s.root for s in found.sources} == {"docs/adr", "adr"}


def test_glob_roots_match_directories(tmp_path: Path) -> None:
    write(tmp_path, "services/a/docs/adr/0001-a.md")
    write(tmp_path, "services/b/docs/adr/0001-b.md")
    write(tmp_path, "services/c/docs/adr")  # a file: not a root
    write(tmp_path, "docs/adr/0001-top.md")
    found = discover(tmp_path, cfg(roots=["docs/adr", "services/*/docs/adr"]))
    assert found.roots == ("docs/adr", "services/a/docs/adr", "services/b/docs/adr")
    assert [s.root for s in found.sources] == list(found.roots)


def test_configured_root_that_matches_nothing_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    with pytest.raises(UserError, match="'docs/adrs' matches no folder"):
        discover(tmp_path, from_mapping({"roots": ["docs/adr", "docs/adrs"]}, ".adrguard.toml"))
    with pytest.raises(UserError, match=r"no '\.\.'"):
        discover(tmp_path, cfg(roots=["../elsewhere"]))


def test_repository_root_as_adr_root(tmp_path: Path) -> None:
    write(tmp_path, "adr-001-use-adrs.md")
    write(tmp_path, "README.md", b"# Index\n")
    write(tmp_path, "sub/adr-002-nested.md")
    found = discover(tmp_path, cfg(roots=["."]))
    assert found.roots == (".",)
    assert paths(found) == ["adr-001-use-adrs.md", "sub/adr-002-nested.md"]
    assert found.skipped == ("README.md",)
    assert found.other_texts == {"README.md": b"# Index\n"}


def test_most_specific_root_owns_a_file(tmp_path: Path) -> None:
    write(tmp_path, "docs/0001-a.md")
    write(tmp_path, "docs/adr/0001-b.md")
    found = discover(tmp_path, cfg(roots=["docs", "docs/adr"]))
    assert {s.path: s.root for s in found.sources} == {
        "docs/0001-a.md": "docs",
        "docs/adr/0001-b.md": "docs/adr",
    }


# --- layout ---------------------------------------------------------------------------------


def test_layouts_nested_per_record_folders_and_archive(tmp_path: Path) -> None:
    root = "docs/adr"
    for rel in (
        "README.md",  # index
        "0001-flat.md",
        "infra/0002-nested.md",  # a grouping folder: nested records
        "infra/README.md",  # ...whose README is its index
        "2023-03-02-folder/README.md",  # one folder per record
        "2023-03-02-folder/renaming.md",  # a part of that record
        "use-postgres/README.md",  # a folder with only a README is one record
        "archive/0003-old.md",
        "archive/README.md",
        "archive/2020-01-01-gone/README.md",
        "template.md",
        "0000-adr-template.md",
        "notes.markdown",
        "diagram.png",
    ):
        write(tmp_path, f"{root}/{rel}")
    found = discover(tmp_path, Config())
    by_path = {s.path[len(root) + 1 :]: s for s in found.sources}
    assert sorted(by_path) == [
        "0001-flat.md",
        "2023-03-02-folder/README.md",
        "archive/0003-old.md",
        "archive/2020-01-01-gone/README.md",
        "infra/0002-nested.md",
        "notes.markdown",
        "use-postgres/README.md",
    ]
    assert {k for k, s in by_path.items() if s.archived} == {
        "archive/0003-old.md",
        "archive/2020-01-01-gone/README.md",
    }
    assert [p[len(root) + 1 :] for p in found.skipped] == [
        "0000-adr-template.md",
        "2023-03-02-folder/renaming.md",
        "README.md",
        "archive/README.md",
        "infra/README.md",
        "template.md",
    ]
    assert f"{root}/diagram.png" in found.repo_files
    assert sorted(found.other_texts) == [  # indexes, and templates (held to their sections)
        f"{root}/0000-adr-template.md", f"{root}/README.md", f"{root}/archive/README.md",
        f"{root}/infra/README.md", f"{root}/template.md",
    ]


def test_exclude_extend_exclude_and_negation(tmp_path: Path) -> None:
    for rel in ("0001-a.md", "drafts/0001-a.md", "old/0001-a.md", "README.md", "draft-XXX.md"):
        write(tmp_path, f"docs/adr/{rel}")
    extended = discover(tmp_path, cfg(**{"extend-exclude": ["docs/adr/drafts/**", "old/"]}))
    assert paths(extended) == ["docs/adr/0001-a.md"]
    replaced = discover(tmp_path, cfg(exclude=["drafts/**"]))
    assert paths(replaced) == [
        "docs/adr/0001-a.md",
        "docs/adr/README.md",
        "docs/adr/draft-XXX.md",
        "docs/adr/old/0001-a.md",
    ]
    negated = discover(tmp_path, cfg(exclude=["*.md", "!0001-*.md"]))
    assert paths(negated) == [
        "docs/adr/0001-a.md",
        "docs/adr/drafts/0001-a.md",
        "docs/adr/old/0001-a.md",
    ]


def test_translation_mirrors_are_skipped_and_listed(tmp_path: Path) -> None:
    for rel in ("0001-a.md", "0002-b.md", "zh/0001-a.md", "pt-br/0002-b.md", "0002-b.fr.md"):
        write(tmp_path, f"docs/adr/{rel}")
    found = discover(tmp_path, cfg())
    assert paths(found) == ["docs/adr/0001-a.md", "docs/adr/0002-b.md"]
    assert found.mirrors == {
        "docs/adr/zh/0001-a.md": "docs/adr/zh",
        "docs/adr/pt-br/0002-b.md": "docs/adr/pt-br",
        "docs/adr/0002-b.fr.md": "docs/adr/0002-b.md",
    }
    assert set(found.mirrors) <= set(found.skipped)


def test_a_log_kept_only_in_a_language_folder_is_not_a_mirror(tmp_path: Path) -> None:
    for rel in ("zh/0001-a.md", "zh/0002-b.md", "README.md"):
        write(tmp_path, f"docs/adr/{rel}")
    found = discover(tmp_path, cfg())
    assert paths(found) == ["docs/adr/zh/0001-a.md", "docs/adr/zh/0002-b.md"]
    assert found.mirrors == {}


def test_other_texts_include_current_files_and_configured_index(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    write(tmp_path, "docs/adr/CURRENT.md", b"view")
    write(tmp_path, "docs/adr/CURRENT.sources.json", b"{}")
    write(tmp_path, "docs/adr/DECISIONS.md", b"index")
    write(tmp_path, "README.md", b"not under a root")
    found = discover(
        tmp_path, cfg(exclude=["DECISIONS.md", "CURRENT.md"], index={"path": "DECISIONS.md"})
    )
    assert found.other_texts == {
        "docs/adr/CURRENT.md": b"view",
        "docs/adr/CURRENT.sources.json": b"{}",
        "docs/adr/DECISIONS.md": b"index",
    }
    assert paths(found) == ["docs/adr/0001-a.md"]


# --- bad input ------------------------------------------------------------------------------


def test_bad_bytes_are_read_as_they_are(tmp_path: Path) -> None:
    """Decoding and NUL checks are the parser's job: discovery hands over the bytes."""
    write(tmp_path, "docs/adr/0001-binary.md", bytes(range(256)) * 4)
    write(tmp_path, "docs/adr/0002-latin1.md", "# Décision\n".encode("latin-1"))
    write(tmp_path, "docs/adr/0003-empty.md", b"")
    found = {s.path.rsplit("/", 1)[-1]: s for s in discover(tmp_path, Config()).sources}
    assert found["0001-binary.md"].data == bytes(range(256)) * 4
    assert found["0002-latin1.md"].data == "# Décision\n".encode("latin-1")
    assert found["0003-empty.md"].data == b""
    assert all(s.error is None for s in found.values())


def test_huge_file_is_not_read(tmp_path: Path) -> None:
    big = write(tmp_path, "docs/adr/0001-huge.md", b"")
    with big.open("r+b") as fh:
        fh.truncate(50 * 1024 * 1024)  # sparse: no 50 MB written
    write(tmp_path, "docs/adr/0002-small.md", b"x" * 2000)
    found = discover(tmp_path, Config())
    huge, small = found.sources
    assert huge.data is None
    assert huge.error is not None
    assert "52,428,800 bytes" in huge.error and "1,048,576-byte limit" in huge.error
    assert small.data == b"x" * 2000
    tight = discover(tmp_path, cfg(**{"max-file-size": 1000}))
    assert tight.sources[1].data is None and "1,000-byte limit" in str(tight.sources[1].error)


def test_symlinks_out_of_the_repo_are_never_followed(tmp_path: Path) -> None:
    outside = write(tmp_path, "outside/secret.md", b"secret")
    repo = tmp_path / "repo"
    write(repo, "docs/adr/0001-a.md")
    (repo / "docs/adr/0002-out.md").symlink_to(outside)
    (repo / "docs/adr/0003-in.md").symlink_to(repo / "docs/adr/0001-a.md")
    (repo / "docs/adr/0004-dangling.md").symlink_to(repo / "nowhere.md")
    (repo / "docs/adr/linked-dir").symlink_to(tmp_path / "outside", target_is_directory=True)
    found = {s.path: s for s in discover(repo, Config()).sources}
    assert sorted(found) == [f"docs/adr/000{i}-{n}.md" for i, n in
                             ((1, "a"), (2, "out"), (3, "in"), (4, "dangling"))]
    out = found["docs/adr/0002-out.md"]
    assert out.data is None and out.error == SYMLINK_OUTSIDE
    assert found["docs/adr/0003-in.md"].data == RECORD
    assert found["docs/adr/0004-dangling.md"].error == "symlink target does not exist"


def test_symlink_out_of_a_git_repo(tmp_path: Path) -> None:
    outside = write(tmp_path, "secret.md", b"secret")
    repo = tmp_path / "repo"
    write(repo, "docs/adr/0001-a.md")
    (repo / "docs/adr/0002-out.md").symlink_to(outside)
    init_repo(repo)
    found = discover(repo, Config())
    assert found.uses_git
    assert [(s.path, s.data, s.error) for s in found.sources] == [
        ("docs/adr/0001-a.md", RECORD, None),
        ("docs/adr/0002-out.md", None, SYMLINK_OUTSIDE),
    ]


def test_directory_named_like_a_markdown_file(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    (tmp_path / "docs/adr/0002-x.md").mkdir()
    found = discover(tmp_path, Config())
    assert paths(found) == ["docs/adr/0001-a.md"]
    assert found.skipped == ()


def test_fifo_does_not_block(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    os.mkfifo(tmp_path / "docs/adr/0002-pipe.md")
    pipe = discover(tmp_path, Config()).sources[1]
    assert pipe.path == "docs/adr/0002-pipe.md"
    assert (pipe.data, pipe.error) == (None, "not a regular file")


def test_unreadable_file(tmp_path: Path) -> None:
    locked = write(tmp_path, "docs/adr/0001-locked.md")
    locked.chmod(0)
    try:
        (src,) = discover(tmp_path, Config()).sources
        if os.access(locked, os.R_OK):  # root reads anything: the file is simply read
            assert (src.data, src.error) == (RECORD, None)
        else:
            assert (src.data, src.error) == (None, "cannot read file: permission denied")
    finally:
        locked.chmod(0o644)


def test_permission_error_becomes_a_source_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root can read a mode-000 file, so the denial is simulated at ``os.open``."""
    write(tmp_path, "docs/adr/0001-locked.md")
    real_open = os.open

    def deny(path: str, flags: int, *args: int) -> int:
        if str(path).endswith("0001-locked.md"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", deny)
    (src,) = discover(tmp_path, Config()).sources
    assert (src.data, src.error) == (None, "cannot read file: permission denied")


# --- git ------------------------------------------------------------------------------------


def test_git_tracked_staged_untracked_and_deleted(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-tracked.md")
    write(tmp_path, "docs/adr/0002-deleted.md")
    write(tmp_path, ".gitignore", b"ignored.md\n")
    init_repo(tmp_path)
    write(tmp_path, "docs/adr/0003-staged.md")
    git(tmp_path, "add", "docs/adr/0003-staged.md")
    write(tmp_path, "docs/adr/0004-untracked.md")
    write(tmp_path, "docs/adr/ignored.md")
    (tmp_path / "docs/adr/0002-deleted.md").unlink()  # deleted, deletion not staged
    found = discover(tmp_path, Config())
    assert found.uses_git
    assert paths(found) == ["docs/adr/0001-tracked.md", "docs/adr/0003-staged.md"]
    assert found.untracked == ("docs/adr/0004-untracked.md",)  # ignored files are not listed
    assert "docs/adr/0004-untracked.md" not in found.repo_files
    assert {".gitignore", "docs/adr/0002-deleted.md"} <= found.repo_files
    assert not found.untracked_checked
    # a manual run also reads the untracked (not ignored) records, and says they are untracked
    manual = discover(tmp_path, Config(), untracked=True)
    assert paths(manual) == [
        "docs/adr/0001-tracked.md", "docs/adr/0003-staged.md", "docs/adr/0004-untracked.md"
    ]
    assert manual.untracked == ("docs/adr/0004-untracked.md",) and manual.untracked_checked
    assert "docs/adr/0004-untracked.md" in manual.repo_files
    assert "docs/adr/ignored.md" not in manual.repo_files


def test_repo_root_below_the_git_top(tmp_path: Path) -> None:
    write(tmp_path, "module/docs/adr/0001-a.md")
    write(tmp_path, "docs/adr/0001-top.md")
    init_repo(tmp_path)
    found = discover(tmp_path / "module", Config())
    assert found.uses_git
    assert paths(found) == ["docs/adr/0001-a.md"]
    assert found.repo_files == frozenset({"docs/adr/0001-a.md"})


def test_git_repo_without_commits_uses_the_index(tmp_path: Path) -> None:
    write(tmp_path, "docs/adr/0001-a.md")
    init_repo(tmp_path, commit=False)
    assert paths(discover(tmp_path, Config())) == ["docs/adr/0001-a.md"]


def test_walk_is_sorted_and_skips_tool_folders(tmp_path: Path) -> None:
    for rel in ("b.md", "a/z.md", "a/b.md", "node_modules/x.md", ".venv/y.md", ".github/c.yml"):
        write(tmp_path, rel)
    (tmp_path / "link").symlink_to(tmp_path / "a", target_is_directory=True)
    assert files.walk(tmp_path) == [".github/c.yml", "a/b.md", "a/z.md", "b.md", "link"]


def test_ten_thousand_records_are_quick(tmp_path: Path) -> None:
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    body = b"# N. Title\n\n## Status\n\nAccepted\n\n" + b"text " * 200
    for i in range(10_000):
        (root / f"{i:05d}-decision.md").write_bytes(body)
    discover(tmp_path, Config())  # warm the page cache and the lazy imports
    start = time.process_time()  # CPU time: noise from other jobs does not count
    found = discover(tmp_path, Config())
    elapsed = time.process_time() - start
    assert len(found.sources) == 10_000
    # About 0.2 s on a loaded 2-core VM; the bound catches quadratic behaviour, not noise.
    assert elapsed < 3.0, f"discovery of 10,000 files took {elapsed:.2f}s"
