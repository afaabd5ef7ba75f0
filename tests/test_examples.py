"""The example games: each checks clean and plays its scripted games to the stated end.

Scripted games live in tests/data/games/<example>/*.moves, where <example> is a key of
EXAMPLES below. A script is what `gdef-run --moves` reads: one move per line
(`place(1,1,X)`, `clear(0,0); place(1,1,X)`, `pass`), `#` starting a comment anywhere on a
line, blank lines ignored. Comment lines of the form `# expect: ...` state the expected
result, machine-readably:

    # expect: winner N          the game ends and player N wins
    # expect: draw              the game ends without a winner
    # expect: unfinished        the moves run out before the game ends
    # expect: rejected L L ...  exactly these lines (1-based) are rejected, each leaving the
                                game untouched, the same player to move again (no such line,
                                or an empty list: no line is rejected)
    # expect: ends L            the move on line L ends the game and later lines are ignored
                                (without it, a finished game ends with the last move line)

Exactly one of winner / draw / unfinished must be given. A rejected line may be malformed
text, a square off the board, an undeclared object, or a move the rules refuse.

Every script is played twice: through the game API (`gdef_core.runtime`) and through
`gdef-run GAME --moves SCRIPT`. The `openspiel-*.moves` scripts are random games played by
OpenSpiel, converted (with illegal lines slipped in) by tests/data/games/from_openspiel.py,
which also writes gomoku's full-board draw and can re-check every script, the hand-written
`rules-*.moves` ones included, against OpenSpiel:
`python tests/data/games/from_openspiel.py --verify`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gdef_core import check_files, runtime
from gdef_core.cli.run import main as gdef_run

from support import ROOT

GAMES = ROOT / "tests" / "data" / "games"

# Scripts directory -> the files of the game (the first one is named on the command line;
# any others it finds through `use`).
EXAMPLES = {
    "tictactoe": "examples/tictactoe.gdef",
    "tictactoe-split": "examples/tictactoe-split/tictactoe.gdef",
    "connect4": "examples/connect4.gdef",
    "gomoku": "examples/gomoku.gdef",
    "checkers": "examples/checkers.gdef",
    "reversi": "examples/reversi.gdef",
    "breakthrough": "examples/breakthrough.gdef",
    "chess": "examples/chess/chess.gdef",
    "kiwipete": "examples/chess/kiwipete.gdef",
    "position3": "examples/chess/position3.gdef",
    "go9": "examples/go/go9.gdef",
    "go19": "examples/go/go19.gdef",
    "hex": "examples/hex.gdef",
    "kalah": "examples/kalah.gdef",
    "einstein": "examples/einstein.gdef",
    "oware": "examples/oware.gdef",
    "backgammon": "examples/backgammon.gdef",
}
# Games that cannot end in a draw (breakthrough: every move advances a pawn; someone arrives;
# Go: the komi is half a point; hex: a full board always joins one pair of edges; einstein:
# every move advances a cube).
NO_DRAWS = {"breakthrough", "go9", "hex", "einstein"}
# Other start positions of a game above (the same rules): a script of their own corner cases
# each, not the whole set of outcomes.
POSITIONS = {"kiwipete", "position3", "go19"}


# ------------------------------------------------------------------ the script format


@dataclass
class Script:
    path: Path
    outcome: str = ""  # "winner 0", "winner 1", ..., "draw" or "unfinished"
    rejected: set[int] = field(default_factory=set)
    ends: int | None = None
    moves: list[tuple[int, str]] = field(default_factory=list)  # (line number, move text)

    @property
    def winner(self) -> int | None:
        return int(self.outcome.split()[1]) if self.outcome.startswith("winner") else None

    @property
    def last_move_line(self) -> int | None:
        """The line whose move should end the game (None for an unfinished game)."""
        if self.outcome == "unfinished":
            return None
        return self.ends if self.ends is not None else self.moves[-1][0]


_EXPECT = re.compile(r"^\s*#\s*expect:\s*(?P<what>\w+)\s*(?P<rest>[^#]*)$")


def read_script(path: Path) -> Script:
    """Parse a .moves file; a malformed `expect` line is a ValueError naming file and line."""
    script = Script(path)
    outcomes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _EXPECT.match(line)
        if match:
            what, rest = match["what"], match["rest"].split()
            if what == "winner" and len(rest) == 1 and rest[0].isdigit():
                outcomes.append(f"winner {int(rest[0])}")
            elif what in ("draw", "unfinished") and not rest:
                outcomes.append(what)
            elif what == "rejected" and all(r.isdigit() for r in rest):
                script.rejected |= {int(r) for r in rest}
            elif what == "ends" and len(rest) == 1 and rest[0].isdigit():
                script.ends = int(rest[0])
            else:
                raise ValueError(f"{path}:{number}: cannot read this expectation: {line.strip()}")
            continue
        text = line.split("#", 1)[0].strip()
        if text:
            script.moves.append((number, text))
    if len(outcomes) != 1:
        raise ValueError(f"{path}: needs exactly one of `# expect: winner N | draw | unfinished`"
                         f", found {len(outcomes)}")
    script.outcome = outcomes[0]
    return script


def all_scripts() -> list[Path]:
    return sorted(GAMES.glob("*/*.moves"))


def game_files(script: Path) -> list[str]:
    return [str(ROOT / EXAMPLES[script.parent.name])]


# ------------------------------------------------------------------ the examples check clean


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_example_checks_without_errors_or_warnings(example: str) -> None:
    diagnostics = check_files([str(ROOT / EXAMPLES[example])])
    assert [str(d) for d in diagnostics] == []


def test_library_of_the_split_example_checks_alone() -> None:
    assert [str(d) for d in check_files([str(ROOT / "examples/tictactoe-split/lines.gdef")])] == []


def test_every_example_file_is_covered() -> None:
    """A new example must get scripted games here (and one that is gone, lose them)."""
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "examples").rglob("*.gdef")}
    libraries = {"examples/tictactoe-split/lines.gdef", "examples/chess/rules.gdef", "examples/go/rules.gdef"}
    assert files - libraries == set(EXAMPLES.values())
    assert {p.name for p in GAMES.iterdir() if p.is_dir()} == set(EXAMPLES)


# ------------------------------------------------------------------ the scripts are well made


@pytest.mark.parametrize("path", all_scripts(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_script_is_well_formed(path: Path) -> None:
    script = read_script(path)
    move_lines = {number for number, _ in script.moves}
    assert script.rejected <= move_lines, "a rejected line that holds no move"
    if script.ends is not None:
        assert script.ends in move_lines and script.ends not in script.rejected
        assert script.outcome != "unfinished"


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_every_example_has_wins_for_each_side_draws_and_rejections(example: str) -> None:
    scripts = [read_script(p) for p in sorted((GAMES / example).glob("*.moves"))]
    if example in POSITIONS:
        assert scripts and all(script.rejected for script in scripts)
        return
    outcomes = {s.outcome for s in scripts}
    assert {"winner 0", "winner 1"} <= outcomes
    assert ("draw" in outcomes) == (example not in NO_DRAWS)
    assert any(s.rejected for s in scripts)


# ------------------------------------------------------------------ playing the scripts


def play(script: Script):
    """Plays a script as gdef-run does: returns the final state, the rejected lines with their
    verdicts, and the line whose move ended the game."""
    state = runtime.load_game(game_files(script.path)).new_state()
    rejected, ended_at = {}, None
    for number, text in script.moves:
        if state.is_over:
            break
        before = state.to_json()
        verdict = state.check(text)
        if verdict:
            try:
                state.apply(text)
            except runtime.IllegalMoveError as error:  # end() failed: rejected as well
                verdict = error.verdict
        if not verdict:
            rejected[number] = verdict
            assert state.to_json() == before, f"line {number}: a rejected move changed the game"
            continue
        if state.is_over:
            ended_at = number
    return state, rejected, ended_at


@pytest.mark.parametrize("path", all_scripts(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scripted_game_reaches_the_expected_end(path: Path) -> None:
    script = read_script(path)
    state, rejected, ended_at = play(script)
    assert sorted(rejected) == sorted(script.rejected), {n: v.reason for n, v in rejected.items()}
    assert ended_at == script.last_move_line
    assert state.is_over == (script.outcome != "unfinished")
    if state.is_over:
        assert state.winner == script.winner


def test_rejections_say_why() -> None:
    """The kinds of rejection in the hand-written tic-tac-toe script, line by line."""
    kind = runtime.VerdictKind
    _, rejected, _ = play(read_script(GAMES / "tictactoe" / "rules-x-wins.moves"))
    assert {number: verdict.kind for number, verdict in rejected.items()} == {
        7: kind.REJECTED, 8: kind.REJECTED, 9: kind.REJECTED, 11: kind.REJECTED,
        12: kind.REJECTED, 13: kind.OFF_BOARD, 14: kind.OFF_BOARD, 15: kind.UNKNOWN_OBJECT,
        16: kind.REJECTED, 17: kind.MALFORMED, 18: kind.MALFORMED, 19: kind.MALFORMED}


def _documented_game() -> str:
    """The complete small game of docs/language.md."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    games = [block for block in re.findall(r"```gdef\n(.*?)```", text, re.DOTALL) if "\nname: race" in block]
    assert len(games) == 1
    return games[0]


