"""The title and date of a markdown document that cites decisions (an RFC, a design note), for
``referencedBy`` (issue 31). Pure; reads at most the first :data:`MAX_HEAD` bytes.

* **title**: the front matter's ``title``, else the first ``# `` heading outside a code fence;
* **date**: the front matter's ``date`` (else ``created``, ``updated``), else the first field
  or table row labelled Date near the top (``Date: 2026-01-24``, ``| Date | 2026-01-24 |``,
  ``* **Date**: ...``), when the value holds a four-digit year.

Both are as written, on one line, at most 200 and 40 code points; None when the document does
not state them. Lines are found with string operations, one line at a time.
"""

from __future__ import annotations

from adrguard.core.lazyre import lazy

MAX_HEAD = 8 * 1024
MAX_LINES = 200
MAX_TITLE = 200
MAX_DATE = 40
DATE_KEYS = ("date", "created", "updated")
DATE_LABELS = ("date", "created", "datum", "fecha", "data", "日期")
_YEAR = lazy(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_LEAD = " \t|*_>-+"
_CONTROL = lazy(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def describe(data: bytes) -> tuple[str | None, str | None]:
    """``(title, date)`` of the document whose bytes are ``data``."""
    text = data[:MAX_HEAD].decode("utf-8", "replace")
    lines = text.split("\n")[:MAX_LINES]
    title: str | None = None
    date: str | None = None
    start = 0
    if lines and lines[0].strip() == "---":
        values: dict[str, str] = {}
        for j in range(1, len(lines)):
            line = lines[j]
            if line.strip() in ("---", "..."):
                start = j + 1
                break
            if line[:1] not in (" ", "\t", "-", "#") and ":" in line:
                name, _, value = line.partition(":")
                values.setdefault(name.strip().casefold(), _unquote(value.strip()))
        if start:
            title = values.get("title") or None
            date = next((values[k] for k in DATE_KEYS if _YEAR.search(values.get(k, ""))), None)
    fenced = False
    for line in lines[start:]:
        bare = line.strip()
        if bare.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        if title is None and bare.startswith("# "):
            title = bare[2:].strip().rstrip("#").strip() or None
        if date is None:
            date = _labelled_date(bare)
        if title is not None and date is not None:
            break
    return _bound(title, MAX_TITLE), _bound(date, MAX_DATE)


def _labelled_date(line: str) -> str | None:
    body = line.lstrip(_LEAD)
    low = body.casefold()
    for label in DATE_LABELS:
        if not low.startswith(label):
            continue
        rest = body[len(label) :].lstrip("*_ \t")
        if not rest or rest[0] not in ":|\t":
            return None
        value = rest[1:].strip().split("|", 1)[0].strip(" *_`")
        return value if _YEAR.search(value) else None
    return None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _bound(value: str | None, limit: int) -> str | None:
    if value is None:
        return None
    flat = " ".join(_CONTROL.sub(" ", value).split())
    if not flat:
        return None
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
