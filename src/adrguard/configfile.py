"""Reading the files the configuration comes from or names, as hostile input.

A pull request can commit ``.adrguard.toml`` or ``pyproject.toml`` as a symlink out of the
repository, name a ``frontmatter-schema`` outside it or in ``.git/``, or point it at
``/dev/zero``. Every such file is read by :func:`read_config_file`: it must resolve inside the
allowed folders and outside git's folders (:mod:`adrguard.pathguard`), be a regular file and stay
under :data:`MAX_CONFIG_BYTES`; each failure is one ``UserError`` line.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adrguard.core.errors import UserError
from adrguard.pathguard import in_git_folder, is_inside

MAX_CONFIG_BYTES = 1024 * 1024  # a config or schema file larger than this is refused


def read_config_file(path: Path, inside: tuple[Path, ...], what: str) -> bytes:
    """The bytes of a file the configuration names: it must resolve (symlinks followed) inside
    one of the folders ``inside``, be a regular file and hold at most ``MAX_CONFIG_BYTES``.
    Anything else is a :class:`UserError` that says which."""
    import os
    import stat

    real = os.path.realpath(path)
    homes = [os.path.realpath(folder) for folder in inside]
    if not any(is_inside(real, h) for h in homes):
        raise UserError(f"{what} resolves to {real}, outside the repository; configuration "
                        "files must live inside it")
    if any(in_git_folder(real, folder) for folder in inside):
        raise UserError(f"{what} resolves to {real}, in git's own folder (.git), which "
                        "adrguard never reads; name a file of the work tree")
    try:
        st = os.stat(real)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{what} is not a regular file")
        if st.st_size > MAX_CONFIG_BYTES:
            raise UserError(f"{what} is {st.st_size:,} bytes; the limit is "
                            f"{MAX_CONFIG_BYTES:,}")
        with open(real, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise UserError(f"{what} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise UserError(f"{what} holds more than {MAX_CONFIG_BYTES:,} bytes")
    return data


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def read_toml(path: Path, inside: tuple[Path, ...]) -> dict[str, Any]:
    raw = read_config_file(path, inside, f"config {path.name}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path.name}: not UTF-8 text (byte {exc.start}): save it as UTF-8") \
            from None
    import tomllib  # only a run with a config file reads TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path.name}: not valid TOML: {exc}") from None
    except RecursionError:
        raise UserError(f"{path.name}: not valid TOML: nested too deeply") from None


def tool_table(data: Mapping[str, Any], path: Path) -> dict[str, Any] | None:
    """``[tool.adrguard]`` of a pyproject.toml (None when absent); a value that is not a table
    is a UserError, never silently ignored."""
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise UserError(f"{path.name}: `tool` must be a table, not {type(tool).__name__}")
    table = tool.get("adrguard")
    if table is None or isinstance(table, dict):
        return table
    raise UserError(f"{path.name}: [tool.adrguard] must be a table, not {type(table).__name__}")
