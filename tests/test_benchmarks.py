"""The benchmark suite's own pieces: a deterministic generated corpus adrguard can read, and the
runner's statistics and table formatting on fixed inputs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from adrguard.cli import main

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> tuple[ModuleType, ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import generate
        import report
    finally:
        sys.path.remove(str(BENCH))
    return generate, report


@pytest.fixture(scope="module")
def runner() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        import run
    finally:
        sys.path.remove(str(BENCH))
    return run


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(folder).parts
    }


def test_generated_corpus_is_byte_deterministic_and_counted(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path
) -> None:
    generate, _run = bench
    first = generate.generate(tmp_path / "a", 100, seed=3)
    second = generate.generate(tmp_path / "b", 100, seed=3)
    assert first == second
    files_a, files_b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert files_a == files_b
    records = [p for p in files_a if p.endswith(".md")]
    assert len(records) == first["records"] == 100
    assert sum(first["formats"].values()) == 100
    assert all(count > 0 for count in first["formats"].values())
    assert first["roots"] == ["docs/adr", "services/svc-01/docs/adr", "services/svc-02/docs/adr"]
    assert {p.rsplit("/", 1)[0] for p in records} == set(first["roots"])
    assert first["supersessions"] > 0 and first["links"] > 0
    assert all(len(paths) == 1 for paths in first["defects"].values())
    config = files_a[".adrguard.toml"].decode()
    assert all(f'"{root}"' in config for root in first["roots"])
    other = generate.generate(tmp_path / "c", 100, seed=4)
    assert _files(tmp_path / "c") != files_a and other["records"] == 100


def test_generator_refuses_the_repository_and_foreign_folders(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path
) -> None:
    generate, _run = bench
    with pytest.raises(SystemExit, match="inside the repository"):
        generate.generate(BENCH / "corpus", 10)
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit, match="not made by this generator"):
        generate.generate(tmp_path, 10, force=True)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_adrguard_reads_every_generated_record(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    generate, _run = bench
    generate.generate(tmp_path, 100, seed=1)
    assert main(["list", "--repo", str(tmp_path), "--format", "json"]) == 0
    listed = {d["path"]: d for d in json.loads(capsys.readouterr().out)["decisions"]}
    plan = generate.plan_corpus(100, 1)
    assert sorted(listed) == sorted(r.path for r in plan.records)
    for r in plan.records:
        got = listed[r.path]
        planted = {"missing-status": None, "unknown-status": "unknown"}
        expected = planted.get(r.defect or "", r.status)
        assert (got["status"], got["format"], got["number"], got["title"]) == (
            expected, r.fmt, r.number, r.title
        ), r.path


PLANTED_CODES = {
    "broken-link": "ADR201",
    "missing-status": "ADR102",
    "unknown-status": "ADR103",
    "missing-section": "ADR104",
    "filename-pattern": "ADR107",
    "id-mismatch": "ADR108",
    "invalid-date": "ADR109",
    "unresolved-relationship": "ADR301",
    "one-sided-supersession": "ADR304",
}


def test_check_finds_every_planted_defect(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    generate, _run = bench
    manifest = generate.generate(tmp_path, 100, seed=2)
    assert set(PLANTED_CODES) == set(generate.DEFECT_KINDS)
    code = main(["check", "--repo", str(tmp_path), "--format", "json", "--today", "2026-01-01"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["summary"]["decisions"] == 100
    found = {(f["code"], f["path"]) for f in report["findings"]}
    for kind, paths in manifest["defects"].items():
        assert (PLANTED_CODES[kind], paths[0]) in found, kind
    records = generate.plan_corpus(100, 2).records
    targets = {records[i].path for r in records if r.defect for i in r.supersedes}
    clean = {r.path for r in records if not r.defect and r.path not in targets}
    assert len(clean) > 80 and not {path for _code, path in found} & clean


def test_git_history_is_deterministic(bench: tuple[ModuleType, ModuleType], tmp_path: Path) -> None:
    generate, _run = bench
    git = generate.GitPlan(changed=30, mappings=10)
    heads = []
    for name in ("a", "b"):
        manifest = generate.generate(tmp_path / name, 100, seed=1, git=git)
        heads.append(_git(tmp_path / name, "rev-parse", "HEAD"))
    changed = _git(tmp_path / "a", "diff", "--name-only", "HEAD~1", "HEAD").splitlines()
    assert heads[0] == heads[1]
    info = manifest["git"]
    assert len(changed) == 30 + len(info["edited_records"])
    assert info["sample_code_path"] in changed
    impact = json.loads((tmp_path / "a" / ".adrguard-impact.json").read_text(encoding="utf-8"))
    assert len(impact["mappings"]) == 10


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_median_and_tables(bench: tuple[ModuleType, ModuleType]) -> None:
    _generate, report = bench
    assert report.median([3.0, 1.0, 2.0]) == 2.0
    assert report.median([4.0, 1.0, 3.0, 2.0]) == 2.5
    with pytest.raises(ValueError):
        report.median([])
    table = report.format_table(["name", "n"], [["a", "1"], ["bbbb", "22"]], [False, True])
    assert table == (
        "| name |   n |\n"
        "| ---- | --: |\n"
        "| a    |   1 |\n"
        "| bbbb |  22 |\n"
    )


def test_results_and_targets_tables(bench: tuple[ModuleType, ModuleType]) -> None:
    _generate, report = bench
    floor = report.Result(report.FLOOR, 10000, [report.Sample(0.1, 0.1, 20480, 0)] * 3)
    samples = [report.Sample(0.9, 0.8, 102400, 1), report.Sample(1.1, 1.0, 204800, 1),
               report.Sample(0.8, 0.7, 1024, 1)]
    check = report.Result(report.CHECK_COLD, 10000, samples)
    missing = report.Result("find", 10000, note="n/a (command not available)")
    table = report.results_table([floor, check, missing])
    row = next(line for line in table.splitlines() if line.startswith(f"| {report.CHECK_COLD}"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:8] == ["10,000", "3", "0.900", "0.800", "0.800", "200", "9.0×"]
    assert "n/a (command not available)" in table
    targets = report.targets_section([floor, check])
    assert "| check, 10,000 records, cold cache: ≤ 1.0 s" in targets
    line = next(x for x in targets.splitlines() if "cold cache: ≤ 1.0 s" in x)
    assert "0.900 s" in line and "| met" in line
    assert "missed" not in targets and "not measured" in targets


def test_compare_table_reports_pair_ratios(bench: tuple[ModuleType, ModuleType]) -> None:
    _generate, report = bench
    pairs = {("check", 100): [(1.0, 0.5), (2.0, 1.5), (1.0, 0.6)], ("graph", 100): []}
    text = report.compare_table(pairs, {("graph", 100): "A: n/a (command not available)"})
    row = next(line for line in text.splitlines() if line.startswith("| check"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2:7] == ["1.000", "0.600", "0.600", "0.500–0.750", "3"]
    assert "A: n/a (command not available)" in text
    assert "Median B/A over all pairs: 0.600" in text
    cpu = {("check", 100): [(2.0, 1.0), (2.0, 3.0), (1.0, 1.2)], ("graph", 100): []}
    text = report.compare_table(pairs, {}, cpu)
    assert "B/A CPU median" in text.splitlines()[0]
    row = next(line for line in text.splitlines() if line.startswith("| check"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[6:10] == ["1.200", "2.000", "1.200", "3"]  # CPU: B/A, A median, B median


def test_runner_detects_missing_commands_and_measures_children(
    runner: ModuleType, tmp_path: Path
) -> None:
    run = runner
    usage = run.Sample(0.1, 0.1, 1, 2, "usage: adrguard ...\nerror: argument COMMAND: invalid "
                       "choice: 'graph' (choose from 'check', 'list')\n")
    assert run.unavailable(usage, "graph") == "n/a (command not available)"
    assert run.unavailable(run.Sample(0.1, 0.1, 1, 1), "check") is None
    crash = run.unavailable(run.Sample(0.1, 0.1, 1, 3, "internal error: boom\n"), "check")
    assert crash is not None and crash.startswith("failed (exit 3")
    sample = run.run_once([sys.executable, "-c", "import sys; sys.exit(1)"], tmp_path)
    assert sample.exit_code == 1 and sample.wall > 0 and sample.rss_kb > 1000


def test_runner_discards_a_cell_whose_timed_runs_change_behaviour(
    runner: ModuleType, tmp_path: Path
) -> None:
    flip = "import os, sys; seen = os.path.exists('flag'); open('flag', 'w').close(); sys.exit(seen)"
    result = runner.time_command([sys.executable, "-c", flip], tmp_path, 3, False, "x", "x", 10)
    assert result.samples == [] and result.note.startswith("discarded")
    steady = runner.time_command([sys.executable, "-c", "pass"], tmp_path, 2, True, "x", "x", 10)
    assert len(steady.samples) == 2 and steady.note is None


def test_runner_flags_a_warm_run_that_rebuilt_the_cache(runner: ModuleType, tmp_path: Path) -> None:
    touch = ("import os, pathlib, time; p = pathlib.Path(os.environ['ADRGUARD_CACHE_DIR']); "
             "p.mkdir(exist_ok=True); (p / 'entry').write_text(str(time.time_ns()))")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    result = runner.time_command([sys.executable, "-c", touch], corpus, 2, False, "x", "x", 10)
    assert len(result.samples) == 2 and "cache rebuilt" in (result.note or "")
    assert runner.cache_of(corpus).parent == tmp_path  # beside the corpus, never inside it


def test_compare_gives_each_side_its_own_copy_and_cache(runner: ModuleType, tmp_path: Path) -> None:
    """Two versions sharing one cache evict each other's entries: each side of a comparison
    runs in its own copy of the corpus (made once, refreshed when it is regenerated) with its
    own cache folder beside it; an older version's in-tree cache is never copied."""
    corpus = tmp_path / "100-seed1"
    (corpus / runner.LEGACY_CACHE_DIR).mkdir(parents=True)
    (corpus / runner.LEGACY_CACHE_DIR / "check-result.json").write_text("{}")
    (corpus / runner.MANIFEST).write_text('{"generator": 1}')
    (corpus / "docs").mkdir()
    (corpus / "docs" / "0001-a.md").write_text("# A\n")
    a, b = runner.side_folder(corpus, "A"), runner.side_folder(corpus, "B")
    assert a != b and a.parent == b.parent == tmp_path
    for side in (a, b):
        assert (side / "docs" / "0001-a.md").read_text() == "# A\n"
        assert not (side / runner.LEGACY_CACHE_DIR).exists()
    (a / runner.LEGACY_CACHE_DIR).mkdir()
    assert runner.side_folder(corpus, "A") == a and (a / runner.LEGACY_CACHE_DIR).is_dir()  # reused
    (corpus / runner.MANIFEST).write_text('{"generator": 2}')  # regenerated: copied again
    assert not (runner.side_folder(corpus, "A") / runner.LEGACY_CACHE_DIR).exists()
    assert runner.cache_of(a) != runner.cache_of(b)


