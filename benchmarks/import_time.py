"""What starting the language server costs in gdef's own modules, as `python -X importtime`
reports it, and how long a server takes to answer its first request.

Import: each run is a fresh process (`python -X importtime -c 'import gdef_lsp.server'`); the
figure is the sum of the self-times of the gdef_core.* and gdef_lsp.* lines (the time spent in
gdef's module bodies, not in lsprotocol, pygls or lark), the median over --runs processes.
Issue 31's target is under 80 ms. Two ways:

  cached   the bytecode caches written (a warm-up run writes __pycache__), as in an installed gdef;
  source   every gdef module compiled from its source at import (no bytecode cache: a fresh
           checkout run with PYTHONDONTWRITEBYTECODE=1, or a bundled server whose folder is
           read-only); the compiling counts in each module's self-time.

Also printed: the slowest of gdef's modules in the median run, and every compiler module the
import loaded (there should be none).

CPU: importtime's figures are wall time, which a busy machine inflates; this one is the CPU
time (time.process_time) of `import gdef_lsp.server` in a process that has already imported
every other module that import loads (Python's, lsprotocol, pygls, lark): gdef's own modules,
bytecode cached, median of --runs processes.

Start: `python -m gdef_lsp` started --runs times, the wall time from starting the process to the
answer to `initialize` (over stdio), median; the whole cost of a server start (Python itself,
lsprotocol, pygls and gdef), with the bytecode caches written.

    python benchmarks/import_time.py [--runs 9] [--module gdef_lsp.server] [--top 12]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OWN = ("gdef_core", "gdef_lsp")
COMPILER = ("gdef_core.lower", "gdef_core.runtime", "gdef_core.native", "gdef_core.play", "gdef_core.testing.runner")


def environment(source: bool) -> dict[str, str]:
    found = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    if source:
        found["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        found.pop("PYTHONDONTWRITEBYTECODE", None)
    return found


def one_import(module: str, source: bool, empty: str) -> dict[str, tuple[int, int]]:
    """Module -> (self, cumulative) microseconds, for one fresh process importing `module`.
    From source: the bytecode caches are looked for in an empty folder (-X pycache_prefix)."""
    options = ["-X", f"pycache_prefix={empty}"] if source else []
    done = subprocess.run([sys.executable, "-X", "importtime", *options, "-c", f"import {module}"],
                          capture_output=True, text=True, env=environment(source), cwd=ROOT, check=True)
    found = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        found[name.strip()] = (int(own), int(cumulative))
    return found


CPU_SCRIPT = """
import importlib, json, sys, time
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
start = time.process_time()
importlib.import_module(sys.argv[2])
print(time.process_time() - start)
"""


def others_loaded(module: str) -> list[str]:
    """The modules other than gdef's that importing `module` loads, in the order loaded."""
    script = (f"import json, sys; import {module}; "
              f"print(json.dumps([m for m in sys.modules if m.split('.')[0] not in {OWN!r} and m != '__main__']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment(False),
                          cwd=ROOT, check=True)
    return json.loads(done.stdout)


def one_cpu(module: str, others: list[str]) -> float:
    done = subprocess.run([sys.executable, "-c", CPU_SCRIPT, json.dumps(others), module], capture_output=True,
                          text=True, env=environment(False), cwd=ROOT, check=True)
    return float(done.stdout)


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def one_start() -> float:
    """Seconds from starting `python -m gdef_lsp` to its answer to `initialize`."""
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "gdef_lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=environment(False), cwd=ROOT)
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    server.stdin.flush()
    length = 0
    while line := server.stdout.readline().strip():
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    answer = json.loads(server.stdout.read(length))
    elapsed = time.perf_counter() - started
    assert answer.get("id") == 1 and "result" in answer, answer
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
                       frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.close()
    server.wait(30)
    return elapsed


def report_imports(module: str, runs: int, top: int, source: bool) -> None:
    with tempfile.TemporaryDirectory() as empty:
        if not source:
            one_import(module, source, empty)  # warm-up: writes the bytecode caches
        measured = []
        for _ in range(runs):
            found = one_import(module, source, empty)
            own = {name: times for name, times in found.items() if name.split(".")[0] in OWN}
            measured.append((sum(times[0] for times in own.values()), own, found))
    measured.sort(key=lambda run: run[0])
    total, own, found = measured[len(measured) // 2]
    print(f"import {module}, {'compiled from source' if source else 'bytecode cached'}: gdef's own modules "
          f"{total / 1000:.1f} ms (median of {runs}; min {measured[0][0] / 1000:.1f}, "
          f"max {measured[-1][0] / 1000:.1f}), {len(own)} modules; everything "
          f"{sum(times[0] for times in found.values()) / 1000:.0f} ms")
    for name, (self_time, _) in sorted(own.items(), key=lambda item: -item[1][0])[:top]:
        print(f"  {self_time / 1000:6.1f} ms  {name}")
    compiler = sorted(name for name in found if name.startswith(COMPILER))
    print(f"  compiler modules loaded: {', '.join(compiler) if compiler else 'none'}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes each way; the median counts (default 9)")
    parser.add_argument("--module", default="gdef_lsp.server", help="what to import (default gdef_lsp.server)")
    parser.add_argument("--top", type=int, default=8, help="how many of the slowest own modules to list")
    args = parser.parse_args()
    for source in (False, True):
        report_imports(args.module, args.runs, args.top, source)
    others = others_loaded(args.module)
    cpu = [one_cpu(args.module, others) for _ in range(args.runs)]
    print(f"import {args.module}, CPU time of gdef's modules alone: {statistics.median(cpu) * 1000:.1f} ms "
          f"(median of {args.runs}; min {min(cpu) * 1000:.1f}, max {max(cpu) * 1000:.1f})")
    starts = [one_start() for _ in range(args.runs)]
    print(f"python -m gdef_lsp, start to the answer to initialize: {statistics.median(starts) * 1000:.0f} ms "
          f"(median of {args.runs}; min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f})")


if __name__ == "__main__":
    main()
