"""``adrguard impact`` as text, JSON (schemas/impact.schema.json) or Markdown for a PR comment.

Pure and deterministic: takes an :class:`~adrguard.core.impact.analysis.Impact`, returns text.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from adrguard.core.impact.analysis import Affected, Impact, MappingIssue, to_json
from adrguard.core.model import Decision
from adrguard.core.wording import plural, revision, revision_at, short_commit
from adrguard.reporters.formats import renderer
from adrguard.reporters.json import dumps

_FILES_SHOWN = 10


def render(name: str, impact: Impact) -> str:
    """``impact`` in the ``impact`` format ``name`` (the registry names its function)."""
    return renderer("impact", name)(impact)


def render_json(impact: Impact) -> str:
    return dumps(to_json(impact))


def _at(ref: str, sha: str) -> str:
    """A revision in Markdown: ```origin/main` (`0123456789ab`)``, a commit id alone once."""
    name, short = revision(ref), short_commit(sha)
    return f"`{_md(name)}`" if name == short else f"`{_md(name)}` (`{short}`)"


def _name(d: Decision | None) -> str:
    if d is None:
        return "?"
    return f"{d.id} {d.title}" if d.title else d.id


def _issue_text(i: MappingIssue) -> str:
    if i.problem == "unknown":
        return f"{i.decision} ({i.location}): no record has this id; fix the mapping"
    if i.problem == "ambiguous":
        return f"{i.decision} ({i.location}): matches several records; name one by its path"
    status = i.target.status.value if i.target and i.target.status else "inactive"
    use = f"use {_name(i.successor)} instead" if i.successor else "no successor is recorded"
    return f"{i.decision} ({i.location}) is {status}: {use}"


def _files(files: Sequence[str], indent: str) -> list[str]:
    lines = [f"{indent}{f}" for f in files[:_FILES_SHOWN]]
    if len(files) > _FILES_SHOWN:
        lines.append(f"{indent}... and {len(files) - _FILES_SHOWN} more")
    return lines


def _via(a: Affected) -> str:
    return " + ".join(a.via)


def render_text(impact: Impact) -> str:
    ch = impact.changes
    cov = impact.coverage
    out = [
        f"impact of {revision_at(ch.head, ch.head_commit)} against "
        f"{revision_at(ch.base, ch.base_commit)}, merge base {short_commit(ch.merge_base)}",
        impact.statement,
        "",
        f"changed files: {cov.changed} ({cov.governed} governed, {cov.ungoverned} not governed, "
        f"{plural(cov.records, 'decision record')})",
    ]
    statuses = ", ".join(sorted(impact.statuses))
    if impact.affected:
        out += ["", f"decisions to review ({statuses}):"]
        for a in impact.affected:
            status = a.decision.status.value if a.decision.status else "no status"
            out.append(f"  {_name(a.decision)} [{status}] via {_via(a)}  {a.decision.path}")
            out += [f"    note: {n}" for n in a.notes]
            out += _files(a.files, "    - ")
    else:
        out += ["", f"decisions to review ({statuses}): none"]
    if impact.issues:
        out += ["", "mappings that need attention:"]
        out += [f"  {_issue_text(i)}" for i in impact.issues]
    if ch.changes:
        out += ["", "changes:"]
        for c in ch.changes[:200]:
            old = f" (from {c.old_path})" if c.old_path else ""
            out.append(f"  {c.status} {c.path}{old}")
        if len(ch.changes) > 200:
            out.append(f"  ... and {len(ch.changes) - 200} more (--format json lists all)")
    if impact.uncertainty:
        out += ["", "uncertainty:"]
        out += [f"  - {line}" for line in impact.uncertainty]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(impact: Impact) -> str:
    ch = impact.changes
    cov = impact.coverage
    out = [
        "## Decisions this change touches",
        "",
        f"_{impact.statement}_",
        "",
        f"{_at(ch.head, ch.head_commit)} against {_at(ch.base, ch.base_commit)}, merge base "
        f"`{short_commit(ch.merge_base)}`. {plural(cov.changed, 'changed file')}: "
        f"{cov.governed} governed, {cov.ungoverned} not governed, "
        f"{plural(cov.records, 'decision record')}.",
        "",
    ]
    if impact.affected:
        out += ["| Decision | Status | Via | Changed files |", "|---|---|---|---|"]
        for a in impact.affected:
            d = a.decision
            status = d.status.value if d.status else "—"
            files = "<br>".join(f"`{_md(f)}`" for f in a.files[:_FILES_SHOWN])
            if len(a.files) > _FILES_SHOWN:
                files += f"<br>… and {len(a.files) - _FILES_SHOWN} more"
            notes = "".join(f"<br>_{_md(n)}_" for n in a.notes)
            link = quote(d.path)
            if impact.repo_url and ch.head_commit:
                link = f"{impact.repo_url}/blob/{ch.head_commit}/{link}"
            out.append(f"| [{_md(_name(d))}]({link}){notes} | {status} | {_via(a)} | {files} |")
    else:
        out.append(
            f"No {'/'.join(sorted(impact.statuses))} decision governs the changed files."
        )
    if impact.issues:
        out += ["", "### Mappings that need attention", ""]
        out += [f"- {_md(_issue_text(i))}" for i in impact.issues]
    if impact.uncertainty:
        out += ["", "### What this cannot tell", ""]
        out += [f"- {_md(line)}" for line in impact.uncertainty]
    if ch.changes:
        out += ["", "<details><summary>Changed files</summary>", ""]
        for c in ch.changes[:500]:
            old = f" (from `{_md(c.old_path)}`)" if c.old_path else ""
            out.append(f"- {c.status} `{_md(c.path)}`{old}")
        if len(ch.changes) > 500:
            out.append(f"- … and {len(ch.changes) - 500} more")
        out += ["", "</details>"]
    return "\n".join(out) + "\n"
