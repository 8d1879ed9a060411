"""Options and helpers shared by every subcommand."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from adrguard.core.errors import UserError

if TYPE_CHECKING:
    import datetime

    from adrguard.config import Config


class _DeprecatedRoot(argparse.Action):
    """``--root DIR``: the old name of ``--repo`` (it names the repository, not an ADR root)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        info(
            "warning: --root is deprecated and will be removed: it names the repository, so use "
            "--repo DIR; to check one ADR folder, give it as a path (adrguard check docs/arch)"
        )
        setattr(namespace, self.dest, Path(str(values)))


def add_repository(parser: argparse.ArgumentParser, dest: str = "root") -> None:
    """--repo and --config: where the repository is (in ``dest``) and which config to use."""
    parser.add_argument(
        "--repo",
        dest=dest,
        type=Path,
        default=None,
        metavar="DIR",
        help="the repository (default: the git work tree around the current directory)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="config file (default: .adrguard.toml, else [tool.adrguard] in pyproject.toml)",
    )


def add_common(parser: argparse.ArgumentParser) -> None:
    """--repo, --config and -v: where the repository is and which config to use."""
    add_repository(parser)
    parser.add_argument(
        "--root", dest="root", action=_DeprecatedRoot, metavar="DIR", help=argparse.SUPPRESS
    )
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="say which config was used, and each ADR root, why, and what it holds",
    )
    add_quiet(talk)
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the record cache (parsed records, in the user cache folder)",
    )
    parser.add_argument(
        "--repository-url",
        default=None,
        metavar="URL",
        help="this repository's web URL, with /tree/BRANCH for its default branch "
        "(https://github.com/OWNER/REPO/tree/main): links to its files at that branch are "
        "checked as paths, as the GitHub Action does (default: the repository-url setting)",
    )


def add_quiet(parser: Any) -> None:
    """``-q/--quiet``: print the results, nothing else (errors and warnings still go to
    stderr)."""
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print the results only: no summary line, notes or progress on stderr (errors "
        "and warnings still show)",
    )


class _Quiet:
    """Whether ``-q`` was given (set by :func:`adrguard.cli.main` for the command it runs)."""

    on: bool = False


def set_quiet(on: bool) -> None:
    _Quiet.on = on


def quiet() -> bool:
    return _Quiet.on


def split_values(values: Iterable[str]) -> list[str]:
    """The words of a repeatable option that also takes commas (``--status a,b --status c``),
    stripped; empty ones dropped."""
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def given_date(value: str | None) -> datetime.date | None:
    """``--today`` as a date, None when it is not given; a value that is no date is an error."""
    if not value:
        return None
    import datetime

    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise UserError(f"--today {value!r} is not a date: write it as YYYY-MM-DD, e.g. --today "
                        "2024-05-31") from None


def load_config_for(args: argparse.Namespace) -> tuple[Path, Config]:
    """The repository root and its config, with --no-cache applied; a large cold parse is
    shared with helper interpreters (``jobs=0``: one process per core, up to four)."""
    from adrguard.api import resolve_root
    from adrguard.config import load_config

    root = resolve_root(args.root)
    config = load_config(root, args.config, repository_url=getattr(args, "repository_url", None))
    config = config.with_overrides(jobs=0)
    if getattr(args, "no_cache", False):
        config = config.with_overrides(cache=False)
    if getattr(args, "verbose", 0):
        info(f"adrguard: config {config.source or 'built-in defaults'}; repository {root}")
    return root, config


class FormatSpec(NamedTuple):
    """One ``--format NAME[:PATH]`` (a named tuple: a dataclass costs four times as much to
    create at start-up, and ``--version`` and ``--help`` import this module too)."""

    name: str
    path: Path | None  # None = stdout


def report_formats(values: Iterable[str] | None, kind: str) -> list[FormatSpec]:
    """``--format NAME[:PATH]``, repeatable, for a report kind of the registry of output formats
    (:mod:`adrguard.reporters.formats`: its names, its default); ``NAME:-`` is stdout, like
    ``NAME``. At most one format may go to stdout."""
    from adrguard.reporters import formats

    allowed = sorted(formats.names(kind))
    specs: list[FormatSpec] = []
    for value in values or [formats.default(kind)]:
        name, sep, path = value.partition(":")
        name = name.strip().lower()
        if name not in allowed:
            raise UserError(f"unknown format {name!r}: choose one of {', '.join(allowed)}")
        if sep and not path:
            raise UserError(f"--format {value!r}: give a path after the colon, e.g. {name}:out.txt")
        specs.append(FormatSpec(name, Path(path) if sep and path != "-" else None))
    if sum(1 for s in specs if s.path is None) > 1:
        raise UserError("only one --format may write to stdout; give the others a path (NAME:PATH)")
    return specs


