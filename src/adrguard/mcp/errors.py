"""How a failed call reaches the client: one JSON-RPC error per failure class, sanitised.

| class            | code    | when                                                          |
|------------------|---------|---------------------------------------------------------------|
| invalid-params   | -32602  | unknown argument, schema violation, bad identifier or query,  |
|                  |         | a record that does not exist or is ambiguous, unsafe path     |
| timeout          | -32001  | the call ran longer than the server's ``--timeout``           |
| configuration    | -32010  | the repository's configuration or the mapping file is broken |
| operational      | -32011  | git failed, a ref is missing, records cannot be read          |
| limit            | -32012  | the answer would be over 1 MiB, or list more than 1,000 ADRs  |
| internal         | -32603  | a bug in adrguard (the message says only that)                |

Every message goes through :func:`sanitise`: the repository's absolute path becomes a
repository-relative one (``.`` for the root itself) and any other absolute path becomes
``<absolute path>``, so no error tells the client where the repository or anything else lives on
the machine. ``data`` carries ``errorClass`` and the tool's name (and, for invalid parameters,
the problems one by one).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, REQUEST_TIMEOUT

from adrguard.api.agent.workspace import ConfigurationError, InvalidRequest, LimitExceeded
from adrguard.core.errors import UserError
from adrguard.core.impact.mapping import ManifestError

CONFIGURATION = -32010
OPERATIONAL = -32011
LIMIT = -32012
CODES = {
    "invalid-params": INVALID_PARAMS,
    "timeout": REQUEST_TIMEOUT,
    "configuration": CONFIGURATION,
    "operational": OPERATIONAL,
    "limit": LIMIT,
    "internal": INTERNAL_ERROR,
}
ABSOLUTE = "<absolute path>"
# An absolute POSIX path (not the "//" of a URL, not the middle of a relative path), a Windows
# drive path, or a UNC path.
_ABSOLUTE = re.compile(
    r"(?<![\w.:/~\\-])/(?!/)[^\s'\"`,;()\[\]{}<>]+"
    r"|\b[A-Za-z]:[\\/][^\s'\"`,;()\[\]{}<>]*"
    r"|(?<![\w\\])\\\\[^\s'\"`,;()\[\]{}<>]+"
)
MAX_MESSAGE = 2_000


def sanitise(message: str, root: Path | str) -> str:
    """``message`` with the repository's absolute path made relative and every other absolute
    path replaced (see the module docstring), cut to a bounded length."""
    text = message
    for base in sorted({str(root), os.path.realpath(root)}, key=len, reverse=True):
        base = base.rstrip("/\\")
        if not base:
            continue
        for sep in ("/", "\\"):
            text = text.replace(base + sep, "")
        text = re.sub(re.escape(base) + r"(?![\w.-])", ".", text)
    text = _ABSOLUTE.sub(ABSOLUTE, text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def error(kind: str, message: str, root: Path | str, tool: str, **data: Any) -> MCPError:
    """The JSON-RPC error for a failure of class ``kind``."""
    clean = sanitise(message, root)
    payload: dict[str, Any] = {"errorClass": kind, "tool": tool, **data}
    return MCPError(code=CODES[kind], message=clean, data=payload)


def classify(exc: BaseException) -> str:
    """The failure class of an exception a tool raised."""
    if isinstance(exc, InvalidRequest):
        return "invalid-params"
    if isinstance(exc, ConfigurationError | ManifestError):
        return "configuration"
    if isinstance(exc, LimitExceeded):
        return "limit"
    if isinstance(exc, UserError):
        return "operational"
    if isinstance(exc, TimeoutError):
        return "timeout"
    return "internal"
