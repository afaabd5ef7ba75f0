"""`gdef-dap` / `python -m gdef_dap`: the debug adapter on stdin/stdout. Nothing but protocol
messages is written to stdout."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gdef-dap", description="Debug adapter (Debug Adapter Protocol, "
                                     "over stdin/stdout) for games defined in .gdef files.")
    parser.parse_args(argv)
    from gdef_dap.server import Server

    return Server(sys.stdin.buffer, sys.stdout.buffer).serve()


if __name__ == "__main__":
    sys.exit(main())
