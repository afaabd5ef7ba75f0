"""`gdef-lsp` / `python -m gdef_lsp`: start the server on stdio (default) or TCP.

Nothing may be written to stdout but protocol messages: logging goes to the client
(window/logMessage) once connected, and to stderr before that.
"""
from __future__ import annotations

import argparse
import logging
import sys

from gdef_lsp import __version__


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT (e.g. 127.0.0.1:2087), got {value!r}")
    return host or "127.0.0.1", int(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gdef-lsp", description="Language server for .gdef game definitions.")
    parser.add_argument("--version", action="version", version=f"gdef-lsp {__version__}")
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", type=_host_port,
                        help="listen on a TCP port instead (for debugging a client)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much to log to the client's output (default INFO)")
    args = parser.parse_args(argv)

    from gdef_lsp.server import make_server  # imported late: `--version` stays instant

    server = make_server(log_level=getattr(logging, args.log_level))
    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()
    return 0 if server.shut_down else 1  # the LSP rule for `exit` without `shutdown`


if __name__ == "__main__":
    sys.exit(main())
