"""Reading LSP frames from stdin without ever going deaf.

pygls 2.1's reader (pygls.io_.run_async) only recognises a header line that is exactly
`Content-Length: N\\r\\n`. After one frame with a non-numeric, missing or too short
Content-Length, the rest of that body is glued to the next frame's header line, which no longer
matches, and the same happens to every later frame: the server stays alive but never answers
again. This loop finds a Content-Length header anywhere in a line, so it resynchronises at the
next good frame; a body that is not JSON is dropped with one log line (the traceback only at
debug level).
"""
from __future__ import annotations

import json
import logging
import re

from pygls.exceptions import JsonRpcInvalidParams

_HEADER = re.compile(rb"Content-Length:[ \t]*(\d{1,12})[ \t]*\r?\n\Z", re.IGNORECASE)
MAX_BODY = 256 * 1024 * 1024  # a frame claiming more is a broken header, not a message


async def read_frames(stop_event, reader, protocol, logger: logging.Logger) -> None:
    """Feed every well-framed message to `protocol` until the input ends or `stop_event`."""
    length: int | None = None
    while not stop_event.is_set():
        line = await reader.readline()
        if not line:
            return
        header = _HEADER.search(line)
        if header is not None:
            length = int(header.group(1))
            if line[: header.start()].strip():
                logger.warning("gdef-lsp: skipped %d bytes of a broken frame before a header", header.start())
            continue
        if line.strip() or length is None:
            continue  # another header (Content-Type), or bytes of a broken frame
        if length > MAX_BODY:
            logger.warning("gdef-lsp: ignored a frame announcing %d bytes", length)
            length = None
            continue
        body = await reader.readexactly(length) if length else b""
        if len(body) < length:
            return  # the input ended inside the body
        length = None
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
        except Exception as error:  # noqa: BLE001 - any bad body: answer or drop it, keep listening
            if not _answer_unreadable_request(body, error, protocol):
                logger.warning("gdef-lsp: dropped a message that is not valid JSON-RPC (%s); "
                               "was its Content-Length wrong?", type(error).__name__)
            logger.debug("the message could not be read", exc_info=True)
            continue
        try:
            protocol.handle_message(message)
        except Exception as error:  # noqa: BLE001
            logger.warning("gdef-lsp: could not handle a message: %s", error)
            logger.debug("while handling a message", exc_info=True)


def _answer_unreadable_request(body: bytes, error: Exception, protocol) -> bool:
    """A request whose params do not fit its method (a position of -1 or 2**31, a string for a
    number) is still a request: it gets an error response (Invalid params), so that the client
    does not wait for it forever. Returns whether the body was such a request."""
    try:
        raw = json.loads(body)
    except (ValueError, RecursionError):
        return False
    if not (isinstance(raw, dict) and isinstance(raw.get("method"), str)
            and type(raw.get("id")) in (int, str)):
        return False
    answer = JsonRpcInvalidParams(message=f"invalid params of {raw['method'][:100]}: they do not fit the "
                                          f"LSP types ({type(error.__cause__ or error).__name__})")
    protocol._send_response(raw["id"], None, answer.to_response_error())
    return True
