"""Moves as integers: the dense action range that OpenSpiel and PettingZoo want.

The scheme depends on the game only (its board, its objects, whether it has `moves()`), never
on the position, so an action means the same move wherever it is legal:

- Let S = width * height squares (square index x * height + y), K objects in declaration order,
  and code(op) = square * (K + 1) + (k + 1) for `place(x, y, object k)`, square * (K + 1) for
  `clear(x, y)`; C = S * (K + 1) codes in all.
- A move of one operation is its code: actions 0 .. C-1. `pass` is action C.
  A game without `moves()` has only such candidates (spec section 12): C + 1 actions.
- A move of several operations (from `moves()`) is C + 1 + ((code(first) * S + square(last)) * V
  + k), where first is its first operation as `moves()` wrote it, square(last) the square of
  its last one, and k (0 .. V-1) tells apart the legal moves of one position that share both
  (ordered by their operations, so the four promotions of a chess pawn always come in the same
  order). V is the adapters' `move_variants` (default 4). For chess that is the from and to
  squares, for checkers the start and the end of a jump, for reversi the square played and the
  last disc turned.

A game with `moves()` whose every `addPlace`/`addClear` is followed at once by `addMove()`
(connect four, gomoku) proposes one-operation moves only: it gets the C + 1 actions too.

In a game whose squares count, `count(x, y, n)` has code square * (K + 2) + K + 1 whatever n
(so codes are square * (K + 2) + kind there), and every move holding one is numbered as a move
of several operations, its variant telling apart the counts (sowing in kalah: the pit sown,
then the last pit changed).
"""
from __future__ import annotations

DEFAULT_VARIANTS = 4


class ActionRangeError(Exception):
    """A position has more moves with the same first and last operation than the variants the
    numbering has room for."""


class ActionMap:
    """The action numbering of one game; `encode` and `decode` need the position's legal moves
    only for moves of several operations."""

    def __init__(self, game, variants: int = DEFAULT_VARIANTS) -> None:
        """`variants`: V, how many legal moves of one position may share their first operation
        and the square of their last (a game whose moves are whole turns, like backgammon's,
        needs more than the default; each one more adds C * S actions)."""
        if variants < 1:
            raise ValueError(f"move_variants must be at least 1, not {variants}")
        self.variants = variants
        self.game = game
        self.height = game.height
        self.object_index = {obj: i for i, obj in enumerate(game.objects.values())}
        self.objects = list(game.objects.values())
        self.counting = game.counting
        self.kinds = len(self.objects) + (2 if self.counting else 1)  # a count's kind: the last
        self.codes = game.width * game.height * self.kinds
        self.pass_action = self.codes
        self.multi = game.rules.raw_moves is not None and (self.counting or not _one_operation_generator(game.program))
        self.squares = game.width * game.height
        self.size = self.codes + 1 + (self.codes * self.squares * variants if self.multi else 0)

    def code(self, op) -> int:
        """The code of one resolved operation (x, y, obj, is_place[, count])."""
        x, y, obj, place = op[:4]
        if len(op) > 4:
            return (x * self.height + y) * self.kinds + self.kinds - 1
        return (x * self.height + y) * self.kinds + (self.object_index[obj] + 1 if place else 0)

    def legal(self, state) -> dict[int, object]:
        """action -> Move for every legal move of `state`, in ascending action order."""
        moves = state.legal_moves()
        actions: dict[int, object] = {}
        groups: dict[int, list] = {}
        for move in moves:
            ops = move._resolved
            if len(ops) == 0:
                actions[self.pass_action] = move
            elif len(ops) == 1 and len(ops[0]) == 4:
                actions[self.code(ops[0])] = move
            elif not self.multi:
                raise ActionRangeError(f"moves() proposed {move}, a move of several operations, "
                                       "in a game numbered for one-operation moves")
            else:
                x, y = ops[-1][0], ops[-1][1]
                key = self.code(ops[0]) * self.squares + x * self.height + y
                groups.setdefault(key, []).append(move)
        largest = max(groups.values(), key=len, default=[])
        if len(largest) > self.variants:   # the largest group, so the number asked for is enough
            raise ActionRangeError(
                f"{self.game.name}: {len(largest)} legal moves start with {largest[0].ops[0]} and end on the square "
                f"of {largest[0].ops[-1]}; the action numbering tells apart {self.variants} (move_variants): "
                f"load the game with move_variants of at least {len(largest)}")
        for key, group in groups.items():
            group.sort(key=_sort_key)
            base = self.codes + 1 + key * self.variants
            for variant, move in enumerate(group):
                actions[base + variant] = move
        return dict(sorted(actions.items()))

    def describe(self, action: int) -> str:
        """The move an action stands for, as far as the number alone says (for logs)."""
        if not 0 <= action < self.size:
            return f"action {action} (out of range 0..{self.size - 1})"
        if action < self.codes:
            return self._op_text(action)
        if action == self.pass_action:
            return "pass"
        rest, variant = divmod(action - self.codes - 1, self.variants)
        first, last = divmod(rest, self.squares)
        x, y = divmod(last, self.height)
        return f"{self._op_text(first)}; ... ({x},{y}) (variant {variant})"

    def _op_text(self, code: int) -> str:
        square, kind = divmod(code, self.kinds)
        x, y = divmod(square, self.height)
        if self.counting and kind == self.kinds - 1:
            return f"count({x},{y},n)"
        return f"clear({x},{y})" if kind == 0 else f"place({x},{y},{self.objects[kind - 1]})"


def _sort_key(move) -> list:
    return [(op.x, op.y, op.obj or "", op.count or 0) for op in move.ops]


_ADD_OPERATION = frozenset({"addPlace", "addClear"})


def _one_operation_generator(program) -> bool:
    """Whether every addPlace/addClear call that moves() reaches is a statement followed at
    once by `addMove();` (then no candidate has two operations; the calls end() and
    isMoveLegal() reach make consequences, and those only `chance()` reaches build chance's
    outcomes, numbered apart in interop/openspiel.py: neither is a candidate)."""
    from gdef_core.builtins import Context
    from gdef_core.syntax import ast

    calls = finished = 0
    for name in program.reach.get(Context.MOVES, ()):
        for node in ast.walk(program.functions[name].body):
            if isinstance(node, ast.Call) and node.callee.text in _ADD_OPERATION:
                calls += 1
            elif isinstance(node, ast.Block):
                stmts = node.stmts
                finished += sum(1 for stmt, after in zip(stmts, stmts[1:])
                                if _is_call(stmt, _ADD_OPERATION) and _is_call(after, {"addMove"}))
    return calls == finished


def _is_call(stmt, names) -> bool:
    from gdef_core.syntax import ast

    return (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.Call)
            and stmt.expr.callee.text in names)
