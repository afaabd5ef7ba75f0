"""What every adapter needs from gdef: a loaded game with readable errors, and returns.

A game whose files have errors becomes a ValueError whose message is the checker's report
(file:line:column, caret, hint), so the frameworks show it as it is, not a traceback of ours.
"""
from __future__ import annotations


class GdefGameError(ValueError):
    """The files make no playable game; the message is the located report."""


def load_gdef_game(path: str, params=None):
    """The game of `path` with `params` the values of its declared parameters by name."""
    from gdef_core.loader import GdefFileError, load_program
    from gdef_core.report import Report, render_text
    from gdef_core.runtime import GameLoadError, ParamError, game_from_program

    try:
        program = load_program([path], params=params)
    except GdefFileError as error:
        raise GdefGameError(f"gdef: {error}") from None
    try:
        return game_from_program(program)
    except ParamError as error:
        raise GdefGameError(f"gdef: {path}: {error}") from None
    except GameLoadError as error:
        sources = {module.path: module.text for module in program.modules}
        report = Report(error.diagnostics, [module.path for module in program.modules], sources)
        raise GdefGameError(f"gdef: {path}: {error}\n{render_text(report, color=False)}") from None


def declared_params(path: str) -> dict:
    """The parameters `path` declares, each with its default (empty when the file cannot be
    read or checked: loading it then reports why)."""
    from gdef_core.loader import GdefFileError, load_program

    try:
        program = load_program([path])
    except GdefFileError:
        return {}
    return {name: program.param_values[name] for name in program.params if name in program.param_values}


def returns_of(state, kind: str = "winner") -> list[float]:
    """The final returns: by winner (+1 winner, -1/(N-1) the others, 0 each in a draw; a
    one-player game: 1 when won, else 0) or the players' scores."""
    players = state.game.players
    if kind == "scores":
        scores = getattr(state, "scores", None)
        return [float(v) for v in scores] if scores is not None else [0.0] * players
    winner = state.winner if state.is_over else None
    if winner is None:
        return [0.0] * players
    if players == 1:
        return [1.0]
    loss = -1.0 / (players - 1)
    return [1.0 if p == winner else loss for p in range(players)]
