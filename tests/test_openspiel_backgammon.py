"""examples/backgammon.gdef against OpenSpiel's backgammon (openspiel_support.play_against):
along seeded games (chance drawn by OpenSpiel's probabilities, the players at random), at every
chance node the same positions reached with the same probabilities, at every decision the same
set of positions a turn can reach, the same end and the same winner; with OpenSpiel's
full_scoring, our scores are its returns (gammons and backgammons).

How the turns map: our move is a whole turn; OpenSpiel's action is two checker moves and a
double is two actions of the same player, followed to the end of the turn (spiel_turns). Our
dice lie low then high, OpenSpiel sorts them the same way; its two outcomes of a roll of 3 and
5 are our one of weight 2, and its opening outcomes (X starts on even actions) are ours by the
player who starts and the dice. OpenSpiel's point p is on our square (pointX[p], pointY[p]) of
the example; the position compared is, for each point, whose checkers and how many, then the
bars, the checkers borne off and the dice."""
from __future__ import annotations

import re

from openspiel_support import play_against
from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402

BACKGAMMON = str(EXAMPLES / "backgammon.gdef")
POINT_X = [12, 11, 10, 9, 8, 7, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
SHORT_SEED = 6   # its games never pass the turn limit on a double (see the last test)
_SCORES = re.compile(r"Scores, X: (\d+), O: (\d+)")


def spiel_point(rows: list[str], p: int) -> tuple[str, int]:
    """Whose checkers are on OpenSpiel's point p and how many, from its drawing (5 cells a
    point, from the edge: a digit in the first cell for 6 to 9, two digits for 10 or more)."""
    start, offset = (11, -1) if p < 12 else (1, 1)
    col = (12 - p if p >= 6 else 13 - p) if p < 12 else (p - 11 if p < 18 else p - 10)
    cells = [rows[start + i * offset][col] for i in range(5)]
    owner = next((c for c in cells if c in "xo"), None)
    if owner is None:
        return ".", 0
    if cells[0].isdigit() and cells[1].isdigit():
        return owner, 10 + int(cells[0] if p < 12 else cells[1])
    if cells[0].isdigit():
        return owner, int(cells[0])
    return owner, cells.count(owner)


def spiel_position(text: str) -> tuple:
    rows = text.split("\n")
    points = tuple(spiel_point(rows, p) for p in range(24))
    bar = rows[17].removeprefix("Bar:").strip()
    dice = tuple(sorted(int(c) for c in rows[16].removeprefix("Dice: ") if c.isdigit()))
    off = tuple(map(int, _SCORES.search(text).groups()))
    if 15 in off:   # a game won in the first half of a double leaves OpenSpiel's dice lying
        dice = ()
    return points, (bar.count("x"), bar.count("o")), off, dice


def our_position(state) -> tuple:
    board = state.board
    points = []
    for p in range(24):
        x, y = POINT_X[p], 0 if p < 12 else 2
        owner = {"X": "x", "O": "o"}.get(board[x, y], ".")
        points.append((owner, board.count(x, y)))
    dice = tuple(sorted(int(board[x, 1][1]) for x in (9, 10) if board[x, 1] != "empty"))
    return (tuple(points), (board.count(6, 2), board.count(6, 0)),
            (board.count(13, 2), board.count(13, 0)), dice)


def test_backgammon_plays_as_openspiel():
    game = load_game([BACKGAMMON])
    spiel_game = pyspiel.load_game("backgammon")
    results = []
    turns = play_against(game, spiel_game, spiel_position, games=30, seed=11, label="backgammon",
                         our_position=our_position, results=results)
    assert turns > 2500 and set(results) == {(1.0, -1.0), (-1.0, 1.0)}


def test_gammons_and_backgammons_score_as_openspiel_s_full_scoring():
    game = load_game([BACKGAMMON])
    spiel_game = pyspiel.load_game("backgammon", {"scoring_type": "full_scoring"})
    results = []
    play_against(game, spiel_game, spiel_position, games=30, seed=12, label="backgammon",
                 our_position=our_position, scores=True, results=results)
    assert {max(r) for r in results} == {1.0, 2.0, 3.0}   # single games, gammons, backgammons


def test_the_turn_limit_is_openspiel_s_max_player_turns():
    """After max_player_turns turns the game is a draw, on both sides. (OpenSpiel ends the game
    after the first half of a double that passes the limit, ours after the whole turn: the seed
    is one whose games never pass the limit on a double.)"""
    game = load_game([BACKGAMMON], params={"max_player_turns": 20})
    spiel_game = pyspiel.load_game("backgammon", {"max_player_turns": 20})
    results = []
    play_against(game, spiel_game, spiel_position, games=20, seed=SHORT_SEED, label="backgammon",
                 our_position=our_position, results=results)
    assert set(results) == {(0.0, 0.0)}
