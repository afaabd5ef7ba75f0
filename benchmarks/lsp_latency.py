"""Language server latency over stdio, as a person typing would feel it.

For generated games of 1,000 and 10,000 lines, a `gdef-lsp` process (started as
`python -m gdef_lsp`, talking LSP over its stdin/stdout like an editor) receives keystrokes
in a function in the middle of the file, each after the previous answers and a 50 ms pause,
and we time change -> diagnostics: from sending `didChange` to receiving `publishDiagnostics`
for that version (this includes the server's 5 ms wait for more changes). Two keystrokes:

- a character: a digit inside an expression, changed (the lines stay where they are);
- a new line: Enter pressed at the start of the function's first line, so that every
  definition below moves down a line.

Each is measured against the same server checking every version from scratch (the
incremental checker swapped for checker.check, all else equal), in the same run, and
against two more baselines: the round trip of a request that does almost no work (a
completion inside a comment), and a full parse and check of the file in this process.

The same keystrokes are also timed in-process, in CPU time, without the protocol (what the
server computes for them), incremental and from scratch.

Last, a 5 MB change: one open document becomes a 5 MB game; we time how long a request about
another open document waits for its answer, and how long the big one waits for its (empty)
diagnostics; the baseline is the in-process parse and check of that text, which is what the
server would be busy with if it analysed it.

Run: python benchmarks/lsp_latency.py [--edits 30] [--skip-big]   (a few minutes)
The figures go into docs/lsp.md ("Latency with incremental checking").
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from generated_game import generated  # noqa: E402  (the game the incremental checker's tests edit)

SIZES = (1_000, 10_000)
BIG_CHARS = 5 * 1024 * 1024

# The server with every version checked from scratch: the baseline of the incremental checker.
FULL_CHECK_SERVER = """
import sys
import gdef_core.ide.session as session
from gdef_core.semantics.checker import check

class FullChecker:
    def check(self, modules, diagnostics=()):
        return check(modules, diagnostics)

