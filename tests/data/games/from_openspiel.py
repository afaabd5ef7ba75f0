"""Writes the scripted games `*/openspiel-*.moves` from seeded random games played by OpenSpiel
(and gomoku/full-board-draw.moves, a constructed draw, checkers/openspiel-traps-*.moves,
a game with illegal lines aimed at checkers' rules, and einstein/openspiel-*.moves and
backgammon/openspiel-*.moves, whose chance outcomes, the start placements and the rolls, are
lines of the script too).

Why: a game played by OpenSpiel's own implementation, converted square by square into our
move text, has an outcome we did not compute ourselves, so replaying it through the runtime
tests our examples against an independent implementation. Each script also gets a few
illegal lines slipped in (the next move with the opponent's pieces, or with an operation
missing), which the runtime must reject without disturbing the game.

Run from the repository root to regenerate (deterministic): `python tests/data/games/from_openspiel.py`.
The chosen seeds are listed in GAMES; `--search GAME` prints the outcome and length of the
first random seeds, to pick new ones. `--verify [SCRIPT...]` re-plays scripts (by default all
of them, the hand-written ones too) in OpenSpiel and says where OpenSpiel disagrees.
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pyspiel

HERE = Path(__file__).resolve().parent

# Per game: how OpenSpiel's printed board maps to our squares and objects.
#   skip: the header lines printed before the board; size: our (width, height)
#   square(line, col) -> our (x, y), for the board's printed lines counted from the top
#   cell(text, col) -> the character of column col in a printed line
#   objects: OpenSpiel character -> our object name (anything else is empty)
#   swap: our object -> the opponent's equivalent (for the wrong-piece illegal lines)


def _plain(line: str, col: int) -> str:
    return line[col]


def _labelled(line: str, col: int) -> str:  # checkers / breakthrough: "8.+.+.+.+"
    return line[1 + col]


def _spaced(line: str, col: int) -> str:  # othello: "4 - - - o x - - - 4"
    return line[2 + 2 * col]


def _hex(line: str, col: int) -> str:  # hex: each row one space further right, "x . o "
    return line.split()[col]


LAYOUTS = {
    "tic_tac_toe": dict(skip=0, size=(3, 3), cell=_plain, square=lambda r, c: (c, r),
                        objects={"x": "X", "o": "O"}, swap={"X": "O", "O": "X"}),
    "connect_four": dict(skip=0, size=(7, 6), cell=_plain, square=lambda r, c: (c, 5 - r),
                         objects={"x": "X", "o": "O"}, swap={"X": "O", "O": "X"}),
    "gomoku": dict(skip=1, size=(15, 15), cell=_plain, square=lambda r, c: (c, r),
                   objects={"b": "B", "w": "W"}, swap={"B": "W", "W": "B"}),
    "checkers": dict(skip=0, size=(8, 8), cell=_labelled, square=lambda r, c: (c, 7 - r),
                     objects={"o": "W", "8": "WK", "+": "B", "*": "BK"},
                     swap={"W": "B", "WK": "BK", "B": "W", "BK": "WK"}),
    "othello": dict(skip=2, size=(8, 8), cell=_spaced, square=lambda r, c: (c, r),
                    objects={"x": "B", "o": "W"}, swap={"B": "W", "W": "B"}),
    "breakthrough": dict(skip=0, size=(8, 8), cell=_labelled, square=lambda r, c: (c, 7 - r),
                         objects={"b": "B", "w": "W"}, swap={"B": "W", "W": "B"}),
    "hex": dict(skip=0, size=(11, 11), cell=_hex, square=lambda r, c: (c, 10 - r),
                objects={"x": "B", "o": "W"}, swap={"B": "W", "W": "B"}),
}



# The checkers game that gets rule traps (one with all of them: crownings, multiple jumps).
TRAPS_SEED = 5


def uniform(state: pyspiel.State, rng: random.Random) -> int:
    return rng.choice(state.legal_actions())


def captures_first(state: pyspiel.State, rng: random.Random) -> int:
    """Breakthrough only: capture when possible, else avoid the goal row when possible, so
    that games end with one side wiped out (uniform play almost never gets there)."""
    player, actions = state.current_player(), state.legal_actions()
    names = {action: state.action_to_string(player, action) for action in actions}
    captures = [a for a in actions if names[a].endswith("*")]
    goal = "1" if player == 0 else "8"
    slow = [a for a in actions if names[a][3] != goal]
    return rng.choice(captures or slow or actions)


# (our example directory, OpenSpiel game, seed, policy, what the seed was chosen for)
GAMES = [
    ("tictactoe", "tic_tac_toe", 4, uniform, "player 0 wins"),
    ("tictactoe", "tic_tac_toe", 15, uniform, "player 1 wins"),
    ("tictactoe", "tic_tac_toe", 7, uniform, "a draw"),
    ("tictactoe-split", "tic_tac_toe", 3, uniform, "player 1 wins"),
    ("tictactoe-split", "tic_tac_toe", 27, uniform, "a draw"),
    ("connect4", "connect_four", 5, uniform, "player 0 wins"),
    ("connect4", "connect_four", 12, uniform, "player 1 wins"),
    ("connect4", "connect_four", 20, uniform, "player 1 wins, a long game"),
    ("connect4", "connect_four", 344, uniform, "a draw"),
    ("gomoku", "gomoku", 6, uniform, "player 0 wins"),
    ("gomoku", "gomoku", 9, uniform, "player 1 wins"),
    ("checkers", "checkers", 6, uniform, "player 0 wins"),
    ("checkers", "checkers", 30, uniform, "player 1 wins"),
    ("checkers", "checkers", 7, uniform, "a draw by the 40-move rule"),
    ("reversi", "othello", 1, uniform, "player 0 wins"),
    ("reversi", "othello", 16, uniform, "player 1 wins, with passes"),
    ("reversi", "othello", 8, uniform, "a draw"),
    ("breakthrough", "breakthrough", 32, uniform, "player 0 wins by reaching row 0"),
    ("breakthrough", "breakthrough", 38, uniform, "player 1 wins by reaching row 7"),
    ("breakthrough", "breakthrough", 24, captures_first, "player 0 wins by taking every pawn"),
    ("breakthrough", "breakthrough", 1, captures_first, "player 1 wins by taking every pawn"),
    ("hex", "hex", 1, uniform, "player 0 wins"),
    ("hex", "hex", 8, uniform, "player 1 wins"),
]


def board(game: str, state: pyspiel.State) -> dict[tuple[int, int], str]:
    """Our view of an OpenSpiel position: square -> object name, empty squares left out."""
    layout = LAYOUTS[game]
    width, height = layout["size"]
    lines = str(state).split("\n")[layout["skip"]:]
    squares = {}
    for row in range(height):
        for col in range(width):
            name = layout["objects"].get(layout["cell"](lines[row], col))
            if name:
                squares[layout["square"](row, col)] = name
    return squares


def move_text(before: dict, after: dict, rng: random.Random) -> str:
    """The operations that turn `before` into `after`: clears first, then places, except that
    every fourth multi-operation move is shuffled (the rules must not care about order)."""
    changed = [square for square in set(before) | set(after)
               if before.get(square) != after.get(square)]
    changed.sort(key=lambda square: (square in after, square))
    ops = [f"place({x},{y},{after[(x, y)]})" if (x, y) in after else f"clear({x},{y})"
           for (x, y) in changed]
    if len(ops) > 1 and rng.random() < 0.25:
        rng.shuffle(ops)
    return "; ".join(ops) if ops else "pass"


def illegal_variant(text: str, swap: dict, rng: random.Random) -> tuple[str, str]:
    """An illegal version of a legal move: the opponent's pieces, or one operation missing."""
    ops = text.split("; ")
    if text != "pass" and (len(ops) == 1 or rng.random() < 0.5):
        for mine, theirs in sorted(swap.items(), key=lambda kv: -len(kv[0])):
            if f",{mine})" in text:
                return text.replace(f",{mine})", f",{theirs})"), "the opponent's pieces"
    if len(ops) > 1:
        del ops[rng.randrange(len(ops))]
        return "; ".join(ops), "an operation left out"
    return "pass", "a pass while a move exists"


