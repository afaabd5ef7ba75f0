"""How gdef-check and gdef-run cope with big games (issue 12: checking cost linear, large
legal games load fast), each as a fresh process, as a user runs them.

1. Chained calls: a game of N lines (default 10,000; `--lines 100000` for the large case) of
   small functions, each calling the one before it, the last called from isMoveLegal(): the
   call graph is one long chain, which is what made reachability quadratic. Timed:
   `gdef-check FILE`, and in-process the parse and the check apart.
2. A 100 x 100 board with 2,000 objects: 2,000 declared object types, each placed once by
   `start`, and a moves() proposing a placement on every empty square (8,000 moves). Timed:
   `gdef-check FILE` and `gdef-run --perft 1 FILE`.

3. A 1000 x 1000 board without moves() and two objects (two million automatic candidates):
   what a person or a program waits for, each once (`--boards`): gdef-run's console given
   `moves`, `7` and `quit` (seconds, lines and bytes printed), the protocol's `legal` (seconds
   and bytes of the answer), and in-process reading a name typed in another case (`x@51,777`)
   and Tab completion of `X@51,7`. Run it with PYTHONPATH set to another tree to compare the
   two (a tree without gdef_core.cli.completion: completion as it was, every legal move named).
4. The same board with the computer playing (`--players`): gdef-run as a fresh process under
   `/usr/bin/time -v` (wall time, peak memory) for `hint`, and for the first move of player 0
   played by `random`, `greedy`, `mcts` and a `cmd:` program (examples/bots/first_legal.py),
   each then `quit`; and `quit` alone, the floor (loading the game, the first prompt). A run
   longer than `--timeout` seconds (default 600) is stopped and reported as such.

Baseline, in the same run: `python -c "import lark"` as a fresh process (the floor of any
gdef command), so each time is also printed as a multiple of it.

Run: python benchmarks/big_games.py [--lines 10000] [--repeat 3] [--boards]
The figures go into docs/performance.md ("Big games").
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gdef_core
from gdef_core.syntax import parse


def chained(lines: int) -> str:
    """A valid game of about `lines` lines whose functions form one chain of calls."""
    out = ["name: chained", "players: 2", "size: 8 x 8", "obj X", "obj O"]
    functions = (lines - 12) // 6
    for index in range(functions):
        call = f"f{index - 1}(a - 1)" if index else "a"
        out += [f"define f{index}(int a) -> int {{",
                "  if (a <= 0) { return 0; }",
                f"  int b = {call};",
                f"  return b + {index % 5};",
                "}", ""]
    out += ["define isMoveLegal() -> bool {",
            f"  return operationsNum() == 1 && f{functions - 1}(3) >= 0;",
            "}",
            "define end() -> bool {",
            "  return true;",
            "}"]
    return "\n".join(out) + "\n"


def crowded(side: int = 100, objects: int = 2000) -> str:
    """A side x side board holding `objects` different objects, one each, placed by `start`;
    moves() proposes the first object on every empty square."""
    out = ["name: crowded", "players: 2", f"size: {side} x {side}"]
    out += [f"obj P{index}" for index in range(objects)]
    entries = [f"({index % side}, {index // side}: P{index})" for index in range(objects)]
    out.append("start {")
    out += ["  " + ", ".join(entries[row:row + side]) + ("," if row + side < objects else "")
            for row in range(0, objects, side)]
    out.append("}")
    out += ["define moves() {",
            f"  for (int y = 0; y < {side}; y = y + 1) {{",
            f"    for (int x = 0; x < {side}; x = x + 1) {{",
            "      if (CurrentPosition[x][y] == empty) {",
            "        addPlace(x, y, P0);",
            "        addMove();",
            "      }",
            "    }",
            "  }",
            "}",
            "define isMoveLegal() -> bool {",
            "  return operationsNum() == 1 && isPlaceOperation(0)",
            "      && CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty;",
            "}",
            "define end() -> bool {",
            "  return false;",
            "}"]
    return "\n".join(out) + "\n"


def big_board(side: int = 1000) -> str:
    """A side x side board, objects X and O, no moves(): every place and clear is a candidate."""
    return (f"name: big\nplayers: 2\nsize: {side} x {side}\nobj X\nobj O\n"
            "define isMoveLegal() -> bool { return operationsNum() == 1; }\n"
            "define end() -> bool { return false; }\n")


def boards(folder: Path) -> None:
    """Section 3: the tools on a 1000 x 1000 board, each once (one run of each is a minute on
    the tree before bounding them)."""
    rules = folder / "big.gdef"
    rules.write_text(big_board(), encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run([*script("gdef-run"), str(rules), "--record", str(folder / "r.json")],
                          input="moves\n7\nquit\n", capture_output=True, text=True)
    print(f"1000 x 1000 board: gdef-run with moves, 7, quit: {time.perf_counter() - started:.1f} s, "
          f"{done.stdout.count(chr(10)):,} lines, {len(done.stdout.encode()):,} bytes printed")
    engine = subprocess.Popen([*script("gdef-run"), "--protocol", str(rules)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    engine.stdout.readline()
    started = time.perf_counter()
    engine.stdin.write('{"cmd": "legal"}\n')
    engine.stdin.flush()
    answer = engine.stdout.readline()
    print(f"1000 x 1000 board: the protocol's legal: {time.perf_counter() - started:.1f} s, "
          f"{len(answer.encode()):,} bytes, {len(json.loads(answer)['moves']):,} moves")
    engine.stdin.close()
    engine.wait()
    state = gdef_core.load_game(str(rules)).new_state()
    started = time.perf_counter()
    state.read_move("x@51,777")
    print(f"1000 x 1000 board: read 'x@51,777' (first in the game): {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    offered = _complete(state, "X@51,7")
    print(f"1000 x 1000 board: Tab on 'X@51,7': {time.perf_counter() - started:.1f} s, {len(offered):,} offered")


FIRST_LEGAL = Path(__file__).parent.parent / "examples" / "bots" / "first_legal.py"
PLAYERS = (("quit alone", [], "quit\n"),
           ("hint", [], "hint\nquit\n"),
           ("random", ["--player", "0=random"], "quit\n"),
           ("greedy", ["--player", "0=greedy"], "quit\n"),
           ("mcts", ["--player", "0=mcts"], "quit\n"),
           ("cmd: first_legal.py", ["--player", f"0=cmd:{sys.executable} {FIRST_LEGAL}"], "quit\n"))


def players(folder: Path, timeout: float) -> None:
    """Section 4: the computer's first move (and `hint`) on a 1000 x 1000 board, each a fresh
    gdef-run measured by /usr/bin/time -v."""
    rules = folder / "big.gdef"
    rules.write_text(big_board(), encoding="utf-8")
    for label, options, stdin in PLAYERS:
        command = ["/usr/bin/time", "-v", *script("gdef-run"), str(rules), "--seed", "7", "--record",
                   str(folder / "r.json"), *options]
        started = time.perf_counter()
        try:
            done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"1000 x 1000 board: {label}: stopped after {timeout:.0f} s")
            continue
        wall = time.perf_counter() - started
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        said = [line for line in done.stdout.splitlines() if "Move 1" in line or "hint" in line.lower()]
        print(f"1000 x 1000 board: {label}: {wall:.1f} s, peak {int(peak.group(1)) / 1024 if peak else 0:,.0f} MB, "
              f"exit {done.returncode}; {' | '.join(said)[:200]}")


def _complete(state, text: str) -> list[str]:
    try:
        from gdef_core.cli.completion import completions
    except ImportError:  # a tree before it: every legal move named, as gdef-run's prompt did
        legal = state.legal_moves()
        return [word for word in [*state.move_names(legal), *map(str, legal)] if word.startswith(text)]
    return completions(state, text)


def script(name: str) -> list[str]:
    found = shutil.which(name, path=os.path.dirname(sys.executable))
    module = {"gdef-check": "gdef_core.cli.check", "gdef-run": "gdef_core.cli.run"}[name]
    return [found] if found else [sys.executable, "-m", module]


def best(command: list[str], repeat: int) -> tuple[float, str]:
    """The best wall time of `repeat` runs, and the last run's output."""
    times, output = [], ""
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        output = done.stdout + done.stderr
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed (exit {done.returncode}):\n{output[-2000:]}")
    return min(times), output


