"""A game's declared parameters (`param int size = 9 in {9, 13, 19};`) as the tools show them:
the board page's new-game form and the bot protocol's `info` answer read the same list."""
from __future__ import annotations

from gdef_core.runtime.game import json_value
from gdef_core.semantics.param_decls import default_of


def params_json(game) -> list[dict]:
    """Each parameter's name, type, default, the value in use, and its allowed values: `range`
    [low, high] or `values` (a list); both null for a bool."""
    program = game.program
    found = []
    for name, value in game.params.items():
        decl = program.params[name]
        is_range, bounds = program.param_domains.get(name, (False, ()))
        kind = decl.type.name
        found.append({"name": name, "type": kind, "default": json_value(default_of(decl)),
                      "value": json_value(value),
                      "range": [json_value(b) for b in bounds] if is_range else None,
                      "values": None if is_range or kind == "bool" else [json_value(b) for b in bounds]})
    return found
