"""A game being played, below every front end that shows one (gdef-run's console, board page
and bot protocol), above the runtime and the computer players.

    play_session.py  PlaySession: moves, undo, records, computer players, hints, perft, scripts, signals
    records.py       where records of games without --record go; numbered backups
"""
