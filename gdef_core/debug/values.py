"""What a stop shows, as trees of named values: the scopes of a frame (locals, game variables,
the move being judged, the positions as boards of rows), arrays expandable."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gdef_core.debug.expressions import Board, Scope, local_values, positions, show
from gdef_core.lower.values import Obj


@dataclass
class Node:
    name: str
    value: str
    type: str = ""
    children: Callable[[], Sequence["Node"]] | None = None  # None: not expandable
    evaluate_name: str | None = None
    elements: int = 0  # an array's length: its children are indexed (a client may page them)


@dataclass
class ScopeNodes:
    name: str
    nodes: list[Node] = field(default_factory=list)


def scopes(scope: Scope, in_rules: bool) -> list[ScopeNodes]:
    found = []
    if in_rules:
        found.append(ScopeNodes("Locals", [value_node(name, value, name)
                                           for name, value in local_values(scope.locals).items()]))
    game = scope.game
    variables = scope.cells.get("V")
    if game.program.game_vars:
        names = list(game.program.game_vars)
        found.append(ScopeNodes("Game variables", [value_node(name, value, name)
                                                   for name, value in zip(names, variables or ())]))
    operations = scope.cells.get("OPS")
    if operations:
        found.append(ScopeNodes("Move", [operation_node(i, op) for i, op in enumerate(operations)]))
    boards = positions(scope)
    if boards:
        found.append(ScopeNodes("Positions", [board_node(name, board) for name, board in boards.items()]))
    return found


def value_node(name: str, value, evaluate_name: str | None = None) -> Node:
    if isinstance(value, (list, tuple)):
        items = list(value)
        return Node(name, f"[{len(items)} elements]", "array", lambda: Elements(items, evaluate_name), evaluate_name,
                    len(items))
    return Node(name, show(value), _type(value), None, evaluate_name)


class Elements(Sequence):
    """An array's elements as nodes, each made when it is read: an array may hold a million."""

    def __init__(self, items: list, evaluate_name: str | None) -> None:
        self.items = items
        self.evaluate_name = evaluate_name

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.items)))]
        name = self.evaluate_name
        return value_node(f"[{index}]", self.items[index], f"{name}[{index}]" if name else None)


def operation_node(index: int, op) -> Node:
    x, y, obj, is_place = op[:4]
    count = op[4] if len(op) > 4 else None  # count(x, y, n): runtime/counts.py
    text = (f"count({x},{y},{count})" if count is not None else f"place({x},{y},{str.__str__(obj)})" if is_place
            else f"clear({x},{y})")
    fields = [("[0] x", x), ("[1] y", y), ("[2] object", obj), *((("[3] count", count),) if count is not None else ())]
    return Node(f"[{index}]", text, "operation",
                lambda: [value_node(name, value, f"OperationList[{index}][{i}]")
                         for i, (name, value) in enumerate(fields)], f"OperationList[{index}]")


def board_node(name: str, board: Board) -> Node:
    """A position as rows, the top row (y = height - 1) first as a board is drawn; each row
    expands to its squares."""

    def rows() -> list[Node]:
        found = []
        for y in reversed(range(board.height)):
            squares = [board.squares[x * board.height + y] for x in range(board.width)]
            found.append(Node(f"y={y}", " ".join(_square(s) for s in squares), "row",
                              lambda y=y, squares=squares: [value_node(f"[{x}][{y}]", s, f"{name}[{x}][{y}]")
                                                            for x, s in enumerate(squares)]))
        return found

    return Node(name, f"board {board.width} x {board.height}", "board", rows, name)


def position_view(scope: Scope, title: str) -> dict | None:
    """The position of a stop as the board page draws one (the keys of gdef-run --web's
    /api/state): the squares that are not empty, the player on turn, the move number, and the
    operations of the move being judged; None where there is no position yet."""
    board = positions(scope).get("CurrentPosition")
    if board is None:
        return None
    cells = scope.cells
    squares = [[x, y, str.__str__(square)] for x in range(board.width) for y in range(board.height)
               if (square := board.squares[x * board.height + y]) is not None and str.__str__(square) != "empty"]
    move = [[op[0], op[1], str.__str__(op[2]) if op[3] else None] for op in cells.get("OPS") or ()]
    return {"title": title, "board": squares, "player": cells.get("T"), "moveNumber": cells.get("MN"), "move": move}


def _square(value) -> str:
    if type(value) is int:  # a count
        return str(value)
    text = str.__str__(value)
    return "." if text == "empty" else text


def _type(value) -> str:
    if type(value) is bool:
        return "bool"
    if type(value) is int:
        return "int"
    if type(value) is float:
        return "float"
    if isinstance(value, Obj):
        return "obj"
    return ""
