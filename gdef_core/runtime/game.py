"""The game API: a loaded game, its states, and the turn cycle of spec section 2.

    game = gdef_core.load_game(["examples/tictactoe.gdef"])
    state = game.new_state()
    verdict = state.check("place(1,1,X)")     # Verdict: legal or why not
    state.apply(Move.parse("place(1,1,X)"))   # raises IllegalMoveError when not legal
    state.is_over, state.winner

A State is the whole game position: the board, the player on turn, the move number, the game
variables and the result. Applying a move is transactional: the move and the `end()` that
follows run on the state's board with an undo log and a copy of the variables, and only a fully
successful step is committed.
"""
from __future__ import annotations

import gc
import math
from itertools import compress, repeat
from operator import is_not

from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from enum import Enum
from collections.abc import Sequence
from typing import Mapping

from gdef_core.builtins import ALIASES
from gdef_core.moves import Move, MoveSyntaxError, Op, looks_like_name
from gdef_core.runtime import chance
from gdef_core.runtime.function_compiler import CompileError
from gdef_core.runtime.errors import Fail, GameLoadError, GdefRuntimeError, ParamError
from gdef_core.runtime.counts import apply_operations
from gdef_core.runtime.history import History
from gdef_core.presentation import Presentation, default_presentation
from gdef_core.runtime.notation import (NAMED_ALL, NameProblem, move_name, move_names, names_in_position,
                                        read_exact_name, read_move_name, read_name_near, touching)
from gdef_core.runtime.reasons import LocatedRule, explain_refusal
from gdef_core.runtime.rules import Rules
from gdef_core.lower.limits import DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS
from gdef_core.lower.values import Obj
from gdef_core.semantics.program import Program

_MOVE_CACHE_SIZE = 100_000


class VerdictKind(str, Enum):
    LEGAL = "legal"
    MALFORMED = "malformed"  # the text is not a move
    OFF_BOARD = "off board"  # an operation names a square off the board
    UNKNOWN_OBJECT = "unknown object"  # a place names an object never declared
    REJECTED = "rejected"  # isMoveLegal() returned false
    RUNTIME_ERROR = "runtime error"  # isMoveLegal() or end() failed while running
    GAME_OVER = "game over"  # the game has ended: no more moves
    UNKNOWN_NAME = "unknown name"  # a move name that names no move here
    AMBIGUOUS = "ambiguous"  # a move name that several legal moves answer to


class Verdict:
    """Whether a move is legal in a state and, if not, why (`reason`, for people). A move
    isMoveLegal() refuses also names the rule that refused it (`rule`, runtime/reasons.py),
    found only when asked for, so judging stays as fast as ever."""

    __slots__ = ("kind", "_reason", "error", "ops", "candidates", "_explain", "_rule")

    def __init__(self, kind: VerdictKind, reason: str = "", error: GdefRuntimeError | None = None,
                 ops: tuple | None = None, candidates: tuple[str, ...] = (), explain=None) -> None:
        self.kind = kind
        self._reason = reason
        self.error = error
        self.ops = ops  # the resolved operations (internal)
        self.candidates = candidates  # for an unknown or ambiguous name: the names it could be
        self._explain = explain  # -> the LocatedRule that refused the move, when first asked
        self._rule = None

    @property
    def legal(self) -> bool:
        return self.kind is VerdictKind.LEGAL

    @property
    def rule(self) -> LocatedRule | None:
        """The line of the rules that refused the move (None for other verdicts, or when it
        cannot be told)."""
        if self._explain is not None:
            self._rule, self._explain = self._explain(), None
        return self._rule

    @property
    def reason(self) -> str:
        rule = self.rule
        return f"refused by {rule}" if rule is not None else self._reason

    def __bool__(self) -> bool:
        return self.legal

    def __repr__(self) -> str:
        return f"Verdict({self.kind.value!r}, {self._reason!r})"


