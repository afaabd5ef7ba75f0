"""What starting the language server costs: gdef's own modules in `import gdef_lsp.server`, as
`python -X importtime` reports it; the time to the answer to `initialize`; and the first
request of each feature (whose module the server reads only then).

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

CPU: importtime's figures are wall time, which a busy machine inflates; these are the CPU
time (time.process_time) of `import gdef_lsp.server` in a process that has already imported
every other module that import loads (Python's, lsprotocol, pygls, lark): gdef's own modules,
both ways (cached, source), median of --runs processes.

Start: `python -m gdef_lsp` started --runs times, the wall time from starting the process to the
answer to `initialize` (over stdio), median; the whole cost of a server start (Python itself,
lsprotocol, pygls and gdef), with the bytecode caches written.

First requests: in each of --runs fresh servers, examples/connect4.gdef is opened and, once its
diagnostics are in, each feature is asked once and then again with the same question; printed
per feature: the median time of the first answer and of the second (the difference is what the
first request pays: reading the feature's modules, and whatever it caches).

    python benchmarks/server_start.py [--runs 9] [--module gdef_lsp.server] [--top 8] [--skip-requests]
"""
from __future__ import annotations

import argparse
import asyncio
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


def one_cpu(module: str, others: list[str], source: bool, empty: str) -> float:
    options = ["-X", f"pycache_prefix={empty}"] if source else []
    done = subprocess.run([sys.executable, *options, "-c", CPU_SCRIPT, json.dumps(others), module],
                          capture_output=True, text=True, env=environment(source), cwd=ROOT, check=True)
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


FIRST_REQUESTS = ("documentSymbol", "semanticTokens", "foldingRange", "codeLens", "documentLink", "inlayHint",
                  "hover", "completion", "signatureHelp", "definition", "references", "documentHighlight",
                  "prepareRename", "codeAction", "selectionRange", "callHierarchy", "formatting")


async def first_requests() -> dict[str, tuple[float, float]]:
    """Feature -> (first answer, second answer) in seconds, in one fresh server."""
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    client = LanguageClient("server-start", "1")
    published = asyncio.Event()
    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: published.set())
    await client.start_io(sys.executable, "-m", "gdef_lsp", env=environment(False), cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "connect4.gdef"
        text = (ROOT / "examples" / "connect4.gdef").read_text(encoding="utf-8")
        path.write_text(text, encoding="utf-8")
        uri = from_fs_path(str(path))
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="gdef", version=1, text=text)))
        await asyncio.wait_for(published.wait(), 60)
        document = types.TextDocumentIdentifier(uri)
        lines = text.split("\n")

        def at(marker: str, offset: int = 0) -> types.Position:
            line = next(number for number, content in enumerate(lines) if marker in content)
            return types.Position(line, lines[line].index(marker) + offset)

        call, name = at("isFree(x, y) &&", 2), at("define isFree", 8)
        whole = types.Range(types.Position(0, 0), types.Position(len(lines), 0))
        asks = {
            "documentSymbol": lambda: client.text_document_document_symbol_async(types.DocumentSymbolParams(document)),
            "semanticTokens": lambda: client.text_document_semantic_tokens_full_async(
                types.SemanticTokensParams(document)),
            "foldingRange": lambda: client.text_document_folding_range_async(types.FoldingRangeParams(document)),
            "codeLens": lambda: client.text_document_code_lens_async(types.CodeLensParams(document)),
            "documentLink": lambda: client.text_document_document_link_async(types.DocumentLinkParams(document)),
            "inlayHint": lambda: client.text_document_inlay_hint_async(types.InlayHintParams(text_document=document, range=whole)),
            "hover": lambda: client.text_document_hover_async(types.HoverParams(text_document=document, position=call)),
            "completion": lambda: client.text_document_completion_async(types.CompletionParams(text_document=document, position=call)),
            "signatureHelp": lambda: client.text_document_signature_help_async(
                types.SignatureHelpParams(text_document=document, position=at("isFree(x, y) &&", 7))),
            "definition": lambda: client.text_document_definition_async(types.DefinitionParams(text_document=document, position=call)),
            "references": lambda: client.text_document_references_async(types.ReferenceParams(
                text_document=document, position=name, context=types.ReferenceContext(include_declaration=True))),
            "documentHighlight": lambda: client.text_document_document_highlight_async(
                types.DocumentHighlightParams(text_document=document, position=call)),
            "prepareRename": lambda: client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=document, position=call)),
            "codeAction": lambda: client.text_document_code_action_async(types.CodeActionParams(
                text_document=document, range=whole, context=types.CodeActionContext(diagnostics=[]))),
            "selectionRange": lambda: client.text_document_selection_range_async(
                types.SelectionRangeParams(text_document=document, positions=[call])),
            "callHierarchy": lambda: client.text_document_prepare_call_hierarchy_async(
                types.CallHierarchyPrepareParams(text_document=document, position=name)),
            "formatting": lambda: client.text_document_formatting_async(types.DocumentFormattingParams(
                text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True))),
        }
        found = {}
        for feature in FIRST_REQUESTS:
            times = []
            for _ in range(2):
                started = time.perf_counter()
                await asyncio.wait_for(asks[feature](), 60)
                times.append(time.perf_counter() - started)
            found[feature] = (times[0], times[1])
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return found


def report_first_requests(runs: int) -> None:
    measured = [asyncio.run(first_requests()) for _ in range(runs)]
    print(f"\nfirst and second request of each feature, connect4.gdef, median of {runs} servers:")
    print("| feature | first | second |\n|---|---:|---:|")
    for feature in FIRST_REQUESTS:
        first = statistics.median(run[feature][0] for run in measured) * 1000
        second = statistics.median(run[feature][1] for run in measured) * 1000
        print(f"| {feature} | {first:.1f} ms | {second:.1f} ms |")


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
    parser.add_argument("--skip-requests", action="store_true", help="leave out the first requests of each feature")
    args = parser.parse_args()
    for source in (False, True):
        report_imports(args.module, args.runs, args.top, source)
    others = others_loaded(args.module)
    for source in (False, True):
        with tempfile.TemporaryDirectory() as empty:
            cpu = [one_cpu(args.module, others, source, empty) for _ in range(args.runs)]
        print(f"import {args.module}, {'compiled from source' if source else 'bytecode cached'}, CPU time of "
              f"gdef's modules alone: {statistics.median(cpu) * 1000:.1f} ms (median of {args.runs}; "
              f"min {min(cpu) * 1000:.1f}, max {max(cpu) * 1000:.1f})")
    starts = [one_start() for _ in range(args.runs)]
    print(f"python -m gdef_lsp, start to the answer to initialize: {statistics.median(starts) * 1000:.0f} ms "
          f"(median of {args.runs}; min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f})")
    if not args.skip_requests:
        report_first_requests(args.runs)


if __name__ == "__main__":
    main()
