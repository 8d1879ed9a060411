"""`adrguard index` and `adrguard current` end to end: real files, the real pipeline, golden
indexes of real collections, and proof that `check` writes nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from adrguard import api
from adrguard.api import generated
from adrguard.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden" / "index"
# collection -> roots (None: the default roots); the quirks each one exercises are in the ids
COLLECTIONS = {
    "Lab-Topology-Builder__LTB-K8s-Backend": None,  # five-digit 00011 sorts after 0010
    "thomvaill__log4brains": ["docs/adr", "packages/core/docs/adr"],  # dated names, two roots
    "navapbc__template-infra": None,  # records nested one folder below the root
    "zooniverse__front-end-monorepo": ["docs/arch"],  # adr-NN names, superseded-by links
}

ACCEPTED = "# {n}. {title}\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\nx\n\n## Consequences\n\nx\n"


def record(n: int, title: str, status: str = "Accepted") -> str:
    return ACCEPTED.format(n=n, title=title).replace("Accepted", status, 1)


def make_repo(root: Path, files: dict[str, str], config: str = "cache = false\n") -> Path:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    (root / ".adrguard.toml").write_text(config, encoding="utf-8")
    return root


BASE = {
    "docs/adr/0001-use-postgresql.md": record(1, "Use PostgreSQL"),
    "docs/adr/0002-use-kafka.md": record(2, "Use Kafka"),
}


@pytest.mark.parametrize("collection", sorted(COLLECTIONS))
def test_golden_index_of_real_collection(
    collection: str, corpora_dir: Path, tmp_path: Path
) -> None:
    roots = COLLECTIONS[collection]
    config = tmp_path / "adrguard.toml"
    # [index] path: these logs keep a README.md or index.md index, beside which adrguard
    # never creates INDEX.md on its own (see test_no_index_beside_an_existing_index)
    config.write_text(
        "cache = false\n"
        + (f"roots = {json.dumps(roots)}\n" if roots else "")
        + '[index]\npath = "INDEX.md"\n',
        "utf-8",
    )
    repo = corpora_dir / collection
    cfg, corpus = api.load(repo, config)
    states = generated.index_states(repo, cfg, corpus)
    assert states and all(s.kind == "missing" for s in states)
    produced = {s.target.path: s.expected or "" for s in states}
    folder = GOLDEN / collection
    if os.environ.get("ADRGUARD_UPDATE_GOLDEN") == "1":
        for rel, text in produced.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(text.encode("utf-8"))
    stored = {
        p.relative_to(folder).as_posix(): p.read_bytes().decode("utf-8")
        for p in sorted(folder.rglob("*.md"))
    }
    assert produced == stored
    records = [d for d in corpus.decisions if not d.archived]
    assert sum(text.count("\n| ") for text in produced.values()) - len(produced) == len(records)


def test_golden_ltb_puts_00011_between_0010_and_0012() -> None:
    text = (GOLDEN / "Lab-Topology-Builder__LTB-K8s-Backend/docs/decisions/INDEX.md").read_text(
        "utf-8"
    )
    order = [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| 00")]
    assert order[-4:] == ["| 0010", "| 0011", "| 0012", "| 0013"]
    assert "(00011-remote-access.md)" in text


def test_index_print_check_write_cycle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path, BASE)
    assert main(["index", "--repo", str(repo)]) == 0
    printed = capsys.readouterr().out
    assert (
        printed.startswith("# Architecture decision records\n")
        and "[Use Kafka](0002-use-kafka.md)" in printed
    )
    assert not (repo / "docs/adr/INDEX.md").exists()  # printing writes nothing

    # no index has the markers and none is configured: nothing to check, nothing created
    assert main(["index", "--check", "--repo", str(repo)]) == 0
    assert "docs/adr/INDEX.md: no generated index here" in capsys.readouterr().err
    assert main(["index", "--write", "--repo", str(repo)]) == 0
    assert capsys.readouterr().out == "" and not (repo / "docs/adr/INDEX.md").exists()
    assert main(["index", "--write", "--init", "--repo", str(repo)]) == 0  # the opt-in
    assert capsys.readouterr().out == "Fixing docs/adr/INDEX.md\n"
    assert (repo / "docs/adr/INDEX.md").read_text("utf-8") == printed
    assert main(["index", "--check", "--repo", str(repo)]) == 0

    (repo / "docs/adr/0003-use-redis.md").write_text(record(3, "Use Redis"), "utf-8")
    capsys.readouterr()
    assert main(["index", "--check", "--repo", str(repo)]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/docs/adr/INDEX.md\n+++ b/docs/adr/INDEX.md\n")
    assert "+| 0003 | [Use Redis](0003-use-redis.md) | accepted |" in diff
    assert main(["index", "--write", "--exit-non-zero-on-fix", "--repo", str(repo)]) == 1
    assert main(["index", "--write", "--exit-non-zero-on-fix", "--repo", str(repo)]) == 0


def test_write_keeps_hand_text_and_writes_lf(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, BASE)
    assert main(["index", "--write", "--init", "--repo", str(repo)]) == 0
    index_file = repo / "docs/adr/INDEX.md"
    block = index_file.read_text("utf-8").split("\n", 2)[2]
    index_file.write_bytes(
        ("# Ours\r\n\r\nIntro.\r\n\r\n" + block.replace("\n", "\r\n") + "Footer.\r\n").encode()
    )
    assert main(["index", "--check", "--repo", str(repo)]) == 0  # CRLF alone is not stale
    (repo / "docs/adr/0003-use-redis.md").write_text(record(3, "Use Redis"), "utf-8")
    assert main(["index", "--write", "--repo", str(repo)]) == 0
    text = index_file.read_bytes().decode()
    assert "\r" not in text and text.startswith("# Ours\n\nIntro.\n") and text.endswith("Footer.\n")
    assert "0003-use-redis.md" in text


def test_write_refuses_unmanaged_and_malformed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path, {**BASE, "docs/adr/INDEX.md": "# Hand made\n\n* 0001\n"})
    assert main(["index", "--write", "--repo", str(repo)]) == 0  # left alone, with a note
    assert "--init" in capsys.readouterr().err
    assert (repo / "docs/adr/INDEX.md").read_text("utf-8") == "# Hand made\n\n* 0001\n"
    assert main(["index", "--write", "--init", "--repo", str(repo)]) == 0
    text = (repo / "docs/adr/INDEX.md").read_text("utf-8")
    assert text.startswith("# Hand made\n\n* 0001\n\n<!-- adrguard:index:start -->")

    (repo / "docs/adr/INDEX.md").write_text("x\n<!-- adrguard:index:start -->\n", "utf-8")
    # broken markers are the log's content (ADR402), not a usage error: exit 1, not 2
    assert main(["index", "--write", "--init", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "no <!-- adrguard:index:end -->" in err and "nothing was written" in err
    assert main(["index", "--check", "--repo", str(repo)]) == 1


def test_symlinked_index_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path / "repo", BASE)
    outside = tmp_path / "elsewhere.md"
    outside.write_text("<!-- adrguard:index:start -->\n<!-- adrguard:index:end -->\n", "utf-8")
    (repo / "docs/adr/INDEX.md").symlink_to(outside)
    for args in (["index", "--write"], ["index", "--check"], ["index"]):
        assert main([*args, "--repo", str(repo)]) == 2
        assert "symlink" in capsys.readouterr().err
    assert outside.read_text("utf-8").count("\n") == 2


def test_index_disabled_and_bad_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path, BASE, "cache = false\n[index]\nenabled = false\n")
    assert main(["index", "--write", "--repo", str(repo)]) == 0
    assert not (repo / "docs/adr/INDEX.md").exists()
    (repo / ".adrguard.toml").write_text("[index]\ncolumns = ['title', 'owner']\n", "utf-8")
    assert main(["index", "--repo", str(repo)]) == 2
    assert "unknown column 'owner'" in capsys.readouterr().err
    assert main(["index", "--init", "--repo", str(repo)]) == 2


def test_current_workflow_init_review_stamp_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(
        tmp_path, {**BASE, "docs/adr/0003-try-redis.md": record(3, "Try Redis", "Proposed")}
    )
    assert main(["current", "status", "--repo", str(repo)]) == 0
    assert "current init" in capsys.readouterr().out
    assert main(["current", "init", "--repo", str(repo)]) == 0
    view = repo / "docs/adr/CURRENT.md"
    draft = view.read_text("utf-8")
    assert "Derived view, to be reviewed" in draft and "Use Kafka" in draft
    in_force, _, rest = draft.partition("## Proposals (not in force)")
    assert "Try Redis" not in in_force and "Try Redis" in rest  # a proposal stands apart
    view.write_text("# Custom\n", "utf-8")
    assert main(["current", "init", "--repo", str(repo)]) == 0
    assert (
        "exists; not overwritten" in capsys.readouterr().out
        and view.read_text("utf-8") == "# Custom\n"
    )

    assert main(["current", "status", "--repo", str(repo)]) == 1
    assert "ADR404" in capsys.readouterr().out
    view.write_text("# In force\n\n* PostgreSQL stores data.\n* Kafka carries events.\n", "utf-8")
    assert main(["current", "stamp", "--repo", str(repo)]) == 0
    assert capsys.readouterr().out == "stamped docs/adr/CURRENT.sources.json\n"
    manifest = repo / "docs/adr/CURRENT.sources.json"
    first = manifest.read_bytes()
    assert main(["current", "stamp", "--repo", str(repo)]) == 0
    assert "is up to date" in capsys.readouterr().out and manifest.read_bytes() == first
    assert main(["current", "status", "--repo", str(repo)]) == 0
    assert capsys.readouterr().out == "docs/adr/CURRENT.md: fresh\n"

    data = json.loads(first)
    data["members"][0]["coverage"] = "kept"
    (repo / "docs/adr/0002-use-kafka.md").write_text(record(2, "Use Kafka", "Superseded"), "utf-8")
    (repo / "docs/adr/0004-use-pulsar.md").write_text(record(4, "Use Pulsar"), "utf-8")
    view.write_text(view.read_text("utf-8") + "* Pulsar replaces Kafka.\n", "utf-8")
    assert main(["current", "status", "--repo", str(repo)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("docs/adr/CURRENT.md: stale\n")
    for fragment in (
        "ADR408",
        "0004-use-pulsar.md (ADR-0004) is in scope",
        "has status superseded now",
    ):
        assert fragment in out
    manifest.write_text(json.dumps(data), "utf-8")  # a reviewer set a coverage value by hand
    assert main(["current", "stamp", "--repo", str(repo)]) == 0
    members = json.loads(manifest.read_text("utf-8"))["members"]
    assert [(m["path"].rsplit("/", 1)[1], m["coverage"]) for m in members] == [
        ("0001-use-postgresql.md", "kept"),
        ("0004-use-pulsar.md", "open"),
    ]
    assert main(["current", "status", "--repo", str(repo)]) == 0


def test_stamp_refuses_a_corrupt_or_newer_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(
        tmp_path,
        {
            **BASE,
            "docs/adr/CURRENT.md": "# In force\n",
            "docs/adr/CURRENT.sources.json": '{"schemaVersion": 9}',
        },
    )
    assert main(["current", "stamp", "--repo", str(repo)]) == 2
    assert "newer adrguard" in capsys.readouterr().err
    assert (repo / "docs/adr/CURRENT.sources.json").read_text("utf-8") == '{"schemaVersion": 9}'
    assert main(["current", "stamp", "--adr-root", "nope", "--repo", str(repo)]) == 2


def _snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(root).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("cache", [False, True])
def test_check_writes_nothing(
    tmp_path: Path, cache: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stale index, stale CURRENT pair: `check` reports them and changes no file or mtime. The
    parse cache (``.adrguard_cache/``, on by default) is the one thing it may write."""
    config = f"cache = {'true' if cache else 'false'}\n[index]\nenabled = true\n"
    repo = make_repo(
        tmp_path,
        {
            **BASE,
            "docs/adr/INDEX.md": "<!-- adrguard:index:start -->\n<!-- adrguard:index:end -->\n",
            "docs/adr/CURRENT.md": "# In force\n",
        },
        config,
    )
    before = _snapshot(repo)
    dirs_before = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_dir())
    assert main(["check", "--repo", str(repo), "--select", "ADR4"]) == 1
    out = capsys.readouterr().out
    assert "ADR402" in out and "ADR404" in out
    after = {k: v for k, v in _snapshot(repo).items() if not k.startswith(".adrguard_cache/")}
    assert after == before
    dirs_after = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_dir())
    assert [d for d in dirs_after if not d.startswith(".adrguard_cache")] == dirs_before


