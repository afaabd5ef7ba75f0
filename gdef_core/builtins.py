"""The ONE table of built-ins: name, signature, documentation, where each may be used.

The checker (arity, types, context rules), the runtime (which implementation to bind),
completion and hover in the language server all read this table; nothing restates it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(str, Enum):
    FUNCTION = "function"  # called: name(args)
    BOARD = "board"  # indexed: name[x][y]
    VALUE = "value"  # a bare name: `empty`


class Context(str, Enum):
    """THE entry points: the functions a game defines for the runtime to call (spec sections
    8, 12, 14), and so the contexts a call can be reached from. Its value is the function's
    name; `number` is how generated code tells which one is running (both backends)."""

    IS_MOVE_LEGAL = "isMoveLegal"
    END = "end"
    MOVES = "moves"
    SETUP = "setup"
    CHANCE = "chance"  # an entry point only in a game that calls chanceNext()

    @property
    def number(self) -> int:
        """1, 2, 3, 4, 5 in the order above (0: none running)."""
        return _CONTEXT_NUMBERS[self]

    @property
    def result(self) -> str | None:
        """The type the entry point returns."""
        return "bool" if self in (Context.IS_MOVE_LEGAL, Context.END) else None

    @property
    def required(self) -> bool:
        """Whether every game must define it."""
        return self in (Context.IS_MOVE_LEGAL, Context.END)


_CONTEXT_NUMBERS = {context: number for number, context in enumerate(Context, start=1)}


ALL_CONTEXTS = frozenset(Context)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    kind: Kind
    params: tuple[Param, ...]
    result: str | None  # "int", "float", "bool", "obj", "int|obj" (decided by index), None: no value
    doc: str
    contexts: frozenset[Context] = ALL_CONTEXTS  # where a call is allowed
    extension: bool = False  # not in the original language

    @property
    def soft(self) -> bool:
        """An extension's name was free in the original language, so a game's own function,
        object or game variable of that name keeps its meaning (warning G421) and a local may
        take it: no valid game changes meaning when a built-in is added."""
        return self.extension

    @property
    def signature(self) -> str:
        if self.kind is Kind.BOARD:
            return f"{self.name}[{self.params[0].name}][{self.params[1].name}] -> {self.result}"
        if self.kind is Kind.VALUE:
            return f"{self.name}: {self.result}"
        args = ", ".join(f"{p.type} {p.name}" for p in self.params)
        return f"{self.name}({args})" + (f" -> {self.result}" if self.result else "")


def _b(name, kind, params, result, doc, contexts=ALL_CONTEXTS, extension=False) -> Builtin:
    return Builtin(name, kind, tuple(Param(n, t) for n, t in params), result, " ".join(doc.split()),
                   frozenset(contexts), extension)


_I, _X = Context.IS_MOVE_LEGAL, Context.END
_M, _S, _C = Context.MOVES, Context.SETUP, Context.CHANCE

BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    _b("empty", Kind.VALUE, (), "obj",
       "The built-in object meaning \"nothing here\". Squares not listed in `start` hold it. "
       "(`empt` is accepted as an old spelling, with a warning.)"),
    _b("CurrentPosition", Kind.BOARD, (("x", "int"), ("y", "int")), "obj",
       "The object on square (x, y) of the current position. In `isMoveLegal()` this is the "
       "position before the proposed move; in `end()` the position after it. Reading a square "
       "off the board is a run-time error."),
    _b("NextPosition", Kind.BOARD, (("x", "int"), ("y", "int")), "obj",
       "Inside `isMoveLegal()`: square (x, y) as it would be after the proposed operations, so "
       "rules can judge a move by its effect whatever the order of its operations. Elsewhere it "
       "equals `CurrentPosition`.", extension=True),
    _b("PreviousPosition", Kind.BOARD, (("x", "int"), ("y", "int")), "obj",
       "In `end()` and the functions it calls: square (x, y) as it was before the move just "
       "applied, which tells a capture from a quiet move (`PreviousPosition[tx][ty] != empty`). "
       "Everywhere else it equals `CurrentPosition`.", extension=True),
    _b("ResultPosition", Kind.BOARD, (("x", "int"), ("y", "int")), "obj",
       "The position with the consequences of the move made so far. In `isMoveLegal()`: "
       "`NextPosition` changed by the `addPlace`/`addClear`/`addCount` calls of this judgement (a scratch "
       "copy, dropped when it returns), so a rule can judge the move after its captures. In "
       "`end()`: `CurrentPosition` (which the consequences change at once). Elsewhere it equals "
       "`CurrentPosition`.", extension=True),
    _b("CurrentCount", Kind.BOARD, (("x", "int"), ("y", "int")), "int",
       "The count on square (x, y) of the current position (an int beside its object, 0 "
       "unless a move changed it: the seeds of a pit, a stack's height). Read as "
       "`CurrentPosition` is: before the proposed move in `isMoveLegal()`, after it in `end()`.",
       extension=True),
    _b("NextCount", Kind.BOARD, (("x", "int"), ("y", "int")), "int",
       "Inside `isMoveLegal()`: the count on square (x, y) after the proposed operations. "
       "Elsewhere it equals `CurrentCount`.", extension=True),
    _b("PreviousCount", Kind.BOARD, (("x", "int"), ("y", "int")), "int",
       "In `end()` and the functions it calls: the count on square (x, y) before the move just "
       "applied. Everywhere else it equals `CurrentCount`.", extension=True),
    _b("ResultCount", Kind.BOARD, (("x", "int"), ("y", "int")), "int",
       "The count on square (x, y) of `ResultPosition`, with the consequences of the move made "
       "so far. In `isMoveLegal()`: `NextCount` changed by the `addPlace`/`addClear`/`addCount` "
       "calls of this judgement (the scratch copy). In `end()`: `CurrentCount` (which the "
       "consequences change at once). Elsewhere it equals `CurrentCount`.", extension=True),
    _b("OperationList", Kind.BOARD, (("i", "int"), ("j", "int")), "int|obj",
       "Operation i (from 0) of the proposed move: j = 0 gives its x (int), j = 1 its y (int), "
       "j = 2 its object (obj; `empty` for a clear or a count), j = 3 its count (int; 0 for a "
       "place or a clear). While `end()` runs it describes the move "
       "just applied; in `moves()`, `setup()` and `chance()` an empty move (every index is out "
       "of range). Indexes out of range are a run-time error."),
    _b("operationsNum", Kind.FUNCTION, (), "int",
       "How many operations the proposed move has (0 for a pass). While `end()` runs: the move "
       "just applied. In `moves()`, `setup()` and `chance()`: 0."),
    _b("isPlaceOperation", Kind.FUNCTION, (("i", "int"),), "bool",
       "Whether operation i of the proposed move is a `place` (false: a `clear` or a `count`). An index out "
       "of range is a run-time error."),
    _b("isCountOperation", Kind.FUNCTION, (("i", "int"),), "bool",
       "Whether operation i of the proposed move is a `count` (then `isPlaceOperation(i)` is "
       "false). An index out of range is a run-time error.", extension=True),
    _b("onTurn", Kind.FUNCTION, (), "int",
       "The player on turn, from 0. In `end()` it is still the player who just moved; in "
       "`setup()` it is 0."),
    _b("setWinner", Kind.FUNCTION, (("p", "int"),), None,
       "Declares player p (0 <= p < players) the winner. Meaningful in `end()`: when `end()` "
       "returns true the last `setWinner` of that call decides the result; without one the game "
       "is a draw. Elsewhere it has no effect, but p is still range-checked."),
    _b("moveNumber", Kind.FUNCTION, (), "int",
       "How many moves have been applied in this game: 0 before the first move; inside `end()` "
       "it already counts the move just applied.", extension=True),
    _b("boardWidth", Kind.FUNCTION, (), "int", "The board's width W (x runs from 0 to W-1).",
       extension=True),
    _b("boardHeight", Kind.FUNCTION, (), "int", "The board's height H (y runs from 0 to H-1).",
       extension=True),
    _b("playersNum", Kind.FUNCTION, (), "int", "The number of players of the game.",
       extension=True),
    _b("addPlace", Kind.FUNCTION, (("x", "int"), ("y", "int"), ("o", "obj")), None,
       "In `moves()`: appends `place(x, y, o)` to the candidate move being built. In `setup()`: "
       "puts o on square (x, y) of the start position at once. In `end()`: a consequence of the "
       "move just applied (a capture, a promotion): puts o on (x, y) of the position at once. In "
       "`isMoveLegal()`: puts o on (x, y) of the scratch copy `ResultPosition` only. In `chance()`: appends it to the outcome being built.",
       (_M, _S, _X, _I, _C), extension=True),
    _b("addClear", Kind.FUNCTION, (("x", "int"), ("y", "int")), None,
       "In `moves()`: appends `clear(x, y)` to the candidate move being built. In `setup()`: "
       "empties square (x, y) of the start position at once. In `end()`: a consequence of the "
       "move just applied (a capture): empties (x, y) of the position at once. In "
       "`isMoveLegal()`: empties (x, y) of the scratch copy `ResultPosition` only. In `chance()`: appends it to the outcome being built.",
       (_M, _S, _X, _I, _C), extension=True),
    _b("addCount", Kind.FUNCTION, (("x", "int"), ("y", "int"), ("n", "int")), None,
       "In `moves()`: appends `count(x, y, n)` to the candidate move being built (square (x, y) "
       "will hold the count n; its object stays). In `setup()`: sets the count of (x, y) of the "
       "start position at once. In `end()`: a consequence of the move just applied (a sweep): "
       "sets the count of (x, y) of the position at once. In `isMoveLegal()`: sets the count of "
       "(x, y) of the scratch copy `ResultCount` only. In `chance()`: appends it to the outcome "
       "being built.",
       (_M, _S, _X, _I, _C), extension=True),
    _b("addMove", Kind.FUNCTION, (), None,
       "In `moves()`: finishes the candidate move being built (an empty one is a pass) and "
       "starts a new one. Operations after the last `addMove()` are discarded.", (_M,),
       extension=True),
    _b("hasLegalMove", Kind.FUNCTION, (), "bool",
       "In `end()`: whether the player who will move next has at least one legal move in the "
       "new position. \"A player who cannot move loses\" is "
       "`if (!hasLegalMove()) { setWinner(onTurn()); return true; }`.", (_X,), extension=True),
    _b("sizeOf", Kind.FUNCTION, (("a", "array"), ("d", "int")), "int",
       "The size of dimension d (0, or 1 for a two-dimensional array; a constant) of array a. "
       "It may read a game-variable array anywhere.", extension=True),
    _b("isGenerated", Kind.FUNCTION, (), "bool",
       "In `isMoveLegal()`, in a game with `moves()`: whether `moves()`, run in the current "
       "position for the player on turn, proposes a candidate with the same effect as the move "
       "being judged (the board `NextPosition`; the order of operations does not matter). "
       "`return isGenerated();` judges moves by the generator instead of writing every search "
       "twice.", (_I,), extension=True),
    _b("repetitions", Kind.FUNCTION, (), "int",
       "In `end()`: how many earlier positions of this game equal the one now reached (board "
       "with its counts, game variables except `counter` ones, player to move, whether chance "
       "moves next). 0 for a new position; threefold "
       "repetition is `repetitions() >= 2`.", (_X,), extension=True),
    _b("nextBoardSeen", Kind.FUNCTION, (), "bool",
       "In `isMoveLegal()`: whether the board `ResultPosition` (`NextPosition` with the "
       "consequences made so far, counts included) equals the board of any earlier "
       "position of this game, the current one included (positional superko). A pass always "
       "sees its board.", (_I,), extension=True),
    _b("setScore", Kind.FUNCTION, (("p", "int"), ("v", "float")), None,
       "In `end()` and `setup()`: player p's score is v from now on (every player starts at 0; "
       "`end()`'s changes count only when it succeeds). Scores are shown, recorded and averaged "
       "by gdef-sim; they never decide the winner: `setWinner` does.", (_X, _S), extension=True),
    _b("setNextPlayer", Kind.FUNCTION, (("p", "int"),), None,
       "In `end()` and `setup()`: the player to move next, instead of the next one in the "
       "cycle (the last call wins; no effect when `end()` returns true). Out of range is a "
       "run-time error.", (_X, _S), extension=True),
    _b("chanceNext", Kind.FUNCTION, (), None,
       "In `end()` and `setup()`: the next move is chance's (a die roll, a draw): the engine "
       "calls `chance()` for the outcomes and plays one; the player the cycle (or "
       "`setNextPlayer`) names moves after it. No effect when `end()` returns true.",
       (_X, _S), extension=True),
    _b("addOutcome", Kind.FUNCTION, (("w", "int"),), None,
       "In `chance()`: finishes the outcome being built (the operations of `addPlace`, "
       "`addClear` and `addCount` since the last `addOutcome`) with weight w (1 <= w <= 2^31; its probability "
       "is w divided by the sum of the weights) and starts a new one. Identical outcomes are "
       "merged, their weights added.", (_C,), extension=True),
    _b("isChanceMove", Kind.FUNCTION, (), "bool",
       "In `end()`: whether the move just applied was a chance outcome (from `chance()`), not "
       "a player's move.", (_X,), extension=True),
]}

# What `OperationList[i][j]` gives for each j (completion offers these after `OperationList[i][`).
OPERATION_FIELDS: tuple[tuple[str, str], ...] = (
    ("int", "x: the column of the square operation i changes"),
    ("int", "y: the row of the square operation i changes"),
    ("obj", "the object operation i places (`empty` for a clear or a count)"),
    ("int", "the count operation i sets (0 for a place or a clear)"),
)

# The built-ins that read or write squares' counts: a game using none of them keeps no counts
# (its states hold only objects, and `count(...)` is not a move of it).
COUNT_BUILTINS = frozenset({"CurrentCount", "NextCount", "PreviousCount", "ResultCount", "addCount",
                            "isCountOperation"})

# The built-ins that build a candidate in moves() and make a consequence of the move in end()
# and isMoveLegal() (docs/language.md, "Consequences of a move").
CONSEQUENCE_BUILTINS = frozenset({"addPlace", "addClear", "addCount"})

# `empt` is the original text's misspelling of `empty`: accepted, with warning G506.
ALIASES: dict[str, str] = {"empt": "empty"}

# The functions a game defines itself: name -> (result type, required in a game). `chance`
# is one only in a game that calls the built-in chanceNext() (CHANCE_ENTRY_BUILTIN).
ENTRY_POINTS: dict[str, tuple[str | None, bool]] = {c.value: (c.result, c.required) for c in Context}

# The built-in whose use makes `chance()` an entry point.
CHANCE_ENTRY_BUILTIN = "chanceNext"

GAME_PARAMETERS: dict[str, str] = {
    "name": "The game's name, one word (defaults to the first file's name without `.gdef`).",
    "players": "The number of players, 1 to 64. Players are numbered from 0.",
    "size": "The board size `W x H` (`3x3` or `3 x 3`); each side 1 to 1000, at most 1,000,000 squares.",
}

KEYWORDS = ("int", "float", "bool", "obj", "true", "false", "if", "else", "while", "define",
            "return", "start", "use", "for", "break", "continue")


def lookup(name: str) -> Builtin | None:
    """The built-in called `name` (aliases included), or None."""
    return BUILTINS.get(ALIASES.get(name, name))
