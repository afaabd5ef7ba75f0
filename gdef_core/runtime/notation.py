"""Move names people read and type (`e2e4`, `D4`, `e7e8q`, `pass`), derived from a move's
operations, the position before it and the game's presentation (labels, sides, letters).

The operations stay the canonical form of a move (records keep them); a name is how a move
is shown and one more way to enter it. Names are given to a list of moves at once (the legal
moves of a position), so that two moves never share one: where the short name is shared the
longer forms are used (the piece's letter, then the captured squares, then `#N`).

    names = move_names(state, state.legal_moves())
    found = read_move_name(state, "e2e4")     # a Move, or a NameProblem with candidates
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass
from functools import lru_cache

from gdef_core.presentation import Presentation
from gdef_core.runtime.errors import GdefRuntimeError

MAX_CANDIDATES = 12  # names listed when a name is unknown or ambiguous
MIN_PARTIAL = 2  # a shorter text never matches part of a name (`4` is not `d4`)
NAMED_ALL = 2_000  # legal moves named all at once to read or complete a name; beyond, by squares_named
SQUARES_NAMED = 25_000  # squares a text may name for the moves touching them to be named
_SEPARATORS = "@x-"  # what stands between the square names of a move's name (`N@e4`, `exd5`, `0,1-0,3`)


@dataclass(frozen=True, slots=True)
class _Effect:
    """What a move does to the board, in terms notation needs."""

    frm: tuple[int, int] | None  # the square the moved piece left
    to: tuple[int, int] | None  # where a piece arrived (moved, placed or promoted)
    piece: str | None  # the object that arrived
    changed_piece: bool  # a move whose piece became another (a promotion)
    captured: tuple[tuple[int, int], ...]  # other squares emptied


def move_names(state, moves: list) -> list[str]:
    """A name for each of `moves` (Moves of `state`), no two the same."""
    presentation: Presentation = state.game.presentation
    if state.is_chance_node:  # outcomes are named by what they place: `D3`, `D2+D5`
        names = [_outcome_name(move) for move in moves]
        if not _shared(names):
            return names
    effects = [_effect(state, move, presentation) for move in moves]
    names = [_short(presentation, effect, move) for effect, move in zip(effects, moves)]
    for form in (_with_piece, _with_captures):
        shared = _shared(names)
        if not shared:
            return names
        names = [form(presentation, effect, name) if name in shared else name
                 for effect, name in zip(effects, names)]
    return _numbered(names)


def move_name(state, move, legal: list | None = None) -> str:
    """The name of `move` in `state`: as in the list of `legal` moves when it is one of them,
    else its short form. Without `legal` the same name, judging only the candidates that could
    share one of its forms (names_in_position)."""
    if legal is None:
        return names_in_position(state, [move])[0]
    try:
        index = legal.index(move)
    except ValueError:
        presentation = state.game.presentation
        return _short(presentation, _effect(state, move, presentation), move)
    return move_names(state, legal)[index]


def names_in_position(state, moves: list) -> list[str]:
    """The name of each of `moves` in `state`, as move_name() gives it, without listing every
    legal move: on a big board that judges millions (docs/runtime.md, "Move names").

    Each name a move can get (short, with the piece, then with the captures) contains the one
    before, so all are part of its longest form, and each contains its short name, which
    contains the label of a square the move touches (its column's in `column` notation):
    `pass`, and a move that changes nothing, named by its operations, aside (labels never
    hold `(`, G804). So a move whose name at some step equals this move's touches a square
    labelled inside this move's longest form, and so does any move sharing a name with it at
    an earlier step: those candidates, judged and named as move_names() names them, give
    this move the name the whole list gives it (the same moves share each of its forms, in
    the same order for `#N`)."""
    if state.is_chance_node:  # an outcome's name is not made of labels: the outcomes are few
        legal = _legal_or_empty(state)
        return [move_name(state, move, legal) for move in moves]
    presentation = state.game.presentation
    effects = [_effect(state, move, presentation) for move in moves]
    shorts = [_short(presentation, effect, move) for effect, move in zip(effects, moves)]
    squares: set[tuple[int, int]] = set()
    for move, effect, short in zip(moves, effects, shorts):
        squares.update((op.x, op.y) for op in move.ops)
        squares |= _labelled(presentation, _longest(presentation, effect, short))
    try:
        near = state.candidates_touching(squares)
        named = [found for found in state.legal_of(near) if found is not None]
    except GdefRuntimeError:  # as when the legal moves cannot be listed: the short forms
        return shorts
    names = move_names(state, named)
    first: dict = {}
    for index, found in enumerate(named):
        first.setdefault(found, index)
    return [names[first[move]] if move in first else short for move, short in zip(moves, shorts)]


def _longest(presentation: Presentation, effect: _Effect, short: str) -> str:
    """The longest name a move can get but for `#N`; every other one is part of it."""
    return _with_captures(presentation, effect, _with_piece(presentation, effect, short))


def _labelled(presentation: Presentation, text: str) -> set[tuple[int, int]]:
    """The squares whose label (their column's in `column` notation) appears in `text`: the
    labels looked up by the text's pieces (a name is short, a board's labels may be a thousand)."""
    columns = _inside(_label_index(presentation.columns), text)
    if presentation.notation == "column":
        return {(x, y) for x in columns for y in range(len(presentation.rows))}
    rows = _inside(_label_index(presentation.rows), text)
    return {(x, y) for x in columns for y in rows if presentation.square(x, y) in text}


@lru_cache(maxsize=8)
def _label_index(labels: tuple[str, ...]) -> tuple[dict[str, list[int]], frozenset[int]]:
    """Each label's positions, and the labels' lengths."""
    index: dict[str, list[int]] = {}
    for number, label in enumerate(labels):
        index.setdefault(label, []).append(number)
    return index, frozenset(map(len, index))


def _inside(indexed: tuple[dict[str, list[int]], frozenset[int]], text: str) -> list[int]:
    """The positions of the labels that appear in `text`."""
    index, lengths = indexed
    found = dict.fromkeys(number for size in lengths for start in range(len(text) - size + 1)
                          for number in index.get(text[start:start + size], ()))
    return sorted(found)


def touching(candidates: list, squares: set) -> list:
    """The `candidates` (State.candidate_ops()'s) that change one of `squares`, and the pass."""
    columns = {x for x, _ in squares}  # most operations are told apart by their column alone
    found = []
    for ops in candidates:
        if not ops:
            found.append(ops)
        for op in ops:
            if op[0] in columns and (op[0], op[1]) in squares:
                found.append(ops)
                break
    return found


def squares_named(presentation: Presentation, text: str, ending: bool = False,
                  fold: bool = False) -> set[tuple[int, int]] | None:
    """The squares a name that starts with `text` (with `ending`, or ends with it) could be
    made of, without naming a move: those whose name (their column's label in `column`
    notation) is inside the text, or starts with an end of it that follows a separator (`51`
    of `X@51`), or with `ending` ends with a start of it followed by one. A move's name holds
    the name of a square it touches (names_in_position), so the moves touching these are the
    only ones to name. `fold`: any case. None when they are more than SQUARES_NAMED: the text
    says too little to look among the moves of a big board."""
    fold_label = str.lower if fold else str
    text = fold_label(text)
    starts = [text[i:] for i in range(len(text)) if i == 0 or text[i - 1] in _SEPARATORS]
    stops = [text[:i] for i in range(1, len(text) + 1) if i == len(text) or text[i] in _SEPARATORS] if ending else []

    def named(name: str) -> bool:
        name = fold_label(name)
        return name in text or any(name.startswith(s) for s in starts) or any(name.endswith(s) for s in stops)

    columns, rows = [fold_label(c) for c in presentation.columns], [fold_label(r) for r in presentation.rows]
    if presentation.notation == "column":
        xs = [x for x, column in enumerate(columns) if named(column)]
        if len(xs) * len(rows) > SQUARES_NAMED:
            return None
        return {(x, y) for x in xs for y in range(len(rows))}
    xs = [x for x, column in enumerate(columns) if column in text or any(s.startswith(column) or column.startswith(s)
                                                                         for s in starts)]
    ys = [y for y, row in enumerate(rows) if any(s.endswith(row) or row.endswith(s) for s in stops)]
    found: set[tuple[int, int]] = set()
    for square in itertools.chain(((x, y) for x in xs for y in range(len(rows))),
                                  ((x, y) for y in ys for x in range(len(columns)))):
        if named(presentation.square(*square)):
            found.add(square)
            if len(found) > SQUARES_NAMED:
                return None
    return found


@dataclass(frozen=True, slots=True)
class NameProblem:
    """A name that picks no single move: `ambiguous` when several fit, else unknown."""

    text: str
    ambiguous: bool
    candidates: tuple[str, ...]
    total: int  # legal moves in all
    close: bool = False  # the candidates are the names most like the text, not the first ones
    vague: bool = False  # the text could be part of too many names of a big board's to look

    @property
    def message(self) -> str:
        shown = ", ".join(self.candidates)
        if self.vague:
            return (f"'{self.text}' could be part of the names of too many of the {self.total:,} legal moves "
                    "here: write more of the name, or the move's operations")
        if self.ambiguous:
            return f"'{self.text}' is ambiguous here: it could be {shown}"
        if not self.total:
            return f"'{self.text}' is not a move, and there is no legal move here"
        more = "" if len(self.candidates) >= self.total else f" ({self.total:,} in all; 'moves' lists them)"
        label = "the closest legal moves" if self.close else "legal moves"
        return f"'{self.text}' names no legal move here; {label}: {shown}{more}"


def read_exact_name(state, text: str):
    """The legal move named exactly `text`, found without naming every legal move, or None
    (then read_move_name decides, among all of them). Its short name is part of `text` and
    contains the label of a square it touches: only the candidates touching a square labelled
    inside `text` are judged and named (names_in_position)."""
    if state.is_chance_node:  # an outcome's name is not made of labels
        return None
    text = text.strip()
    try:
        near = state.candidates_touching(_labelled(state.game.presentation, text))
        legal = [found for found in state.legal_of(near) if found is not None]
    except GdefRuntimeError:  # reading the name among all the legal moves says what failed
        return None
    found = [move for move, name in zip(legal, names_in_position(state, legal)) if name == text]
    return found[0] if len(found) == 1 else None


def read_move_name(state, text: str, legal: list | None = None):
    """The Move named `text` in `state`, or a NameProblem. An exact name wins, then a name
    equal but for case, then a unique name that starts or ends with `text` (`e4` for the only
    move to e4). When no legal move fits, a move that moves() proposes under that name is
    returned, so that the rules can say why it is refused."""
    text = text.strip()
    if legal is None:
        legal = _legal_or_empty(state)
    names = move_names(state, legal)
    found = _match(text, names)
    if len(found) == 1:
        return legal[found[0]]
    if found:
        return NameProblem(text, True, tuple(names[i] for i in found[:MAX_CANDIDATES]), len(legal))
    proposed = _proposed(state, text, _candidate_ops_or_empty(state), legal)
    if proposed is not None:
        return proposed
    close = difflib.get_close_matches(text, names, n=MAX_CANDIDATES, cutoff=0.5)
    return NameProblem(text, False, tuple(close or names[:MAX_CANDIDATES]), len(legal), bool(close))


def read_name_near(state, text: str, total: int):
    """read_move_name in a position of more than NAMED_ALL legal moves (`total`), naming only
    the moves touching the squares the text could be made of (squares_named, in any case and
    from either end), or a NameProblem saying the text is too vague to look."""
    text = text.strip()
    squares = squares_named(state.game.presentation, text, ending=len(text) >= MIN_PARTIAL, fold=True)
    if squares is None:
        return NameProblem(text, False, (), total, vague=True)
    try:
        legal = state.moves_of(touching(state.legal_ops(), squares))
    except GdefRuntimeError:
        legal = []
    names = names_in_position(state, legal)
    found = _match(text, names)
    if len(found) == 1:
        return legal[found[0]]
    if found:
        return NameProblem(text, True, tuple(names[i] for i in found[:MAX_CANDIDATES]), total)
    proposed = _proposed(state, text, touching(_candidate_ops_or_empty(state), squares), legal)
    if proposed is not None:
        return proposed
    close = difflib.get_close_matches(text, names, n=MAX_CANDIDATES, cutoff=0.5)
    if not close:  # nothing like it: the first legal moves, as in a small position
        try:
            names = names_in_position(state, state.moves_of(state.legal_ops()[:MAX_CANDIDATES]))
        except GdefRuntimeError:
            names = []
    return NameProblem(text, False, tuple(close or names[:MAX_CANDIDATES]), total, bool(close))


def _match(text: str, names: list[str]) -> list[int]:
    for same in (lambda n: n == text, lambda n: n.lower() == text.lower()):
        found = [i for i, name in enumerate(names) if same(name)]
        if found:
            return found
    if len(text) < MIN_PARTIAL:
        return []
    low = text.lower()
    return [i for i, name in enumerate(names) if name.lower().startswith(low) or name.lower().endswith(low)]


def _proposed(state, text: str, candidates: list, legal: list):
    """The candidate (of the operation tuples `candidates`, moves()'s, not `legal`) whose short
    name is exactly `text`, if one."""
    kept = set(legal)
    candidates = [move for move in state.moves_of(candidates) if move not in kept]
    presentation = state.game.presentation
    named = [move for move in candidates
             if _short(presentation, _effect(state, move, presentation), move) == text]
    return named[0] if len(named) == 1 else None


def _candidate_ops_or_empty(state) -> list:
    try:
        return state.candidate_ops()
    except GdefRuntimeError:  # reported when the move is judged
        return []


def _legal_or_empty(state) -> list:
    try:
        return state.legal_moves()
    except GdefRuntimeError:
        return []


# ---------------------------------------------------------------- deriving names


def _effect(state, move, presentation: Presentation) -> _Effect:
    board, height, width = state._board, state.game.height, state.game.width
    before: dict[tuple[int, int], str] = {}
    after: dict[tuple[int, int], str] = {}
    order: list[tuple[int, int]] = []
    for op in move.ops:
        square = (op.x, op.y)
        if op.is_count or not (0 <= op.x < width and 0 <= op.y < height):
            continue  # a count changes no object
        if square not in before:
            before[square] = str(board[op.x * height + op.y])
            order.append(square)
        after[square] = op.obj if op.obj is not None else "empty"
    vacated = [s for s in order if before[s] != "empty" and after[s] == "empty"]
    arrivals = [(s, after[s]) for s in order if after[s] != "empty" and after[s] != before[s]]
    frm = to = piece = None
    for square, obj in arrivals:
        source = _source(vacated, before, obj, presentation)
        if source is not None:
            frm, to, piece = source, square, obj
            break
    if to is None:
        appeared = [(s, obj) for s, obj in arrivals if before[s] == "empty"] or arrivals
        if appeared:
            to, piece = appeared[0]
    captured = tuple(s for s in vacated if s != frm)
    return _Effect(frm, to, piece, frm is not None and before[frm] != piece, captured)


def _source(vacated: list, before: dict, obj: str, presentation: Presentation):
    """The emptied square the arriving `obj` came from: one that held the same object, else
    one that held a piece of the same side (a promotion)."""
    same = [s for s in vacated if before[s] == obj]
    if same:
        return same[0]
    side = presentation.piece(obj).side
    if side is None:
        return None
    return next((s for s in vacated if presentation.piece(before[s]).side == side), None)


def _short(presentation: Presentation, effect: _Effect, move) -> str:
    if not move.ops:
        return "pass"
    square = presentation.square
    style = presentation.notation
    first = move.ops[0]
    if all(op.is_count for op in move.ops) and first.x < len(presentation.columns) and first.y < len(presentation.rows) \
            and first.x >= 0 and first.y >= 0:  # sowing seeds: named by the pit sown, its first square
        return presentation.columns[first.x] if style == "column" else square(first.x, first.y)
    if effect.to is None:  # only emptied squares
        return "x" + "x".join(square(*s) for s in effect.captured) if effect.captured else str(move)
    if style == "column":
        return presentation.columns[effect.to[0]]
    if style == "square" or effect.frm is None:
        return square(*effect.to)
    frm, to = square(*effect.frm), square(*effect.to)
    name = f"{frm}-{to}" if "," in frm else frm + to  # `0,1-0,3` for numbered squares
    return name + presentation.letter(effect.piece).lower() if effect.changed_piece else name


def _outcome_name(move) -> str:
    """A chance outcome's name: the objects it places, in order (`pass` for none)."""
    return "+".join(op.obj for op in move.ops if op.obj is not None) or ("pass" if not move.ops else str(move))


def _with_piece(presentation: Presentation, effect: _Effect, name: str) -> str:
    """A drop named by its piece (`N@e4`); a move keeps its name (the piece that left the
    square is the only one that could)."""
    if effect.piece is None or effect.frm is not None:
        return name
    return f"{presentation.letter(effect.piece)}@{name}"


def _with_captures(presentation: Presentation, effect: _Effect, name: str) -> str:
    if not effect.captured:
        return name
    return name + "".join("x" + presentation.square(*s) for s in effect.captured)


def _shared(names: list[str]) -> set[str]:
    seen: set[str] = set()
    shared: set[str] = set()
    for name in names:
        (shared if name in seen else seen).add(name)
    return shared


def _numbered(names: list[str]) -> list[str]:
    shared = _shared(names)
    counts: dict[str, int] = {}
    out = []
    for name in names:
        if name in shared:
            counts[name] = counts.get(name, 0) + 1
            name = f"{name}#{counts[name]}"
        out.append(name)
    return out