def test_the_retrieval_eval_measures_keyword_and_drives_a_provider(
    corpora_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmarks/eval_relevance.py: keyword figures over the labelled queries (the floor of
    tests/core/test_find_eval.py), and the AI path end to end against the loopback fake
    provider: every query with a topic is asked, and answered by the model. The fake rates
    nothing, so its figures measure the code path, never a model's quality."""
    from fakeprovider import KEY, running

    from adrguard.core.options import AiOptions

    sys.path.insert(0, str(BENCH))
    try:
        import eval_relevance
    finally:
        sys.path.remove(str(BENCH))
    keyword = eval_relevance.evaluate(corpora_dir)
    assert keyword["queries"] == 22 and keyword["answeredBy"] == {"ai": 0, "keyword": 22}
    assert keyword["recall@5"] >= 0.85 and keyword["mrr"] >= 0.85
    monkeypatch.setenv("FAKE_AI_API_KEY", KEY)
    with running() as fake:
        ai = AiOptions(provider="anthropic", base_url=fake.url, model="fake",
                       api_key_env="FAKE_AI_API_KEY", cache_ttl=0)
        judged = eval_relevance.evaluate(corpora_dir, ai)
    labels = json.loads(eval_relevance.LABELS.read_text())["queries"]
    topics = sum(1 for q in labels if q.get("topic"))
    assert judged["answeredBy"]["ai"] == topics == len(fake.requests)
    assert all(not r["warnings"] for r in judged["rows"])


def test_edit_row_gives_the_record_new_bytes_every_run_and_stages_it(
    runner: ModuleType, tmp_path: Path
) -> None:
    """The "one record edited" and hook rows must miss the record cache on that record in every
    timed run: each run sees bytes no earlier run saw (toggling between two versions hits the
    cache from the third run on); the hook row stages the record, and the index is put back."""
    repo = tmp_path / "repo"
    adr = repo / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-first.md").write_text("# 1. First\n\nAccepted\n", encoding="utf-8")
    (adr / "notes.md").write_text("not a record\n", encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "a"], cwd=repo, check=True)
    target = runner.edit_target(repo)
    assert target.name == "0001-first.md"
    original = target.read_bytes()
    seen = set()
    for n in range(1, 5):
        runner.edit_record(target, original, n, stage=True)
        seen.add(target.read_bytes())
        staged = subprocess.run(["git", "diff", "--cached", "--name-only"], cwd=repo,
                                capture_output=True, text=True, check=True).stdout.split()
        assert staged == ["docs/adr/0001-first.md"]
    assert len(seen) == 4 and original not in seen
    runner.restore_record(target, original, stage=True)
    assert target.read_bytes() == original
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    assert status == ""


