"""The text of a new record, in a learned or built-in :class:`~.style.Style`, or from the
project's own template. Pure.

A configured template is markdown with placeholders, replaced as they are: ``{{title}}``,
``{{number}}`` (as the log's names write it: ``0007``), ``{{id}}`` (``ADR-0007``),
``{{date}}`` (in the log's date style) and ``{{status}}`` (the log's word). adr-tools templates
work too: ``NUMBER``, ``TITLE``, ``DATE`` and ``STATUS`` written in capitals are replaced when the
template holds no ``{{...}}`` placeholder. Relations (``Supersedes``) are added afterwards by
:mod:`.edit`, in the log's place for them, whatever wrote the record.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from adrguard.core.authoring import dating
from adrguard.core.authoring.edit import yaml_value
from adrguard.core.authoring.style import Line, Style, prompt
from adrguard.core.lazyre import lazy

_PLACEHOLDER = lazy(r"\{\{\s*(title|number|id|date|status)\s*\}\}", re.I)
_ADR_TOOLS = lazy(r"\b(NUMBER|TITLE|DATE|STATUS)\b")


@dataclass(frozen=True, slots=True)
class Fields:
    """What a new record says: its title, number (None for dated or plain names), id, date and
    status word (as the log writes it)."""

    title: str
    number: int | None
    id: str
    day: dt.date
    status: str


def number_text(style: Style, number: int | None) -> str:
    """The number as the log's names write it (``0007``), "" without one."""
    if number is None:
        return ""
    names = style.names
    return f"{number:0{names.width}d}" if names.padded else str(number)


def date_text(style: Style, day: dt.date, date_format: str | None = None) -> str:
    """``day`` in the configured ``date-format``, else like the log's dates, else ISO."""
    if date_format:
        return day.strftime(date_format)
    if style.date_example:
        return dating.write_like(style.date_example, day, style.day_first)
    return day.isoformat()


def _title_line(template: str, f: Fields) -> str:
    """A title template (``{number}. {title}``, ``ADR-{number:03d}: {title}``) filled in; the
    number part is left out for a record without one."""
    if f.number is None:
        template = re.sub(r"^[^{]*\{number[^}]*\}[^{]*", "", template) or "{title}"
    return template.format(number=f.number, title=f.title)


def render(style: Style, f: Fields, date: str) -> str:
    """A new record in ``style``: front matter, H1, header lines, then each section with a
    one-line prompt (the Status section holds the status)."""
    out: list[str] = []
    if style.front_matter:
        out.append("---")
        for key, role, value in style.front_matter:
            if role == "title":
                value = _title_line(style.fm_title, f)
            elif role == "status":
                value = f.status
            elif role == "date":
                value = date
            elif role == "number":
                value = number_text(style, f.number) if isinstance(value, str) else f.number
                if f.number is None:
                    continue
            out.append(f"{key}: {_scalar(value)}")
        out += ["---", ""]
    if style.h1 is not None:
        out += [f"# {_title_line(style.h1, f)}", ""]
    table = style.table.lines(f.status, date) if style.table is not None else []
    if table and not style.table.section:  # type: ignore[union-attr]
        out += [*table, ""]
    header = [field for field in style.header if _line_of(style, field) is not None]
    for i, name in enumerate(header):
        line = _line_of(style, name)
        assert line is not None
        value = f.status if name == "status" else date
        out.append(f"{line.label}{value}{line.after}")
        if style.header_gap or i == len(header) - 1:
            out.append("")
    for level, heading in style.sections:
        out += [f"{'#' * level} {heading}", ""]
        if table and style.table is not None and _same_heading(style.table.section, heading):
            out += [*table, ""]
            continue
        also = style.status_also is not None and _same_heading(style.status_also.label, heading)
        if also or (style.status.where == "section"
                     and _same_heading(style.status.label, heading)):
            out += [f.status, ""]
            if style.date is not None and style.date.where == "status":
                out += [f"{style.date.label}{date}{style.date.after}", ""]
            continue
        text = prompt(heading) if style.language == "en" else ""  # prompts are in English
        if text:
            out += [text, ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _scalar(value: object) -> str:
    """A front-matter value: lists and mappings of a constant key in flow style."""
    if isinstance(value, list | dict):
        import json

        return json.dumps(value, ensure_ascii=False)
    return yaml_value(value)


def _line_of(style: Style, name: str) -> Line | None:
    line = style.status if name == "status" else style.date
    return line if line is not None and line.where == "line" else None


def _same_heading(label: str, heading: str) -> bool:
    return label.lstrip("#").strip().casefold() == heading.strip().casefold()


def fill_template(template: str, style: Style, f: Fields, date: str) -> str:
    """The project's template with its placeholders replaced (see the module docstring)."""
    values = {
        "title": f.title,
        "number": number_text(style, f.number),
        "id": f.id,
        "date": date,
        "status": f.status,
    }
    # a case-blind pattern also matches letters lower() does not map to ASCII ("{{ ſtatus }}",
    # "{{ tıtle }}"): case-fold, and leave a placeholder that still names nothing as written
    pattern = _PLACEHOLDER if _PLACEHOLDER.search(template) else _ADR_TOOLS
    text = pattern.sub(lambda m: values.get(m.group(1).casefold(), m.group(0)), template)
    return text if text.endswith("\n") else text + "\n"  # a text file ends its last line
