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

Most scripts are random games played by OpenSpiel and converted by
tests/data/games/from_openspiel.py (which can also re-check any script against OpenSpiel:
`python tests/data/games/from_openspiel.py --verify`); the `rules-*.moves` ones are written
by hand, each aimed at particular rules.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gdef_core import check_files

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).resolve().parent / "data" / "games"

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
}
# Games that cannot end in a draw (breakthrough: every move advances a pawn; someone arrives).
NO_DRAWS = {"breakthrough"}


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
    assert files - {"examples/tictactoe-split/lines.gdef"} == set(EXAMPLES.values())
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
    outcomes = {s.outcome for s in scripts}
    assert {"winner 0", "winner 1"} <= outcomes
    assert ("draw" in outcomes) == (example not in NO_DRAWS)
    assert any(s.rejected for s in scripts)


# ------------------------------------------------------------------ playing the scripts


def _runtime():
    """The runtime's game API, or a skip naming what is missing."""
    import gdef_core

    if not hasattr(gdef_core, "load_game"):
        pytest.skip("gdef_core.load_game (the runtime, issue 3) has not landed yet")
    from gdef_core.runtime.moves import Move, MoveSyntaxError

    return gdef_core.load_game, Move, MoveSyntaxError


@pytest.mark.parametrize("path", all_scripts(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scripted_game_reaches_the_expected_end(path: Path) -> None:
    load_game, Move, MoveSyntaxError = _runtime()
    script = read_script(path)
    state = load_game(game_files(path)).new_state()
    rejected, ended_at = set(), None
    for number, text in script.moves:
        if state.is_over:
            break
        player = state.current_player
        try:
            move = Move.parse(text)
        except MoveSyntaxError:
            rejected.add(number)
            continue
        if not state.check(move):
            rejected.add(number)
            assert state.current_player == player
            continue
        state.apply(move)
        if state.is_over:
            ended_at = number
    assert sorted(rejected) == sorted(script.rejected)
    assert ended_at == script.last_move_line
    if script.outcome != "unfinished":
        assert state.winner == script.winner
