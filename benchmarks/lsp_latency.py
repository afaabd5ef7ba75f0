"""Language server latency over stdio, as a person typing would feel it.

For generated games of 100, 1,000 and 10,000 lines, one `gdef-lsp` process (started as
`python -m gdef_lsp`, talking LSP over its stdin/stdout like an editor) receives edits of one
character inside a function in the middle of the file, and we time:

- change -> diagnostics: from sending `didChange` to receiving `publishDiagnostics` for that
  version (this includes the server's 5 ms wait for more changes);
- completion: from sending `didChange` followed at once by a completion request (as an editor
  does while typing) to receiving the completion list; the server must check the new text
  first, so this is the cost of the first request after a keystroke.

Each edit waits for the previous answers and then 50 ms, as separate keystrokes would.

Baselines, measured in the same run: the round trip of a request that does almost no work
(completion inside a comment), the floor of any answer; and a full parse and check of the same file in
this process (gdef_core.load_program), what the server would spend if it re-read everything
on every keystroke (its per-definition parse cache avoids that).

Run: python benchmarks/lsp_latency.py [--edits 30]   (about a minute)
The figures go into docs/lsp.md ("Latency").
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

import gdef_core

SIZES = (100, 1_000, 10_000)


def generate(lines: int) -> str:
    """A valid game of about `lines` lines: a header, then small functions that call each
    other, read the board and use locals (what completion and the checker work on)."""
    out = ["// generated for benchmarks/lsp_latency.py", "name: bench", "players: 2", "size: 8 x 8",
           "obj X", "obj O", "int turns = 0;",
           "define isMoveLegal() -> bool {", "  return operationsNum() == 1 && helper0(1, X) >= 0;", "}",
           "define end() -> bool {", "  turns = turns + 1;", "  return turns > 60;", "}"]
    index = 0
    while len(out) < lines:
        previous = f"helper{index - 1}(a, o)" if index else "a"
        out += [f"// Helper number {index}: counts something about square (a, 0).",
                f"define helper{index}(int a, obj o) -> int {{",
                f"  int count = a * {index % 7} + 1;",
                "  if (CurrentPosition[a % 8][0] == o && count > 3) {",
                f"    count = count + {previous};",
                "  }",
                "  while (count > 100) { count = count / 2; }",
                "  return count;",
                "}"]
        index += 1
    return "\n".join(out) + "\n"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("lsp-latency", "1")
        self.arrived: dict[tuple[str, int], float] = {}
        self.event = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.arrived[(params.uri, params.version)] = time.perf_counter()
            self.event.set()

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                print("server error:", params.message, file=sys.stderr)

    async def diagnostics(self, uri: str, version: int, timeout: float = 60.0) -> float:
        deadline = time.perf_counter() + timeout
        while (uri, version) not in self.arrived:
            self.event.clear()
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no diagnostics for version {version}")
            try:
                await asyncio.wait_for(self.event.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
        return self.arrived[(uri, version)]


async def measure(lines: int, edits: int, folder: Path) -> dict[str, float]:
    text = generate(lines)
    path = folder / f"bench{lines}.gdef"
    path.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(path))

    full_check = float("inf")
    for _ in range(3):  # the best of three (the first also loads the parser tables)
        started = time.perf_counter()
        gdef_core.load_program([str(path)])
        full_check = min(full_check, time.perf_counter() - started)

    client = Client()
    await client.start_io(sys.executable, "-m", "gdef_lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="gdef", version=1, text=text)))
    await client.diagnostics(uri, 1)

    # The edit: the digit of `a * N + 1` in the middle function's first line, toggled.
    target_line = text.split("\n").index(f"  int count = a * {(lines // 20) % 7} + 1;",
                                         text.split("\n").index(f"define helper{lines // 20}(int a, obj o) -> int {{"))
    column = len("  int count = a * ")
    document = types.TextDocumentIdentifier(uri=uri)
    comment = types.Position(0, 5)
    to_diagnostics, to_completion, round_trip = [], [], []
    version = 1
    for edit in range(2 * edits):
        version += 1
        digit = str((edit % 2) + 7)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(target_line, column), end=types.Position(target_line, column + 1)),
            text=digit)
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]))
        if edit % 2 == 0:
            arrived = await client.diagnostics(uri, version)
            to_diagnostics.append(arrived - sent)
        else:
            await client.text_document_completion_async(types.CompletionParams(
                text_document=document, position=types.Position(target_line + 1, 2)))
            to_completion.append(time.perf_counter() - sent)
            await client.diagnostics(uri, version)
        await asyncio.sleep(0.05)
        sent = time.perf_counter()
        await client.text_document_completion_async(types.CompletionParams(text_document=document, position=comment))
        round_trip.append(time.perf_counter() - sent)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    ms = 1000
    return {
        "lines": len(text.split("\n")) - 1,
        "diagnostics median": statistics.median(to_diagnostics) * ms,
        "diagnostics p95": percentile(to_diagnostics, 0.95) * ms,
        "completion median": statistics.median(to_completion) * ms,
        "completion p95": percentile(to_completion, 0.95) * ms,
        "round trip median": statistics.median(round_trip) * ms,
        "full check": full_check * ms,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30, help="measurements of each kind per size (default 30)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for lines in SIZES:
            rows.append(await measure(lines, args.edits, Path(folder)))
    columns = ["lines", "diagnostics median", "diagnostics p95", "completion median", "completion p95",
               "round trip median", "full check"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(f"{row[c]:,.0f}" if c == "lines" else f"{row[c]:.1f} ms" for c in columns) + " |")
    print()
    for row in rows:
        print(f"{row['lines']:>6,} lines: change->diagnostics median is {row['diagnostics median'] / row['round trip median']:.1f}x "
              f"the empty round trip and {row['diagnostics median'] / row['full check']:.2f}x a full check in-process")


if __name__ == "__main__":
    asyncio.run(main())
