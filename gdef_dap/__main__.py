"""`gdef-dap` / `python -m gdef_dap`: the debug adapter on stdin/stdout. Nothing but protocol
messages is written to stdout; Ctrl-C (the adapter run by hand in a terminal) ends it quietly."""
from __future__ import annotations

import argparse
import sys

from gdef_core.version import __version__

EXIT_INTERRUPTED = 130  # as the other gdef commands end on Ctrl-C


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gdef-dap", description="Debug adapter (Debug Adapter Protocol, "
                                     "over stdin/stdout) for games defined in .gdef files.")
    parser.add_argument("--version", action="version", version=f"gdef-dap {__version__}")
    parser.parse_args(argv)
    from gdef_dap.server import Server  # imported late: `--version` stays instant

    try:
        return Server(sys.stdin.buffer, sys.stdout.buffer).serve()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
