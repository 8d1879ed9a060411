"""Attack 8, part 2: output is byte-identical across runs. Sets and other unordered values are
sorted in every message: the same hostile corpus is checked in processes with different
``PYTHONHASHSEED`` values (string hashing, hence set order, changes with it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import make_repo, record

SCHEMA = {
    "type": "object",
    "properties": {"status": {"enum": ["accepted", "proposed"]}},
    "patternProperties": {"^x-": {"type": "string"}},
    "additionalProperties": False,
}


def _corpus() -> dict[str, str]:
    files: dict[str, str] = {
        ".adrguard.toml": 'frontmatter-schema = "adr.schema.json"\nprofile = "strict"\n',
        "adr.schema.json": json.dumps(SCHEMA),
        "src/a.py": "a = 1\n",
        ".adrguard-impact.json": json.dumps({"schemaVersion": 1, "mappings": [
            {"paths": ["src/**", "lib/**", "docs/**"], "decision": "ADR-0001"},
            {"paths": ["nothing/**"], "decision": "ADR-0099"}]}),
    }
    extras = "\n".join(f"k{i}{chr(97 + i)}: v" for i in range(12))
    for n in range(1, 7):
        supersedes = "supersedes: [" + ", ".join(f"ADR-{m:04d}" for m in range(1, n)) + "]\n"
        files[f"docs/adr/{n:04d}-r.md"] = (
            f"---\nstatus: accepted\n{supersedes if n > 2 else ''}{extras}\n"
            "depends-on: [ADR-0009, ADR-0008, ADR-0007]\nx-tag: [1]\n---\n" + record(n, f"R{n}")
        )
    files["docs/adr/0007-cycle.md"] = "---\nsupersedes: [ADR-0008]\n---\n" + record(7)
    files["docs/adr/0008-cycle.md"] = "---\nsupersedes: [ADR-0007]\n---\n" + record(8)
    return files


COMMANDS = [
    ["check", "--format", "json", "--base", "HEAD~1"],
    ["check", "--format", "text", "--base", "HEAD~1"],
    ["check", "--format", "sarif"],
    ["graph", "--format", "json"],
    ["relationships", "--format", "json"],
    ["impact", "--base", "HEAD~1", "--format", "json"],
    ["list", "--format", "json"],
    ["find", "--paths", "src/a.py", "--format", "json"],
    ["compaction", "--format", "json"],
    ["compaction"],
    ["archive", "plan", "1"],
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = make_repo(tmp_path_factory.mktemp("seeds") / "repo", {"docs/adr/0001-r.md": record(1)})
    r.write(_corpus())
    r.commit("many sets")
    return r.path


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_output_is_identical_whatever_the_hash_seed(repo: Path, argv: list[str]) -> None:
    outputs = set()
    for seed in ("0", "1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "ADRGUARD_NO_CACHE": "1"}
        env.pop("GITHUB_ACTIONS", None)
        done = subprocess.run([sys.executable, "-m", "adrguard", *argv, "--no-cache"],
                              cwd=repo, env=env, capture_output=True, check=False)
        assert done.returncode in (0, 1), done.stderr.decode()
        out = done.stdout
        if argv[0] == "find":  # latency_ms is the request's time (seed 000 metadata), not output
            data = json.loads(out)
            assert isinstance(data.pop("latency_ms"), int)
            out = json.dumps(data).encode()
        outputs.add(out + b"\0" + done.stderr)
    assert len(outputs) == 1


def test_a_yaml_set_gives_the_same_message_and_fingerprint_whatever_the_hash_seed(
    tmp_path: Path,
) -> None:
    """Round 2 (issue 27): on main a front-matter `!!set` reached ADR110's message in hash
    order, so fingerprints changed with PYTHONHASHSEED and baseline entries came and went."""
    r = make_repo(tmp_path / "repo", {
        "docs/adr/0001-a.md": record(1),
        "docs/adr/0002-b.md": "---\nstatus: !!set {alpha, beta, gamma, delta, epsilon}\n"
                              "tags: !!set {zeta, eta, theta, iota}\n---\n" + record(2),
    })
    outputs = set()
    for seed in ("0", "1", "2", "3", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "ADRGUARD_NO_CACHE": "1"}
        env.pop("GITHUB_ACTIONS", None)
        done = subprocess.run([sys.executable, "-m", "adrguard", "check", "--format", "json",
                               "--no-cache"], cwd=r.path, env=env, capture_output=True,
                              check=False)
        assert done.returncode in (0, 1), done.stderr.decode()
        findings = json.loads(done.stdout)["findings"]
        assert any("alpha, beta, delta, epsilon, gamma" in f["message"] for f in findings)
        outputs.add(json.dumps([(f["message"], f["fingerprint"]) for f in findings]))
    assert len(outputs) == 1