def in_process(path: Path) -> tuple[float, float]:
    """(parse seconds, parse + load + check seconds) in this process, the best of two."""
    text = path.read_text(encoding="utf-8")
    parsed = checked = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        parse(text, str(path))
        parsed = min(parsed, time.perf_counter() - started)
        started = time.perf_counter()
        program = gdef_core.load_program([str(path)])
        checked = min(checked, time.perf_counter() - started)
        assert not program.errors, program.errors[:3]
    return parsed, checked


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--lines", type=int, default=10_000, help="lines of the chained game (default 10,000)")
    options.add_argument("--repeat", type=int, default=3, help="runs of each command (the best counts)")
    options.add_argument("--boards", action="store_true", help="only section 3: the tools on a 1000 x 1000 board")
    options.add_argument("--players", action="store_true",
                         help="only section 4: the computer's first move and hint on a 1000 x 1000 board")
    options.add_argument("--timeout", type=float, default=600, help="seconds before a run of --players is stopped")
    args = options.parse_args()
    if args.players:
        with tempfile.TemporaryDirectory(prefix="gdef-big-") as tmp:
            players(Path(tmp), args.timeout)
        return 0
    if args.boards:
        with tempfile.TemporaryDirectory(prefix="gdef-big-") as tmp:
            boards(Path(tmp))
        return 0
    floor, _ = best([sys.executable, "-c", "import lark"], args.repeat)
    print(f"baseline: python -c 'import lark' {floor * 1000:.0f} ms")
    with tempfile.TemporaryDirectory(prefix="gdef-big-") as tmp:
        chain = Path(tmp) / "chained.gdef"
        chain.write_text(chained(args.lines), encoding="utf-8")
        lines = chain.read_text(encoding="utf-8").count("\n")
        check, _ = best([*script("gdef-check"), str(chain)], args.repeat)
        parsed, checked = in_process(chain)
        print(f"chained calls, {lines:,} lines: gdef-check {check:.2f} s ({check / floor:.1f}x the baseline); "
              f"in-process parse {parsed:.2f} s, parse + check {checked:.2f} s")

        board = Path(tmp) / "crowded.gdef"
        board.write_text(crowded(), encoding="utf-8")
        check, _ = best([*script("gdef-check"), str(board)], args.repeat)
        perft, output = best([*script("gdef-run"), "--perft", "1", str(board)], args.repeat)
        counted = output.strip().splitlines()[-1] if output.strip() else "?"
        print(f"100 x 100 board, 2,000 objects: gdef-check {check:.2f} s ({check / floor:.1f}x the baseline); "
              f"gdef-run --perft 1 {perft:.2f} s ({perft / floor:.1f}x), perft says: {counted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
