"""examples/chess against references nobody here wrote: the published perft counts, and
python-chess move by move in seeded random games (legal moves, end and result)."""
from __future__ import annotations

import random

import pytest

from support import ROOT, need_module

chess = need_module("chess", "pip install -e '.[dev]'")

from gdef_core import load_game  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

CHESS = ROOT / "examples" / "chess"
LETTER = {"WP": "P", "WN": "N", "WB": "B", "WR": "R", "WQ": "Q", "WK": "K",
          "BP": "p", "BN": "n", "BB": "b", "BR": "r", "BQ": "q", "BK": "k"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(CHESS / "chess.gdef"))


# Depths that fit CI; docs/performance.md gives the deeper ones with their times.
@pytest.mark.parametrize("name, counts", [
    ("chess", [20, 400, 8902]),
    ("kiwipete", [48, 2039]),
    ("position3", [14, 191, 2812]),
])
def test_perft_matches_the_published_counts(name, counts):
    state = load_game(str(CHESS / f"{name}.gdef")).new_state()
    assert perft(state, len(counts)) == counts


def placement(squares: dict) -> str:
    """A FEN piece placement from {(x, y): letter}."""
    rows = []
    for y in range(7, -1, -1):
        row, gap = "", 0
        for x in range(8):
            letter = squares.get((x, y))
            if letter is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + letter
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def after(state, move) -> str:
    """The placement a move of ours leaves (its operations applied; end() not run)."""
    squares = {(x, y): LETTER[str(o)] for x, y, o in state.board.occupied()}
    for op in move.ops:
        if op.obj is None:
            squares.pop((op.x, op.y), None)
        else:
            squares[(op.x, op.y)] = LETTER[op.obj]
    return placement(squares)


def reference_end(board) -> tuple[bool, int | None]:
    """(over, winner) under our rules, from python-chess's board: checkmate and stalemate first,
    then the fifty-move rule, threefold repetition and K v K / K+minor v K, all automatic."""
    if board.is_checkmate():
        return True, 0 if board.turn == chess.BLACK else 1
    if board.is_stalemate() or board.halfmove_clock >= 100 or board.is_repetition(3):
        return True, None
    others = [p for p in board.piece_map().values() if p.piece_type != chess.KING]
    if len(others) <= 1 and all(p.piece_type in (chess.BISHOP, chess.KNIGHT) for p in others):
        return True, None
    return False, None


# These seeds end in: insufficient material (1), the fifty-move rule (2), checkmate (12, 25),
# stalemate (20), each after 64 to 371 plies, every ply compared.
@pytest.mark.parametrize("seed", [1, 2, 12, 20, 25])
def test_random_games_agree_with_python_chess_at_every_ply(game, seed):
    rng = random.Random(seed)
    state = game.new_state()
    board = chess.Board()
    for ply in range(400):
        ours = {after(state, move): move for move in state.legal_moves()}
        theirs = {}
        for move in board.legal_moves:
            board.push(move)
            theirs[board.board_fen()] = move
            board.pop()
        assert set(ours) == set(theirs), f"seed {seed}, ply {ply}: {board.fen()}"
        chosen = rng.choice(sorted(theirs))
        board.push(theirs[chosen])
        state.apply(ours[chosen])
        assert (state.is_over, state.winner) == reference_end(board), f"seed {seed}, ply {ply}: {board.fen()}"
        if state.is_over:
            break
    assert state.is_over


@pytest.mark.parametrize("fen, moves, over, winner", [
    # fool's mate: Black mates
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["f2f3", "e7e5", "g2g4", "d8h4"], True, 1),
    # knights out and back twice: threefold repetition
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"], True, None),
])
def test_known_endings(game, fen, moves, over, winner):
    state = game.new_state()
    board = chess.Board(fen)
    for uci in moves:
        move = board.parse_uci(uci)
        board.push(move)
        ours = {after(state, m): m for m in state.legal_moves()}
        state.apply(ours[board.board_fen()])
    assert (state.is_over, state.winner) == (over, winner)
