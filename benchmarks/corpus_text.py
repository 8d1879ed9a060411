"""Records of a generated benchmark corpus and the markdown they render to.

Pure and deterministic: the same plan and seed give the same bytes. Used by generate.py;
never imports adrguard.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

FORMATS = ("nygard", "madr3", "madr2")
TECH = (
    "PostgreSQL", "Kafka", "Redis", "gRPC", "GraphQL", "Terraform", "Kubernetes", "OpenTelemetry",
    "S3", "RabbitMQ", "Elasticsearch", "SQLite", "Rust", "TypeScript", "React", "OAuth 2",
    "feature flags", "event sourcing", "CQRS", "a monorepo", "trunk-based development", "Nginx",
    "Envoy", "Vault", "Prometheus", "Grafana", "Celery", "Airflow", "dbt", "Snowflake",
)
VERBS = ("Use", "Adopt", "Introduce", "Replace", "Standardise on", "Migrate to", "Keep", "Drop")
AREAS = (
    "order storage", "payments", "search", "session caching", "service discovery", "tracing",
    "deployments", "background jobs", "the public API", "internal events", "audit logging",
    "configuration", "secrets", "metrics", "the admin UI", "data exports", "notifications",
    "rate limiting", "tenant isolation", "schema migrations", "file uploads", "reporting",
)
NOUNS = (
    "service", "team", "pipeline", "schema", "client", "latency", "budget", "deployment",
    "contract", "dependency", "queue", "index", "replica", "migration", "release", "incident",
    "operator", "workload", "boundary", "interface", "dataset", "cluster", "request", "module",
)
ADJECTIVES = (
    "current", "legacy", "shared", "critical", "internal", "external", "slow", "reliable",
    "expensive", "simple", "consistent", "observable", "regional", "temporary", "stable",
)
PHRASES = (
    "which keeps the {a} {n} predictable under load",
    "because the {a} {n} already depends on it",
    "so that every {n} can be released on its own",
    "although the {a} {n} needs another review first",
    "while the {n} stays backwards compatible",
    "to reduce the cost of the {a} {n}",
    "and the on-call rota owns the {a} {n}",
)
PEOPLE = ("alice", "bob", "carol", "dan", "erin", "frank", "grace", "heidi", "ivan", "judy")


@dataclass
class Record:
    index: int  # 0-based position in the whole corpus
    number: int  # globally unique sequence number
    root: str
    fmt: str
    title: str
    filename: str
    date: str
    status: str = "accepted"
    supersedes: list[int] = field(default_factory=list)  # indexes of records
    superseded_by: list[int] = field(default_factory=list)
    links: list[int] = field(default_factory=list)
    defect: str | None = None
    affected: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"{self.root}/{self.filename}"


@dataclass
class Plan:
    size: int
    seed: int
    roots: list[str]
    width: int
    records: list[Record]
    services: list[str]


def slugify(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    return "-".join(part for part in out.split("-") if part)


def relpath(target: str, start_dir: str) -> str:
    return Path(os.path.relpath(target, start_dir)).as_posix()



def sentence(rng: random.Random) -> str:
    tail = rng.choice(PHRASES).format(a=rng.choice(ADJECTIVES), n=rng.choice(NOUNS))
    head = f"The {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} uses {rng.choice(TECH)}"
    return f"{head} {tail}."


def paragraph(rng: random.Random, lo: int = 2, hi: int = 5) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(lo, hi)))


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def record_id(plan: Plan, r: Record) -> str:
    return f"ADR-{r.number:0{plan.width}d}"


def link_to(plan: Plan, src: Record, dst: Record, nygard_text: bool = False) -> str:
    text = f"{dst.number}. {dst.title}" if nygard_text else record_id(plan, dst)
    return f"[{text}]({relpath(dst.path, src.root)})"


def _status_word(r: Record) -> str:
    if r.defect == "unknown-status":
        return "Acceptd"
    return r.status.capitalize()


def _relation_lines(plan: Plan, r: Record, bullet: str = "") -> list[str]:
    recs = plan.records
    nyg = r.fmt == "nygard"
    lines = [f"{bullet}Supersedes {link_to(plan, r, recs[i], nyg)}" for i in r.supersedes]
    if r.defect == "unresolved-relationship":
        width = plan.width
        lines.append(f"{bullet}Supersedes [ADR-{0:0{width}d}]({0:0{width}d}-removed-record.md)")
    return lines


def _context(plan: Plan, r: Record, rng: random.Random) -> list[str]:
    out = [paragraph(rng, 3, 6), ""]
    for i in r.links:
        out += [f"This builds on {link_to(plan, r, plan.records[i])}: {sentence(rng)}", ""]
    if r.defect == "broken-link":
        out += [f"See the [migration notes](notes/{slugify(r.title)}-notes.md) for details.", ""]
    out += [paragraph(rng), ""]
    return out


def _consequences(rng: random.Random) -> list[str]:
    out = []
    for _ in range(rng.randint(2, 4)):
        out.append(f"* {sentence(rng)}")
    return [*out, "", paragraph(rng, 1, 3), ""]


def _date(r: Record) -> str:
    return "2021-13-45" if r.defect == "invalid-date" else r.date


def render_nygard(plan: Plan, r: Record, rng: random.Random) -> str:
    shown = r.number + 1 if r.defect == "id-mismatch" else r.number
    lines = [f"# {shown}. {r.title}", "", f"Date: {_date(r)}", ""]
    if r.defect != "missing-status":
        lines += ["## Status", "", _status_word(r), ""]
        for i in r.superseded_by:
            lines += [f"Superseded by {link_to(plan, r, plan.records[i], True)}", ""]
        for line in _relation_lines(plan, r):
            lines += [line, ""]
    lines += ["## Context", "", *_context(plan, r, rng)]
    lines += ["## Decision", "", f"We will {_lower(r.title)}.", "", paragraph(rng), ""]
    if r.defect != "missing-section":
        lines += ["## Consequences", "", *_consequences(rng)]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_madr3(plan: Plan, r: Record, rng: random.Random) -> str:
    fm = ["---"]
    if r.defect != "missing-status":
        fm.append(f"status: {_status_word(r).lower()}")
    fm.append(f"date: {_date(r)}")
    fm.append(f"deciders: {', '.join(rng.sample(PEOPLE, 2))}")
    if r.affected:
        fm.append("affected-paths:")
        fm += [f"  - {glob}" for glob in r.affected]
    fm += ["---", ""]
    lines = [*fm, f"# {r.title}", ""]
    for i in r.superseded_by:
        lines += [f"Superseded by {link_to(plan, r, plan.records[i])}", ""]
    for line in _relation_lines(plan, r):
        lines += [line, ""]
    lines += ["## Context and Problem Statement", "", *_context(plan, r, rng)]
    options = rng.sample(TECH, 3)
    lines += ["## Considered Options", "", *(f"* {o}" for o in options), ""]
    if r.defect != "missing-section":
        lines += ["## Decision Outcome", "", _outcome(options[0], rng), ""]
        lines += ["### Consequences", "", *_consequences(rng)]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_madr2(plan: Plan, r: Record, rng: random.Random) -> str:
    lines = [f"# {r.title}", ""]
    if r.defect != "missing-status":
        word = _status_word(r).lower()
        if r.superseded_by:
            word = "superseded by " + link_to(plan, r, plan.records[r.superseded_by[0]])
        lines.append(f"* Status: {word}")
    lines.append(f"* Deciders: {', '.join(rng.sample(PEOPLE, 3))}")
    lines.append(f"* Date: {_date(r)}")
    lines += _relation_lines(plan, r, "* ")
    lines += ["", f"Technical Story: {sentence(rng)}", ""]
    lines += ["## Context and Problem Statement", "", *_context(plan, r, rng)]
    options = rng.sample(TECH, 3)
    lines += ["## Considered Options", "", *(f"* {o}" for o in options), ""]
    if r.defect != "missing-section":
        lines += ["## Decision Outcome", "", _outcome(options[0], rng), ""]
        lines += ["### Positive Consequences", "", *_consequences(rng)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _outcome(option: str, rng: random.Random) -> str:
    return f'Chosen option: "{option}", because {_lower(sentence(rng))}'


RENDERERS = {"nygard": render_nygard, "madr3": render_madr3, "madr2": render_madr2}


def render(plan: Plan, r: Record) -> str:
    rng = random.Random(plan.seed * 1_000_003 + r.index)
    return RENDERERS[r.fmt](plan, r, rng)
