"""Logging to the client's output (window/logMessage): stdout carries the protocol, so
nothing else may be written there."""
from __future__ import annotations

import logging

from lsprotocol import types
from pygls.exceptions import JsonRpcException

_TYPES = [(logging.ERROR, types.MessageType.Error), (logging.WARNING, types.MessageType.Warning),
          (logging.INFO, types.MessageType.Info), (logging.NOTSET, types.MessageType.Log)]


class ClientLogHandler(logging.Handler):
    def __init__(self, server) -> None:
        super().__init__()
        self.server = server
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self._sending = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._sending or self.server.protocol.writer is None or _is_refusal(record):
            return
        self._sending = True  # sending may log; never recurse
        try:
            kind = next(t for level, t in _TYPES if record.levelno >= level)
            self.server.window_log_message(types.LogMessageParams(type=kind, message=self.format(record)))
        except Exception:  # the connection is gone: nowhere left to log to
            pass
        finally:
            self._sending = False


def _is_refusal(record: logging.LogRecord) -> bool:
    """A request refused on purpose (rename a keyword...) is an answer, not a server error."""
    error = record.exc_info[1] if record.exc_info else None
    return isinstance(error, JsonRpcException) and error.code == types.LSPErrorCodes.RequestFailed
