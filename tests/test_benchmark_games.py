"""The games of benchmarks/games/ against OpenSpiel, and clean under gdef-check and gdef-fmt.

Each game was written from its rules (the header comment names the OpenSpiel game and its
parameters) and is timed by benchmarks/games.py; this test is what makes the timings a fair
comparison: along seeded random games, at every turn, both implementations offer the same set
of resulting positions, end at the same moment and name the same winner (openspiel_support).
Positions are read from OpenSpiel's text with the coordinates each file's header states.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from openspiel_support import board_position, play_against
from support import ROOT, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402

GAMES = ROOT / "benchmarks" / "games"


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def clobber_position(text: str) -> frozenset:
    """'5oxoxox': the row number (our y + 1), then columns a..f (our x 0..5)."""
    names = {"o": "O", "x": "X"}
    return frozenset((x, int(line[0]) - 1, names[ch]) for line in _lines(text)[:5]
                     for x, ch in enumerate(line[1:]) if ch in names)


def amazons_position(text: str) -> frozenset:
    """Eight lines, the top row (our y = 7) first."""
    names = {"X": "X", "O": "O", "#": "A"}
    return frozenset((x, 7 - r, names[ch]) for r, line in enumerate(_lines(text)[:8])
                     for x, ch in enumerate(line) if ch in names)


def pentago_position(text: str) -> frozenset:
    """'v 1 . . O . . . v': the row number (our y + 1), then columns a..f (our x 0..5)."""
    names = {"O": "O", "@": "P"}
    return frozenset((x, int(line[2]) - 1, names[line[4 + 2 * x]]) for line in _lines(text)
                     if line[2:3].isdigit() for x in range(6) if line[4 + 2 * x] in names)


def dots_and_boxes_position(text: str) -> frozenset:
    """Text line i is our y = 4 - i, character p (even) our x = p / 2: lines drawn, boxes
    taken ('1', '2')."""
    names = {"─": "L", "│": "L", "1": "A", "2": "B"}
    return frozenset((p // 2, 4 - i, names[line[p]]) for i, line in enumerate(_lines(text)[:5])
                     for p in range(0, len(line), 2) if line[p] in names)


def lines_of_action_position(text: str) -> frozenset:
    """'8.xxxxxx.': the row number (our y + 1), then columns a..h (our x 0..7)."""
    names = {"x": "X", "o": "O"}
    return frozenset((x, int(line[0]) - 1, names[ch]) for line in _lines(text)[:8]
                     for x, ch in enumerate(line[1:9]) if ch in names)


MORRIS_TEXT_COLUMNS = {0: 0, 2: 1, 4: 2, 7: 3, 10: 4, 12: 5, 14: 6}


def nine_mens_morris_position(text: str) -> frozenset:
    """The first 13 lines draw the board: line 2 * (6 - y), character 0, 2, 4, 7, 10, 12, 14
    for x 0..6. The men still to place follow from the move number (the same on both sides)."""
    lines = text.split("\n")[:13]
    return frozenset((x, 6 - row // 2, lines[row][column]) for row in range(0, 13, 2)
                     for column, x in MORRIS_TEXT_COLUMNS.items() if lines[row][column] in "WB")


def ultimate_tic_tac_toe_text(text: str) -> frozenset:
    """Nine lines of 'xo. ... ...' (row y from the top, column x from the left, blank lines
    between the small boards' rows), then 'Forced board: 7' or 'any'."""
    names = {"x": "X", "o": "O"}
    rows = [line.replace(" ", "") for line in _lines(text)[:9]]
    forced = text.rsplit("Forced board: ", 1)[1].strip()
    board = frozenset((x, y, names[ch]) for y, row in enumerate(rows)
                      for x, ch in enumerate(row) if ch in names)
    return board | {("forced", -1 if forced == "any" else int(forced))}


def ultimate_tic_tac_toe_ours(state) -> frozenset:
    return board_position(state) | {("forced", state.variables["forced"])}


def y_position(text: str) -> frozenset:
    """Line y + 1 is row y + 1: its number, then the cells x = 0, 1, ... (the last move in
    brackets)."""
    names = {"O": "W", "@": "B"}
    cells = [line.replace("[", " ").replace("]", " ").split() for line in _lines(text)[1:]]
    return frozenset((x, int(row[0]) - 1, names[ch]) for row in cells
                     for x, ch in enumerate(row[1:]) if ch in names)


def quoridor_text(text: str) -> frozenset:
    """'Board size: 9, walls: 10, 10', the column letters, then OpenSpiel's rows y = 0..16
    (our 16 - y): two characters, then the square x at 2 + 4 * (x // 2) + 3 * (x % 2), three
    characters wide where x is even, one where odd."""
    lines = text.split("\n")
    walls = tuple(int(n) for n in lines[0].split("walls: ")[1].split(", "))
    position = {("walls", walls)}
    for sy, line in enumerate(lines[2:19]):
        for x in range(17):
            start = 2 + 4 * (x // 2) + 3 * (x % 2)
            square = line[start:start + (3 if x % 2 == 0 else 1)].strip()
            if square in ("0", "@"):
                position.add((x, 16 - sy, "P" if square == "0" else "Q"))
            elif square in ("|", "---", "+"):
                position.add((x, 16 - sy, "W"))
    return frozenset(position)


def quoridor_ours(state) -> frozenset:
    return board_position(state) | {("walls", tuple(state.variables["walls"]))}


CASES = {
    # file: (OpenSpiel game, its position parser, ours, games, seed, options of play_against)
    "clobber": ("clobber", clobber_position, board_position, 6, 1, {}),
    # end() asks hasLegalMove() of ~1,000 candidates: comparing boards keeps this test short
    "amazons": ("amazons(board_size=8)", amazons_position, board_position, 3, 2,
                {"boards_only": True}),
    # OpenSpiel's 288 actions include moves of the same effect (a turn of an empty quadrant)
    "pentago": ("pentago", pentago_position, board_position, 3, 3, {"distinct": False}),
    # a player who closes a box moves again: a turn of its own, as in OpenSpiel
    "dots_and_boxes": ("dots_and_boxes", dots_and_boxes_position, board_position, 12, 4,
                       {"follow": False}),
    "lines_of_action": ("lines_of_action", lines_of_action_position, board_position, 2, 5, {}),
    "nine_mens_morris": ("nine_mens_morris", nine_mens_morris_position, board_position, 2, 6, {}),
    # OpenSpiel chooses a small board, then a square, when the forced board is finished
    "ultimate_tic_tac_toe": ("ultimate_tic_tac_toe", ultimate_tic_tac_toe_text,
                             ultimate_tic_tac_toe_ours, 4, 7, {}),
    "y": ("y", y_position, board_position, 2, 8, {}),
    "quoridor": ("quoridor", quoridor_text, quoridor_ours, 2, 9, {}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_turns_end_and_winner_as_openspiel(name):
    spiel_name, spiel_position, our_position, games, seed, options = CASES[name]
    game = load_game([str(GAMES / f"{name}.gdef")])
    turns = play_against(game, pyspiel.load_game(spiel_name), spiel_position, games=games,
                         seed=seed, label=name, our_position=our_position, **options)
    assert turns >= games * 5


def test_every_game_is_compared():
    assert sorted(path.stem for path in GAMES.glob("*.gdef")) == sorted(CASES)


@pytest.mark.parametrize("tool", ["gdef_core.cli.check", "gdef_core.cli.fmt"])
def test_games_are_clean(tool):
    args = [] if tool.endswith("check") else ["--check"]
    done = subprocess.run([sys.executable, "-m", tool, *args, str(GAMES)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    if tool.endswith("check"):
        assert "0 errors, 0 warnings" in done.stdout, done.stdout


def test_nine_mens_morris_is_drawn_after_200_moves():
    """Random play takes men so often that games end long before OpenSpiel's 200-move draw:
    here the players take a man only when every move forms a mill."""
    def quiet(rng, moves):
        return rng.choice([move for move in moves if move.ops[-1].obj is not None] or moves)

    spiel_name, spiel_position, _, _, _, _ = CASES["nine_mens_morris"]
    game = load_game([str(GAMES / "nine_mens_morris.gdef")])
    turns = play_against(game, pyspiel.load_game(spiel_name), spiel_position, games=1, seed=1,
                         label="nine_mens_morris (quiet)", pick=quiet)
    assert turns == 200
