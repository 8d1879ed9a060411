"""Run an installed adrguard over the ecosystem set and report what it finds (issue 26).

The ecosystem set is `benchmarks/ecosystem/logs.toml`: real, public ADR logs pinned to a commit.
Their snapshots live outside this repository, one git checkout per log at the pinned commit,
named ``<owner>__<name>`` inside a snapshot folder (``clone-commands`` prints how to get them).

    python benchmarks/ecosystem.py run --adrguard VENV/bin/adrguard --snapshots DIR --out OUT
    python benchmarks/ecosystem.py run --adrguard NEW/bin/adrguard --compare OLD/bin/adrguard \
        --snapshots DIR --out OUT                    # or --compare OUT-OF-AN-EARLIER-RUN/report.json
    python benchmarks/ecosystem.py compare BEFORE/report.json AFTER/report.json --out OUT
    python benchmarks/ecosystem.py sample OUT/report.json --n 100 --seed 26 --snapshots DIR
    python benchmarks/ecosystem.py clone-commands --snapshots DIR > clone.sh

``run`` checks every log twice: ``detect`` (an empty config: adrguard finds the ADR folders
itself) and ``roots`` (a config naming the manifest's roots). Every check is read-only and
repeatable: ``--no-cache``, ``--no-baseline``, a fixed ``--today``, a cache folder and the config
files in a temporary folder outside the snapshots, and ``git status`` of each snapshot is read
afterwards to prove nothing was written there. The adrguard to run is an executable
(``VENV/bin/adrguard``) or a Python interpreter (``VENV/bin/python``, run as ``-m adrguard``), so
two versions can be compared. Writes ``report.json`` (for machines) and ``report.md`` (for
people), and with ``--compare`` also ``compare.json`` and ``compare.md``: findings added and
removed per code and per log, each changed finding listed as ``path:line CODE message``.

Offline, not part of CI, and it never imports adrguard.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parent / "ecosystem" / "logs.toml"
MODES = ("detect", "roots")
LOUD = ("error", "warning")
TODAY = "2026-09-01"  # fixed, so ADR109's "future date" never depends on the day of the run
TIMEOUT = 900.0
REPORT_FORMAT = "adrguard-ecosystem-report"
COMPARE_FORMAT = "adrguard-ecosystem-compare"
REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")
# What a log brings; the manifest must use these words so the variety table can count them.
VOCABULARY: dict[str, frozenset[str]] = {
    "style": frozenset({
        "adr-tools", "nygard", "madr-2", "madr-3", "madr-4", "log4brains", "front-matter",
        "arc42", "rfc", "kep", "pep", "eip", "bullets", "table", "home-grown",
    }),
    "site": frozenset({
        "none", "docusaurus", "mkdocs", "hugo", "jekyll", "vitepress", "antora", "log4brains",
        "sphinx", "astro", "other",
    }),
    "layout": frozenset({"file", "folder", "mixed"}),
}

Report = dict[str, Any]


class ManifestError(ValueError):
    pass


@dataclass(frozen=True)
class Log:
    repo: str
    commit: str
    roots: tuple[str, ...]
    licence: str
    why: str
    style: tuple[str, ...]
    site: str
    layout: str
    languages: tuple[str, ...]

    @property
    def folder(self) -> str:
        return self.repo.replace("/", "__")


def _strings(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(f"{where}: `{key}` must be a non-empty list of strings")
    return tuple(value)


def _string(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(f"{where}: `{key}` must be a non-empty string")
    return value.strip()


def parse_manifest(text: str) -> list[Log]:
    """The logs of a manifest, validated: a bad entry is an error naming it, never skipped."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"not TOML: {exc}") from exc
    entries = data.get("log")
    if not isinstance(entries, list) or not entries:
        raise ManifestError("no [[log]] entries")
    known = {"repo", "commit", "roots", "licence", "why", "style", "site", "layout", "languages"}
    logs: list[Log] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries, 1):
        where = f"[[log]] #{i}"
        if not isinstance(entry, dict):
            raise ManifestError(f"{where}: not a table")
        unknown = sorted(set(entry) - known)
        if unknown:
            raise ManifestError(f"{where}: unknown key(s) {', '.join(unknown)}")
        repo = _string(entry, "repo", where)
        where = f"[[log]] {repo}"
        if not REPO_RE.match(repo):
            raise ManifestError(f"{where}: `repo` must be owner/name")
        if repo.lower() in seen:
            raise ManifestError(f"{where}: listed twice")
        seen.add(repo.lower())
        commit = _string(entry, "commit", where)
        if not COMMIT_RE.match(commit):
            raise ManifestError(f"{where}: `commit` must be 40 lower-case hex digits")
        roots = _strings(entry, "roots", where)
        for root in roots:
            parts = root.split("/")
            if root.startswith("/") or ".." in parts or "\\" in root:
                raise ManifestError(f"{where}: root {root!r} must be a repository-relative path")
        style = _strings(entry, "style", where)
        site = _string(entry, "site", where)
        layout = _string(entry, "layout", where)
        for key, values in (("style", style), ("site", (site,)), ("layout", (layout,))):
            bad = [v for v in values if v not in VOCABULARY[key]]
            if bad:
                words = ", ".join(sorted(VOCABULARY[key]))
                raise ManifestError(f"{where}: `{key}` {bad[0]!r} is not one of {words}")
        logs.append(Log(
            repo=repo, commit=commit, roots=roots, licence=_string(entry, "licence", where),
            why=_string(entry, "why", where), style=style, site=site, layout=layout,
            languages=_strings(entry, "languages", where),
        ))
    return logs