def play(game: str, seed: int, policy=uniform) -> tuple[list[tuple[int, str]], pyspiel.State]:
    """A random game: the (player, move text) list, one entry per turn, and the final state.
    Consecutive OpenSpiel actions by the same player (checkers' multiple jumps) are one move."""
    rng = random.Random(seed)
    state = pyspiel.load_game(game).new_initial_state()
    turns = []
    while not state.is_terminal():
        player = state.current_player()
        before = board(game, state)
        while not state.is_terminal() and state.current_player() == player:
            state.apply_action(policy(state, rng))
        turns.append((player, move_text(before, board(game, state), rng)))
    return turns, state


def outcome(state: pyspiel.State) -> str:
    returns = state.returns()
    if returns[0] > returns[1]:
        return "winner 0"
    if returns[1] > returns[0]:
        return "winner 1"
    return "draw"


class ScriptLines:
    """A move script being written: its moves, and illegal lines whose numbers go into its
    `# expect: rejected` line (counted after the four header lines `text()` puts first)."""

    HEADER = 4

    def __init__(self) -> None:
        self.body: list[str] = []
        self.rejected: list[int] = []

    def move(self, text: str) -> None:
        self.body.append(text)

    def illegal(self, text: str, why: str, then: str = "") -> None:
        self.body.append(f"{text}   # illegal ({why}): rejected{then}")
        self.rejected.append(self.HEADER + len(self.body))

    def text(self, about: tuple[str, str], final: pyspiel.State) -> str:
        """The script: two comment lines `about` it, the outcome of `final`, the rejected lines."""
        lines = [*about, f"# expect: {outcome(final)}", "# expect: rejected " + " ".join(map(str, self.rejected))]
        assert len(lines) == self.HEADER
        return "\n".join(lines + self.body) + "\n"


