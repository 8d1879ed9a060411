"""The hand labels of the real-world collections in ../shared/corpora, for the tests that
compare adrguard with them (see the corpora README: TRUTH.json says what each file is,
FINDINGS.json what a maintainer thinks of each finding and which config the run used)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

RELATION_FIELDS = ("superseded_by", "supersedes", "amends", "amended_by", "in_favour_of")
UNRESOLVED = "UNRESOLVED:"


def collections(corpora: Path) -> list[Path]:
    """Every labelled collection present (a folder with a TRUTH.json)."""
    return sorted(p for p in corpora.iterdir() if (p / "TRUTH.json").is_file())


def truth(collection: Path) -> dict[str, dict[str, Any]]:
    """Path -> label of every markdown file of the collection."""
    data: dict[str, dict[str, Any]] = json.loads(
        (collection / "TRUTH.json").read_text(encoding="utf-8")
    )["files"]
    return data


def findings(collection: Path) -> dict[str, Any]:
    """The FINDINGS.json of a collection (``config``, ``findings``, ``missed``)."""
    data: dict[str, Any] = json.loads((collection / "FINDINGS.json").read_text(encoding="utf-8"))
    return data


def records(collection: Path) -> dict[str, dict[str, Any]]:
    return {p: v for p, v in truth(collection).items() if v["kind"] == "adr"}


def source_roots(collection: Path) -> list[str]:
    """The ADR folders named in SOURCE.txt (``path(s) in repository:``)."""
    text = (collection / "SOURCE.txt").read_text(encoding="utf-8")
    m = re.search(r"^path\(s\) in repository:\s*(.+)$", text, re.MULTILINE)
    assert m, f"no ADR path in {collection}/SOURCE.txt"
    roots = [p.strip().strip("/") or "." for p in m.group(1).split(",")]
    return [r for r in roots if r] or ["."]


def config_file(tmp_path: Path, collection: Path) -> Path:
    """A config file holding the ``config`` the labelled run used (none: the defaults, with
    ADR folders detected), plus ``cache = false`` so nothing is written into the corpora."""
    config = findings(collection).get("config") or {}
    lines = [f"{key} = {json.dumps(value)}" for key, value in sorted(config.items())]
    cfg = tmp_path / f"{collection.name}.toml"
    cfg.write_text("\n".join([*lines, "cache = false", ""]), encoding="utf-8")
    return cfg


def root_for(path: str, roots: list[str]) -> str:
    """The longest root a path lies under ("." when none)."""
    best = "."
    for root in roots:
        if root != "." and path.startswith(root + "/") and len(root) > len(best):
            best = root
    return best


def fold_title(title: str | None) -> str | None:
    """A title for comparison: NFKC, case folded, punctuation and spacing ignored."""
    if title is None:
        return None
    text = unicodedata.normalize("NFKC", title).casefold()
    return re.sub(r"[\W_]+", "", text)


def acceptable_titles(label: dict[str, Any]) -> set[str | None]:
    """The titles a label accepts: its title, the title as written or the other rendering."""
    if not label.get("title"):
        return {None}
    return {fold_title(label.get(k)) for k in ("title", "title_raw", "title_alt") if label.get(k)}


def acceptable_statuses(label: dict[str, Any]) -> set[str | None]:
    """What a parser may answer for a labelled status: ``none`` is no status; ``ambiguous``
    (template help text left as the status) must never read as a real status."""
    status = label["status"]
    if status == "none":
        return {None}
    if status == "ambiguous":
        return {None, "unknown"}
    return {status}


def pct(ok: int, total: int) -> float:
    return 100.0 * ok / total if total else 100.0