session.IncrementalChecker = FullChecker
from gdef_lsp.__main__ import main
sys.exit(main())
"""


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

        @self.feature(types.WINDOW_SHOW_MESSAGE)
        def shown(params: types.ShowMessageParams) -> None:
            pass

    async def diagnostics(self, uri: str, version: int, timeout: float = 600.0) -> float:
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


async def start(full: bool) -> Client:
    client = Client()
    if full:
        await client.start_io(sys.executable, "-c", FULL_CHECK_SERVER)
    else:
        await client.start_io(sys.executable, "-m", "gdef_lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    return client


async def stop(client: Client) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def open_text(client: Client, uri: str, text: str) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="gdef", version=1, text=text)))


def change(client: Client, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text)]))


async def keystrokes(path: Path, text: str, edits: int, full: bool) -> dict[str, list[float]]:
    """change -> diagnostics of `edits` character edits, then `edits` new lines; round trips."""
    uri = from_fs_path(str(path))
    client = await start(full)
    open_text(client, uri, text)
    await client.diagnostics(uri, 1)
    lines = text.split("\n")
    middle = len(lines) // 18  # the helper in the middle of the file
    target = lines.index(f"  int count = a * {middle % 7} + 1;", lines.index(f"define helper{middle}(int a, obj o) -> int {{"))
    column = len("  int count = a * ")
    found: dict[str, list[float]] = {"character": [], "new line": [], "round trip": []}
    version = 1
    for edit in range(2 * edits):
        version += 1
        sent = time.perf_counter()
        if edit < edits:  # the digit, toggled
            change(client, uri, version, (target, column), (target, column + 1), str(edit % 2 + 7))
            kind = "character"
        else:  # Enter at the start of the function's first line (the lines below move down)
            change(client, uri, version, (target, 0), (target, 0), "\n")
            target += 1
            kind = "new line"
        found[kind].append(await client.diagnostics(uri, version) - sent)
        await asyncio.sleep(0.05)
        sent = time.perf_counter()
        await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 5)))
        found["round trip"].append(time.perf_counter() - sent)
    await stop(client)
    return found


async def big_change(folder: Path) -> dict[str, float]:
    """A 5 MB change of one document: how long another document's request waits, and how
    long the big one waits for its diagnostics."""
    folder = folder / "big"  # away from the benchmark's other files
    folder.mkdir()
    small, other = folder / "small.gdef", folder / "other.gdef"
    small_uri, other_uri = from_fs_path(str(small)), from_fs_path(str(other))
    client = await start(full=False)
    open_text(client, small_uri, generated(100))
    open_text(client, other_uri, generated(100))
    await client.diagnostics(small_uri, 1)
    await client.diagnostics(other_uri, 1)
    big = generated(BIG_CHARS // 30)
    big = big[:BIG_CHARS]
    sent = time.perf_counter()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=small_uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=big)]))
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=other_uri)))
    answered = time.perf_counter() - sent
    published = await client.diagnostics(small_uri, 2) - sent
    await stop(client)
    path = folder / "big.gdef"
    path.write_text(big, encoding="utf-8")
    started = time.perf_counter()
    gdef_core.load_program([str(path)])
    return {"chars": len(big), "other request": answered, "big diagnostics": published,
            "in-process check": time.perf_counter() - started}


def in_process(path: Path, text: str, edits: int) -> dict[tuple[bool, str], float]:
    """Median CPU time (time.process_time) of what the server does for one keystroke, minus
    the protocol: gdef_core.ide.session.Session.set_buffer then .diagnostics, incremental and
    from scratch. CPU time is far less disturbed than wall time by other work on the machine."""
    import gdef_core.ide.session as session
    from gdef_core.semantics.checker import check

    class FullChecker:
        def check(self, modules, diagnostics=()):
            return check(modules, diagnostics)

    found = {}
    for full in (False, True):
        saved = session.IncrementalChecker
        session.IncrementalChecker = FullChecker if full else saved
        try:
            editor = session.Session()
            editor.set_buffer(str(path), text)
            editor.diagnostics(str(path))
            lines = text.split("\n")
            middle = len(lines) // 18
            target = lines.index(f"  int count = a * {middle % 7} + 1;",
                                 lines.index(f"define helper{middle}(int a, obj o) -> int {{"))
            for kind in ("character", "new line"):
                times = []
                for edit in range(edits):
                    if kind == "character":
                        lines[target] = f"  int count = a * {edit % 2 + 7} + 1;"
                    else:
                        lines.insert(target, "")
                        target += 1
                    started = time.process_time()
                    editor.set_buffer(str(path), "\n".join(lines))
                    editor.diagnostics(str(path))
                    times.append(time.process_time() - started)
                found[(full, kind)] = statistics.median(times)
        finally:
            session.IncrementalChecker = saved
    return found


def full_check_time(path: Path) -> float:
    best = float("inf")
    for _ in range(3):  # the best of three (the first also loads the parser tables)
        started = time.perf_counter()
        gdef_core.load_program([str(path)])
        best = min(best, time.perf_counter() - started)
    return best


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30, help="keystrokes of each kind per size and server (default 30)")
    parser.add_argument("--skip-big", action="store_true", help="leave out the 5 MB change")
    args = parser.parse_args()
    ms = 1000
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for lines in SIZES:
            text = generated(lines)
            path = folder / f"bench{lines}.gdef"
            path.write_text(text, encoding="utf-8")
            row = {"lines": len(text.split("\n")) - 1, "full check": full_check_time(path),
                   "cpu": in_process(path, text, args.edits)}
            for full in (False, True):
                found = await keystrokes(path, text, args.edits, full)
                for kind in ("character", "new line"):
                    row[(full, kind, "median")] = statistics.median(found[kind])
                    row[(full, kind, "p95")] = percentile(found[kind], 0.95)
                row[(full, "round trip")] = statistics.median(found["round trip"])
            rows.append(row)
        big = None if args.skip_big else await big_change(folder)

    print("change -> diagnostics, incremental server (full-check server in brackets):\n")
    print("| lines | character median | character p95 | new line median | new line p95 | empty round trip | full check in-process |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        cells = [f"{row[(False, kind, stat)] * ms:.1f} ms ({row[(True, kind, stat)] * ms:.1f})"
                 for kind in ("character", "new line") for stat in ("median", "p95")]
        print(f"| {row['lines']:,} | " + " | ".join(cells) + f" | {row[(False, 'round trip')] * ms:.1f} ms | "
              f"{row['full check'] * ms:.1f} ms |")
    print()
    for row in rows:
        print(f"{row['lines']:>6,} lines: incremental / full-check server, medians: character "
              f"{row[(False, 'character', 'median')] / row[(True, 'character', 'median')]:.2f}x, new line "
              f"{row[(False, 'new line', 'median')] / row[(True, 'new line', 'median')]:.2f}x; character median is "
              f"{row[(False, 'character', 'median')] / row[(False, 'round trip')]:.1f}x the empty round trip and "
              f"{row[(False, 'character', 'median')] / row['full check']:.2f}x a full check in-process")
    print("\nCPU time of one keystroke in-process (Session.set_buffer + diagnostics), median:\n")
    print("| lines | character, incremental | character, from scratch | new line, incremental | new line, from scratch |")
    print("|---|---|---|---|---|")
    for row in rows:
        cpu = row["cpu"]
        print(f"| {row['lines']:,} | " + " | ".join(f"{cpu[(full, kind)] * ms:.1f} ms" for kind in ("character", "new line")
                                                   for full in (False, True)) + " |")
    if big:
        print(f"\n5 MB change ({big['chars']:,} characters): another document's request answered after "
              f"{big['other request'] * ms:.0f} ms, the big one's diagnostics after {big['big diagnostics'] * ms:.0f} ms; "
              f"parsing and checking that text in-process takes {big['in-process check']:.1f} s "
              f"({big['in-process check'] / big['other request']:.0f}x the wait)")


if __name__ == "__main__":
    asyncio.run(main())
