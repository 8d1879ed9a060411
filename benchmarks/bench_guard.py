"""The read guard's cost per tool call (issue 32: one decision <= 50 ms on a 1,000-record log).

    python benchmarks/bench_guard.py [--size 1000] [--repeat 20] [--work-dir /tmp/adrguard-bench]

Generates the log once (``benchmarks/generate.py --git``, under ``--work-dir``), archives its
archive candidates for real (``adrguard compaction``, ``archive plan``, ``archive apply``, then a
commit) and sets ``read-guard = "guard"``. Then it times, after one untimed warm-up each:

* **decision**: :func:`adrguard.api.agent.guard.judge` in this process, the way the hook calls it
  (configuration file, git index, the cached layout, path resolution, the policy, the session
  counters), for each kind of call: a targeted read, an archived read, an unscoped search, a
  code search and a shell command. CPU time per call (steadier than wall time on a shared
  machine) and wall time; the layout cache warm, as it is from the second call on.
* **hook process**: the whole command a runtime starts, ``PYTHON -m adrguard guard`` with the
  payload on standard input (interpreter start-up and imports included), warm and with the
  cache folder removed before every run (cold); wall time from here, CPU time of the child from
  ``os.wait4``. For reference: ``PYTHON -c pass`` and ``PYTHON -m adrguard --version``.

Every run uses a cache folder beside the corpus, never the user's own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
TARGET_MS = 50.0


def _run(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b"") -> tuple[
    float, float, bytes
]:
    """One child to completion: (wall ms, child CPU ms from wait4, stdout)."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        inp.write(stdin)
        inp.seek(0)
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=inp, stdout=out, stderr=err)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - start) * 1000
        code = os.waitstatus_to_exitcode(status)
        proc.returncode = code
        out.seek(0)
        err.seek(0)
        if code not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed ({code}): {err.read().decode()[-500:]}")
        return wall, (usage.ru_utime + usage.ru_stime) * 1000, out.read()