def test_fixer_hook_with_pre_commit_try_repo(repo_dir: Path, tmp_path: Path) -> None:
    """The `adrguard-fix` hook on a real repository: a stale index makes it fix the file, print
    `Fixing <file>` and exit 1; the second run passes."""
    import subprocess
    import sys

    from test_precommit import _commit_all, _env, _git, _hook_repo

    env = _env(tmp_path)
    hook = _hook_repo(repo_dir, tmp_path / "hook", env)
    target = make_repo(tmp_path / "target", BASE, "")
    assert main(["index", "--write", "--init", "--repo", str(target)]) == 0
    (target / "docs/adr/0003-use-redis.md").write_text(record(3, "Use Redis"), "utf-8")
    _commit_all(target, env)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pre_commit",
                "try-repo",
                str(hook),
                "adrguard-fix",
                "--all-files",
                "--verbose",
            ],
            cwd=target,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    first = run()
    assert first.returncode == 1, first.stdout + first.stderr
    assert "Fixing docs/adr/INDEX.md" in first.stdout
    assert "files were modified by this hook" in first.stdout
    assert "0003-use-redis.md" in (target / "docs/adr/INDEX.md").read_text("utf-8")
    _git(target, env, "add", "-A")
    second = run()
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout


def test_stamp_refuses_a_view_still_marked_as_draft(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path, BASE)
    assert main(["current", "init", "--repo", str(repo)]) == 0
    assert main(["current", "stamp", "--repo", str(repo)]) == 2
    assert "still marked as a draft" in capsys.readouterr().err
    assert not (repo / "docs/adr/CURRENT.sources.json").exists()


