"""How long a person waits for the computer (issue 26, goal 4): the first reply of a plain
`--player 1=mcts` after the person's first move, and a `hint` (2 s, playouts capped at 200,
as PlaySession.hint asks), with how many playouts each ran and on which engine.

    python benchmarks/first_reply.py GAME.gdef MOVE {reply,reply-after-3s,hint,hint-again}

MOVE is the index of the person's first move in the start position's legal moves. `reply`:
the computer answers at once (the person moved the instant the game started: the native
rules, even when cached, are still loading); `reply-after-3s`: the person thought 3 s first;
`hint`: the first hint of a session; `hint-again`: a hint 3 s after the first one started
the background work. Set GDEF_CACHE_DIR to an empty folder for a cold cache. Runs with the
code of before this issue too (no `prepare` there: plain mcts meant 1000 Python iterations).
"""
from __future__ import annotations

import sys
import time

started = time.perf_counter()

from gdef_core.play.mcts import MctsAgent  # noqa: E402
from gdef_core.play.opponents import computer_players  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402

MODES = ("reply", "reply-after-3s", "hint", "hint-again")


def main() -> None:
    path, first, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode not in MODES:
        sys.exit(f"mode: one of {', '.join(MODES)}")
    game = load_game([path])
    state = game.new_state()
    state.apply(state.legal_moves()[first])   # the person's first move
    if mode.startswith("reply"):
        players = computer_players(["1=mcts"], game.players, 7)
        if hasattr(players, "prepare"):
            players.prepare(game)
        agent = players.agents[1]
    else:
        agent = MctsAgent(7, time_limit=2.0, playout_cap=200)
        if mode == "hint-again":
            agent.prepare(game)
    if mode.endswith(("-3s", "-again")):
        time.sleep(3)
    asked = time.perf_counter()
    move = agent.choose(state)
    answered = time.perf_counter()
    print(f"{mode} {path}: {answered - asked:.2f} s after the person's move (process start to "
          f"answer {answered - started:.2f} s), {agent.last_iterations} playouts, "
          f"{getattr(agent, 'last_engine', 'python')}, move {state.move_name(move)}")


if __name__ == "__main__":
    main()
