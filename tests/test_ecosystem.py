"""The ecosystem runner (benchmarks/ecosystem.py) on logs written here: manifest validation, a run
of the installed adrguard over two small snapshots in both modes, the comparison and the seeded
sample. No real snapshot is needed; the committed manifest is only parsed."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from gitrepo import GitRepo

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def eco() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        import ecosystem
    finally:
        sys.path.remove(str(BENCH))
    return ecosystem


def entry(repo: str, commit: str, roots: str = '["docs/adr"]', **extra: str) -> str:
    fields = {
        "repo": f'"{repo}"', "commit": f'"{commit}"', "roots": roots, "licence": '"MIT"',
        "why": '"a log"', "style": '["nygard"]', "site": '"none"', "layout": '"file"',
        "languages": '["en"]', **extra,
    }
    return "[[log]]\n" + "".join(f"{k} = {v}\n" for k, v in fields.items())


def test_the_committed_manifest_is_valid_and_varied(eco: ModuleType) -> None:
    logs = eco.load_manifest(eco.MANIFEST)
    assert len(logs) >= 100
    assert len({lang for log in logs for lang in log.languages}) >= 8
    sites = {log.site for log in logs}
    assert {"docusaurus", "mkdocs", "hugo", "jekyll", "vitepress"} <= sites
    assert any(log.layout == "folder" for log in logs)
    assert any(len(log.roots) > 1 for log in logs)


def test_no_log_of_the_set_is_a_labelled_collection(eco: ModuleType, corpora_dir: Path) -> None:
    """The set must hold logs nobody tuned on: none of the labelled collections."""
    labelled = set()
    for source in corpora_dir.glob("*/SOURCE.txt"):
        found = re.search(r"^repository:\s*(\S+)", source.read_text(encoding="utf-8"), re.M)
        if found:
            labelled.add(found.group(1).lower())
    assert len(labelled) >= 30
    assert not labelled & {log.repo.lower() for log in eco.load_manifest(eco.MANIFEST)}


@pytest.mark.parametrize(("text", "message"), [
    ("", "no \\[\\[log\\]\\] entries"),
    (entry("a/b", "1" * 39), "40 lower-case hex"),
    (entry("a/b", "1" * 40, roots='["../up"]'), "repository-relative"),
    (entry("a/b", "1" * 40, roots='["/abs"]'), "repository-relative"),
    (entry("a/b", "1" * 40, roots="[]"), "non-empty list"),
    (entry("a/b", "1" * 40, stars="3"), "unknown key"),
    (entry("a/b", "1" * 40, site='"wiki"'), "`site` 'wiki' is not one of"),
    (entry("nobody", "1" * 40), "owner/name"),
    (entry("a/b", "1" * 40) + entry("A/B", "2" * 40), "listed twice"),
    ("[[log]\n", "not TOML"),
])
def test_a_bad_manifest_entry_is_an_error_that_names_it(
    eco: ModuleType, text: str, message: str
) -> None:
    with pytest.raises(eco.ManifestError, match=message):
        eco.parse_manifest(text)


def test_adrguard_command_takes_an_executable_or_a_python(eco: ModuleType) -> None:
    assert eco.adrguard_command("/v/bin/adrguard") == ["/v/bin/adrguard"]
    assert eco.adrguard_command("/v/bin/python3.11") == ["/v/bin/python3.11", "-m", "adrguard"]
    assert eco.adrguard_command("/v/bin/python") == ["/v/bin/python", "-m", "adrguard"]


NYGARD = "# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n" \
         "## Decision\n\nWhat.{extra}\n\n## Consequences\n\nSo.\n"


def snapshot(folder: Path, records: dict[str, str]) -> str:
    repo = GitRepo(folder)
    repo.write({"README.md": "# A project\n", **records})
    return repo.commit("records")


@pytest.fixture(scope="module")
def ran(eco: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run of this checkout's adrguard over two snapshots written here."""
    base = tmp_path_factory.mktemp("eco")
    snaps = base / "snapshots"
    broken = "\n\nSee [the missing one](0009-missing.md)."
    clean = snapshot(snaps / "acme__clean", {
        f"docs/adr/000{n}-record-{n}.md": NYGARD.format(n=n, title=f"Record {n}", extra="")
        for n in (1, 2, 3)
    })
    faulty = snapshot(snaps / "acme__faulty", {
        "handbook/choices/0001-one.md": NYGARD.format(n=1, title="One", extra=broken),
        "handbook/choices/0002-two.md": NYGARD.format(n=2, title="Two", extra=""),
    })
    (snaps / "acme__clean" / "README.md").unlink()  # as a store that leaves out a file would
    manifest = entry("acme/clean", clean) + entry(
        "acme/faulty", faulty, roots='["handbook/choices"]') + entry("acme/absent", "3" * 40)
    logs = eco.parse_manifest(manifest)
    report = eco.run_set(sys.executable, logs, snaps, today="2026-01-01", jobs=2)
    return {"report": report, "snaps": snaps, "logs": logs, "faulty": faulty}


