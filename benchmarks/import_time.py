"""What `import gdef_lsp.server` costs in gdef's own modules, as `python -X importtime` reports it.

Each run is a fresh process (`python -X importtime -c 'import gdef_lsp.server'`), after a
warm-up run that writes the bytecode caches (__pycache__, as installing gdef does); the figure is
the sum of the self-times of the gdef_core.* and gdef_lsp.* lines (the time spent in gdef's
module bodies, not in lsprotocol, pygls or lark), and the median over --runs processes counts.
Issue 31's target is under 80 ms. Also printed: the slowest of gdef's modules in the median
run, and every compiler module the import loaded (there should be none).

    python benchmarks/import_time.py [--runs 9] [--module gdef_lsp.server] [--top 12]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OWN = ("gdef_core", "gdef_lsp")
COMPILER = ("gdef_core.lower", "gdef_core.runtime", "gdef_core.native", "gdef_core.play")


def one_run(module: str) -> dict[str, tuple[int, int]]:
    """Module -> (self, cumulative) microseconds, for one fresh process importing `module`."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once (the warm-up run), as an installed gdef is
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, env=environment, cwd=ROOT, check=True)
    found = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        found[name.strip()] = (int(own), int(cumulative))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes; the median counts (default 9)")
    parser.add_argument("--module", default="gdef_lsp.server", help="what to import (default gdef_lsp.server)")
    parser.add_argument("--top", type=int, default=12, help="how many of the slowest own modules to list")
    args = parser.parse_args()
    one_run(args.module)  # warm-up: writes the bytecode caches, fills the file system's cache
    runs = []
    for _ in range(args.runs):
        found = one_run(args.module)
        own = {name: times for name, times in found.items() if name.split(".")[0] in OWN}
        runs.append((sum(times[0] for times in own.values()), own, found))
    runs.sort(key=lambda run: run[0])
    total, own, found = runs[len(runs) // 2]
    everything = sum(times[0] for times in found.values())
    print(f"import {args.module}: gdef's own modules {total / 1000:.1f} ms (median of {args.runs}; "
          f"min {runs[0][0] / 1000:.1f}, max {runs[-1][0] / 1000:.1f}), {len(own)} modules; "
          f"everything {everything / 1000:.0f} ms")
    print("\nslowest own modules (self time, median run):")
    for name, (self_time, _) in sorted(own.items(), key=lambda item: -item[1][0])[:args.top]:
        print(f"  {self_time / 1000:6.1f} ms  {name}")
    compiler = sorted(name for name in found if name.startswith(COMPILER))
    print(f"\ncompiler modules loaded: {', '.join(compiler) if compiler else 'none'}")


if __name__ == "__main__":
    main()