def test_documented_complete_game_checks_clean(tmp_path: Path) -> None:
    path = tmp_path / "race.gdef"
    path.write_text(_documented_game(), encoding="utf-8")
    assert [str(d) for d in check_files([str(path)])] == []


def test_documented_complete_game_plays_to_the_end(tmp_path: Path) -> None:
    """Both runners run until one is stuck at the far end: the other player wins."""
    path = tmp_path / "race.gdef"
    path.write_text(_documented_game(), encoding="utf-8")
    state = runtime.load_game([str(path)]).new_state()
    for text in ["clear(0,0); place(2,0,A)", "clear(9,0); place(7,0,B)",
                 "clear(2,0); place(4,0,A)", "clear(7,0); place(5,0,B)",
                 "clear(4,0); place(6,0,A)", "clear(5,0); place(3,0,B)",
                 "clear(6,0); place(8,0,A)", "clear(3,0); place(1,0,B)"]:
        assert state.check(text), text
        state.apply(text)
    assert not state.is_over and not state.check("clear(8,0); place(10,0,A)")
    state.apply("clear(8,0); place(9,0,A)")
    assert not state.is_over
    state.apply("clear(1,0); place(0,0,B)")   # A on (9,0) cannot move: B's player wins
    assert state.is_over and state.winner == 1