def test_a_run_checks_each_log_in_both_modes_read_only(ran: dict[str, Any]) -> None:
    report = ran["report"]
    by_repo = {e["repo"]: e for e in report["logs"]}
    assert by_repo["acme/absent"]["problem"] == "no snapshot at acme__absent"
    assert by_repo["acme/absent"]["runs"] == {}
    clean, faulty = by_repo["acme/clean"], by_repo["acme/faulty"]
    assert clean["problem"] is None and faulty["problem"] is None  # nothing written into them
    assert clean["unpristine"] == [" D README.md"] and faulty["unpristine"] == []
    assert clean["runs"]["detect"]["records"] == clean["runs"]["roots"]["records"] == 3
    assert clean["runs"]["roots"]["exit"] == 0
    # a folder named like no log, too small to be found by content: only the roots reach it
    assert faulty["runs"]["detect"]["exit"] == 2
    assert faulty["runs"]["detect"]["error"].startswith("error: no ADR folder found")
    assert faulty["runs"]["roots"]["records"] == 2
    assert faulty["runs"]["roots"]["exit"] == 1
    loud = [f for f in faulty["runs"]["roots"]["findings"] if f["severity"] in ("error", "warning")]
    assert [(f["code"], f["path"], f["line"]) for f in loud] == [
        ("ADR201", "handbook/choices/0001-one.md", 17)]
    totals = report["totals"]["roots"]
    assert totals["records"] == 5 and totals["zero_loud"] == ["acme/clean"]
    assert totals["by_code"]["ADR201"] == {"count": 1, "per100": 20.0, "logs": 1}
    assert totals["exit_codes"] == {"0": 1, "1": 1, "not run": 1}
    assert report["today"] == "2026-01-01" and report["modes"] == ["detect", "roots"]


def test_a_snapshot_at_another_commit_is_not_checked(
    eco: ModuleType, ran: dict[str, Any]
) -> None:
    logs = eco.parse_manifest(entry("acme/faulty", "4" * 40))
    report = eco.run_set(sys.executable, logs, ran["snaps"], modes=["roots"])
    assert report["logs"][0]["problem"] == (
        f"snapshot is at {ran['faulty']}, the manifest pins {'4' * 40}")


def test_the_markdown_report_has_the_totals_and_each_log(
    eco: ModuleType, ran: dict[str, Any]
) -> None:
    text = eco.report_markdown(ran["report"], ran["logs"])
    assert "| loud findings per 100 records | 0.0 | 20.0 |" in text
    assert "| ADR201 | broken-link | 0 | – | 0 | 1 | 20.0 | 1 |" in text
    assert "| acme/faulty | roots | 2 | 1 |" in text
    assert "## Logs with zero loud findings (roots): 1\n\nacme/clean" in text
    assert "no snapshot at acme\\_\\_absent" in text
    assert "| acme/clean | 1 | D README.md |" in text


