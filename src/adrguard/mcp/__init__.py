"""The MCP server (``adrguard mcp``, optional extra ``adrguard[mcp]``).

Import :mod:`adrguard.mcp.server` only when the ``mcp`` package is installed; the CLI checks
that first and prints the install hint when it is missing.
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'adrguard[mcp]'"


def available() -> bool:
    """Whether the MCP SDK (``mcp>=2,<3``) can be imported."""
    try:
        import mcp.server.lowlevel  # noqa: F401
    except ImportError:
        return False
    return True
