"""The simple reads and searches a shell command holds, recognised without running anything.

A command is split into words and operators by a quote-aware scan (linear in its length); each
word is unquoted by :mod:`shlex`. Pipelines, lists (``&&``, ``||``, ``;``, newlines) and ``cd``
are followed. What is recognised: ``cat``, ``head``, ``tail``, ``less`` and ``sed`` (without
``-i``) on named files or a ``<`` redirection, and the searches ``grep`` (``egrep``, ``fgrep``,
``ugrep``) and ``rg`` with their paths, globs, types and output mode. Everything else — another
program, a script, a loop, a variable or a command substitution where a path would be, ``git
show``, ``xargs``, ``find -exec`` — is not recognised: the caller allows it and says so (it is a
documented limitation of the guard, never a claim of isolation).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from adrguard.core.guard.layout import braces, has_wildcard
from adrguard.core.guard.policy import Output

MAX_COMMAND = 256 * 1024  # characters of a command that are read; a longer one is not judged
MAX_ALTERNATIVES = 64  # brace alternatives of one word

_SEPARATORS = frozenset({"|", "||", "&&", "&", ";", ";;", "\n", "(", ")", "|&"})
_REDIRECTS = frozenset({"<", ">", ">>", "<<", "<<<", ">&", "<&", "&>", "&>>", ">|", "<>"})
_OPERATORS = sorted(_SEPARATORS | _REDIRECTS, key=len, reverse=True)
_OPERATOR_CHARS = frozenset("|&;()<>\n")
_PREFIXES = frozenset({"command", "builtin", "exec", "time", "nohup"})
_READERS = frozenset({"cat", "head", "tail", "less", "sed"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "ugrep"})


class Unparsable(ValueError):
    """The command cannot be split into words (an unclosed quote, or too long)."""


class Word(NamedTuple):
    """A word as the shell would pass it. ``dynamic``: it holds an unquoted ``$`` or backquote
    (a variable, a substitution: its value is unknown here); ``wildcard``: an unquoted ``*``,
    ``?`` or ``[``."""

    text: str
    dynamic: bool = False
    wildcard: bool = False
    brace: bool = False


class ShellRead(NamedTuple):
    tool: str
    paths: tuple[Word, ...]
    part: str  # the command as written: the same command twice reads the same part
    cd: tuple[str | None, ...] = ()  # the ``cd`` targets before it, in order (None: unknown)


class ShellSearch(NamedTuple):
    tool: str  # "grep" or "rg"
    paths: tuple[Word, ...]  # empty: the working directory
    pattern: str
    globs: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    types_not: tuple[str, ...] = ()
    output: Output = Output.CONTENT
    recursive: bool = True
    cd: tuple[str | None, ...] = ()


ShellCall = ShellRead | ShellSearch


class Reading(NamedTuple):
    """What a command was understood to do: ``calls`` recognised, and the names of the commands
    that were not (allowed as they are: see the module docstring)."""

    calls: tuple[ShellCall, ...] = ()
    unrecognised: tuple[str, ...] = ()


def read_command(command: str) -> Reading:
    """The reads and searches of ``command``. :class:`Unparsable` when it cannot be split."""
    if len(command) > MAX_COMMAND:
        raise Unparsable(f"the command is longer than {MAX_COMMAND:,} characters")
    calls: list[ShellCall] = []
    unknown: list[str] = []
    cd: list[str | None] = []
    for segment in _segments(_scan(command)):
        words, stdin = _plain(segment)
        if not words:
            continue
        name = words[0].text.rsplit("/", 1)[-1]
        if name == "cd":
            target = words[1] if len(words) > 1 else None
            ok = target is not None and not target.dynamic and target.text not in ("-", "")
            cd.append(target.text if ok and target is not None else None)
            continue
        call = _recognise(name, words[1:], stdin, tuple(cd))
        if call is None:
            unknown.append(name)
        else:
            calls.append(call)
    return Reading(tuple(calls), tuple(dict.fromkeys(unknown)))


# --- words and operators ------------------------------------------------------------------


class _Token(NamedTuple):
    op: str | None  # an operator, or None for a word
    word: Word | None = None


def _scan(text: str) -> list[_Token]:
    """Words and operators, quote-aware; comments dropped. Linear in ``text``."""
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r":
            i += 1
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in _OPERATOR_CHARS:
            op = next(o for o in _OPERATORS if text.startswith(o, i)) if c != "\n" else "\n"
            out.append(_Token(op))
            i += len(op)
        else:
            i = _word(text, i, out)
    return out


def _word(text: str, start: int, out: list[_Token]) -> int:
    i, n = start, len(text)
    dynamic = wildcard = brace = False
    while i < n:
        c = text[i]
        if c in " \t\r" or c in _OPERATOR_CHARS:
            break
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise Unparsable("a single quote is not closed")
            i = end + 1
            continue
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                elif text[i] in "$`":
                    dynamic = True
                i += 1
            if i >= n:
                raise Unparsable("a double quote is not closed")
            i += 1
            continue
        if c in "$`":
            dynamic = True
        elif c in "*?[":
            wildcard = True
        elif c == "{":
            brace = True
        i += 1
    raw = text[start:i]
    if raw.isdigit() and i < n and text[i] in "<>":
        return i  # a file descriptor number (2>/dev/null): part of the redirection
    try:
        parts = shlex.split(raw, posix=True)
    except ValueError as exc:
        raise Unparsable(str(exc)) from None
    out.append(_Token(None, Word(parts[0] if parts else "", dynamic, wildcard, brace)))
    return i


def _segments(tokens: Sequence[_Token]) -> Iterator[list[_Token]]:
    current: list[_Token] = []
    for token in tokens:
        if token.op in _SEPARATORS:
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


def _plain(segment: Sequence[_Token]) -> tuple[list[Word], list[Word]]:
    """The words of a simple command (assignments and transparent prefixes dropped, redirection
    targets taken out) and the files it reads on standard input (``< FILE``)."""
    words: list[Word] = []
    stdin: list[Word] = []
    i = 0
    while i < len(segment):
        token = segment[i]
        if token.op is not None:
            target = segment[i + 1].word if i + 1 < len(segment) else None
            if token.op == "<" and target is not None:
                stdin.append(target)
            i += 2
            continue
        if token.word is not None:
            words.append(token.word)
        i += 1
    while words and (_is_assignment(words[0]) or words[0].text in _PREFIXES):
        words.pop(0)
    return words, stdin


def _is_assignment(word: Word) -> bool:
    name, eq, _ = word.text.partition("=")
    return bool(eq) and name.isidentifier()


# --- the commands -----------------------------------------------------------------------------


def _recognise(
    name: str, args: list[Word], stdin: list[Word], cd: tuple[str | None, ...]
) -> ShellCall | None:
    if name in _READERS:
        return _reader(name, args, stdin, cd)
    if name in _GREPS:
        return _grep(args, stdin, cd)
    if name == "rg":
        return _rg(args, stdin, cd)
    return None


# options that take a value, written apart or attached (-n5, --lines=5)
_READER_VALUES: dict[str, frozenset[str]] = {
    "cat": frozenset(),
    "head": frozenset({"-n", "-c", "--lines", "--bytes"}),
    "tail": frozenset({"-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid",
                       "--max-unchanged-stats"}),
    "less": frozenset({"-b", "-h", "-j", "-k", "-o", "-O", "-p", "-P", "-t", "-T", "-x", "-y",
                       "-z", "-#", "--pattern", "--prompt", "--tag", "--tabs", "--shift",
                       "--window", "--max-back-scroll", "--max-forw-scroll", "--jump-target",
                       "--log-file", "--LOG-FILE", "--tag-file"}),
    "sed": frozenset({"-e", "-f", "-l", "--expression", "--file", "--line-length"}),
}


def _reader(
    name: str, args: list[Word], stdin: list[Word], cd: tuple[str | None, ...]
) -> ShellCall | None:
    values = _READER_VALUES[name]
    files: list[Word] = []
    script_given = False
    only_positional = False
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        if only_positional or text == "-" or not text.startswith("-"):
            if only_positional or not (name == "less" and text.startswith("+")):
                files.append(word)
            i += 1
            continue
        if text == "--":
            only_positional = True
            i += 1
            continue
        if name in ("head", "tail") and text[1:].isdigit():
            i += 1  # head -20
            continue
        for option, _value, used in _options(text, args[i + 1] if i + 1 < len(args) else None,
                                             values):
            i += used
            if name == "sed" and option in ("-i", "--in-place"):
                return None  # sed -i edits the file: not a read
            if option in ("-e", "--expression", "-f", "--file"):
                script_given = True
        i += 1
    if name == "sed" and not script_given:
        if not files:
            return None
        files = files[1:]  # the first word is the script
    files.extend(stdin)
    if not files:
        return None  # standard input only: no file is read
    paths = _paths(files)
    if paths is None:
        return None
    part = " ".join(w.text for w in args)
    return ShellRead(name, paths, f"{name} {part}".strip(), cd)


_GREP_VALUES = frozenset({
    "-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "-g", "-O", "-t", "-K", "-N",
    "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
    "--include", "--exclude", "--exclude-dir", "--exclude-from", "--include-dir",
    "--binary-files", "--devices", "--directories", "--label", "--group-separator", "--glob",
    "--iglob", "--file-type", "--file-extension", "--include-from", "--color", "--colour",
})
_GREP_NAMES = frozenset({"-l", "-L", "-q", "--files-with-matches", "--files-without-match",
                         "--quiet", "--silent"})
_GREP_COUNT = frozenset({"-c", "--count"})
_GREP_RECURSIVE = frozenset({"-r", "-R", "--recursive", "--dereference-recursive"})


def _search_words(
    args: list[Word], values: frozenset[str]
) -> tuple[list[Word], list[tuple[str, Word | None]]] | None:
    """The words of a search (``grep``, ``rg``): the positional ones, and each option with its
    value, in order. None when a value other than a pattern is dynamic (unknown here)."""
    positional: list[Word] = []
    options: list[tuple[str, Word | None]] = []
    i = 0
    only_positional = False
    while i < len(args):
        word = args[i]
        text = word.text
        if only_positional or not text.startswith("-") or text == "-":
            positional.append(word)
            i += 1
            continue
        if text == "--":
            only_positional = True
            i += 1
            continue
        for option, value, used in _options(text, args[i + 1] if i + 1 < len(args) else None,
                                            values):
            if value is not None and value.dynamic and option not in ("-e", "--regexp"):
                return None
            i += used
            options.append((option, value))
        i += 1
    return positional, options


def _grep(args: list[Word], stdin: list[Word], cd: tuple[str | None, ...]) -> ShellCall | None:
    words = _search_words(args, _GREP_VALUES)
    if words is None:
        return None
    positional, options = words
    patterns: list[str] = []
    globs: list[str] = []
    output = Output.CONTENT
    recursive = False
    pattern_file = False
    for option, value in options:
        if option in _GREP_NAMES:
            output = Output.NAMES
        elif option in _GREP_COUNT and output is Output.CONTENT:
            output = Output.COUNT
        elif option in _GREP_RECURSIVE:
            recursive = True
        elif option in ("-d", "--directories") and value is not None:
            recursive = value.text == "recurse"
        elif option in ("-e", "--regexp") and value is not None:
            patterns.append(value.text)
        elif option in ("-f", "--file"):
            pattern_file = True
        elif option in ("--include", "-g", "--glob", "--iglob") and value is not None:
            globs.append(value.text)
        elif option == "--exclude" and value is not None:
            globs.append("!" + value.text)
        elif option == "--exclude-dir" and value is not None:
            globs.append("!" + value.text.rstrip("/") + "/")
        elif option in ("--exclude-from", "--include-from", "--include-dir", "-O", "-t",
                        "--file-type", "--file-extension"):
            return None  # file selections this reader does not model
    if not patterns and not pattern_file:
        if not positional:
            return None
        patterns.append(positional.pop(0).text)
    files = positional + stdin
    if not files and not recursive:
        return None  # standard input only
    paths = _paths(files)
    if paths is None:
        return None
    return ShellSearch("grep", paths, " ".join(patterns), tuple(globs), (), (), output,
                       recursive, cd)


_RG_VALUES = frozenset({
    "-e", "-f", "-g", "-t", "-T", "-A", "-B", "-C", "-m", "-M", "-j", "-E", "-d", "-r",
    "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--type-add",
    "--type-clear", "--after-context", "--before-context", "--context", "--max-count",
    "--max-columns", "--threads", "--encoding", "--max-depth", "--maxdepth", "--max-filesize",
    "--sort", "--sortr", "--color", "--colors", "--context-separator",
    "--field-match-separator", "--field-context-separator", "--path-separator", "--replace",
    "--pre", "--pre-glob", "--ignore-file", "--engine", "--dfa-size-limit",
    "--regex-size-limit", "--hostname-bin", "--hyperlink-format", "--generate",
})
_RG_NAMES = frozenset({"-l", "-q", "--files-with-matches", "--files-without-match", "--quiet",
                       "--files", "--type-list"})
_RG_COUNT = frozenset({"-c", "--count", "--count-matches"})


def _rg(args: list[Word], stdin: list[Word], cd: tuple[str | None, ...]) -> ShellCall | None:
    words = _search_words(args, _RG_VALUES)
    if words is None:
        return None
    positional, options = words
    patterns: list[str] = []
    globs: list[str] = []
    types: list[str] = []
    types_not: list[str] = []
    output = Output.CONTENT
    no_pattern = False
    for option, value in options:
        if option in _RG_NAMES:
            output = Output.NAMES
            no_pattern = no_pattern or option in ("--files", "--type-list")
        elif option in _RG_COUNT and output is Output.CONTENT:
            output = Output.COUNT
        elif option in ("-e", "--regexp") and value is not None:
            patterns.append(value.text)
        elif option in ("-f", "--file"):
            no_pattern = True
        elif option in ("-g", "--glob", "--iglob") and value is not None:
            globs.append(value.text)
        elif option in ("-t", "--type") and value is not None:
            types.append(value.text)
        elif option in ("-T", "--type-not") and value is not None:
            types_not.append(value.text)
        elif option in ("--type-add", "--type-clear", "--pre", "--ignore-file"):
            return None  # types or preprocessors this reader does not model
    if not patterns and not no_pattern:
        if not positional:
            return None
        patterns.append(positional.pop(0).text)
    files = positional + stdin
    paths = _paths(files)
    if paths is None:
        return None
    return ShellSearch("rg", paths, " ".join(patterns), tuple(globs), tuple(types),
                       tuple(types_not), output, True, cd)


def _options(
    text: str, following: Word | None, values: frozenset[str]
) -> Iterator[tuple[str, Word | None, int]]:
    """The options of one word: ``(option, value, words used after this one)``. ``--name=v``
    and ``--name v``; short options bundled (``-rn``), a value attached (``-A3``, ``-e'x'``) or
    in the next word."""
    if text.startswith("--"):
        name, eq, attached = text.partition("=")
        if name in values:
            if eq:
                yield name, Word(attached), 0
            else:
                yield name, following, 1 if following is not None else 0
        else:
            yield name, None, 0
        return
    for k in range(1, len(text)):
        option = "-" + text[k]
        if option in values:
            rest = text[k + 1 :]
            if rest:
                yield option, Word(rest), 0
            else:
                yield option, following, 1 if following is not None else 0
            return
        yield option, None, 0


def _paths(words: Sequence[Word]) -> tuple[Word, ...] | None:
    """The words as paths (brace alternatives expanded), or None when one of them is dynamic
    (its value is unknown here) or expands too far."""
    out: list[Word] = []
    for word in words:
        if word.dynamic:
            return None
        texts = [word.text]
        if word.brace:
            expanded = braces(word.text, MAX_ALTERNATIVES)
            if expanded is None:
                return None
            texts = expanded
        out.extend(Word(t, wildcard=word.wildcard and has_wildcard(t)) for t in texts)
    return tuple(out)