def script(game: str, seed: int, policy, reason: str) -> str:
    turns, final = play(game, seed, policy)
    rng = random.Random(seed + 1000)
    swap = LAYOUTS[game]["swap"]
    movable = [index for index, (_, text) in enumerate(turns) if text != "pass"]
    inject = set(rng.sample(movable, min(3, len(movable))))
    lines = ScriptLines()
    for index, (player, text) in enumerate(turns):
        if index in inject:
            bad, why = illegal_variant(text, swap, rng)
            lines.illegal(bad, why, f", player {player} moves again")
        lines.move(f"{text}   # player {player}" if index % 10 == 0 else text)
    return lines.text((f"# A random game of OpenSpiel's {game} ({policy.__name__} play, seed {seed}: {reason}),",
                       f"# {len(turns)} moves, converted by tests/data/games/from_openspiel.py; do not edit."), final)


def checkers_traps(seed: int) -> str:
    """A random checkers game with rule traps slipped in where the game offers them, each
    rejected: a step while a capture is due, a multiple capture stopped after its first jump,
    a man reaching the far row without its crown, and a man stepping backwards."""
    rng = random.Random(seed)
    state = pyspiel.load_game("checkers").new_initial_state()
    left = {"a step while a capture is due": 2, "a multiple capture stopped early": 2,
            "a man on the far row without its crown": 2, "a man stepping backwards": 2}
    lines = ScriptLines()
    while not state.is_terminal():
        player = state.current_player()
        before = board("checkers", state)
        names = [state.action_to_string(player, a) for a in state.legal_actions()]
        capture_due = any(abs(int(name[1]) - int(name[3])) == 2 for name in names)
        first_jump = None
        while not state.is_terminal() and state.current_player() == player:
            state.apply_action(rng.choice(state.legal_actions()))
            if first_jump is None:
                first_jump = board("checkers", state)
        after = board("checkers", state)
        text = move_text(before, after, rng)
        traps = []
        man, forward = ("W", 1) if player == 0 else ("B", -1)
        steps = {direction: [f"clear({x},{y}); place({x + dx},{y + direction},{man})"
                             for (x, y), piece in sorted(before.items()) if piece == man
                             for dx in (-1, 1)
                             if 0 <= x + dx < 8 and 0 <= y + direction < 8
                             and (x + dx, y + direction) not in before
                             and y + direction not in (0, 7)]
                 for direction in (forward, -forward)}
        if capture_due and steps[forward]:
            traps.append(("a step while a capture is due", rng.choice(steps[forward])))
        if not capture_due and steps[-forward]:
            traps.append(("a man stepping backwards", rng.choice(steps[-forward])))
        if first_jump != after:
            traps.append(("a multiple capture stopped early", move_text(before, first_jump, rng)))
        crown = f",{man}K)"
        if crown in text and man in [before.get(square) for square in before.keys() - after.keys()]:
            traps.append(("a man on the far row without its crown", text.replace(crown, f",{man})")))
        for why, bad in traps:
            if left[why]:
                left[why] -= 1
                lines.illegal(bad, why)
        lines.move(text)
    assert not any(left.values()), f"seed {seed} lacks {left}"
    return lines.text((f"# A random game of OpenSpiel's checkers (uniform play, seed {seed}) with rule traps,",
                       "# written by tests/data/games/from_openspiel.py; do not edit."), state)