class IllegalMoveError(Exception):
    """`State.apply` refused a move; `verdict` says why. The state is unchanged."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.reason)
        self.verdict = verdict


class Game:
    """A checked, compiled game: parameters, objects, rules. Make states with `new_state()`."""

    def __init__(self, program: Program, *, max_steps: int = DEFAULT_MAX_STEPS,
                 max_depth: int = DEFAULT_MAX_DEPTH, optimize: bool = True) -> None:
        if max_steps < 1 or max_depth < 1:
            raise ValueError("max_steps and max_depth must be at least 1")
        self.program = program
        self.name: str = program.name
        self.files: list[str] = [module.path for module in program.modules]
        self.players: int = program.players
        self.width: int = program.width
        self.height: int = program.height
        # The values of the game's parameters in use (`param`), by name, in declaration order.
        self.params: dict[str, object] = {name: program.param_values[name] for name in program.params}
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.empty = Obj("empty")
        self.objects: dict[str, Obj] = {name: Obj(name) for name in program.objects}
        self._by_name = {"empty": self.empty, **self.objects}
        for alias, target in ALIASES.items():
            self._by_name.setdefault(alias, self._by_name[target])
        self.rules = Rules(program, (self.empty, *self.objects.values()), max_steps, max_depth, optimize)
        self._initial: State | None = None
        self._moves: dict[tuple, Move] = {}  # operations -> their Move, shared by all states
        self.rules.set_has_legal_move_hook(self._has_legal_move_hook)
        game_vars = self.rules.module.game_vars
        self.variable_names: list[str] = list(game_vars)
        self.variable_types: dict[str, str] = {n: d.type.split("[", 1)[0] for n, d in game_vars.items()}
        self._counters = {n for n, d in game_vars.items() if d.counter}
        # Whether squares hold counts (the board list then holds the W*H counts after the objects).
        self.counting: bool = self.rules.counting
        self._start_board = self._start()
        self._start_vars = self.rules.init_vars()
        # How the game is shown: labels, pieces, player names, visible variables, notation.
        self.presentation: Presentation = program.presentation or default_presentation(
            self.width, self.height, self.players, self.objects, self.variable_names)

    def player_name(self, player: int | None) -> str:
        """The name players know player `player` by ("White"; "Player 2" by default)."""
        return self.presentation.player(player)

    # The automatic candidates (spec section 12), built the first time a game without moves()
    # asks for them: a game with moves() never pays for them, and loading stays fast however
    # large the board. Their operations come first; their Moves are made only when every
    # candidate is judged (legal_moves()): naming one move needs the operations alone.

    @cached_property
    def _place_ops(self) -> list:
        """Every place's operations, in the order of the candidates."""
        objects = list(self.objects.values())
        with _collector_paused():
            return [((x, y, obj, True),) for x in range(self.width) for y in range(self.height) for obj in objects]

    @cached_property
    def _clear_ops(self) -> list:
        """Per square the operations of its clear."""
        empty = self.empty
        with _collector_paused():
            return [((x, y, empty, False),) for x in range(self.width) for y in range(self.height)]

    @cached_property
    def _places(self) -> list:
        """Every place as (x, y, obj, operations, move)."""
        return [(*ops[0][:3], ops, self.to_move(ops)) for ops in self._place_ops]

    @cached_property
    def _clears(self) -> list:
        """Per square its clear as (operations, move), and last the pass."""
        clears = [(ops, self.to_move(ops)) for ops in self._clear_ops]
        clears.append(((), self.to_move(())))
        return clears

    def _start(self) -> list:
        board = [self.empty] * (self.width * self.height)
        for x, y, name in self.rules.module.start:
            board[x * self.height + y] = self._by_name[name]
        if self.counting:
            board += [0] * (self.width * self.height)
        return board

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.players} players, {self.width}x{self.height}>"

    # ------------------------------------------------------------ states

    def new_state(self) -> "State":
        """The start position after `setup()`, player 0 (or setup's choice) on turn.
        Raises GdefRuntimeError when setup() fails."""
        if self._initial is None:
            board = self._start_board.copy()
            variables = _copy_vars(self._start_vars)
            scores = [0] * self.players
            player = 0
            chance_next = False
            if self.rules.raw_setup is not None:
                chosen, chance_next = self.rules.setup(board, variables, scores)
                if chosen is not None:
                    player = chosen
            history = None
            if self.rules.uses_history:
                history = History.start(self.rules.position_key(board, player, variables, chance_next))
            self._initial = State(self, board, player, 0, variables, scores=scores, history=history,
                                  chance=chance_next)
        return self._initial.clone()

    def state_from_json(self, data: dict) -> "State":
        return State.from_json(self, data)

    def is_counter(self, name: str) -> bool:
        """Whether game variable `name` is declared `counter` (positions are compared without it)."""
        return name in self._counters

    def obj(self, name: str) -> Obj | None:
        """The object called `name` (`empty` included), or None."""
        return self._by_name.get(name)

    # ------------------------------------------------------------ moves (internal)

    def resolve(self, move: Move) -> Verdict:
        """Check a move's shape against the game: squares on the board, objects declared."""
        ops = []
        width, height = self.width, self.height
        for number, op in enumerate(move.ops, 1):
            if not (0 <= op.x < width and 0 <= op.y < height):
                return Verdict(VerdictKind.OFF_BOARD,
                               f"{_nth(number, move)}{op} names square ({op.x}, {op.y}), which is off "
                               f"the {width}x{height} board (x from 0 to {width - 1}, y from 0 to {height - 1})")
            if op.count is not None:
                if not self.counting:
                    return Verdict(VerdictKind.MALFORMED,
                                   f"{_nth(number, move)}{op}: the squares of {self.name} hold no counts "
                                   "(its rules never read or write one)")
                ops.append((op.x, op.y, self.empty, False, op.count))
                continue
            if op.obj is None:
                ops.append((op.x, op.y, self.empty, False))
                continue
            obj = self._by_name.get(op.obj)
            if obj is None:
                names = ", ".join([*self.objects, "empty"])
                return Verdict(VerdictKind.UNKNOWN_OBJECT,
                               f"{_nth(number, move)}{op} names '{op.obj}', which is not an object of "
                               f"this game (objects: {names})")
            ops.append((op.x, op.y, obj, True))
        return Verdict(VerdictKind.LEGAL, ops=tuple(ops))

    def to_move(self, ops) -> Move:
        """The Move of resolved operations, shared between states (Moves are immutable)."""
        move = self._moves.get(ops)
        if move is None:
            if len(self._moves) >= _MOVE_CACHE_SIZE:
                self._moves.clear()
            move = self._moves[ops] = Move(tuple(Op(op[0], op[1], op[2] if op[3] else None,
                                                     op[4] if len(op) > 4 else None) for op in ops))
            object.__setattr__(move, "_game", self)
            object.__setattr__(move, "_resolved", ops)
        return move

    def legal_ops(self, board, player, move_number, variables, first_only: bool = False, history=None) -> list:
        """The legal candidates (spec section 12) as operation tuples, in the order generated;
        a candidate whose isMoveLegal() fails is illegal. May raise Fail when moves() fails.
        `history`: the positions of the game so far (for nextBoardSeen())."""
        rules = self.rules
        if rules.raw_moves is None:
            if first_only:   # hasLegalMove(): a big board's first legal place is found without its millions
                return rules.raw_filter(board, CandidateView(self, board), player, move_number, variables, True,
                                        history, False)
            return rules.raw_default_filter(board, self._places, self._clears, player, move_number, variables,
                                            first_only, history)[0]
        candidates = self.candidates(board, player, move_number, variables)
        # The candidates are moves()' own, so isGenerated() holds for each without running it again.
        return rules.raw_filter(board, candidates, player, move_number, variables, first_only, history, True)

    def candidates(self, board, player, move_number, variables) -> list:
        """The candidate moves (spec section 12) as a new list of operation tuples, without
        duplicates. May raise Fail when moves() fails."""
        rules = self.rules
        if rules.raw_moves is None:
            empty = self.empty
            clears = [ops for obj, ops in zip(board, self._clear_ops) if obj is not empty]
            return [*self._place_ops, *clears, ()]
        return list(dict.fromkeys(rules.raw_moves(board, player, move_number, variables)))

    def _has_legal_move_hook(self, board, player, move_number, variables, history) -> bool:
        return bool(self.legal_ops(board, player, move_number, variables, True, history))


