"""What several handlers send back the same way: a refused request, and a request that the
client ask for code lenses again (when a background run of a lens has news)."""
from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcException


def refuse(reason: str) -> JsonRpcException:
    """The error a request gets when it cannot be done; `reason` says why, in the user's terms."""
    return JsonRpcException(message=reason, code=types.LSPErrorCodes.RequestFailed)


def refresh_code_lenses(ls) -> None:
    """workspace/codeLens/refresh, if the client takes it (otherwise it asks on its own)."""
    workspace = ls.client_capabilities.workspace
    if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)