def test_symlinks_out_of_the_repository_are_never_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", BASE)
    secret = tmp_path / "secret.md"
    secret.write_text("# 9. Secret\n\n## Status\n\nAccepted\n", "utf-8")
    (repo / "docs/adr/CURRENT.md").write_text("# In force\n", "utf-8")
    assert main(["current", "stamp", "--repo", str(repo)]) == 0
    manifest = repo / "docs/adr/CURRENT.sources.json"
    data = json.loads(manifest.read_text("utf-8"))
    (repo / "docs/adr/0009-secret.md").symlink_to(secret)
    data["members"].append(
        {
            "id": "ADR-0009",
            "path": "docs/adr/0009-secret.md",
            "sha256": "0" * 64,
            "coverage": "open",
        }
    )
    manifest.write_text(json.dumps(data), "utf-8")
    assert main(["check", "--repo", str(repo), "--select", "ADR405"]) == 1
    assert "symlink out of the repository" in capsys.readouterr().out

    manifest.unlink()
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}", "utf-8")
    manifest.symlink_to(outside)
    assert main(["current", "status", "--repo", str(repo)]) == 2
    assert "symlink out of the repository" in capsys.readouterr().err


def test_current_status_json_follows_its_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.core.schemas import validator

    check = validator("current-status.schema.json")
    repo = make_repo(tmp_path, BASE)
    assert main(["current", "status", "--repo", str(repo), "--format", "json"]) == 0
    empty = json.loads(capsys.readouterr().out)
    check.validate(empty)
    assert empty == {"schemaVersion": 1, "views": []}

    assert main(["current", "init", "--repo", str(repo)]) == 0
    capsys.readouterr()
    assert main(["current", "status", "--repo", str(repo), "--format", "json"]) == 1
    stale = json.loads(capsys.readouterr().out)
    check.validate(stale)
    (view,) = stale["views"]
    assert view["view"] == "docs/adr/CURRENT.md" and view["fresh"] is False
    assert view["manifest"] == "docs/adr/CURRENT.sources.json"
    assert [r["code"] for r in view["reasons"]] == ["ADR404"]

    (repo / "docs/adr/CURRENT.md").write_text("# In force\n\n* PostgreSQL stores data.\n", "utf-8")
    assert main(["current", "stamp", "--repo", str(repo)]) == 0
    capsys.readouterr()
    assert main(["current", "status", "--repo", str(repo), "--format", "json"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    check.validate(fresh)
    assert fresh["views"][0]["fresh"] is True and fresh["views"][0]["reasons"] == []
