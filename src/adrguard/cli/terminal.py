"""What the CLI does differently when a person reads its output on a terminal.

* **Colour** only when standard output is a terminal, for a human format (``text``), and
  ``NO_COLOR`` (https://no-color.org) is unset or empty and ``TERM`` is not ``dumb``: never in a
  pipe, a file or a machine format (JSON, SARIF, concise, ...). Colour is applied by rich to
  text whose untrusted parts were made inert first (:func:`adrguard.core.textsafe.neutralise`).
* **A pager** for long output (``show``), like git: only when standard output is a terminal and
  the text is taller than it. ``PAGER`` names the program (``less`` when unset; empty or ``cat``:
  none); it is split like a command line and started without a shell. ``LESS`` defaults to
  ``FRX`` (quit when the text fits, keep colours, leave the screen as it was), as git does.
  Colour goes to ``less`` only; another pager gets the plain text.
* **Rendered Markdown** (rich) for rule pages (``explain``) on a terminal; plain Markdown when
  piped.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

from adrguard.cli.common import write_stdout
from adrguard.core.textsafe import neutralise
from adrguard.reporters.text import ansi

COLOURED = frozenset({"text"})  # the formats that may be coloured on a terminal

# A record's status, as ``list`` and ``show`` colour it (rich style names).
STATUS_STYLES = {
    "accepted": "green",
    "proposed": "blue",
    "draft": "cyan",
    "rejected": "red",
    "deprecated": "yellow",
    "superseded": "dim",
    "unknown": "magenta",
}

Segment = tuple[str, str | None]  # (text, rich style or None)


def is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed stdout
        return False


def colour_wanted(fmt: str = "text") -> bool:
    """Whether output in ``fmt`` on standard output should be coloured."""
    if fmt not in COLOURED or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_terminal()


def styled(lines: Sequence[Sequence[Segment]]) -> str:
    """Lines of (text, style) segments as ANSI-coloured text. Every text is made inert here
    (one line each); rich reads no markup from it."""
    from rich.text import Text

    out = []
    for segments in lines:
        line = Text()
        for text, style in segments:
            line.append(neutralise(text), style=style or "")
        out.append(line)
    return ansi(out)


def markdown(text: str) -> str:
    """``text`` (Markdown we wrote: a rule page) rendered for this terminal by rich."""
    from rich.console import Console
    from rich.markdown import Markdown

    buffer = io.StringIO()
    width = min(shutil.get_terminal_size().columns, 100)
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=width,
                      highlight=False, emoji=False)
    console.print(Markdown(text))
    return buffer.getvalue()


def _pager() -> list[str] | None:
    """The pager's command line: ``PAGER`` split like a shell would (no shell runs it), else
    ``less``; None for none (``PAGER`` empty or ``cat``, or a line that does not split)."""
    wanted = os.environ.get("PAGER")
    if wanted is None:
        return ["less"] if shutil.which("less") else None
    try:
        import shlex  # only to start a pager

        argv = shlex.split(wanted)
    except ValueError:
        return None
    if not argv or os.path.basename(argv[0]) == "cat":
        return None
    return argv


def _rows(text: str) -> int:
    """How many terminal rows ``text`` takes (long lines wrap)."""
    columns = max(shutil.get_terminal_size().columns, 1)
    return sum(max(1, -(-len(line) // columns)) for line in text.splitlines())


def page(plain: str, coloured: str | None = None) -> None:
    """Write ``plain`` (or ``coloured``, escaped field by field already) to standard output,
    through the pager when standard output is a terminal and the text does not fit on it."""
    argv = _pager() if is_terminal() else None
    if argv is None or _rows(plain) < shutil.get_terminal_size().lines:
        _write(plain, coloured)
        return
    less = os.path.basename(argv[0]) == "less"
    text = coloured if coloured is not None and less else neutralise(plain, multiline=True)
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, env=env)  # no shell
    except OSError:  # no such program: print it
        _write(plain, coloured)
        return
    assert proc.stdin is not None
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        sys.stdout.flush()
        proc.stdin.write(text.encode(encoding, "replace"))
        proc.stdin.close()
    except (BrokenPipeError, OSError):  # the reader quit early
        pass
    while True:
        try:
            proc.wait()
            return
        except KeyboardInterrupt:  # ^C belongs to the pager
            continue


def _write(plain: str, coloured: str | None) -> None:
    if coloured is not None:
        write_stdout(coloured, "raw")
    else:
        write_stdout(plain)
