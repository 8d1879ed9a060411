"""Drives ``.ci/browser/render.mjs``: Mermaid (every version pinned in .ci/browser/package.json)
in Debian's headless Chromium, and reads back what each render drew (nodes, edges, size)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BROWSER = REPO / ".ci" / "browser"
SVG = "{http://www.w3.org/2000/svg}"



def versions() -> list[str]:
    try:
        deps = json.loads((BROWSER / "package.json").read_text(encoding="utf-8"))["dependencies"]
    except (OSError, ValueError, KeyError):
        return []
    return sorted(name for name in deps if name.startswith("mermaid-"))


def missing() -> str | None:
    if shutil.which("chromium") is None:
        return "Debian's chromium is not installed (.ci/run installs it)"
    if shutil.which("node") is None:
        return "node is not installed"
    modules = BROWSER / "node_modules"
    needed = ["playwright-core", *versions()]
    absent = [n for n in needed if not (modules / n / "package.json").is_file()]
    if absent or len(needed) < 3:
        return (f"{', '.join(absent) or 'mermaid'} not installed in {modules} "
                "(cd .ci/browser && npm ci)")
    return None


@dataclass
class Job:
    name: str
    version: str
    diagram: str
    theme: str = "default"
    security: str = "strict"
    png: Path | None = None


@dataclass
class Rendered:
    job: Job
    error: str | None
    svg: ET.Element | None
    width: float
    height: float
    ms: int

    @property
    def text(self) -> str:
        if self.svg is None:
            return ""
        return " ".join(t for e in self.svg.iter() if e.tag != f"{SVG}style"
                        for t in (e.text, e.tail) if t)

    def nodes(self) -> dict[str, str]:
        """Mermaid node name (n0, n1, ...) -> the text the node shows."""
        out = {}
        assert self.svg is not None
        for g in self.svg.iter(f"{SVG}g"):
            m = re.search(r"flowchart-(n\d+)-\d+$", g.get("id") or "")
            if m and "node" in (g.get("class") or "").split():
                out[m.group(1)] = " ".join("".join(g.itertext()).split())
        return out

    def edges(self) -> list[tuple[str, str, str]]:
        """(source, target, style) of every drawn edge."""
        out = []
        assert self.svg is not None
        for p in self.svg.iter(f"{SVG}path"):
            if "flowchart-link" not in (p.get("class") or ""):
                continue
            ident = p.get("id") or ""
            m = re.search(r"L[-_](n\d+)[-_](n\d+)[-_]\d+$", ident)
            loop = re.fullmatch(r"(?:.*-)?(n\d+)-cyclic-special-1", ident)  # 11.0-11.x self-loop
            if m:
                out.append((m.group(1), m.group(2), p.get("style") or ""))
            elif loop:
                out.append((loop.group(1), loop.group(1), p.get("style") or ""))
        return out


def render(jobs: list[Job], work: Path) -> list[Rendered]:
    spec = {"chromium": shutil.which("chromium"), "jobs": [
        {"name": j.name, "version": j.version, "diagram": j.diagram, "theme": j.theme,
         "securityLevel": j.security, "png": str(j.png) if j.png else None} for j in jobs]}
    (work / "jobs.json").write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(BROWSER / "render.mjs"), str(work / "jobs.json"), str(work / "out.json")],
        capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    raw = json.loads((work / "out.json").read_text(encoding="utf-8"))
    return [
        Rendered(job, r["error"], ET.fromstring(r["svg"]) if r["svg"] else None,
                 r.get("width", 0.0), r.get("height", 0.0), r["ms"])
        for job, r in zip(jobs, raw, strict=True)
    ]


@dataclass
class PageJob:
    """One page written by ``adrguard graph --format html``, opened offline."""

    name: str
    page: Path
    click: bool = False
    png: Path | None = None


def open_pages(jobs: list[PageJob], work: Path) -> dict[str, dict[str, object]]:
    """What each page shows (``.ci/browser/page.mjs``), by job name."""
    spec = {"chromium": shutil.which("chromium"), "jobs": [
        {"name": j.name, "page": str(j.page), "click": j.click,
         "png": str(j.png) if j.png else None} for j in jobs]}
    (work / "pages.json").write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(BROWSER / "page.mjs"), str(work / "pages.json"),
         str(work / "pages-out.json")],
        capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    raw = json.loads((work / "pages-out.json").read_text(encoding="utf-8"))
    return {r["name"]: r for r in raw}
