"""The reliability fuzzing campaign (scripts/fuzz.sh): hostile inputs to every entry point of
the core for a chosen time, counting inputs and failures by kind.

A failure is anything the promise forbids: an internal error (an exception other than the
documented, located ones), a hang (an input taking more than --hang seconds) or a memory
blow-up (more than --memory MB). Failing inputs are written to --out for replay.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gdef_core import parse  # noqa: E402
from gdef_core.loader import GdefFileError, load_program  # noqa: E402
from gdef_core.moves import Move, MoveSyntaxError  # noqa: E402
from gdef_core.runtime.errors import GameLoadError, GdefRuntimeError  # noqa: E402
from gdef_core.runtime.game import IllegalMoveError, game_from_program  # noqa: E402
from gdef_core.runtime.session import RecordError, load_record  # noqa: E402

EXAMPLES = {p: p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.gdef"))}
SNIPPETS = ["(", ")", "{", "}", "[", "]", ";", ",", "=", "==", "!", "-", "/*", "*/", "//", "define ",
            "int ", "float ", "obj ", "return ", "if ", "else ", "while ", "start ", "use \"", "x", "X",
            "empty", "0", "07", "9223372036854775808", "1.5", "\n", "\r", "\r\n", "\x00", "é", "\ud800",
            "CurrentPosition[", "OperationList[0][", "setWinner(", "addMove()", "addPlace(0, 0, X);",
            "hasLegalMove()", "9" * 5000, "(" * 400, "-" * 400, 'use "/dev/zero"\n',
            'use "/proc/self/environ"\n', 'use "a\x00.gdef"\n', 'use "\ud800.gdef"\n',
            "while (true) { }", "define f() -> int { return f(); }", "1.0 % 0.0", "1 / 0"]


class Hang(Exception):
    pass


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(text))
        kind = rng.random()
        if kind < 0.4:
            text = text[:at] + text[at + rng.randint(1, 12):]
        elif kind < 0.9:
            text = text[:at] + rng.choice(SNIPPETS) + text[at:]
        else:
            text = text[:at]
    return text


def rules_input(rng: random.Random, folder: str) -> None:
    path, text = rng.choice(list(EXAMPLES.items()))
    target = os.path.join(folder, path.name)
    program = load_program([target], overlay={target: mutate(rng, text)})
    try:
        game = game_from_program(program, max_steps=50_000, max_depth=100)
    except GameLoadError:
        return
    state = game.new_state()
    for _ in range(rng.randint(1, 20)):
        move = state.random_move(rng)
        if move is None:
            return
        state.apply(move)
        clone = state.from_json(game, json.loads(json.dumps(state.to_json(), allow_nan=False)))
        assert clone == state, "to_json/from_json does not round-trip"


def text_input(rng: random.Random, folder: str) -> None:
    text = "".join(rng.choice(SNIPPETS) if rng.random() < 0.3 else chr(rng.randint(0, 0x2FFF))
                   for _ in range(rng.randint(0, 200)))
    parse(text, "fuzz.gdef")


def move_input(rng: random.Random, folder: str) -> None:
    text = mutate(rng, rng.choice(["place(1,1,X)", "clear(0,0); place(3,3,W)", "pass"]))
    try:
        Move.parse(text)
    except MoveSyntaxError:
        pass


def record_input(rng: random.Random, folder: str) -> None:
    record = {"game": "tictactoe", "files": [str(ROOT / "examples" / "tictactoe.gdef")], "players": 2,
              "moves": [{"player": 0, "move": "place(1,1,X)"}], "rejected": []}
    text = mutate(rng, json.dumps(record))
    path = os.path.join(folder, "record.json")
    Path(path).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_record(path)
    except RecordError:
        pass


def path_input(rng: random.Random, folder: str) -> None:
    odd = rng.choice(["/dev/zero", "/dev/urandom", "/dev/null", folder, "a\x00b.gdef", "\ud800.gdef",
                      "/proc/self/environ", os.path.join(folder, "fifo.gdef")])
    if odd.endswith("fifo.gdef") and not os.path.exists(odd):
        os.mkfifo(odd)
    try:
        load_program([odd])
    except GdefFileError:
        pass


GENERATORS = {"rules": rules_input, "text": text_input, "moves": move_input, "records": record_input,
              "paths": path_input}
EXPECTED = (GdefRuntimeError, IllegalMoveError)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang", type=float, default=10.0, help="seconds before an input counts as a hang")
    parser.add_argument("--memory", type=int, default=2048, help="MB of address space allowed")
    parser.add_argument("--out", default="fuzz-failures", help="folder for failing inputs")
    args = parser.parse_args()
    limit = args.memory * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def alarm(signum, frame):
        raise Hang()

    signal.signal(signal.SIGALRM, alarm)
    rng = random.Random(args.seed)
    tried: collections.Counter = collections.Counter()
    failures: collections.Counter = collections.Counter()
    end = time.monotonic() + args.minutes * 60
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() < end:
            name = rng.choice(list(GENERATORS))
            state = rng.getstate()
            tried[name] += 1
            signal.setitimer(signal.ITIMER_REAL, args.hang)
            kind = None
            try:
                GENERATORS[name](rng, folder)
            except EXPECTED:
                pass
            except Hang:
                kind = "hang"
            except MemoryError:
                kind = "memory"
            except RecursionError:
                kind = "internal error (RecursionError)"
            except Exception as error:  # noqa: BLE001 - counting what breaks the promise
                kind = f"internal error ({type(error).__name__})"
                detail = traceback.format_exc()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if kind is not None:
                failures[kind] += 1
                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, f"{name}-{sum(tried.values())}.txt"), "w") as out:
                    out.write(f"{kind}\ngenerator {name}, random state {state!r}\n")
                    if kind.startswith("internal"):
                        out.write(detail)
    print(f"inputs tried: {sum(tried.values()):,} in {args.minutes:g} min "
          f"({', '.join(f'{k} {v:,}' for k, v in sorted(tried.items()))})")
    if not failures:
        print("failures: none (no internal errors, hangs or memory blow-ups)")
        return 0
    print("failures by kind:")
    for kind, count in failures.most_common():
        print(f"  {kind}: {count:,}")
    print(f"failing inputs are described in {args.out}/")
    return 1


if __name__ == "__main__":
    sys.exit(main())
