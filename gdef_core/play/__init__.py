"""Computer players and simulations, on top of the game API of gdef_core.runtime and the
native backend (perft, a query of the rules, is gdef_core.runtime.perft).

    agents.py     random and greedy players; the Agent protocol (choose(state) -> Move)
    mcts.py       the UCT tree-search player
    background_compile.py  native rules without waiting: loaded or compiled in the background
    spec.py       agent descriptions as typed on the command line (`mcts:iterations=2000`)
    opponents.py  the computer players of gdef-run (--player, --think, --seed)
    games.py      one game of a run: its agents' seeds, its outcome, what stopped it
    simulate.py   many games between agents, reproducible from one seed, on several processes
    native_sim.py random games on the native backend, as outcomes (gdef-sim, mcts playouts)
    cluster.py    the same games on a Dask cluster
    progress.py   gdef-sim's progress bar
    errors.py     no legal move, bad agent descriptions
"""
