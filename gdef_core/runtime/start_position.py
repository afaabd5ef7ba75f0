"""A start position as a header writes it (gdef_core.testing.start_header: a rule-test file's
header, a `gdef-run --moves` script's) made a position of its game.

The position is built as a record's `start` is read (`State.from_json`, so its checks are the
records'), from the game's start, the empty board or the position a record's moves reach
(`Session.from_record`, as `gdef-run --resume` replays them). What is checked: the record
belongs to this game, was played with the same parameters and replays; each square is on the
board and each object declared; counts only where squares count; the player exists; chance
moves first only in a game with chance(); each variable is declared and its value has its type
and shape; each score is a number. What is not: whether legal moves could reach the position
from the start, and whether end() would call it over (end() judges moves, so it does not run:
the game goes on from a written position, and the history of positions starts there).
"""
from __future__ import annotations

import re

from gdef_core.moves import Move
from gdef_core.runtime.errors import GdefRuntimeError
from gdef_core.runtime.render import CROSSING_MARK, EMPTY_MARK
from gdef_core.runtime.session import RecordError, Session, load_record
from gdef_core.testing.start_header import At, Picture, StartHeader


class StartError(ValueError):
    """A header that does not fit the game, at `at`; `location`: the gdef location of a run-time error."""

    def __init__(self, message: str, at: At, location: str | None = None) -> None:
        super().__init__(message)
        self.message, self.at, self.location = message, at, location


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def start_state(game, header: StartHeader, record: dict | None, start=None):
    """The State a header starts from (`record`: the one its `# from:` names, read); StartError
    at the header line that does not fit. `start`: the game's start position, when the caller
    has it (setup() is not run again: under the debugger it would stop there twice)."""
    first = header.source_at or first_line(header)
    if record is not None:
        if record.get("game") != game.name:
            raise StartError(f"the record is of '{record.get('game')}', not of '{game.name}'", first)
        played = {name: value for name, value in record.get("params", {}).items()
                  if name in game.params and _shown(value) != _shown(game.params[name])}
        if played:
            raise StartError("the record was played with " + ", ".join(f"{n}={_shown(v)}" for n, v in played.items())
                             + ", the game here with " + ", ".join(f"{n}={_shown(game.params[n])}" for n in played)
                             + ": a record goes on with the parameters it was played with (set them with "
                             "`# param:` in a test file, --param for gdef-run)", first)
        try:
            state = Session.from_record(game, game.files, record).state
        except RecordError as error:
            raise StartError(f"the record does not replay: {error}", first) from None
        except GdefRuntimeError as error:
            raise StartError(f"the record does not replay: {error.message}", first, error.location) from None
    elif start is not None:
        state = start
    else:
        try:
            state = game.new_state()
        except GdefRuntimeError as error:
            raise StartError(f"setup() failed: {error.message}", first, error.location) from None
    if not header.writes_position:
        return state
    return _written(game, state.to_json(), header)


def script_start(game, header: StartHeader, script: str, start=None):
    """The State a move script's header starts from (gdef-run --moves, the debugger, the board
    page), the record its `# from:` names read relative to the script `script`; StartError at
    the line that does not fit, its message whole (`# from: ...`, `the start position does not
    fit GAME: ...`). `start`: as start_state's."""
    record = None
    if header.is_record:
        try:
            record = load_record(header.record_path(script))
        except RecordError as error:
            raise StartError(f"# from: {error}", header.source_at) from None
    try:
        return start_state(game, header, record, start)
    except StartError as error:
        raise StartError(f"the start position does not fit {game.name}: {error.message}", error.at,
                         error.location) from None


def first_line(header: StartHeader) -> At:
    """The header's first line that writes part of the position (a square, the turn ...)."""
    places = [item.at if isinstance(item, Picture) else item[1] for item in header.board]
    places += [entry[-1] for entry in (*header.variables, *header.scores)]
    places += [entry[-1] for entry in (header.turn, header.move) if entry is not None]
    return min(places, key=lambda at: (at.line, at.column), default=At(1, 0, 0))


