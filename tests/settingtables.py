"""The keys and nested tables of the configuration's declaration, as the tests read them
(:func:`adrguard.core.settings.table_keys` is what the product reads)."""

from __future__ import annotations

from msgspec import Struct

from adrguard.core.settings import table_keys


def keys(table: type[Struct]) -> tuple[str, ...]:
    """The keys a table of the file may hold, as the file spells them."""
    return tuple(table_keys(table))


def subtables(table: type[Struct]) -> dict[str, type[Struct]]:
    """The tables nested in ``table`` (``[index]``, ``[ai]``, ...), by the key the file uses."""
    return {key: sub for key, sub in table_keys(table).items() if sub is not None}