def test_peer_row_gives_cpu_and_wall_ratios_per_pair(runner: ModuleType) -> None:
    sample = runner.Sample
    pairs = [(sample(0.4, 0.2, 2048, 0), sample(0.2, 0.1, 1024, 0)),
             (sample(0.3, 0.3, 4096, 0), sample(0.3, 0.1, 1024, 0)),
             (sample(0.2, 0.1, 1024, 0), sample(0.4, 0.2, 1024, 0))]
    row = runner._peer_row(runner.CHECK_COLD, 1000, pairs)
    assert row[:5] == [runner.CHECK_COLD, "1,000", "0.200", "0.100", "2.00×"]
    assert row[7:] == ["1.00×", "4", "3"]
    assert [c.label for c in runner.COMMANDS if c.label in runner.PEER_ROWS] == list(
        runner.PEER_ROWS)


def test_peer_every_root_sums_one_run_per_root(runner: ModuleType, tmp_path: Path) -> None:
    """``--peer-every-root``: the peer's side of a pair is several runs, one per root; their
    CPU and wall add up, the peak RSS is the largest, the exit code the worst and the error
    output keeps its order (real processes for the last two)."""
    sample = runner.Sample
    both = runner.combined([sample(0.25, 0.125, 2048, 0, "a"), sample(0.5, 0.25, 1024, 1, "b")])
    assert both == sample(0.75, 0.375, 2048, 1, "ab")
    say = "import sys\nsys.stderr.write(sys.argv[1])\nsys.exit(int(sys.argv[2]))"
    ran = runner.run_each([[sys.executable, "-c", say, "first ", "1"],
                           [sys.executable, "-c", say, "second", "0"]], tmp_path)
    assert (ran.exit_code, ran.stderr) == (1, "first second")
    assert ran.cpu > 0 and ran.wall > 0 and ran.rss_kb > 0