class CandidateView(Sequence):
    """The automatic candidates of a board (spec section 12; Game.candidates()' list: every
    place, the clear of each occupied square, the pass), each made when indexed from its
    number: place k is square k // objects, object k % objects. Counting them and finding the
    occupied squares scan the board at C speed (the latter only once a clear is asked for);
    nothing of the candidates' size is made (a 1000 x 1000 board's two million lists took a
    second and a half and 300 MB)."""

    __slots__ = ("_objects", "_places", "_board", "_empty", "_size", "_height", "_occupied", "_count")

    def __init__(self, game: Game, board: list) -> None:
        self._objects = list(game.objects.values())
        self._board, self._empty = board, game.empty
        self._size, self._height = game.width * game.height, game.height   # a counting game's counts follow the squares
        self._places = self._size * len(self._objects)
        self._occupied: list | None = None
        # The squares are objects (strs), the counts after them ints: only an empty square equals empty.
        self._count = self._places + self._size - board.count(self._empty) + 1

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> tuple:
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(f"candidate {index} of {self._count}")
        if index < self._places:
            return self._place(index)
        if index == self._count - 1:
            return ()
        if self._occupied is None:
            occupied = map(is_not, self._board, repeat(self._empty, self._size))
            self._occupied = list(compress(range(self._size), occupied))
        return self._clear(self._occupied[index - self._places])

    def _place(self, index: int) -> tuple:
        square, kind = divmod(index, len(self._objects))
        return ((square // self._height, square % self._height, self._objects[kind], True),)

    def _clear(self, square: int) -> tuple:
        return ((square // self._height, square % self._height, self._empty, False),)

    def touching(self, squares: set) -> list:
        """The candidates that change one of `squares` ((x, y) pairs), and the pass, in their
        order, found by square."""
        height, kinds = self._height, len(self._objects)   # the places of a square: one per object
        indices = sorted(x * height + y for x, y in squares if 0 <= x < self._size // height and 0 <= y < height)
        places = [self._place(index * kinds + kind) for index in indices for kind in range(kinds)]
        return [*places, *(self._clear(index) for index in indices if self._board[index] is not self._empty), ()]


class BoardView:
    """A read-only view of a board: `view[x, y]` is the object's name ('empty' for none),
    `view.count(x, y)` the square's count (0 in a game whose squares do not count)."""

    __slots__ = ("_squares", "width", "height")

    def __init__(self, squares: list, width: int, height: int) -> None:
        self._squares = squares
        self.width = width
        self.height = height

    def __getitem__(self, xy: tuple[int, int]) -> str:
        x, y = xy
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"square ({x}, {y}) is off the {self.width}x{self.height} board")
        return self._squares[x * self.height + y]

    def count(self, x: int, y: int) -> int:
        """The count on square (x, y)."""
        self[x, y]  # the same IndexError off the board
        size = self.width * self.height
        return self._squares[size + x * self.height + y] if len(self._squares) > size else 0

    def counts(self) -> list[tuple[int, int, int]]:
        """(x, y, count) of every square whose count is not 0."""
        height, size = self.height, self.width * self.height
        return [(i // height, i % height, n) for i, n in enumerate(self._squares[size:]) if n]

    def occupied(self) -> list[tuple[int, int, str]]:
        """(x, y, name) of every square that is not empty."""
        height = self.height
        return [(i // height, i % height, obj)
                for i, obj in enumerate(self._squares[:self.width * height]) if obj != "empty"]

    def rows(self) -> list[list[str]]:
        """The board as rows, row y = 0 first: rows()[y][x]."""
        return [[self._squares[x * self.height + y] for x in range(self.width)] for y in range(self.height)]

    def __eq__(self, other) -> bool:
        return isinstance(other, BoardView) and self._squares == other._squares

    def __repr__(self) -> str:
        return f"<BoardView {self.width}x{self.height}: {self.occupied()}>"


class State:
    """One position of a game. Mutable through `apply` only; `clone()` makes an independent copy."""

    __slots__ = ("game", "_board", "player", "move_number", "_vars", "over", "winner", "_legal",
                 "_scores", "_history", "chance", "_outcomes", "_found")

    def __init__(self, game: Game, board: list, player: int, move_number: int, variables: list,
                 over: bool = False, winner: int | None = None, scores: list | None = None,
                 history: History | None = None, chance: bool = False) -> None:
        self.game = game
        self._board = board
        self.player = player
        self.move_number = move_number
        self._vars = variables
        self.over = over
        self.winner = winner
        # The scores (spec 15.5): replaced, never changed in place, so clones share them.
        self._scores = scores if scores is not None else [0] * game.players
        # The positions so far (spec 15.4), None for a game that never asks about them.
        self._history = history
        # The operations of the moves legal_moves() found here: applying one of them needs no
        # second isMoveLegal() (the rules are deterministic). Replaced, never mutated, so clones
        # share it; a set once it is long (perft applies every move of a list to a clone).
        self._legal: list | frozenset | None = None
        # legal_ops()' list, kept: the tools that page, count and complete a big board's
        # millions of moves ask again for the same position (replaced, never mutated).
        self._found: list | None = None
        # Whether the next move is chance's (docs/language.md, "Chance"), and its outcomes,
        # merged, once asked for (replaced, never mutated: clones share them).
        self.chance = chance
        self._outcomes: list | None = None

    # ------------------------------------------------------------ reading

    @property
    def current_player(self) -> int:
        """The player on turn (after the end: the player who made the last move)."""
        return self.player

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def is_chance_node(self) -> bool:
        """Whether the next move is chance's: one of `chance_outcomes()`, picked by the engine
        (`sample_chance`) or named by a script. `current_player` is then the player who moves
        after the event."""
        return self.chance and not self.over

    def chance_outcomes(self) -> list[tuple[Move, int]]:
        """At a chance node, the outcomes with their integer weights (probability: weight / sum
        of weights) in the order chance() proposed them, identical ones merged; else [].
        Raises GdefRuntimeError when chance() fails or proposes none (G615)."""
        game = self.game
        return [(game._moves.get(ops) or game.to_move(ops), weight) for ops, weight in self._chance_ops()]

    def sample_chance(self, rng) -> Move:
        """One outcome of this chance node, drawn by weight with `rng` (a random.Random)."""
        outcomes = self._chance_ops()
        if not outcomes:
            raise ValueError("not a chance node: the next move is a player's")
        ops = outcomes[chance.draw([weight for _, weight in outcomes], rng)][0]
        return self.game._moves.get(ops) or self.game.to_move(ops)

    def _chance_ops(self) -> list:
        """The merged outcomes [(operations, weight)] here ([] when not a chance node)."""
        if not self.is_chance_node:
            return []
        if self._outcomes is None:
            game = self.game
            proposed = game.rules.chance(self._board, self.player, self.move_number, self._vars)
            self._outcomes = chance.merged(proposed)
        return self._outcomes

    @property
    def board(self) -> BoardView:
        return BoardView(self._board, self.game.width, self.game.height)

    @property
    def variables(self) -> dict[str, object]:
        """The game variables (section 14), by name; an array as nested lists (a copy)."""
        return {name: _copy_value(value) for name, value in zip(self.game.variable_names, self._vars)}

    @property
    def scores(self) -> list:
        """Each player's score (section 15.5), 0 until `setScore` changes it."""
        return list(self._scores)

    @property
    def history_length(self) -> int:
        """How many positions the game has passed through, this one included (0 when the game
        keeps no history: it never calls repetitions() or nextBoardSeen())."""
        return 0 if self._history is None else len(self._history)

    def clone(self) -> "State":
        copy = State(self.game, self._board.copy(), self.player, self.move_number, _copy_vars(self._vars),
                     self.over, self.winner, self._scores, self._history, self.chance)
        copy._legal = self._legal
        copy._found = self._found
        copy._outcomes = self._outcomes
        return copy

    def undo_point(self, move: Move) -> "UndoPoint":
        """What applying `move` here changes, for restore() to take it back (sessions' undo)."""
        height, board = self.game.height, self._board
        if self.game.rules.end_consequences:  # end() may change any square
            squares = tuple(enumerate(board))
        else:
            size = self.game.width * height if self.game.counting else 0  # a count's index: size + square
            squares = tuple({index: board[index] for op in move.ops if 0 <= op.x < self.game.width and 0 <= op.y < height
                             for index in (op.x * height + op.y, *((size + op.x * height + op.y,) if size else ()))}.items())
        return UndoPoint(squares, self.player, self.move_number, _copy_vars(self._vars), self.over, self.winner,
                         self._scores, self._history, self.chance)

    def restore(self, point: "UndoPoint") -> None:
        """Back to the position `point` was taken in (the move after it, and only it, applied)."""
        for index, obj in point.squares:
            self._board[index] = obj
        self.player, self.move_number, self.over, self.winner = \
            point.player, point.move_number, point.over, point.winner
        self._vars[:] = point.variables
        self._scores, self._history = point.scores, point.history
        self.chance = point.chance
        self._legal = self._outcomes = self._found = None

    def __eq__(self, other) -> bool:
        return (isinstance(other, State) and other.game is self.game and other._board == self._board
                and (other.player, other.move_number, other._vars, other.over, other.winner, other._scores,
                     other._history, other.chance)
                == (self.player, self.move_number, self._vars, self.over, self.winner, self._scores,
                    self._history, self.chance))

    __hash__ = None

    def __repr__(self) -> str:
        status = (f"over, winner {self.winner}" if self.over
                  else f"chance, then player {self.player}" if self.chance else f"player {self.player} on turn")
        return f"<State {self.game.name} move {self.move_number}: {status}>"

    # ------------------------------------------------------------ moves

    def check(self, move: Move | str) -> Verdict:
        """Whether `move` is legal here (isMoveLegal() runs; end() does not), and why not."""
        if isinstance(move, str):
            found = self.read_move(move)
            if isinstance(found, Verdict):
                return found
            move = found
        if self.over:
            return Verdict(VerdictKind.GAME_OVER, "the game is over: no more moves")
        verdict = self.game.resolve(move)
        if not verdict:
            return verdict
        if self.chance:
            return self._check_outcome(verdict)
        try:
            legal = self.game.rules.is_move_legal(self._board, verdict.ops, self.player,
                                                  self.move_number, self._vars, self._history)
        except GdefRuntimeError as error:
            return Verdict(VerdictKind.RUNTIME_ERROR, f"isMoveLegal() failed: {error.headline()}", error)
        if not legal:
            before, ops = self.clone(), verdict.ops
            return Verdict(VerdictKind.REJECTED, "the rules do not allow this move (isMoveLegal() returned false)",
                           explain=lambda: explain_refusal(before, ops))
        return verdict

    def _check_outcome(self, verdict: Verdict) -> Verdict:
        """At a chance node: legal when the move is one of the outcomes (isMoveLegal() does not
        judge chance), its operations or the same changes in another order; else refused with
        the outcomes listed. A legal verdict holds the outcome's own operations."""
        try:
            outcomes = self._chance_ops()
        except GdefRuntimeError as error:
            return Verdict(VerdictKind.RUNTIME_ERROR, f"chance() failed: {error.headline()}", error)
        if any(ops == verdict.ops for ops, _ in outcomes):
            return verdict
        effect = chance.effect(verdict.ops)
        same = next((ops for ops, _ in outcomes if chance.effect(ops) == effect), None)
        if same is not None:
            return Verdict(VerdictKind.LEGAL, ops=same)
        moves = [move for move, _ in self.chance_outcomes()]
        return Verdict(VerdictKind.REJECTED, chance.refusal(self.move_names(moves)),
                       candidates=tuple(self.move_names(moves)))

    def read_move(self, text: str) -> "Move | Verdict":
        """The Move that `text` writes: operations (`clear(4,1); place(4,3,WP)`, `pass`) or a
        move name (`e2e4`, gdef_core/runtime/notation.py); else a Verdict saying why not, with
        the candidates of an unknown or ambiguous name."""
        try:
            return Move.parse(text)
        except MoveSyntaxError as error:
            if not looks_like_name(text):
                return Verdict(VerdictKind.MALFORMED, f"not a move: {error}")
        if self.over:
            return Verdict(VerdictKind.GAME_OVER, "the game is over: no more moves")
        exact = read_exact_name(self, text)  # a big board's legal moves are not all named
        if exact is not None:
            return exact
        try:
            total = self.legal_count()
            legal = self.legal_moves() if total <= NAMED_ALL or self.chance else None
        except GdefRuntimeError as error:
            failed = "chance()" if self.is_chance_node else "moves()"
            return Verdict(VerdictKind.RUNTIME_ERROR, f"{failed} failed while reading the move's name: "
                                                      f"{error.headline()}", error)
        # A big board's millions of moves are not all named: those the text could name are.
        found = read_move_name(self, text, legal) if legal is not None else read_name_near(self, text, total)
        if isinstance(found, NameProblem):
            kind = VerdictKind.AMBIGUOUS if found.ambiguous else VerdictKind.UNKNOWN_NAME
            return Verdict(kind, found.message, candidates=found.candidates)
        return found

    def move_name(self, move: Move, legal: list[Move] | None = None) -> str:
        """The name of `move` here (`e2e4`, `D4`, `pass`); `legal`: this state's legal moves,
        when the caller has them."""
        return move_name(self, move, legal)

    def move_names(self, moves: list[Move]) -> list[str]:
        """The names of `moves` (this state's), no two the same."""
        return move_names(self, moves)

    def names_in_position(self, moves: list[Move]) -> list[str]:
        """The name of each of `moves` here, as move_name() gives it: some of the legal moves
        named without naming them all."""
        return names_in_position(self, moves)

    def apply(self, move: Move | str) -> None:
        """Play `move`: check it, apply it, run end(). Raises IllegalMoveError (state unchanged)
        when the move is not legal or end() fails."""
        legal = self._legal
        if legal is not None and type(move) is Move and move._game is self.game and move._resolved in legal:
            self._play(move._resolved)
            return
        verdict = self.check(move)
        if not verdict:
            raise IllegalMoveError(verdict)
        self._play(verdict.ops)

    def _play(self, ops) -> None:
        game = self.game
        chance_move = self.chance
        rules = game.rules
        board = self._board
        previous = board.copy() if rules.uses_previous else None
        height = game.height
        # end()'s consequences change squares the move does not name: keep them all
        undo = list(enumerate(board)) if rules.end_consequences else []
        if game.counting:
            apply_operations(board, ops, game.width, height, undo)
        else:
            for x, y, obj, _ in ops:
                index = x * height + y
                undo.append((index, board[index]))
                board[index] = obj
        variables = _copy_vars(self._vars) if self._vars else self._vars
        scores = self._scores.copy() if rules.uses_scores else self._scores
        try:
            over, winner, chosen, chance_next = rules.end(board, ops, self.player, self.move_number + 1,
                                                          variables, scores, self._history, previous, chance_move)
        except BaseException as error:
            for index, old in reversed(undo):
                board[index] = old
            if isinstance(error, GdefRuntimeError):
                raise IllegalMoveError(Verdict(VerdictKind.RUNTIME_ERROR,
                                               f"end() failed after this move: {error.headline()}",
                                               error)) from None
            raise
        self.move_number += 1
        self._vars = variables
        self._scores = scores
        self._legal = self._outcomes = self._found = None
        self.chance = chance_next and not over
        if over:
            self.over = True
            self.winner = winner
        elif chosen is not None:
            self.player = chosen
        elif not chance_move:  # after a chance outcome the player who waited for it moves
            self.player = (self.player + 1) % game.players
        if self._history is not None:
            self._history = self._history.then(rules.position_key(board, self.player, variables, self.chance))

    def legal_moves(self) -> list[Move]:
        """Every legal move here, in the order generated (spec section 12); [] once over.
        Raises GdefRuntimeError when moves() fails."""
        if self.over:
            return []
        if self.chance:
            moves = [move for move, _ in self.chance_outcomes()]
            self._legal = _lookup([ops for ops, _ in self._outcomes])
            return moves
        game = self.game
        rules = game.rules
        try:
            if rules.raw_moves is None:  # the automatic candidates come with their Moves
                found, moves = rules.raw_default_filter(self._board, game._places, game._clears,
                                                        self.player, self.move_number, self._vars, False,
                                                        self._history)
                self._legal = _lookup(found)
                return moves
            found = game.legal_ops(self._board, self.player, self.move_number, self._vars, False, self._history)
        except (Fail, RecursionError) as error:
            raise rules.error(error) from None
        self._legal = _lookup(found)
        return self.moves_of(found)

    def legal_ops(self) -> list:
        """legal_moves() as operation tuples, in its order, without making their Moves: on a
        1000 x 1000 board the automatic candidates are two million, and a tool that shows a
        count or a page of them makes Moves of that page alone (`moves_of`). [] once over.
        The list is kept for this position and shared: never change it. Raises
        GdefRuntimeError when moves() (or chance()) fails."""
        if self.over:
            return []
        if self._found is not None:
            return self._found
        if self.chance:
            found = [ops for ops, _ in self._chance_ops()]
        else:
            game = self.game
            try:
                if game.rules.raw_moves is None:
                    found = game.rules.raw_filter(self._board, self.candidate_ops(), self.player, self.move_number,
                                                  self._vars, False, self._history, False)
                else:
                    found = game.legal_ops(self._board, self.player, self.move_number, self._vars, False,
                                           self._history)
            except (Fail, RecursionError) as error:
                raise game.rules.error(error) from None
        if len(found) <= _MOVE_CACHE_SIZE:  # beyond, building the set costs more than judging one move again
            self._legal = _lookup(found)
        self._found = found
        return found

    def legal_count(self) -> int:
        """How many legal moves there are here (len(legal_moves()), without making them)."""
        return len(self.legal_ops())

    def moves_of(self, found: list) -> list[Move]:
        """The Moves of operation tuples (some of legal_ops() or candidate_ops())."""
        game = self.game
        return [game._moves.get(ops) or game.to_move(ops) for ops in found]

    def candidate_moves(self) -> list[Move]:
        """What `moves()` proposes here (the automatic candidates without it), before
        `isMoveLegal()` judges them; [] once over. Raises GdefRuntimeError when moves() fails."""
        if self.chance and not self.over:
            return [move for move, _ in self.chance_outcomes()]
        return self.moves_of(self.candidate_ops())

    def candidate_ops(self) -> list:
        """candidate_moves() as operation tuples (the outcomes at a chance node), without making
        their Moves: a big board has millions of candidates. [] once over. Raises
        GdefRuntimeError when moves() fails."""
        if self.over:
            return []
        if self.chance:
            return [ops for ops, _ in self._chance_ops()]
        game = self.game
        try:
            return game.candidates(self._board, self.player, self.move_number, self._vars)
        except (Fail, RecursionError) as error:
            raise game.rules.error(error) from None

    def candidate_view(self) -> Sequence:
        """candidate_ops() as a read-only sequence, in its order: a game without moves() gets
        its automatic candidates made when indexed (CandidateView), so drawing a few of a big
        board's millions costs what is drawn, not the board. Valid while the position is (a
        move applied and restored leaves it valid)."""
        if self.over or self.chance or self.game.rules.raw_moves is not None:
            return self.candidate_ops()
        return CandidateView(self.game, self._board)

    def candidates_touching(self, squares: set) -> list:
        """notation.touching(candidate_ops(), squares): the candidates that change one of
        `squares` ((x, y) pairs), and the pass; without moves() picked out by square (naming
        a move on a big board looks at its few squares, not at its millions of candidates)."""
        view = self.candidate_view()
        if isinstance(view, CandidateView):
            return view.touching(squares)
        return touching(view, squares)

    def legal_of(self, candidates: list) -> list[Move | None]:
        """Per operation tuple of `candidates` (some of candidate_ops(), in its order) its Move
        when isMoveLegal() allows it (every outcome at a chance node), else None: the verdicts
        legal_moves() would give them. Raises GdefRuntimeError when judging fails (the steps of
        a search run out)."""
        game = self.game
        if self.over:
            return [None] * len(candidates)
        if self.chance:
            return [game.to_move(ops) for ops in candidates]
        try:
            found = game.rules.raw_filter(self._board, candidates, self.player, self.move_number, self._vars,
                                          False, self._history, game.rules.raw_moves is not None)
        except (Fail, RecursionError) as error:
            raise game.rules.error(error) from None
        kept = iter(found)
        wanted = next(kept, None)
        verdicts: list[Move | None] = []
        for ops in candidates:
            if ops is wanted:
                verdicts.append(game._moves.get(ops) or game.to_move(ops))
                wanted = next(kept, None)
            else:
                verdicts.append(None)
        return verdicts

    def random_move(self, rng) -> Move | None:
        """A legal move chosen at random with `rng` (a random.Random), every legal move equally
        likely, or None when there is none. The candidates are judged in random order until one
        is legal, so a random playout does not pay for judging every candidate as
        `rng.choice(state.legal_moves())` does. At a chance node: an outcome drawn by weight.
        Raises GdefRuntimeError when moves() (or chance()) fails."""
        if self.over:
            return None
        if self.chance:
            return self.sample_chance(rng)
        game = self.game
        board, player, number, variables = self._board, self.player, self.move_number, self._vars
        try:
            candidates = self.candidate_view()   # a big board's millions made only as drawn
            found = game.rules.raw_filter(board, _random_order(candidates, rng.random), player, number,
                                          variables, True, self._history, game.rules.raw_moves is not None)
        except (Fail, RecursionError) as error:
            raise game.rules.error(error) from None
        if not found:
            return None
        self._legal = found   # applying it needs no second isMoveLegal()
        return game._moves.get(found[0]) or game.to_move(found[0])

    def has_legal_move(self) -> bool:
        if self.over:
            return False
        if self.chance:
            return bool(self._chance_ops())
        game = self.game
        try:
            return bool(game.legal_ops(self._board, self.player, self.move_number, self._vars, True,
                                       self._history))
        except (Fail, RecursionError) as error:
            raise game.rules.error(error) from None

    # ------------------------------------------------------------ serialisation

    def to_json(self) -> dict:
        """A JSON-ready dict of the whole state (board squares that are not empty)."""
        return {
            "game": self.game.name,
            "width": self.game.width,
            "height": self.game.height,
            "player": self.player,
            "move_number": self.move_number,
            "over": self.over,
            "winner": self.winner,
            "vars": {name: json_value(value) for name, value in self.variables.items()},
            "scores": [json_value(score) for score in self.scores],
            "board": [[x, y, str(obj)] for x, y, obj in self.board.occupied()],
            **({"counts": [list(entry) for entry in self.board.counts()]} if self.game.counting else {}),
            **({"chance": True} if self.chance else {}),
            **({"history": [_position_json(self.game, key) for key in self._history.keys()]}
               if self._history is not None else {}),
        }

    @classmethod
    def from_json(cls, game: Game, data: dict) -> "State":
        """The state `to_json()` described; ValueError saying what does not fit this game."""
        try:
            return _state_from_json(game, data)
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a state of {game.name}: {error!r}") from None


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """What a move changed, to take it back: the squares its operations name and the state's
    few other fields. Its size follows the move, never the board (a 1000x1000 game keeps a few
    bytes a move, not a copy of a million squares)."""

    squares: tuple[tuple[int, object], ...]
    player: int
    move_number: int
    variables: list
    over: bool
    winner: int | None
    scores: list  # replaced, never changed in place: kept by reference
    history: object  # likewise (gdef_core.runtime.history)
    chance: bool = False  # the next move was chance's


def _state_from_json(game: Game, data: dict) -> State:
    if (data["width"], data["height"]) != (game.width, game.height):
        raise ValueError(f"the state is for a {data['width']}x{data['height']} board, "
                         f"not {game.width}x{game.height}")
    player = _player_from_json(game, data, "")
    board = _board_from_json(game, data, "")
    variables = [_variable_or_param(game, name, data["vars"]) for name in game.variable_names]
    winner = data["winner"]
    if winner is not None and (type(winner) is not int or not 0 <= winner < game.players):
        raise ValueError(f"winner {winner!r} is out of range")
    move_number = data["move_number"]
    if type(move_number) is not int or move_number < 0:
        raise ValueError(f"move number {move_number!r} is not a count")
    scores = data.get("scores", [0] * game.players)
    if not (isinstance(scores, list) and len(scores) == game.players
            and all(type(v) in (int, float) for v in scores)):
        raise ValueError(f"scores {scores!r} are not one number per player")
    chance_node = _chance_from_json(data, "")
    history = None
    if game.rules.uses_history:
        positions = data.get("history")
        if positions is None:  # a state written without its history: it starts here
            history = History.start(game.rules.position_key(board, player, variables, chance_node))
        else:
            if not isinstance(positions, list) or not positions:
                raise ValueError("'history' must list the positions of the game, this one last")
            for position in positions:
                key = _position_from_json(game, position)
                history = History.start(key) if history is None else history.then(key)
            if history.key != game.rules.position_key(board, player, variables, chance_node):
                raise ValueError("the last position of 'history' is not this state's position")
    return State(game, board, player, move_number, variables, bool(data["over"]), winner, scores, history,
                 chance_node)


def _position_json(game: Game, key: tuple) -> dict:
    """One position of a history (board, player to move, compared variables, whether chance
    moves next) for to_json()."""
    board, player, values, chance = key
    height = game.height
    names = [name for name in game.variable_names if not game.is_counter(name)]
    size = game.width * height
    return {"player": player,
            "vars": {name: _json_value(value) for name, value in zip(names, values)},
            "board": [[i // height, i % height, str(obj)] for i, obj in enumerate(board[:size]) if obj is not game.empty],
            **({"counts": [[i // height, i % height, n] for i, n in enumerate(board[size:]) if n]}
               if game.counting else {}),
            **({"chance": True} if chance else {})}


def _position_from_json(game: Game, data) -> tuple:
    if not isinstance(data, dict):
        raise ValueError(f"history entry {data!r} is not a position")
    board = _board_from_json(game, data, "history ")
    player = _player_from_json(game, data, "history ")
    variables = [_variable_or_param(game, name, data["vars"]) if not game.is_counter(name)
                 else game._start_vars[i] for i, name in enumerate(game.variable_names)]
    return game.rules.position_key(board, player, variables, _chance_from_json(data, "history "))


def _board_from_json(game: Game, data: dict, what: str) -> list:
    """The squares of a state's or a history position's JSON (`what`: "" or "history ", which
    the messages name), objects then counts, checked against the game."""
    board = [game.empty] * (game.width * game.height)
    for x, y, name in data["board"]:
        obj = game.obj(name)
        if obj is None or type(x) is not int or type(y) is not int \
                or not (0 <= x < game.width and 0 <= y < game.height):
            raise ValueError(f"{what}square [{x!r}, {y!r}, {name!r}] does not fit this game")
        board[x * game.height + y] = obj
    _counts_from_json(game, board, data.get("counts", []), what)
    return board


def _player_from_json(game: Game, data: dict, what: str) -> int:
    player = data["player"]
    if type(player) is not int or not 0 <= player < game.players:
        raise ValueError(f"{what}player {player!r} is out of range")
    return player


def _chance_from_json(data: dict, what: str) -> bool:
    chance = data.get("chance", False)
    if type(chance) is not bool:
        raise ValueError(f"{what}'chance' {chance!r} is not true or false")
    return chance


def _counts_from_json(game: Game, board: list, entries, what: str) -> None:
    """The squares' counts of a state or history position written by to_json() ([x, y, n] of
    each square whose count is not 0), added to `board` (its objects) in a game whose squares count."""
    size = game.width * game.height
    if game.counting:
        board.extend([0] * size)
    if not entries:
        return
    if not game.counting:
        raise ValueError(f"{what}counts {entries!r}: the squares of {game.name} hold no counts")
    if not isinstance(entries, list):
        raise ValueError(f"{what}counts {entries!r} are not a list of [x, y, n]")
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 3 and all(type(v) is int for v in entry)
                and 0 <= entry[0] < game.width and 0 <= entry[1] < game.height
                and -2 ** 63 <= entry[2] < 2 ** 63):
            raise ValueError(f"{what}count {entry!r} does not fit this game")
        board[size + entry[0] * game.height + entry[1]] = entry[2]


def _json_value(value):
    if type(value) is tuple:
        return [_json_value(item) for item in value]
    return str(value) if isinstance(value, str) else value


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector paused while millions of tuples that hold no cycle are
    made (a 1000 x 1000 board's two million candidates: 2.9 s with it running, 0.6 s without):
    each of its passes scans every tuple made so far."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _lookup(found: list) -> list | frozenset:
    """Legal operations to look moves up in: a short list is searched faster than a set is built."""
    return frozenset(found) if len(found) > 8 else found


def _copy_vars(variables: list) -> list:
    """A copy of the game variables that shares no array with the original."""
    copy = variables.copy()
    for i, value in enumerate(copy):
        if type(value) is list:
            copy[i] = _copy_value(value)
    return copy


def _copy_value(value):
    if type(value) is list:
        return [_copy_value(item) if type(item) is list else item for item in value]
    return value


# JSON has no infinities or NaN: a float game variable holding one is written as this string
# (docs/runtime.md, "Records"), so that records stay strict JSON and --resume reads them back.
NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def json_value(value):
    """A game variable's value as strict JSON: an object by its name, a non-finite float as
    "inf", "-inf" or "nan", anything else as it is."""
    if type(value) is list:  # an array variable (section 15.1): nested lists
        return [json_value(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return str(value) if isinstance(value, str) else value


def _variable_or_param(game: Game, name: str, values: dict):
    """Game variable `name` of a state's "vars"; a parameter is the game's own value (a state
    may leave it out, and one that says otherwise belongs to the game loaded with other values)."""
    if name not in game.params:
        return _variable(game, name, values[name])
    value = game.params[name]
    if name in values and _variable(game, name, values[name]) != value:
        raise ValueError(f"parameter '{name}' is {_json_value(value)} in this game, not "
                         f"{_json_value(values[name])}: load the game with {name}={_json_value(values[name])}")
    return value


def _variable(game: Game, name: str, value):
    shape = game._start_vars[game.variable_names.index(name)]
    if type(shape) is list:  # an array (section 15.1): nested lists of the same sizes
        return _array(game, name, value, shape)
    return _scalar(game, name, game.variable_types[name], value)


def _array(game: Game, name: str, value, shape: list) -> list:
    if type(value) is not list or len(value) != len(shape):
        raise ValueError(f"game variable '{name}': expected a list of {len(shape)} elements")
    if shape and type(shape[0]) is list:
        return [_array(game, name, row, shape_row) for row, shape_row in zip(value, shape)]
    kind = game.variable_types[name]
    return [_scalar(game, name, kind, item) for item in value]


def _scalar(game: Game, name: str, kind: str, value):
    if kind == "obj":
        obj = game.obj(value) if isinstance(value, str) else None
        if obj is None:
            raise ValueError(f"game variable '{name}': {value!r} is not an object")
        return obj
    if kind == "bool" and type(value) is bool:
        return value
    if kind == "int" and type(value) is int and -2 ** 63 <= value < 2 ** 63:  # an int of the language
        return value
    if kind == "float" and type(value) in (int, float):
        return float(value)
    if kind == "float" and value in NON_FINITE:
        return NON_FINITE[value]
    raise ValueError(f"game variable '{name}': {value!r} is not {kind}")


def _random_order(items: Sequence, random):
    """The items of a sequence in random order, drawn one at a time: a Fisher-Yates shuffle
    that stops when the caller stops and keeps only the positions it swapped (the items are
    not changed, nor copied: a CandidateView's millions are made as drawn). `random` is a
    Random's random()."""
    swapped: dict[int, int] = {}   # position -> the index of the item now there
    n = len(items)
    while n:
        i = int(random() * n)
        n -= 1
        index = swapped.pop(i, i)
        if i != n:   # the item at the last position moves where the drawn one was
            swapped[i] = swapped.pop(n, n)
        yield items[index]


def _nth(number: int, move: Move) -> str:
    return f"operation {number} " if len(move.ops) > 1 else ""


def load_game(paths: Sequence[str] | str, *, max_steps: int = DEFAULT_MAX_STEPS,
              max_depth: int = DEFAULT_MAX_DEPTH, params: Mapping[str, object] | None = None) -> Game:
    """Load, check and compile the game made of `paths` (a rules file and its helpers), with
    `params` the values of its parameters by name (the others keep their defaults).

    Raises GameLoadError (with every diagnostic) when the files have errors or make a library
    rather than a game, or when the game variables' initial values fail; ParamError (a
    GameLoadError) when a parameter value is refused; GdefFileError when a named file cannot be
    read.
    """
    from gdef_core.loader import load_program

    if isinstance(paths, str):
        paths = [paths]
    program = load_program(list(paths), params=params)
    return game_from_program(program, max_steps=max_steps, max_depth=max_depth)


def game_from_program(program: Program, *, max_steps: int = DEFAULT_MAX_STEPS,
                      max_depth: int = DEFAULT_MAX_DEPTH, optimize: bool = True) -> Game:
    """The Game of a checked program, or GameLoadError; `optimize=False` is the reference build
    (every check kept, one generated line a statement), which the debugger runs."""
    if program.param_errors:
        raise ParamError(list(program.param_errors.values()))
    if not program.ok:
        count = len(program.errors)
        raise GameLoadError(program.diagnostics, f"the game has {count} error{'s' if count > 1 else ''}:")
    if program.is_library or program.players is None or program.width is None:
        raise GameLoadError(program.diagnostics, "these files make a library, not a game: "
                                                 "no 'players:' and 'size:' parameters")
    try:
        return Game(program, max_steps=max_steps, max_depth=max_depth, optimize=optimize)
    except CompileError as error:
        from gdef_core.codes import diagnostic
        raise GameLoadError([*program.diagnostics, diagnostic("G612", error.span, error.message)],
                            "the rules cannot be compiled:") from None
    except GdefRuntimeError as error:
        raise GameLoadError([*program.diagnostics, error.as_diagnostic()],
                            "a game variable's initial value fails:") from None

