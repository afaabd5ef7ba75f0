"""The game controller below gdef-run's front ends (gdef_core.controller.play_session), driven
as a front end drives it, and the layer it sits in."""
from __future__ import annotations

import ast
import json
from pathlib import Path

from gdef_core.controller.play_session import EXIT_UNFINISHED, PlayOptions, PlaySession

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")


class Shown:
    """A Reporter that keeps what it is told."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.complaints: list[str] = []
        self.boards = 0

    def say(self, text: str = "") -> None:
        self.said.append(text)

    def complain(self, text: str) -> None:
        self.complaints.append(text)

    def show_error(self, error, game) -> None:
        self.complaints.append(error.headline())

    def show_definition(self, program, error) -> None:
        self.complaints.append(str(error))

    def show_board(self, session) -> None:
        self.boards += 1


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, imports inside functions included."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_board_page_the_protocol_and_the_controller_never_import_the_cli():
    for folder, forbidden in (("web", ("gdef_core.cli",)), ("play", ("gdef_core.cli",)),
                              ("controller", ("gdef_core.cli", "gdef_core.web"))):
        for path in sorted((ROOT / "gdef_core" / folder).glob("*.py")):
            bad = sorted(name for name in imports_of(path) if name.startswith(forbidden))
            assert not bad, f"{path.relative_to(ROOT)} imports {', '.join(bad)}"


def test_a_front_end_plays_through_the_controller(tmp_path):
    record = tmp_path / "game.json"
    shown = Shown()
    play = PlaySession.start(PlayOptions(files=[TICTACTOE], record=str(record), players=["1=random"], seed=3),
                             shown)
    assert isinstance(play, PlaySession)
    assert play.play("place(1,1,X)").accepted
    assert play.computer_turns() and len(play.session.moves) == 2
    assert not play.play("place(1,1,X)").accepted  # taken: kept as rejected, the record written
    saved = json.loads(record.read_text())
    assert len(saved["moves"]) == 2 and saved["rejected"][0]["move"] == "place(1,1,X)"
    assert play.take_back() and play.session.moves == []  # the computer's move and the person's
    assert json.loads(record.read_text())["moves"] == []
    assert play.play("place(0,0,X)").accepted
    assert play.stop("quit") == EXIT_UNFINISHED
    assert shown.complaints[-1].startswith("Stopped (quit) before the game ended, after 1 move(s). "
                                           f"The record is in {record}")


def test_a_script_with_assertions_runs_through_the_controller(tmp_path):
    shown = Shown()
    play = PlaySession.start(PlayOptions(files=[TICTACTOE]), shown)
    lines = ["place(0,0,X)", "? turn 1", "place(1,0,O)", "place(0,1,X)", "place(1,1,O)", "place(0,2,X)",
             "? over winner 0"]
    assert play.run_script(lines, "win.moves") == 0
    assert shown.said[-1] == "Player 0 wins." and shown.boards == 1 and shown.complaints == []