def gomoku_draw() -> str:
    """A full gomoku board without five in a row: colour (x + 2y) % 4 < 2 gives runs of at
    most two along rows and diagonals and alternates down columns; stones go down in reading
    order, each player taking its next square in turn."""
    squares = [(x, y) for y in range(15) for x in range(15)]
    black = [s for s in squares if (s[0] + 2 * s[1]) % 4 < 2]
    white = [s for s in squares if (s[0] + 2 * s[1]) % 4 >= 2]
    if len(black) < len(white):
        black, white = white, black
    assert len(black) == len(white) + 1
    moves = []
    for index in range(len(squares)):
        x, y = (black if index % 2 == 0 else white)[index // 2]
        moves.append(f"place({x},{y},{'B' if index % 2 == 0 else 'W'})")
    return "\n".join([
        "# A drawn gomoku: the board fills up without five in a row anywhere (every row and",
        "# diagonal has runs of at most two); written by tests/data/games/from_openspiel.py.",
        "# expect: draw",
        *moves]) + "\n"


# EinStein würfelt nicht!: (seed, what the seed was chosen for); chance drawn by OpenSpiel's
# probabilities, the players uniformly.
EINSTEIN_GAMES = [(3, "player 0 wins"), (4, "player 1 wins")]
_CUBE = re.compile(r"\|(..)\|")


def einstein_board(state: pyspiel.State) -> dict[tuple[int, int], str]:
    """Our view of OpenSpiel's einstein_wurfelt_nicht board (`|b3||__|...`, row 0 on top)."""
    squares = {}
    for r, line in enumerate(str(state).split("\n")[:5]):
        for c, cell in enumerate(_CUBE.findall(line)):
            if cell != "__":
                squares[(c, 4 - r)] = cell.upper()
    return squares


def einstein_script(seed: int, reason: str) -> str:
    """A seeded game with three illegal lines: a player's move before the roll, and twice the
    move of a cube the roll does not allow (the other side's cube of the same number)."""
    rng = random.Random(seed)
    state = pyspiel.load_game("einstein_wurfelt_nicht").new_initial_state()
    lines, turns = ScriptLines(), 0
    before_roll = wrong_cube = None
    while not state.is_terminal():
        before = einstein_board(state)
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            action = rng.choices(actions, probabilities)[0]
            state.apply_action(action)
            if len(actions) == 6:
                lines.move(f"place(5,2,D{action + 1})")
                continue
            after = einstein_board(state)
            lines.move("; ".join(f"place({x},{y},{after[(x, y)]})"
                                  for (x, y) in sorted(after.keys() - before.keys(), key=lambda s: (-s[1], s[0]))))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        after = einstein_board(state)
        (frm,), (to,) = before.keys() - after.keys(), [s for s in after if before.get(s) != after[s]]
        text = f"clear({frm[0]},{frm[1]}); place({to[0]},{to[1]},{after[to]})"
        turns += 1
        if turns == 3:   # the same move once more, now before the roll
            before_roll = text
        if turns in (5, 8):
            swapped = ("W" if after[to][0] == "B" else "B") + after[to][1]
            other = [s for s, cube in before.items() if cube == swapped]
            if other:
                wrong_cube = f"clear({other[0][0]},{other[0][1]}); place({to[0]},{to[1]},{swapped})"
                lines.illegal(wrong_cube, "the other side's cube")
        lines.move(text)
        if before_roll is not None:
            lines.illegal(before_roll, "chance moves next")
            before_roll = None
    return lines.text((f"# A random game of OpenSpiel's einstein_wurfelt_nicht (seed {seed}: {reason}), its chance",
                       "# outcomes as lines; written by tests/data/games/from_openspiel.py; do not edit."), state)


# Backgammon: (seed, policy, what the seed was chosen for); chance drawn by OpenSpiel's
# probabilities. `uniform` picks one of OpenSpiel's actions (of a double's halves: each) at
# random; `prolonging` picks the whole turn that leaves the most pips to the opponent and the
# most blots of its own (hits, and being hit), to reach the 500-turn draw.
BACKGAMMON_GAMES = [(5, "uniform", "player 0 wins"), (1, "uniform", "player 1 wins"),
                    (2, "prolonging", "a draw after 500 turns")]


def backgammon_layout() -> dict:
    """The squares of examples/backgammon.gdef (its tables pointX, pointY, barY, dieX)."""
    sys.path.insert(0, str(HERE.parent.parent.parent))
    from gdef_core import load_game

    return load_game([str(HERE.parent.parent.parent / "examples" / "backgammon.gdef")]).new_state().variables


def backgammon_board(state: pyspiel.State, layout: dict) -> dict[tuple[int, int], tuple[str, int]]:
    """Our squares (object and count) of OpenSpiel's points, bars and borne-off checkers."""
    squares = {}
    for p in range(24):
        for player, checker in enumerate("XO"):
            if state.board(player, p):
                squares[(layout["pointX"][p], layout["pointY"][p])] = (checker, state.board(player, p))
    for player, checker in enumerate("XO"):
        y = layout["barY"][player]
        if state.board(player, 100):
            squares[(6, y)] = (checker, state.board(player, 100))
        off = 15 - state.board(player, 100) - sum(state.board(player, p) for p in range(24))
        if off:
            squares[(13, y)] = (checker, off)
    return squares


def _pips(state: pyspiel.State, player: int) -> int:
    return 25 * state.board(player, 100) + sum(
        state.board(player, p) * (24 - p if player == 0 else p + 1) for p in range(24))


def _prolonging(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    me = state.current_player()
    options = list(turns(state))
    rank = [_pips(s, 1 - me) + 10 * sum(s.board(me, p) == 1 for p in range(24)) + rng.random()
            for s in options]
    return options[rank.index(max(rank))]


def _uniform_turn(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    player = state.current_player()
    while True:
        state = state.child(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.current_player() != player:
            return state


def backgammon_script(seed: int, policy: str, reason: str) -> str:
    """A seeded game, each roll and each whole turn a line, with two kinds of illegal line:
    a turn played again before the next roll, and a turn that leaves the dice lying."""
    layout = backgammon_layout()
    dice_x = layout["dieX"]
    rng = random.Random(seed)
    choose = _prolonging if policy == "prolonging" else _uniform_turn
    state = pyspiel.load_game("backgammon").new_initial_state()
    lines, turns_played = ScriptLines(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            action = rng.choices(actions, probabilities)[0]
            opening = state.move_number() == 0
            state.apply_action(action)
            low, high = sorted(int(c) for c in str(state).split("Dice: ")[1].split("\n")[0])
            first, second = (high, low) if opening and action % 2 == 0 else (low, high)
            lines.move(f"place({dice_x[0]},1,D{first}); place({dice_x[1]},1,D{second})")
            continue
        before = backgammon_board(state, layout)
        state = choose(state, rng)
        after = backgammon_board(state, layout)
        ops = []
        for square in sorted(before.keys() | after.keys()):
            (was, had), (now, has) = before.get(square, ("", 0)), after.get(square, ("", 0))
            if not has:
                ops.append(f"clear({square[0]},{square[1]})")
            elif now != was:
                ops.append(f"place({square[0]},{square[1]},{now}); count({square[0]},{square[1]},{has})")
            elif has != had:
                ops.append(f"count({square[0]},{square[1]},{has})")
        dice = [f"clear({x},1)" for x in dice_x]
        turns_played += 1
        if turns_played in (4, 9) and ops:
            lines.illegal("; ".join(ops), "the dice are not picked up")
        lines.move("; ".join(ops + dice))
        if turns_played == 6 and not state.is_terminal():
            lines.illegal("; ".join(ops + dice), "chance rolls next")
    return lines.text((f"# A game of OpenSpiel's backgammon (seed {seed}, {policy} turns: {reason}), each roll",
                       "# and each whole turn a line; written by tests/data/games/from_openspiel.py; do not edit."), state)


def verify(paths: list[Path]) -> int:
    """Re-plays scripts in OpenSpiel: each line must be legal there (and name each square it
    changes once, and nothing else) exactly when the script says it is not rejected, and the
    game must end where and how the script says."""
    sys.path.insert(0, str(HERE.parent.parent))
    from test_examples import read_script  # the one parser of the format

    from gdef_core.moves import Move, MoveSyntaxError

    games = {directory: game for directory, game, *_ in GAMES}
    failures = 0
    for path in paths:
        if path.parent.name not in games:  # einstein's, backgammon's: chance's lines have no OpenSpiel board move
            continue
        script, game = read_script(path), games[path.parent.name]
        layout = LAYOUTS[game]
        width, height = layout["size"]
        known = set(layout["objects"].values())
        state = pyspiel.load_game(game).new_initial_state()
        rejected, ended_at, problems = set(), None, []
        for number, text in script.moves:
            if state.is_terminal():
                break
            try:
                ops = Move.parse(text).ops
            except MoveSyntaxError:
                rejected.add(number)
                continue
            current = board(game, state)
            target = dict(current)
            if any(not (0 <= op.x < width and 0 <= op.y < height) or
                   op.obj not in known | {None, "empty"} for op in ops):
                rejected.add(number)
                continue
            for op in ops:
                if op.obj in (None, "empty"):
                    target.pop((op.x, op.y), None)
                else:
                    target[(op.x, op.y)] = op.obj
            # Our examples accept only moves that name each square they change once, and
            # nothing else (OpenSpiel has no such notion: it never sees operations).
            squares = {(op.x, op.y) for op in ops}
            if len(squares) != len(ops) or any(
                    target.get(square) == current.get(square) for square in squares):
                rejected.add(number)
                continue
            following = [s for s in turns(state) if board(game, s) == target]
            if not following:
                rejected.add(number)
                continue
            state = following[0]
            if state.is_terminal():
                ended_at = number
        if rejected != script.rejected:
            problems.append(f"rejected {sorted(rejected)}, the script says {sorted(script.rejected)}")
        if ended_at != script.last_move_line:
            problems.append(f"ends at line {ended_at}, the script says {script.last_move_line}")
        result = outcome(state) if state.is_terminal() else "unfinished"
        if result != script.outcome:
            problems.append(f"OpenSpiel's result is {result}, the script says {script.outcome}")
        print(f"{path.relative_to(HERE)}: " + ("; ".join(problems) if problems else "ok"))
        failures += bool(problems)
    return 1 if failures else 0


def turns(state: pyspiel.State):
    """Every state one full turn later (checkers' jumps by one player are one turn)."""
    player = state.current_player()
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal() or child.current_player() != player:
            yield child
        else:
            yield from turns(child)


def search(game: str, count: int = 40) -> None:
    for seed in range(1, count + 1):
        turns, final = play(game, seed)
        print(seed, outcome(final), len(turns))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--search"] and len(argv) == 2:
        search(argv[1])
        return 0
    if argv[:1] == ["--verify"]:
        return verify([Path(a).resolve() for a in argv[1:]] or sorted(HERE.glob("*/*.moves")))
    for directory, game, seed, policy, reason in GAMES:
        path = HERE / directory / f"openspiel-{policy.__name__}-seed{seed}.moves"
        path.parent.mkdir(exist_ok=True)
        path.write_text(script(game, seed, policy, reason))
        print(path.relative_to(HERE))
    (HERE / "gomoku" / "full-board-draw.moves").write_text(gomoku_draw())
    (HERE / "checkers" / f"openspiel-traps-seed{TRAPS_SEED}.moves").write_text(
        checkers_traps(TRAPS_SEED))
    (HERE / "einstein").mkdir(exist_ok=True)
    for seed, reason in EINSTEIN_GAMES:
        (HERE / "einstein" / f"openspiel-uniform-seed{seed}.moves").write_text(einstein_script(seed, reason))
    (HERE / "backgammon").mkdir(exist_ok=True)
    for seed, policy, reason in BACKGAMMON_GAMES:
        (HERE / "backgammon" / f"openspiel-{policy}-seed{seed}.moves").write_text(
            backgammon_script(seed, policy, reason))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
