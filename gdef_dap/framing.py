"""Messages of the Debug Adapter Protocol on a byte stream: a `Content-Length` header, a blank
line, then that many bytes of UTF-8 JSON. Reading is bounded; writing takes a lock, since the
game thread sends events while the main thread answers requests."""
from __future__ import annotations

import json
import threading

from gdef_core import json_input

MAX_MESSAGE = 16 * 1024 * 1024  # bytes of one message
MAX_HEADER = 8192


class FramingError(Exception):
    """The stream is not framed as the protocol says; the message says what was wrong."""


class Stream:
    def __init__(self, reader, writer) -> None:
        self.reader = reader
        self.writer = writer
        self.lock = threading.Lock()
        self.seq = 0
        self.closed = False
        self.lost = False  # a bad header was read: the stream resumes at the next header

    def read(self):
        """The next message (any JSON value), None at the end of the stream; FramingError for a
        bad header or a message too long (skipped: the next read looks for the next header) or
        ValueError for a body that is not JSON."""
        length = None
        header_bytes = 0
        while True:
            line = self.reader.readline(MAX_HEADER)
            if not line:
                return None
            if self.lost:  # after a bad header: skip to the next Content-Length header
                start = line.lower().find(b"content-length:")
                if start < 0:
                    continue
                line, self.lost = line[start:], False
            header_bytes += len(line)
            if header_bytes > MAX_HEADER:
                self.lost = True
                raise FramingError("the header is too long")
            text = line.decode("ascii", "replace").strip()
            if not text:
                if length is None:
                    continue  # blank lines between messages
                break
            name, _, value = text.partition(":")
            if name.strip().lower() == "content-length":
                if not value.strip().isdigit():
                    self.lost = True
                    raise FramingError(f"bad Content-Length: {value.strip()!r}")
                length = int(value.strip())
        if length > MAX_MESSAGE:
            self._skip(length)
            raise FramingError(f"a message of {length:,} bytes is more than {MAX_MESSAGE:,}: skipped")
        body = self.reader.read(length)
        if len(body) < length:
            return None
        return json_input.loads(body.decode("utf-8"))

    def _skip(self, length: int) -> None:
        """Read past `length` bytes, a bounded chunk at a time."""
        while length > 0:
            chunk = self.reader.read(min(length, 1 << 16))
            if not chunk:
                return
            length -= len(chunk)

    def send(self, message: dict) -> None:
        with self.lock:
            self.seq += 1
            message = {"seq": self.seq, **message}
            body = json.dumps(message, ensure_ascii=False).encode("utf-8")
            if self.closed:
                return
            try:
                self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self.writer.flush()
            except OSError:  # the client is gone: reading its end of the stream ends the session
                self.closed = True
