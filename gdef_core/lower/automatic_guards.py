"""Which kinds of automatic candidates isMoveLegal() refuses whatever the position.

A game without moves() has the automatic candidates of spec section 12: a place of every object
on every square, the clear of every occupied square, the pass. A random game draws them until
one is legal (kernel.c g_automatic_draw), and most games refuse whole kinds by their first
lines: `if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; }` refuses every
clear and the pass, `OperationList[0][2] != markOf(onTurn())` the other player's object.

`refused_kinds` evaluates isMoveLegal()'s body once per player and kind, knowing only what
every candidate of the kind shares: operationsNum(), isPlaceOperation(0), OperationList[0][2]
(0 for a clear), isCountOperation(0), onTurn(), constants, and what calls of functions with
such arguments return. Everything else (the square, the board, game variables) is unknown, and
so is anything the evaluation does not model: a loop, an array, an assignment that is not to a
plain local, a statement with effects; past a call whose result is unknown (which may spend any
steps) or such a statement, nothing is decided. A value means "this value, or the judgement fails", and
a kind is refused when every path returns false or fails. That is sound because a judgement
that fails is a refusal (docs/language.md "Run-time errors and limits": an error, the step
budget or the depth spent rejects the move; kernel.c g_judge_ops), and a refused judgement
leaves nothing behind: its consequences belong to the move, and game variables cannot be
assigned in isMoveLegal() (an error; a game whose judgement reaches such an assignment keeps
every kind all the same, as the analysis promises nothing about effects).
"""
from __future__ import annotations

from gdef_core.lower import ir

UNKNOWN = object()   # a value the kind does not decide
_INT64 = (-(1 << 63), (1 << 63) - 1)
# built-ins that only read, spending no step
_READERS = frozenset({"onTurn", "operationsNum", "isPlaceOperation", "isCountOperation", "moveNumber",
                      "boardWidth", "boardHeight", "playersNum"})
_VISITS = 2000       # statements and calls evaluated per kind at most; past it, unknown


class _GiveUp(Exception):
    """The evaluation went past what it models: the kind is kept."""


def refused_kinds(module: ir.Module) -> list[tuple[frozenset[int], bool, bool]]:
    """For each player p: (the objects whose places isMoveLegal() surely refuses, whether it
    surely refuses every clear, every pass). Nothing refused in a game with moves() or whose
    judgement may assign a game variable."""
    objects = sorted(number for number in module.objects.values() if number != 0)
    nothing = [(frozenset(), False, False)] * module.players
    legal = module.functions.get("isMoveLegal")
    if "moves" in module.functions or legal is None or _writes_game_state(module, legal):
        return nothing
    out = []
    for player in range(module.players):
        places = frozenset(o for o in objects if _refused(module, legal, _Kind(player, 1, True, o)))
        clears = _refused(module, legal, _Kind(player, 1, False, 0))
        passes = _refused(module, legal, _Kind(player, 0, False, 0))
        out.append((places, clears, passes))
    return out


def _writes_game_state(module: ir.Module, legal: ir.Function) -> bool:
    """Whether isMoveLegal() or a function it reaches assigns a game variable or its element."""
    seen, pending = set(), [legal.name]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ir.walk(module.functions[name].body):
            if isinstance(node, ir.Assign) and (isinstance(node.target, ir.GameVar) or (
                    isinstance(node.target, ir.Element) and isinstance(node.target.array, ir.GameVar))):
                return True
            if isinstance(node, ir.CallFunction):
                pending.append(node.name)
    return False


class _Kind:
    """What every candidate of one kind shares: the player on turn, its operations (1, or 0 for
    the pass), whether operation 0 is a place, its object (0 for a clear)."""

    def __init__(self, player: int, operations: int, place: bool, obj: int):
        self.player, self.operations, self.place, self.obj = player, operations, place, obj
        self.visits = 0


def _refused(module: ir.Module, legal: ir.Function, kind: _Kind) -> bool:
    try:
        return _block(module, legal.body, {}, kind, 0) is False
    except _GiveUp:
        return False