def test_compare_lists_what_was_added_and_removed(eco: ModuleType, ran: dict[str, Any]) -> None:
    before = ran["report"]
    assert eco.compare(before, before)["modes"]["roots"]["totals"]["logs_changed"] == 0
    after = copy.deepcopy(before)
    faulty = next(e for e in after["logs"] if e["repo"] == "acme/faulty")
    run = faulty["runs"]["roots"]
    run["findings"] = [f for f in run["findings"] if f["code"] != "ADR201"]
    run["findings"].append({"code": "ADR109", "name": "invalid-date", "severity": "warning",
                            "path": "handbook/choices/0002-two.md", "line": 3,
                            "message": "a | pipe\nand a line break"})
    after["totals"]["roots"] = eco.totals(after, "roots")
    diff = eco.compare(before, after)
    roots = diff["modes"]["roots"]
    assert roots["by_code"] == {"ADR109": {"loud_added": 1}, "ADR201": {"loud_removed": 1}}
    assert roots["totals"]["loud_added"] == roots["totals"]["loud_removed"] == 1
    assert roots["totals"]["logs_changed"] == 1
    text = eco.compare_markdown(diff)
    assert "    + handbook/choices/0002-two.md:3 ADR109 warning a \\| pipe and a line break" in text
    assert "    - handbook/choices/0001-one.md:17 ADR201 error" in text
    assert "| acme/faulty | 2 → 2 | 1 → 1 | 1 → 1 | 1 | 1 |" in text


def test_sample_is_seeded_deterministic_and_bounded(
    eco: ModuleType, ran: dict[str, Any], tmp_path: Path
) -> None:
    report = copy.deepcopy(ran["report"])
    run = next(e for e in report["logs"] if e["repo"] == "acme/faulty")["runs"]["roots"]
    for i in range(30):
        run["findings"].append({"code": "ADR104", "name": "missing-section", "severity": "warning",
                                "path": "handbook/choices/0002-two.md", "line": i + 1,
                                "message": f"finding {i}"})
    first = eco.draw(report, 10, 7, "roots")
    assert first == eco.draw(report, 10, 7, "roots") and len(first) == 10
    assert first != eco.draw(report, 10, 8, "roots")
    assert len(eco.draw(report, 100, 7, "roots")) == 31  # never more than there are
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    out = tmp_path / "sample.md"
    assert eco.main(["sample", str(path), "--n", "5", "--seed", "7", "--snapshots",
                     str(ran["snaps"]), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# 5 loud findings drawn from 31 (roots, seed 7)")
    assert len(json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))) == 5
    line17 = eco.source_line(ran["snaps"], "acme/faulty", "handbook/choices/0001-one.md", 17)
    assert line17 == "See [the missing one](0009-missing.md)."


def test_clone_commands_pin_each_commit(eco: ModuleType, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "logs.toml"
    manifest.write_text(entry("acme/clean", "5" * 40), encoding="utf-8")
    assert eco.main(["clone-commands", "--manifest", str(manifest), "--snapshots",
                     str(tmp_path / "s p")]) == 0
    out = capsys.readouterr().out.splitlines()
    dest = f"'{tmp_path / 's p' / 'acme__clean'}'"
    assert out == ["set -eu",
                   f"git clone -q --no-checkout https://github.com/acme/clean.git {dest}",
                   f"git -C {dest} checkout -q {'5' * 40}",
                   f"git -C {dest} remote remove origin"]


def test_an_error_names_no_temporary_folder(eco: ModuleType, tmp_path: Path) -> None:
    # an error that names the run's own config file reads the same in every run
    log = eco.Log("owner/name", "0" * 40, ("docs/adr",), "MIT", "a log", ("nygard",), "none",
                  "file", ("en",))
    fails = [sys.executable, "-c",
             "import os, sys; sys.stderr.write('error: bad roots in ' + os.getcwd() + "
             "'/owner__name.roots.toml\\n'); sys.exit(2)"]
    run = eco.check_log(fails, log, tmp_path, "roots", "2026-09-01", tmp_path, 60.0)
    assert run["exit"] == 2
    assert run["error"] == "error: bad roots in <run folder>/owner__name.roots.toml"
