"""How fast gdef-check is, as ratios measured in the same run on the same machine.

1. Throughput: one `gdef-check DIR` process over a generated directory of 1,000 game files
   (copies of the bundled examples under new names, a tenth of them split into a game and a
   helper joined by `use`), in files per second.
2. Cold start: `gdef-check examples/tictactoe.gdef` against `python -c "import lark"`, both as
   fresh processes, the best of several runs (the least disturbed by other load), as a ratio.

Run: python benchmarks/check_speed.py [--files 1000] [--repeat 5]
The figures go into docs/gdef-check.md ("Speed").
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def gdef_check_command() -> list[str]:
    script = shutil.which("gdef-check", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "gdef_core.cli.check"]


def make_games(directory: Path, count: int) -> int:
    """`count` game files (and helpers for the split ones); returns how many files in all."""
    sources = sorted(p for p in EXAMPLES.glob("*.gdef"))
    split_game = (EXAMPLES / "tictactoe-split" / "tictactoe.gdef").read_text(encoding="utf-8")
    split_library = (EXAMPLES / "tictactoe-split" / "lines.gdef").read_text(encoding="utf-8")
    files = 0
    for index in range(count):
        folder = directory / f"group{index // 100:02d}"
        folder.mkdir(exist_ok=True)
        if index % 10 == 9:
            helper = f"lines_{index:04d}.gdef"
            text = split_game.replace('use "lines.gdef"', f'use "{helper}"')
            (folder / helper).write_text(split_library, encoding="utf-8")
            files += 1
        else:
            text = sources[index % len(sources)].read_text(encoding="utf-8")
        (folder / f"game_{index:04d}.gdef").write_text(text, encoding="utf-8")
        files += 1
    return files


def timed(command: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start, done.returncode


def best_time(command: list[str], repeat: int, cwd: Path) -> float:
    timed(command, cwd)  # warm the file cache (and lark's parse-table cache)
    return min(timed(command, cwd)[0] for _ in range(repeat))


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--files", type=int, default=1000, help="game files to generate")
    options.add_argument("--repeat", type=int, default=5, help="runs per cold-start measure (the best counts)")
    args = options.parse_args()
    check = gdef_check_command()

    with tempfile.TemporaryDirectory(prefix="gdef-bench-") as tmp:
        directory = Path(tmp)
        total = make_games(directory, args.files)
        timed([*check, "."], directory)  # warm-up
        seconds, code = timed([*check, ".", "-q"], directory)
        if code != 0:
            print(f"gdef-check reported problems on the generated games (exit {code})")
            return 1
    rate = total / seconds
    print(f"throughput: {total} files ({args.files} games) in {seconds:.2f} s "
          f"= {rate:.0f} files/s (one process)")

    tictactoe = ["examples/tictactoe.gdef"]
    cold = best_time([*check, *tictactoe], args.repeat, ROOT)
    lark = best_time([sys.executable, "-c", "import lark"], args.repeat, ROOT)
    print(f"cold start: gdef-check on one file {cold * 1000:.0f} ms; "
          f"python -c 'import lark' {lark * 1000:.0f} ms; ratio {cold / lark:.1f}x")
    print(f"throughput in baseline units: {rate * lark:.0f} files per `import lark` time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