def _block(module, stmts, env: dict, kind: _Kind, depth: int):
    """What the statements return on every path (a value, or UNKNOWN); a block that may reach
    its end without returning gives UNKNOWN."""
    env = dict(env)
    for i, stmt in enumerate(stmts):
        kind.visits += 1
        if kind.visits > _VISITS:
            raise _GiveUp
        match stmt:
            case ir.Enter():
                continue
            case ir.Declare(name=name, value=value) | ir.Assign(target=ir.Local(name=name), value=value):
                env[name] = _expr(module, value, env, kind, depth)
            case ir.Return(value=value):
                return UNKNOWN if value is None else _expr(module, value, env, kind, depth)
            case ir.If(cond=cond, then=then, otherwise=otherwise):
                decided = _expr(module, cond, env, kind, depth)
                arms = [then] if decided is True else [otherwise] if decided is False else [then, otherwise]
                rest = stmts[i + 1:]
                results = [_arm(module, arm, rest, env, kind, depth) for arm in arms]
                first = results[0]
                same = first is not UNKNOWN and all(type(r) is type(first) and r == first for r in results)
                return first if same else UNKNOWN
            case _:
                return UNKNOWN
    return UNKNOWN


def _arm(module, arm, rest, env, kind, depth):
    """An arm of an if followed by the statements after the if: an arm that declares nothing
    goes on into them; one that declares locals must return (its names leave scope)."""
    if not any(isinstance(s, (ir.Declare, ir.DeclareArray)) for s in arm):
        return _block(module, (*arm, *rest), env, kind, depth)
    if arm and isinstance(arm[-1], ir.Return):
        return _block(module, arm, env, kind, depth)
    return UNKNOWN


def _expr(module, node, env: dict, kind: _Kind, depth: int):
    match node:
        case ir.Const(value=value, type=kind_type) if kind_type != "float":
            return value
        case ir.Object(number=number):
            return number
        case ir.Local(name=name):
            return env.get(name, UNKNOWN)
        case ir.Convert(value=value, type=to) if to != "float":
            return _expr(module, value, env, kind, depth)
        case ir.Board(builtin=builtin, indexes=(first, second)) if builtin.name == "OperationList":
            i, j = (_expr(module, e, env, kind, depth) for e in (first, second))
            if type(i) is int and i == 0 and type(j) is int and j == 2 and kind.operations == 1:
                return kind.obj
            return UNKNOWN
        case ir.CallBuiltin(builtin=builtin, args=args):
            values = [_expr(module, a, env, kind, depth) for a in args]
            if builtin.name == "onTurn":
                return kind.player
            if builtin.name == "operationsNum":
                return kind.operations
            if builtin.name in ("isPlaceOperation", "isCountOperation") and kind.operations == 1 \
                    and type(values[0]) is int and values[0] == 0:
                return kind.place if builtin.name == "isPlaceOperation" else False
            if builtin.name in _READERS:
                return UNKNOWN
            raise _GiveUp   # a built-in that might search (hasLegalMove(), repetitions() ...)
        case ir.CallFunction(name=name, args=args):
            # a call whose result the kind does not decide could spend any steps (a loop, a
            # recursion): what follows it is not looked at, so that every candidate dropped spends
            # a few steps at most (the search's pool, SEARCH_POOL_FACTOR, is spent alike)
            values = [_expr(module, a, env, kind, depth) for a in args]
            callee = module.functions[name]
            if depth >= 8 or any(v is UNKNOWN for v in values) or any(t not in ("int", "obj", "bool")
                                                                      for _, t in callee.params):
                raise _GiveUp
            value = _block(module, callee.body, dict(zip((p for p, _ in callee.params), values)), kind, depth + 1)
            if value is UNKNOWN:
                raise _GiveUp
            return value
        case ir.Unary(op="!", operand=operand):
            value = _expr(module, operand, env, kind, depth)
            return UNKNOWN if value is UNKNOWN else not value
        case ir.Logic(op=op, left=left, right=right):
            a = _expr(module, left, env, kind, depth)
            short = op == "||"   # the value that decides without the right side
            if a is short:
                return short
            b = _expr(module, right, env, kind, depth)
            if a is UNKNOWN:
                return short if b is short else UNKNOWN
            return b
        case ir.Binary(op=op, left=left, right=right, type=result):
            a, b = (_expr(module, e, env, kind, depth) for e in (left, right))
            if a is UNKNOWN or b is UNKNOWN or isinstance(a, float) or isinstance(b, float):
                return UNKNOWN
            return _binary(op, a, b, result)
    return UNKNOWN


def _binary(op: str, a, b, result: str):
    """Comparisons of ints, objects and bools, and int +, -, * that do not overflow."""
    if op in ("==", "!="):
        return (a == b) == (op == "==")
    if isinstance(a, bool) or isinstance(b, bool):
        return UNKNOWN
    compare = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
    if op in compare:
        return compare[op]
    if result != "int" or op not in ("+", "-", "*"):
        return UNKNOWN
    value = a + b if op == "+" else a - b if op == "-" else a * b
    return value if _INT64[0] <= value <= _INT64[1] else UNKNOWN
