"""The GitHub Action's environment: its inputs and GitHub's context (read from the
variables ``action.yml`` sets) and the places a step writes to (notices on standard output, step
outputs, the job summary). Every part of the Action's helper (:mod:`adrguard.cli.gha`) uses it."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adrguard.core.errors import UserError
from adrguard.core.outcome import FAIL_ON

PULL_EVENTS = ("pull_request", "pull_request_target")
DEFAULT_BOT = "github-actions[bot]"  # who an Actions token comments as (GET /user answers 403)
FILES = {"json": "report.json", "github": "annotations.txt", "sarif": "adrguard.sarif",
         "markdown": "report.md"}


@dataclass(frozen=True)
class Settings:
    """The Action's inputs and GitHub's context, read from the environment."""

    env: Mapping[str, str]

    def get(self, name: str, default: str = "") -> str:
        return self.env.get(name, default).strip()

    def flag(self, name: str, default: bool = True) -> bool:
        value = self.get(name).lower()
        return default if not value else value in ("true", "1", "yes", "on")

    @property
    def fail_on(self) -> str:
        value = self.get("INPUT_FAIL_ON", "none").lower() or "none"
        if value not in FAIL_ON:
            raise UserError(f"input fail-on {value!r}: choose one of {', '.join(FAIL_ON)}")
        return value

    @property
    def out_dir(self) -> Path:
        value = self.get("ADRGUARD_OUT_DIR")
        if not value:
            raise UserError("ADRGUARD_OUT_DIR is not set: run this from action.yml")
        return Path(value)

    def event(self) -> dict[str, Any]:
        path = self.get("GITHUB_EVENT_PATH")
        if not path:
            return {}
        try:
            from adrguard.core.schemas import load_json

            data = load_json(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def pull_request(self) -> dict[str, Any]:
        if self.get("GITHUB_EVENT_NAME") not in PULL_EVENTS:
            return {}
        return as_dict(self.event().get("pull_request"))


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (event payloads vary)."""
    return value if isinstance(value, dict) else {}


def notice(message: str, level: str = "notice") -> None:
    from adrguard.reporters.github import command

    sys.stdout.write(command(level, message, title="adrguard") + "\n")
    sys.stdout.flush()


def write_outputs(settings: Settings, values: Mapping[str, str]) -> None:
    """Append step outputs to ``$GITHUB_OUTPUT`` with the multiline-safe delimiter syntax."""
    target = settings.get("GITHUB_OUTPUT")
    if not target:
        return
    chunks = []
    for name, value in values.items():
        delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        while delimiter in value:
            delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        chunks.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("".join(chunks))


def append_summary(settings: Settings, text: str) -> None:
    """Append Markdown to ``$GITHUB_STEP_SUMMARY``; a problem writing it is a notice."""
    target = settings.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        notice(f"cannot write the job summary: {exc.strerror or exc}", "warning")