@pytest.mark.parametrize("path", all_scripts(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_gdef_run_plays_the_script(path: Path, tmp_path: Path, capsys) -> None:
    """`gdef-run GAME --moves SCRIPT`: the exit code, the rejected lines it reports and the
    result in its record all match the script's expectations."""
    script = read_script(path)
    record = tmp_path / "record.json"
    with pytest.raises(SystemExit) as exited:  # gdef-run's main() exits with the exit code
        gdef_run([*game_files(path), "--moves", str(path), "--record", str(record), "--no-color"])
    code = exited.value.code
    err = capsys.readouterr().err
    assert code == (3 if script.outcome == "unfinished" else 0), err
    reported = {int(n) for n in re.findall(rf"^{re.escape(str(path))}:(\d+): rejected", err, re.MULTILINE)}
    assert reported == script.rejected
    result = json.loads(record.read_text(encoding="utf-8"))
    assert {entry["line"] for entry in result["rejected"]} == script.rejected
    assert result["result"] == {"over": script.outcome != "unfinished", "winner": script.winner}
    last = script.last_move_line
    played = [n for n, _ in script.moves if n not in script.rejected and (last is None or n <= last)]
    assert len(result["moves"]) == len(played)
    ignored = [n for n, _ in script.moves if last is not None and n > last]
    if ignored:
        assert f"{path}:{ignored[0]}: the game is over" in err


# ------------------------------------------------------------------ checkers' rarer captures


def _checkers_position(pieces: dict[tuple[int, int], str], player: int = 0):
    game = runtime.load_game([str(ROOT / EXAMPLES["checkers"])])
    return game.state_from_json({
        "game": "checkers", "width": 8, "height": 8, "player": player, "move_number": 10,
        "over": False, "winner": None, "vars": {"movesWithoutCapture": 0},
        "board": [[x, y, piece] for (x, y), piece in pieces.items()]})


def _effects(state) -> set[frozenset]:
    """Each legal move as the position it leads to."""
    positions = set()
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        positions.add(frozenset(after.board.occupied()))
    return positions


def test_checkers_king_round_trip_is_written_as_its_captures() -> None:
    """A white king on (2,2) jumps the four men around it and lands where it started: the
    move changes only the four captured squares, in any order."""
    men = [(3, 3), (5, 3), (5, 1), (3, 1)]
    state = _checkers_position({(2, 2): "WK", **{m: "B" for m in men}, (7, 7): "B"})
    assert _effects(state) == {frozenset({(2, 2, "WK"), (7, 7, "B")})}
    assert not state.check("clear(3,3); clear(5,3); clear(5,1)")        # stops early
    # Judged by its effect (isGenerated(), spec 15.3): lifting the king and putting it back is
    # the same move.
    assert state.check("clear(2,2); clear(3,3); clear(5,3); clear(5,1); clear(3,1); place(2,2,WK)")
    state.apply("clear(5,3); clear(3,1); clear(3,3); clear(5,1)")
    assert not state.is_over and state.current_player == 1


def test_checkers_crowning_ends_the_capture() -> None:
    """A white man jumping onto the far row is crowned there and stops, though a king could
    jump on."""
    state = _checkers_position({(1, 5): "W", (2, 6): "B", (4, 6): "B", (6, 6): "B"})
    assert _effects(state) == {frozenset({(3, 7, "WK"), (4, 6, "B"), (6, 6, "B")})}
    assert not state.check("clear(1,5); clear(2,6); place(3,7,W)")      # not crowned
    assert not state.check("clear(1,5); clear(2,6); clear(4,6); place(5,5,WK)")
    assert state.check("place(3,7,WK); clear(2,6); clear(1,5)")


def test_checkers_capture_goes_on_while_it_can() -> None:
    state = _checkers_position({(0, 2): "W", (1, 3): "B", (3, 5): "B", (7, 7): "B"})
    assert not state.check("clear(0,2); clear(1,3); place(2,4,W)")
    assert state.check("clear(0,2); clear(1,3); clear(3,5); place(4,6,W)")
    assert _effects(state) == {frozenset({(4, 6, "W"), (7, 7, "B")})}
