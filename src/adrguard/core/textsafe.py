"""Untrusted text made inert for terminals, CI logs and JSON: the one escaping function.

Titles, statuses, file names and messages come from whoever opened the pull request. Printed as
they are they could drive a terminal (ESC sequences), hide or reorder text (CR, bidi overrides)
or run a GitHub workflow command: the Actions runner executes ``::command::`` at the start of a
line (after any whitespace) and ``##[command]`` anywhere in one. :func:`neutralise` is applied
to every such string in every text output, and once more to a whole text output before it is
printed; :func:`json_safe` does the same for JSON without changing what the JSON means.

* C0 and C1 controls, DEL, lone surrogates, line/paragraph separators, the bidi controls and
  the invisible format characters (zero-width space, word joiner, BOM, ...) become visible
  escapes (``\\x1b``, ``\\u202e``); a tab becomes a space on one line and stays in multi-line
  text; ``\\n`` (and ``\\r\\n``) separate lines only in multi-line text.
* A line whose first non-blank characters are ``::`` shows its first colon as ``\\x3a``.
* ``##[`` shows as ``#\\x23[``.

Both functions are pure and idempotent, and leave ordinary text (no control character, no
``::`` opening a line, no ``##[``) exactly as it was.
"""

from __future__ import annotations

import re

from adrguard.core.lazyre import lazy

# Controls a terminal or a log viewer acts on, and characters that reorder or hide text: the
# one set every output neutralises (the annotations of reporters.github too). The zero-width
# joiner and non-joiner stay: scripts and emoji need them.
SPECIAL = (
    "\x7f-\x9f"  # DEL and C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u200b\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb"  # invisible format characters
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates (undecodable bytes)
)
_CONTROL = lazy(f"[\x00-\x08\x0a-\x1f{SPECIAL}]")  # one line: every C0 but tab
_CONTROL_KEEP_NEWLINE = lazy(f"[\x00-\x08\x0b-\x1f{SPECIAL}]")
_LINE_COMMAND = lazy(r"^([^\S\n]*):(?=:)", re.MULTILINE)  # blanks, then `::`
_JSON_UNSAFE = lazy(f"[{SPECIAL}]")


def _visible(m: re.Match[str]) -> str:
    code = ord(m.group())
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def neutralise(text: str, *, multiline: bool = False) -> str:
    """``text`` safe to print (see the module docstring). With ``multiline`` line breaks and
    tabs are kept (a document: the body of ``show``); otherwise the text is one line."""
    if multiline:
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        unsafe = _CONTROL_KEEP_NEWLINE
    else:
        text = text.replace("\t", " ")
        unsafe = _CONTROL
    if not _printable(text, multiline):
        text = unsafe.sub(_visible, text)
    if "::" in text:
        text = _LINE_COMMAND.sub(r"\1\\x3a", text)
    if "##[" in text:
        text = text.replace("##[", "#\\x23[")
    return text


def _printable(text: str, multiline: bool) -> bool:
    """Whether ``text`` holds none of the characters neutralised: every one of them (controls,
    :data:`SPECIAL`) is one Python does not call printable, so printable text (accented
    letters, dashes, quotes included) needs no pattern; a document's line breaks and tabs are
    kept, so they do not count."""
    if text.isprintable():
        return True
    return multiline and text.replace("\n", "").replace("\t", "").isprintable()


def json_safe(serialized: str) -> str:
    """JSON text (as ``json.dumps`` writes it) with the same characters escaped the JSON way
    (``\\u0085``, ``#\\u0023[``): it decodes to exactly the same data."""
    if not serialized.isascii():
        serialized = _JSON_UNSAFE.sub(_json_escape, serialized)
    if "##[" in serialized:
        serialized = serialized.replace("##[", "#\\u0023[")
    return serialized


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"