def load_manifest(path: Path) -> list[Log]:
    return parse_manifest(path.read_text(encoding="utf-8"))


def adrguard_command(adrguard: str) -> list[str]:
    """argv prefix for an adrguard executable, or for a Python interpreter (``-m adrguard``)."""
    name = Path(adrguard).name
    if re.match(r"^python(\d+(\.\d+)?)?(\.exe)?$", name):
        return [adrguard, "-m", "adrguard"]
    return [adrguard]


def toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def config_text(mode: str, log: Log) -> str:
    if mode == "detect":
        return "# ecosystem run: no settings, adrguard finds the ADR folders itself\n"
    roots = ", ".join(toml_string(r) for r in log.roots)
    return f"# ecosystem run: the manifest's roots\nroots = [{roots}]\n"


def _child_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADRGUARD_")}
    env.update({
        "ADRGUARD_CACHE_DIR": str(cache),
        "ADRGUARD_NO_CACHE": "1",
        "NO_COLOR": "1",
        "GIT_OPTIONAL_LOCKS": "0",  # git status must not refresh the snapshot's index
        "GIT_TERMINAL_PROMPT": "0",
    })
    return env


def run_child(argv: Sequence[str], cwd: Path, env: Mapping[str, str],
              timeout: float) -> tuple[int | None, float, float, bytes, str]:
    """(exit code or None on timeout, wall s, cpu s, stdout, stderr) of one child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=err, env=dict(env),
                                stdin=subprocess.DEVNULL)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _pid, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        code = None if killed.is_set() else proc.returncode
        return code, wall, usage.ru_utime + usage.ru_stime, out.read(), err.read().decode(
            "utf-8", "replace")


def _finding(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "code": str(raw.get("code", "")),
        "name": str(raw.get("name", "")),
        "severity": str(raw.get("severity", "")),
        "path": str(raw.get("path") or ""),
        "line": int(raw.get("line") or 0),
        "message": str(raw.get("message", "")),
    }


def check_log(command: Sequence[str], log: Log, snapshot: Path, mode: str, today: str,
              workdir: Path, timeout: float) -> dict[str, Any]:
    """One ``adrguard check`` of one snapshot in one mode, as a JSON-able dict."""
    config = workdir / f"{log.folder}.{mode}.toml"
    config.write_text(config_text(mode, log), encoding="utf-8")
    cache = workdir / "cache"
    argv = [*command, "check", "--repo", str(snapshot), "--config", str(config), "--no-cache",
            "--no-baseline", "--today", today, "--format", "json"]
    code, wall, cpu, stdout, stderr = run_child(argv, workdir, _child_env(cache), timeout)
    run: dict[str, Any] = {"exit": code, "wall": round(wall, 3), "cpu": round(cpu, 3),
                           "records": 0, "files": 0, "findings": [], "error": None}
    if code is None:
        run["error"] = f"timed out after {timeout:.0f} s"
        return run
    if code in (0, 1):
        try:
            data = json.loads(stdout)
            summary = data["summary"]
            run["records"] = int(summary.get("decisions", 0))
            run["files"] = int(summary.get("files", 0))
            run["findings"] = sorted(
                (_finding(f) for f in data.get("findings", [])),
                key=lambda f: (f["path"], f["line"], f["code"], f["message"]))
        except (ValueError, KeyError, TypeError) as exc:
            run["error"] = f"unreadable JSON report: {exc}"
        return run
    # the run's temporary folder (its config file is named in some errors) differs between runs:
    # a comparison must not list a log as changed for it
    lines = [ln.strip().replace(str(workdir), "<run folder>") for ln in stderr.splitlines()
             if ln.strip()]
    errors = [ln for ln in lines if ln.lower().startswith("error")]
    run["error"] = ((errors or lines or ["(no message)"])[-1])[:400]
    return run


def git_head(snapshot: Path) -> str | None:
    done = subprocess.run(["git", "-C", str(snapshot), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    return done.stdout.strip() if done.returncode == 0 else None


def git_dirty(snapshot: Path) -> list[str]:
    """Paths ``git status`` reports in the snapshot: anything here means a run wrote into it."""
    done = subprocess.run(
        ["git", "-C", str(snapshot), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True, text=True, check=False,
        env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    if done.returncode != 0:
        return [f"(git status failed: {done.stderr.strip()[:200]})"]
    return [ln for ln in done.stdout.splitlines() if ln.strip()]


def tool_version(command: Sequence[str]) -> str:
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, check=False)
    return (done.stdout.strip() or done.stderr.strip() or "unknown")[:200]


def run_set(adrguard: str, logs: Sequence[Log], snapshots: Path, *, modes: Sequence[str] = MODES,
            today: str = TODAY, jobs: int = 1, timeout: float = TIMEOUT,
            progress: Callable[[str], None] | None = None) -> Report:
    """Check every log in every mode with one adrguard; the whole report."""
    command = adrguard_command(adrguard)
    started = time.perf_counter()
    entries: list[dict[str, Any]] = []
    tasks: list[tuple[dict[str, Any], Log, Path, str]] = []
    for log in logs:
        snapshot = snapshots / log.folder
        entry: dict[str, Any] = {"repo": log.repo, "commit": log.commit, "roots": list(log.roots),
                                 "runs": {}, "problem": None, "unpristine": []}
        entries.append(entry)
        if not (snapshot / ".git").exists():
            entry["problem"] = f"no snapshot at {log.folder}"
            continue
        head = git_head(snapshot)
        if head != log.commit:
            entry["problem"] = f"snapshot is at {head}, the manifest pins {log.commit}"
            continue
        # what already differs from the commit (a snapshot store may leave out its largest
        # files): only a change the runs make on top of it is a problem
        entry["unpristine"] = git_dirty(snapshot)
        for mode in modes:
            tasks.append((entry, log, snapshot, mode))
    with tempfile.TemporaryDirectory(prefix="adrguard-ecosystem-") as tmp:
        workdir = Path(tmp)
        lock = threading.Lock()
        done = [0]

        def one(task: tuple[dict[str, Any], Log, Path, str]) -> None:
            entry, log, snapshot, mode = task
            run = check_log(command, log, snapshot, mode, today, workdir, timeout)
            with lock:
                entry["runs"][mode] = run
                done[0] += 1
                if progress:
                    loud = sum(1 for f in run["findings"] if f["severity"] in LOUD)
                    progress(f"[{done[0]}/{len(tasks)}] {log.repo} {mode}: exit {run['exit']}, "
                             f"{run['records']} records, {loud} loud, {run['wall']:.1f} s")

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(one, tasks))
    for entry, log in zip(entries, logs, strict=True):
        if entry["problem"] is None:
            before = set(entry["unpristine"])
            dirty = [ln for ln in git_dirty(snapshots / log.folder) if ln not in before]
            if dirty:
                entry["problem"] = "the run wrote into the snapshot: " + "; ".join(dirty[:5])
        entry["runs"] = {m: entry["runs"][m] for m in modes if m in entry["runs"]}
    report: Report = {
        "format": REPORT_FORMAT,
        "version": 1,
        "adrguard": {"command": command, "version": tool_version(command)},
        "today": today,
        "modes": list(modes),
        "created": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "wall": round(time.perf_counter() - started, 1),
        "logs": entries,
    }
    report["totals"] = {mode: totals(report, mode) for mode in modes}
    return report


# ---------------------------------------------------------------- summaries


def loud_counts(findings: Iterable[Mapping[str, Any]]) -> Counter[str]:
    return Counter(f["code"] for f in findings if f["severity"] in LOUD)


def per100(count: int, records: int) -> float | None:
    return round(100.0 * count / records, 1) if records else None


def totals(report: Report, mode: str) -> dict[str, Any]:
    """Totals of one mode: records, loud findings by code (and per 100 records), exit codes."""
    records = files = notes = 0
    loud: Counter[str] = Counter()
    logs_by_code: Counter[str] = Counter()
    exits: Counter[str] = Counter()
    zero: list[str] = []
    no_records: list[str] = []
    failed: list[str] = []
    wall = cpu = 0.0
    for entry in report["logs"]:
        run = entry["runs"].get(mode)
        if run is None:
            exits["not run"] += 1
            continue
        exits["timeout" if run["exit"] is None else str(run["exit"])] += 1
        wall += run["wall"]
        cpu += run["cpu"]
        if run["error"]:
            failed.append(entry["repo"])
            continue
        records += run["records"]
        files += run["files"]
        counts = loud_counts(run["findings"])
        loud.update(counts)
        logs_by_code.update(counts.keys())
        notes += sum(1 for f in run["findings"] if f["severity"] == "note")
        if run["records"] == 0:
            no_records.append(entry["repo"])
        elif not counts:
            zero.append(entry["repo"])
    return {
        "records": records,
        "files": files,
        "logs_checked": sum(1 for e in report["logs"] if mode in e["runs"]),
        "logs_with_records": sum(
            1 for e in report["logs"]
            if mode in e["runs"] and not e["runs"][mode]["error"] and e["runs"][mode]["records"]),
        "loud": sum(loud.values()),
        "loud_per100": per100(sum(loud.values()), records),
        "notes": notes,
        "by_code": {code: {"count": n, "per100": per100(n, records), "logs": logs_by_code[code]}
                    for code, n in sorted(loud.items())},
        "exit_codes": dict(sorted(exits.items())),
        "zero_loud": sorted(zero),
        "no_records": sorted(no_records),
        "failed": sorted(failed),
        "wall": round(wall, 1),
        "cpu": round(cpu, 1),
    }


def code_names(reports: Iterable[Report]) -> dict[str, str]:
    names: dict[str, str] = {}
    for report in reports:
        for entry in report["logs"]:
            for run in entry["runs"].values():
                for f in run["findings"]:
                    names.setdefault(f["code"], f["name"])
    return names


def md_escape(text: str) -> str:
    """Make text inert in a Markdown table cell."""
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", "?", text)
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    text = re.sub(r"([\\`*_\[\]|<>#~$])", r"\\\1", text)
    return text


def table(headers: Sequence[str], rows: Iterable[Sequence[object]],
          right: Sequence[bool] | None = None) -> str:
    align = list(right) if right is not None else [False] * len(headers)
    rule = ["---:" if r else "---" for r in align]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def report_markdown(report: Report, logs: Sequence[Log] | None = None) -> str:
    modes: list[str] = report["modes"]
    names = code_names([report])
    out = [f"# adrguard over the ecosystem set\n\n`{md_escape(report['adrguard']['version'])}`, "
           f"{len(report['logs'])} logs, modes {', '.join(modes)}, today = {report['today']}, "
           f"whole run {report['wall']:.0f} s.\n"]
    problems = [e for e in report["logs"] if e["problem"]]
    if problems:
        out.append("\n## Logs not checked or not clean\n\n")
        out.append(table(["log", "problem"],
                         ([md_escape(e["repo"]), md_escape(e["problem"])] for e in problems)))
    unpristine = [e for e in report["logs"] if e.get("unpristine")]
    if unpristine:
        out.append("\n## Snapshots that differ from their commit before the run\n\n"
                   "Files the snapshot lacks (a store may leave out large files): links to them "
                   "read as broken here, not in a full clone.\n\n")
        out.append(table(["log", "paths", "first"], (
            [md_escape(e["repo"]), len(e["unpristine"]), md_escape(e["unpristine"][0].strip())]
            for e in unpristine), [False, True, False]))
    t = {m: report["totals"][m] for m in modes}
    out.append("\n## Totals\n\n")
    rows: list[list[object]] = [
        ["logs checked", *(t[m]["logs_checked"] for m in modes)],
        ["logs with records", *(t[m]["logs_with_records"] for m in modes)],
        ["records", *(t[m]["records"] for m in modes)],
        ["loud findings (warning + error)", *(t[m]["loud"] for m in modes)],
        ["loud findings per 100 records", *(fmt(t[m]["loud_per100"]) for m in modes)],
        ["notes", *(t[m]["notes"] for m in modes)],
        ["logs with zero loud findings", *(len(t[m]["zero_loud"]) for m in modes)],
        ["logs where no record was found", *(len(t[m]["no_records"]) for m in modes)],
        ["exit codes", *(", ".join(f"{k}: {v}" for k, v in t[m]["exit_codes"].items())
                         for m in modes)],
        ["time (sum of wall / cpu, s)", *(f"{t[m]['wall']:.0f} / {t[m]['cpu']:.0f}"
                                          for m in modes)],
    ]
    out.append(table(["", *modes], rows, [False, *([True] * len(modes))]))
    codes = sorted({c for m in modes for c in t[m]["by_code"]})
    out.append("\n## Loud findings per 100 records, by code\n\n")
    headers = ["code", "name"]
    for m in modes:
        headers += [f"{m}: n", f"{m}: /100", f"{m}: logs"]
    crow: list[list[object]] = []
    for code in sorted(codes, key=lambda c: -max(t[m]["by_code"].get(c, {}).get("count", 0)
                                                  for m in modes)):
        row: list[object] = [code, md_escape(names.get(code, ""))]
        for m in modes:
            cell = t[m]["by_code"].get(code)
            row += [cell["count"], fmt(cell["per100"]), cell["logs"]] if cell else [0, "–", 0]
        crow.append(row)
    out.append(table(headers, crow, [False, False, *([True] * (3 * len(modes)))]))
    for m in modes:
        out.append(f"\n## Logs with zero loud findings ({m}): {len(t[m]['zero_loud'])}\n\n")
        out.append(", ".join(md_escape(r) for r in t[m]["zero_loud"]) or "none")
        out.append("\n")
    if logs is not None:
        out.append("\n" + variety_markdown(logs, report))
    out.append("\n## Per log\n\nloud/100: loud findings per 100 records; codes: the loud codes, "
               "each with its count.\n\n")
    lrows: list[list[object]] = []
    for entry in report["logs"]:
        for m in modes:
            run = entry["runs"].get(m)
            if run is None:
                continue
            counts = loud_counts(run["findings"])
            top = ", ".join(f"{c} {n}" for c, n in counts.most_common())
            exit_text = "timeout" if run["exit"] is None else str(run["exit"])
            if run["error"]:
                top = "error: " + md_escape(run["error"][:120])
            lrows.append([md_escape(entry["repo"]), m, run["records"], exit_text,
                          f"{run['wall']:.1f}", sum(counts.values()),
                          fmt(per100(sum(counts.values()), run["records"])), top])
    out.append(table(["log", "mode", "records", "exit", "time s", "loud", "loud/100", "codes"],
                     lrows, [False, False, True, True, True, True, True, False]))
    return "".join(out)


def size_bucket(records: int) -> str:
    for limit, label in ((0, "none found"), (4, "1-4"), (19, "5-19"), (49, "20-49"),
                         (99, "50-99"), (499, "100-499")):
        if records <= limit:
            return label
    return "500+"


def variety_markdown(logs: Sequence[Log], report: Report | None = None) -> str:
    """How varied the set is: counts by style, site generator, layout, language, size."""
    out = ["## The set\n\n"]
    groups: list[tuple[str, Counter[str]]] = [
        ("style", Counter(s for log in logs for s in log.style)),
        ("published by", Counter(log.site for log in logs)),
        ("layout", Counter(log.layout for log in logs)),
        ("language", Counter(lang for log in logs for lang in log.languages)),
        ("roots", Counter("several roots" if len(log.roots) > 1 else "one root" for log in logs)),
    ]
    if report is not None:
        mode = "roots" if "roots" in report["modes"] else report["modes"][0]
        found = {e["repo"]: e["runs"][mode]["records"] for e in report["logs"]
                 if mode in e["runs"] and not e["runs"][mode]["error"]}
        order = ["none found", "1-4", "5-19", "20-49", "50-99", "100-499", "500+"]
        sizes = Counter(size_bucket(found[log.repo]) for log in logs if log.repo in found)
        groups.append((f"records ({mode})", Counter({k: sizes[k] for k in order if sizes[k]})))
    rows = []
    for label, counter in groups:
        items = counter.items() if label.startswith("records") else counter.most_common()
        rows.append([label, ", ".join(f"{md_escape(k)} {v}" for k, v in items)])
    out.append(table(["", f"logs (of {len(logs)})"], rows))
    return "".join(out)


# ---------------------------------------------------------------- compare


def _key(f: Mapping[str, Any]) -> tuple[str, int, str, str, str]:
    return (f["path"], f["line"], f["code"], f["severity"], f["message"])


def compare(before: Report, after: Report) -> Report:
    """What changed from ``before`` to ``after``: findings added and removed per code and log."""
    modes = [m for m in after["modes"] if m in before["modes"]]
    old_logs = {e["repo"]: e for e in before["logs"]}
    result: Report = {
        "format": COMPARE_FORMAT,
        "version": 1,
        "before": {"adrguard": before["adrguard"], "wall": before["wall"]},
        "after": {"adrguard": after["adrguard"], "wall": after["wall"]},
        "modes": {},
    }
    for mode in modes:
        by_code: dict[str, Counter[str]] = {}
        logs: list[dict[str, Any]] = []
        for entry in after["logs"]:
            new_run = entry["runs"].get(mode)
            old_entry = old_logs.get(entry["repo"])
            old_run = old_entry["runs"].get(mode) if old_entry else None
            if new_run is None or old_run is None:
                continue
            old_c = Counter(_key(f) for f in old_run["findings"])
            new_c = Counter(_key(f) for f in new_run["findings"])
            added = sorted((new_c - old_c).elements())
            removed = sorted((old_c - new_c).elements())
            for side, items in (("added", added), ("removed", removed)):
                for _path, _line, code, severity, _msg in items:
                    loudness = "loud" if severity in LOUD else "note"
                    by_code.setdefault(code, Counter())[f"{loudness}_{side}"] += 1
            changed = (added or removed or old_run["records"] != new_run["records"]
                       or old_run["exit"] != new_run["exit"] or old_run["error"] != new_run["error"])
            logs.append({
                "repo": entry["repo"],
                "changed": bool(changed),
                "records": [old_run["records"], new_run["records"]],
                "exit": [old_run["exit"], new_run["exit"]],
                "error": [old_run["error"], new_run["error"]],
                "wall": [old_run["wall"], new_run["wall"]],
                "loud": [sum(loud_counts(old_run["findings"]).values()),
                         sum(loud_counts(new_run["findings"]).values())],
                "added": [dict(zip(("path", "line", "code", "severity", "message"), k,
                                   strict=True)) for k in added],
                "removed": [dict(zip(("path", "line", "code", "severity", "message"), k,
                                     strict=True)) for k in removed],
            })
        result["modes"][mode] = {
            "by_code": {c: dict(v) for c, v in sorted(by_code.items())},
            "logs": logs,
            "totals": {
                "records": [before["totals"][mode]["records"], after["totals"][mode]["records"]],
                "loud": [before["totals"][mode]["loud"], after["totals"][mode]["loud"]],
                "loud_per100": [before["totals"][mode]["loud_per100"],
                                after["totals"][mode]["loud_per100"]],
                "zero_loud": [len(before["totals"][mode]["zero_loud"]),
                              len(after["totals"][mode]["zero_loud"])],
                "loud_added": sum(v.get("loud_added", 0) for v in by_code.values()),
                "loud_removed": sum(v.get("loud_removed", 0) for v in by_code.values()),
                "notes_added": sum(v.get("note_added", 0) for v in by_code.values()),
                "notes_removed": sum(v.get("note_removed", 0) for v in by_code.values()),
                "logs_changed": sum(1 for e in logs if e["changed"]),
            },
        }
    return result


def _line(sign: str, f: Mapping[str, Any]) -> str:
    where = f"{f['path']}:{f['line']}" if f["line"] else f["path"]
    return f"    {sign} {where} {f['code']} {f['severity']} {md_escape(f['message'])}"


def compare_markdown(diff: Report, max_listed: int = 200) -> str:
    before = md_escape(diff["before"]["adrguard"]["version"])
    after = md_escape(diff["after"]["adrguard"]["version"])
    out = [f"# Ecosystem comparison\n\nbefore: `{before}` → after: `{after}`\n"]
    for mode, data in diff["modes"].items():
        t = data["totals"]
        out.append(f"\n## {mode}\n\n")
        out.append(table(["", "before", "after"], [
            ["records", *t["records"]],
            ["loud findings", *t["loud"]],
            ["loud per 100 records", *(fmt(v) for v in t["loud_per100"])],
            ["logs with zero loud findings", *t["zero_loud"]],
        ], [False, True, True]))
        out.append(f"\nloud findings: +{t['loud_added']} −{t['loud_removed']}; notes: "
                   f"+{t['notes_added']} −{t['notes_removed']}; {t['logs_changed']} logs "
                   "changed.\n\n")
        codes = data["by_code"]
        if codes:
            rows = sorted(codes.items(), key=lambda kv: -(kv[1].get("loud_added", 0)
                                                          + kv[1].get("loud_removed", 0)))
            out.append(table(["code", "loud +", "loud −", "notes +", "notes −"], (
                [c, v.get("loud_added", 0), v.get("loud_removed", 0), v.get("note_added", 0),
                 v.get("note_removed", 0)] for c, v in rows), [False, True, True, True, True]))
        changed = [e for e in data["logs"] if e["changed"]]
        if not changed:
            out.append("\nNo log changed.\n")
            continue
        out.append("\n")
        out.append(table(["log", "records", "exit", "loud", "+", "−"], (
            [md_escape(e["repo"]), "{} → {}".format(*e["records"]), "{} → {}".format(*e["exit"]),
             "{} → {}".format(*e["loud"]), len(e["added"]), len(e["removed"])]
            for e in changed), [False, True, True, True, True, True]))
        for e in changed:
            out.append(f"\n### {md_escape(e['repo'])} ({mode})\n\n")
            if e["error"][0] != e["error"][1]:
                out.append(f"error: {md_escape(str(e['error'][0]))} → "
                           f"{md_escape(str(e['error'][1]))}\n\n")
            lines = [_line("-", f) for f in e["removed"]] + [_line("+", f) for f in e["added"]]
            lines.sort(key=lambda ln: ln[6:])
            out.append("\n".join(lines[:max_listed]) + "\n")
            if len(lines) > max_listed:
                out.append(f"\n({len(lines) - max_listed} more in compare.json)\n")
    return "".join(out)


# ---------------------------------------------------------------- sample


def population(report: Report, mode: str) -> list[dict[str, Any]]:
    items = []
    for entry in report["logs"]:
        run = entry["runs"].get(mode)
        if run is None or run["error"]:
            continue
        for f in run["findings"]:
            if f["severity"] in LOUD:
                items.append({"repo": entry["repo"], **f})
    items.sort(key=lambda f: (f["repo"], f["path"], f["line"], f["code"], f["message"]))
    return items


def draw(report: Report, n: int, seed: int, mode: str) -> list[dict[str, Any]]:
    """``n`` loud findings drawn uniformly without replacement; the same seed, the same draw."""
    items = population(report, mode)
    picked = random.Random(seed).sample(range(len(items)), min(n, len(items)))
    return [items[i] for i in sorted(picked)]


def source_line(snapshots: Path | None, repo: str, path: str, line: int) -> str:
    if snapshots is None or not path or line < 1:
        return ""
    target = (snapshots / repo.replace("/", "__") / path)
    try:
        with target.open(encoding="utf-8", errors="replace") as fh:
            for i, text in enumerate(fh, 1):
                if i == line:
                    return text.strip()[:160]
    except OSError:
        return ""
    return ""


def sample_markdown(picked: Sequence[Mapping[str, Any]], seed: int, mode: str, total: int,
                    snapshots: Path | None) -> str:
    out = [f"# {len(picked)} loud findings drawn from {total} ({mode}, seed {seed})\n\n"
           "verdict: TP (a real defect the maintainer would fix), FP (the claim is false), "
           "NOISE (true but pointless for this log).\n\n"]
    rows = []
    for i, f in enumerate(picked, 1):
        where = f"{f['path']}:{f['line']}" if f["line"] else f["path"]
        rows.append([i, md_escape(f["repo"]), md_escape(where), f["code"], f["severity"],
                     md_escape(f["message"]),
                     md_escape(source_line(snapshots, f["repo"], f["path"], f["line"])), "", ""])
    out.append(table(["#", "log", "location", "code", "severity", "message", "text", "verdict",
                      "reason"], rows))
    return "".join(out)


# ---------------------------------------------------------------- command line


def load_report(path: Path) -> Report:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise ValueError(f"{path} is not a report of this script")
    return data


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def dump(data: object) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def select(logs: Sequence[Log], only: str | None) -> list[Log]:
    if not only:
        return list(logs)
    wanted = {w.strip().lower() for w in only.split(",") if w.strip()}
    chosen = [log for log in logs if log.repo.lower() in wanted]
    missing = wanted - {log.repo.lower() for log in chosen}
    if missing:
        raise SystemExit(f"error: not in the manifest: {', '.join(sorted(missing))}")
    return chosen


def inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def cmd_run(args: argparse.Namespace) -> int:
    logs = select(load_manifest(args.manifest), args.only)
    snapshots: Path = args.snapshots
    if inside(args.out, snapshots):
        raise SystemExit("error: --out must be outside the snapshot folder")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in MODES for m in modes):
        raise SystemExit(f"error: --modes takes {', '.join(MODES)}")

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    report = run_set(args.adrguard, logs, snapshots, modes=modes, today=args.today,
                     jobs=args.jobs, timeout=args.timeout, progress=say)
    write(args.out / "report.json", dump(report))
    write(args.out / "report.md", report_markdown(report, logs))
    say(f"wrote {args.out / 'report.json'} and report.md ({report['wall']:.0f} s)")
    if args.compare:
        other = Path(args.compare)
        if other.suffix == ".json" and other.is_file():
            before = load_report(other)
        else:
            say(f"running the other adrguard: {args.compare}")
            before = run_set(args.compare, logs, snapshots, modes=modes, today=args.today,
                             jobs=args.jobs, timeout=args.timeout, progress=say)
            write(args.out / "before.json", dump(before))
        diff = compare(before, report)
        write(args.out / "compare.json", dump(diff))
        write(args.out / "compare.md", compare_markdown(diff, args.max_listed))
        say(f"wrote {args.out / 'compare.md'}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    diff = compare(load_report(args.before), load_report(args.after))
    write(args.out / "compare.json", dump(diff))
    text = compare_markdown(diff, args.max_listed)
    write(args.out / "compare.md", text)
    return 0


def cmd_sample(args: argparse.Namespace) -> int:
    report = load_report(args.report)
    mode = args.mode if args.mode in report["modes"] else report["modes"][-1]
    picked = draw(report, args.n, args.seed, mode)
    text = sample_markdown(picked, args.seed, mode, len(population(report, mode)), args.snapshots)
    if args.out:
        write(args.out, text)
        write(args.out.with_suffix(".json"), dump(picked))
    else:
        sys.stdout.write(text)
    return 0


def cmd_clone_commands(args: argparse.Namespace) -> int:
    lines = ["set -eu"]
    for log in select(load_manifest(args.manifest), args.only):
        dest = shlex.quote(str(args.snapshots / log.folder))
        lines.append(f"git clone -q --no-checkout https://github.com/{log.repo}.git {dest}")
        lines.append(f"git -C {dest} checkout -q {log.commit}")
        lines.append(f"git -C {dest} remote remove origin")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def cmd_variety(args: argparse.Namespace) -> int:
    logs = load_manifest(args.manifest)
    report = load_report(args.report) if args.report else None
    sys.stdout.write(variety_markdown(logs, report))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="check every log with one adrguard (and --compare another)")
    run.add_argument("--adrguard", required=True,
                     help="the adrguard executable, or a Python that has adrguard installed")
    run.add_argument("--snapshots", type=Path, required=True,
                     help="folder of <owner>__<name> checkouts at the pinned commits")
    run.add_argument("--out", type=Path, default=Path("ecosystem-report"))
    run.add_argument("--manifest", type=Path, default=MANIFEST)
    run.add_argument("--modes", default=",".join(MODES), help="detect,roots (default: both)")
    run.add_argument("--today", default=TODAY)
    run.add_argument("--jobs", type=int, default=1, help="checks run at once (default 1)")
    run.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per check")
    run.add_argument("--only", help="comma-separated owner/name: just these logs")
    run.add_argument("--compare", metavar="OTHER",
                     help="the 'before' side: another adrguard (executable or Python), or the "
                          "report.json of an earlier run")
    run.add_argument("--max-listed", type=int, default=200,
                     help="changed findings listed per log in compare.md")
    run.add_argument("--quiet", action="store_true")
    run.set_defaults(func=cmd_run)
    cmp = sub.add_parser("compare", help="compare two saved reports")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    cmp.add_argument("--out", type=Path, default=Path("ecosystem-report"))
    cmp.add_argument("--max-listed", type=int, default=200)
    cmp.set_defaults(func=cmd_compare)
    smp = sub.add_parser("sample", help="draw loud findings at random for a judgement table")
    smp.add_argument("report", type=Path)
    smp.add_argument("--n", type=int, default=100)
    smp.add_argument("--seed", type=int, required=True)
    smp.add_argument("--mode", default="roots", choices=MODES)
    smp.add_argument("--snapshots", type=Path, help="show each finding's line of text")
    smp.add_argument("--out", type=Path, help="write FILE.md and FILE.json instead of stdout")
    smp.set_defaults(func=cmd_sample)
    cl = sub.add_parser("clone-commands", help="print the git commands that fetch the snapshots")
    cl.add_argument("--snapshots", type=Path, required=True)
    cl.add_argument("--manifest", type=Path, default=MANIFEST)
    cl.add_argument("--only")
    cl.set_defaults(func=cmd_clone_commands)
    var = sub.add_parser("variety", help="print the variety table of the manifest")
    var.add_argument("--manifest", type=Path, default=MANIFEST)
    var.add_argument("--report", type=Path, help="a report.json, for the record counts")
    var.set_defaults(func=cmd_variety)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except ManifestError as exc:
        print(f"error: manifest: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