def _written(game, data: dict, header: StartHeader):
    """`data` (a state as to_json() writes it) changed as the header writes, read back."""
    data.pop("history", None)
    data["over"], data["winner"] = False, None
    empty = header.source == "empty"
    squares = {} if empty else {(x, y): name for x, y, name in data["board"]}
    counts = {} if empty else {(x, y): n for x, y, n in data.get("counts", [])}
    for item in header.board:
        if isinstance(item, Picture):
            squares, counts = _drawn(game, item)
            continue
        op, at = item
        verdict = game.resolve(Move((op,)))
        if not verdict:
            raise StartError(verdict.reason, at)
        square = (op.x, op.y)
        if op.is_count:
            counts[square] = op.count
            continue
        counts.pop(square, None)  # place and clear reset the count, as in a move (runtime/counts.py)
        obj = game.obj(op.obj) if op.obj is not None else game.empty
        if obj is game.empty:
            squares.pop(square, None)
        else:
            squares[square] = str(obj)
    data["board"] = [[x, y, name] for (x, y), name in sorted(squares.items())]
    if game.counting:
        data["counts"] = [[x, y, n] for (x, y), n in sorted(counts.items()) if n]
    if header.turn is not None:
        player, chance, at = header.turn
        if player >= game.players:
            raise StartError(f"{game.name} has no player {player} (players 0 to {game.players - 1})", at)
        if chance and game.rules.raw_chance is None:
            raise StartError(f"chance never moves in {game.name}: it has no chance()", at)
        data["player"], data["chance"] = player, chance
    for name, value, at in header.variables:
        if name not in game.variable_names:
            known = ", ".join(game.variable_names) or "none"
            raise StartError(f"{game.name} has no game variable '{name}' (game variables: {known})", at)
        data["vars"][name] = value
        _read(game, data, at)
    for player, value, at in header.scores:
        if player >= game.players:
            raise StartError(f"{game.name} has no player {player} (players 0 to {game.players - 1})", at)
        data["scores"][player] = value
    if header.move is not None:
        data["move_number"] = header.move[0]
    return _read(game, data, first_line(header))


def _drawn(game, picture: Picture) -> tuple[dict, dict]:
    """The squares and counts of a board drawn as render_board draws it in ASCII (or with its
    glyphs): every row once, by its label; the axis lines of column labels skipped."""
    presentation = game.presentation
    rows = {label: y for y, label in enumerate(presentation.rows)}
    squares: dict[tuple[int, int], str] = {}
    counts: dict[tuple[int, int], int] = {}
    drawn: dict[int, int] = {}  # y -> the line it is drawn on
    glyphs: dict[str, list] = {}
    for name, obj in game.objects.items():
        glyph = presentation.piece(name).glyph
        if glyph:
            glyphs.setdefault(glyph, []).append(obj)
    for number, offset, text in picture.lines:
        words = [(match.group(), At(number, offset + match.start(), offset + match.end()))
                 for match in re.finditer(r"\S+", text)]
        if not words or [word for word, _ in words] == list(presentation.columns):
            continue
        (label, at), cells = words[0], words[1:]
        if label not in rows:
            raise StartError(f"`{label}` is not a row of {game.name}'s board: a drawn row starts with its label "
                             f"({presentation.rows[-1]} to {presentation.rows[0]}); a line `#` alone ends the "
                             "picture", at)
        y = rows[label]
        if y in drawn:
            raise StartError(f"row {label} is drawn twice (lines {drawn[y]} and {number})", at)
        drawn[y] = number
        if len(cells) == game.width + 1 and cells[-1][0] == label:
            cells = cells[:-1]  # the label repeated at the end
        if len(cells) != game.width:
            raise StartError(f"row {label} draws {len(cells)} squares: the board is {game.width} wide",
                             At(number, at.column, words[-1][1].end))
        for x, (cell, where) in enumerate(cells):
            obj, count = _cell(game, glyphs, cell, where)
            if obj is not game.empty:
                squares[(x, y)] = str(obj)
            if count:
                counts[(x, y)] = count
    missing = [presentation.rows[y] for y in range(game.height) if y not in drawn]
    if missing:
        raise StartError(f"the drawn board has no row {', '.join(missing)}: draw every row of the "
                         f"{game.width}x{game.height} board", picture.at)
    return squares, counts


def _cell(game, glyphs: dict[str, list], cell: str, at: At):
    """A drawn square: (its object, its count); `glyphs`: the objects drawn by each glyph."""
    if cell in (EMPTY_MARK, CROSSING_MARK):
        return game.empty, 0

    def drawn_object(text: str):
        if text in game.objects:
            return game.objects[text]
        found = glyphs.get(text, [])
        if len(found) > 1:
            raise StartError(f"`{text}` is the glyph of {', '.join(map(str, found))}: write the object's name", at)
        return found[0] if found else None

    obj = drawn_object(cell)
    if obj is not None:
        return obj, 0
    for split in range(len(cell) - 1, -1, -1):  # an object then its count: the longest name first
        if re.fullmatch(r"-?\d{1,19}", cell[split:]):
            obj = game.empty if split == 0 else drawn_object(cell[:split])
            if obj is not None:
                if not game.counting:
                    raise StartError(f"`{cell}` draws a count, but the squares of {game.name} hold no counts", at)
                return obj, int(cell[split:])
    names = ", ".join(game.objects)
    raise StartError(f"`{cell}` is not a square as drawn: an object ({names}), `.` for an empty square, "
                     "a count after the object or alone", at)


def _read(game, data: dict, at: At):
    try:
        return game.state_from_json(data)
    except ValueError as error:
        raise StartError(str(error), at) from None