def add_format(parser: argparse.ArgumentParser, kind: str, **extra: Any) -> None:
    """``--format`` with the choices and the default of ``kind`` in the registry of output
    formats (:mod:`adrguard.reporters.formats`; a command's plain output or a report kind)."""
    from adrguard.reporters import formats

    parser.add_argument("--format", choices=formats.names(kind), default=formats.default(kind),
                        **extra)


def emit(text: str, spec: FormatSpec, *, colour: bool = False, root: Path | None = None) -> None:
    """Write ``text`` to stdout (:func:`write_stdout`) or to the spec's file (atomically, never
    through a symlink: :func:`adrguard.adapters.write.write_atomic`). The path is the user's
    choice, but a symlink on the way inside the work tree ``root`` (default: the one around the
    current folder) is the repository's, and refused
    (:func:`adrguard.pathguard.output_problem`). How :func:`write_stdout` treats the text
    (``commands``, ``json`` or ``text``) the registry of output formats says
    (:func:`adrguard.reporters.formats.stream`)."""
    from adrguard.reporters.formats import stream

    if spec.path is None:
        write_stdout(text, "raw" if colour else stream(spec.name))
        return
    from adrguard.api import write_atomic
    from adrguard.api.pipeline.corpus import resolve_root
    from adrguard.pathguard import output_problem

    problem = output_problem(spec.path, root if root is not None else resolve_root(None))
    if problem is not None:
        raise UserError(f"cannot write {spec.path}: {problem}")

    if stream(spec.name) == "json":
        from adrguard.core.textsafe import json_safe

        text = json_safe(text)
    try:
        write_atomic(spec.path, text)
    except OSError as exc:
        raise UserError(f"cannot write {spec.path}: {exc.strerror or exc}") from None


def print_json(data: Any) -> None:
    """``data`` on stdout in adrguard's one JSON style (:func:`adrguard.reporters.json.dumps`)."""
    from adrguard.reporters.json import dumps

    write_stdout(dumps(data), "json")


class _Stdout:
    """Whether workflow commands are switched off, and by which token (GitHub Actions only)."""

    token: str | None = None


def write_stdout(text: str, kind: str = "text") -> None:
    """Every byte adrguard prints to stdout goes through here. ``text``: untrusted text is made
    inert (:func:`adrguard.core.textsafe.neutralise`); ``json``: the same, the JSON way;
    ``commands``: workflow commands our reporter wrote on purpose; ``raw``: as is (colour on a
    terminal, whose fields were escaped one by one). Under GitHub Actions
    (``GITHUB_ACTIONS=true``) everything but ``commands`` is also wrapped in
    ``::stop-commands::TOKEN`` ... ``::TOKEN::`` with an unguessable token."""
    import os

    from adrguard.core.textsafe import json_safe, neutralise

    if kind == "text":
        text = neutralise(text, multiline=True)
    elif kind == "json":
        text = json_safe(text)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        if kind == "commands":
            resume_commands()
        elif _Stdout.token is None:
            import secrets

            _Stdout.token = secrets.token_hex(16)
            sys.stdout.write(f"::stop-commands::{_Stdout.token}\n")
    sys.stdout.write(text)
    sys.stdout.flush()


def resume_commands() -> None:
    """End a ``::stop-commands::`` that :func:`write_stdout` started (the CLI calls this before
    it exits)."""
    token, _Stdout.token = _Stdout.token, None
    if token is not None:
        try:
            sys.stdout.write(f"::{token}::\n")
            sys.stdout.flush()
        except OSError:  # a closed pipe: nobody is reading the log any more
            pass


def out(line: str) -> None:
    """One line of text output (untrusted parts included) to stdout."""
    write_stdout(line + "\n")


_ALWAYS = ("error", "warning", "internal error")  # what -q never hides


def info(message: str) -> None:
    """Decoration and progress go to stderr, made inert like stdout; with ``-q`` only errors
    and warnings do."""
    from adrguard.core.textsafe import neutralise

    if _Quiet.on and not message.startswith(_ALWAYS):
        return
    print(neutralise(message, multiline=True), file=sys.stderr)
