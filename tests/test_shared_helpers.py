"""Helpers that replaced copies of the same logic, each checked against the copies it replaced
(re-expressed here as the oracles): a repo-relative path as a person or an agent gives it, and
the table of a TOML file."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.api.agent.workspace import InvalidRequest, check_identifier, check_relative
from adrguard.config import parse_toml
from adrguard.core.errors import UserError

PATHS = st.lists(st.sampled_from(["./", ".", "/", "\\", "a", "b.md", "..", " ", "é", "\x00",
                                  "docs", "C:", "-"]), max_size=8).map("".join)


def _old_relative(value: str, what: str) -> str:
    rel = check_identifier(value, what).replace("\\", "/")
    return rel[2:] if rel.startswith("./") else rel


def _outcome(fn: object, *args: object) -> tuple[str, object]:
    try:
        return "ok", fn(*args)  # type: ignore[operator]
    except (InvalidRequest, UserError) as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=400, deadline=None)
@given(PATHS)
def test_a_relative_path_is_checked_and_written_as_before(value: str) -> None:
    assert _outcome(check_relative, value, "path") == _outcome(_old_relative, value, "path")


def _old_toml(raw: bytes, name: str) -> dict[str, object]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UserError(f"{name}: not UTF-8 text (byte {exc.start}): save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{name}: not valid TOML: {exc}") from None
    except RecursionError:
        raise UserError(f"{name}: not valid TOML: nested too deeply") from None


TOML = st.one_of(
    st.lists(st.sampled_from(["a = 1\n", "[t]\n", "b = 'x'\n", "= \n", "[[", "\xff", "é = 2\n",
                              "c = [1, 2]\n", "a = 2\n"]), max_size=6)
    .map("".join).map(lambda t: t.encode("utf-8")),
    st.binary(max_size=20),
    st.just(b"x = " + b"[" * 2000 + b"]" * 2000),
)


@settings(max_examples=400, deadline=None)
@given(TOML)
def test_a_toml_file_reads_as_before(raw: bytes) -> None:
    assert _outcome(parse_toml, raw, "f.toml") == _outcome(_old_toml, raw, "f.toml")


@pytest.mark.parametrize("value", ["./docs/adr/0001.md", ".\\docs\\x.md", "docs/./a.md", "./"])
def test_a_leading_dot_slash_goes_once(value: str) -> None:
    assert check_relative(value, "path") == _old_relative(value, "path")