def ensure_log(work: Path, size: int, python: str) -> Path:
    """The generated log with its archive candidates archived and the guard on (made once)."""
    repo = work / f"guard-{size}"
    if (repo / ".guard-ready").is_file():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    env = _env(work / f"guard-{size}.cache")
    subprocess.run([python, str(HERE / "generate.py"), "--size", str(size), "--out", str(repo),
                    "--git"], check=True, env=env, stdout=subprocess.DEVNULL)
    analysis = subprocess.run([python, "-m", "adrguard", "compaction", "--format", "json"],
                              cwd=repo, env=env, capture_output=True, check=False)
    records = json.loads(analysis.stdout)["records"]
    ids = [r["id"] for r in records if r["disposition"] == "archive-candidate"]
    plan = repo / ".git" / "adrguard" / "plan.json"
    subprocess.run([python, "-m", "adrguard", "archive", "plan", *ids, "--out", str(plan)],
                   cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([python, "-m", "adrguard", "archive", "apply", str(plan)], cwd=repo, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    config = repo / ".adrguard.toml"
    config.write_text(config.read_text() + 'read-guard = "guard"\n')
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "archive the retired records; guard on"], cwd=repo,
                   check=True, env={**env, "GIT_AUTHOR_DATE": "2024-01-03T12:00:00+00:00",
                                    "GIT_COMMITTER_DATE": "2024-01-03T12:00:00+00:00"})
    (repo / ".git" / "info" / "exclude").write_text(".guard-ready\n")
    (repo / ".guard-ready").write_text(f"{len(ids)} archived\n")
    return repo


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ADRGUARD_") and k != "PYTHONDONTWRITEBYTECODE"}
    env["ADRGUARD_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def payloads(repo: Path) -> dict[str, dict[str, object]]:
    tracked = subprocess.run(["git", "ls-files", "docs/adr"], cwd=repo, capture_output=True,
                             text=True, check=True).stdout.split()
    active = next(p for p in tracked if "/archive/" not in p and p.endswith(".md")
                  and p[9:10].isdigit())
    archived = next(p for p in tracked if "/archive/" in p and not p.endswith("INDEX.md"))
    base = {"session_id": "bench-session", "cwd": str(repo), "hook_event_name": "PreToolUse",
            "permission_mode": "default", "transcript_path": "/dev/null"}
    return {
        "targeted read (Read)": {**base, "tool_name": "Read",
                                 "tool_input": {"file_path": str(repo / active)}},
        "archived read (Read, denied)": {**base, "tool_name": "Read",
                                         "tool_input": {"file_path": str(repo / archived)}},
        "unscoped search (Grep, denied)": {**base, "tool_name": "Grep", "tool_input": {
            "pattern": "postgresql", "output_mode": "content"}},
        "code search (Grep, ADRs left out)": {**base, "tool_name": "Grep", "tool_input": {
            "pattern": "postgresql", "output_mode": "content", "glob": "*.py"}},
        "shell read (Bash cat | head)": {**base, "tool_name": "Bash", "tool_input": {
            "command": f"cat {archived} | head -n 20"}},
    }


def time_in_process(repo: Path, cases: dict[str, dict[str, object]], repeat: int,
                    cache: Path) -> list[tuple[str, float, float, str]]:
    os.environ["ADRGUARD_CACHE_DIR"] = str(cache)
    os.environ.pop("ADRGUARD_NO_CACHE", None)
    sys.path.insert(0, str(SRC))
    from adrguard.adapters.guard.claude import read_payload
    from adrguard.api.agent.guard import judge

    rows = []
    for name, payload in cases.items():
        data = json.dumps(payload).encode()
        judge(read_payload(data))  # warm-up: the layout cache is filled
        cpu, wall = [], []
        answer = ""
        for _ in range(repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            outcome = judge(read_payload(data))
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
            answer = outcome.answer.value
        rows.append((name, statistics.median(cpu), statistics.median(wall), answer))
    return rows


def time_processes(python: str, repo: Path, cases: dict[str, dict[str, object]], repeat: int,
                   cache: Path) -> list[tuple[str, float, float]]:
    env = _env(cache)
    rows = []
    reference = {"python -c pass": [python, "-c", "pass"],
                 "adrguard --version": [python, "-m", "adrguard", "--version"]}
    for name, argv in reference.items():
        _run(argv, repo, env)
        samples = [_run(argv, repo, env) for _ in range(repeat)]
        rows.append((name, statistics.median(s[0] for s in samples),
                     statistics.median(s[1] for s in samples)))
    hook = [python, "-m", "adrguard", "guard"]
    for name, payload in cases.items():
        data = json.dumps(payload).encode()
        _run(hook, repo, env, data)
        warm = [_run(hook, repo, env, data) for _ in range(repeat)]
        rows.append((f"hook, warm: {name}", statistics.median(s[0] for s in warm),
                     statistics.median(s[1] for s in warm)))
    first = json.dumps(next(iter(cases.values()))).encode()
    cold = []
    for _ in range(max(3, repeat // 4)):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(_run(hook, repo, env, first))
    rows.append(("hook, cold (cache folder removed): targeted read",
                 statistics.median(s[0] for s in cold), statistics.median(s[1] for s in cold)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/adrguard-bench"))
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args(argv)
    repo = ensure_log(args.work_dir, args.size, args.python)
    cache = args.work_dir / f"guard-{args.size}.cache"
    cases = payloads(repo)
    archived = (repo / ".guard-ready").read_text().split()[0]
    print(f"log: {args.size} records ({archived} archived), read-guard = \"guard\"; "
          f"median of {args.repeat} runs after one warm-up\n")
    print("| decision in-process (api.guard.judge) | CPU ms | wall ms | answer |")
    print("|---|---:|---:|---|")
    worst = 0.0
    for name, cpu, wall, answer in time_in_process(repo, cases, args.repeat, cache):
        worst = max(worst, cpu)
        print(f"| {name} | {cpu:.1f} | {wall:.1f} | {answer} |")
    print("\n| whole process | wall ms | CPU ms |")
    print("|---|---:|---:|")
    for name, wall, cpu in time_processes(args.python, repo, cases, args.repeat, cache):
        print(f"| {name} | {wall:.1f} | {cpu:.1f} |")
    verdict = "met" if worst <= TARGET_MS else "NOT met"
    print(f"\ntarget: one decision <= {TARGET_MS:.0f} ms: {verdict} (slowest kind: {worst:.1f} "
          "ms CPU)")
    return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
