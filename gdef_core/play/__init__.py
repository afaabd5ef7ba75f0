"""Computer players, simulations and perft, on top of the game API of gdef_core.runtime.

    agents.py     random and greedy players; the Agent protocol (choose(state) -> Move)
    mcts.py       the UCT tree-search player
    spec.py       agent descriptions as typed on the command line (`mcts:iterations=2000`)
    opponents.py  the computer players of gdef-run (--player, --seed)
    simulate.py   many games between agents, reproducible from one seed, on several processes
    progress.py   gdef-sim's progress bar
    perft.py      move-sequence counts to a depth
    errors.py     no legal move, bad agent descriptions
"""