def test_import_budget_sums_self_times_and_leaves_the_repository_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/imports.py: the self time column of ``-X importtime`` summed per module (the
    header and other stderr lines ignored), and a real run of ``check`` and the hook that
    prints one row per command and puts the staged record back."""
    sys.path.insert(0, str(BENCH))
    try:
        import imports
    finally:
        sys.path.remove(str(BENCH))
    text = ("import time: self [us] | cumulative | imported package\n"
            "import time:       120 |        120 |   _io\n"
            "import time:      1500 |       1620 | adrguard.core.model\n"
            "warning: not an import line | 3 | x\n"
            "import time:        80 |         80 | _io\n")
    assert imports.self_times(text) == {"_io": 200, "adrguard.core.model": 1500}
    repo = tmp_path / "repo"
    adr = repo / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-first.md").write_text(
        "# 1. First\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n"
        "## Decision\n\nd\n\n## Consequences\n\nq\n", encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "a"], cwd=repo, check=True)
    assert imports.main([str(repo), "--repeat", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    rows = [ln for ln in out.splitlines() if ln.startswith(("| check ", "| hook "))]
    assert len(rows) == 2 and "60 ms" in rows[0]
    dearest = [ln for ln in out.splitlines() if ln.startswith(("check, ", "hook, "))]
    # the dearest modules are "name self-ms" pairs without a unit (a module name such as
    # msgspec.inspect may hold " ms", so look for a number followed by one)
    assert len(dearest) == 2 and all(re.search(r"\d ms\b", ln) is None and ln.count(", ") >= 3
                                     for ln in dearest)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    assert status == ""
