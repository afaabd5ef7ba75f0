"""Why a move is refused and why a game ended (gdef_core/runtime/reasons.py): the deciding line
of the rules, its file and its comment, in the game API, gdef-run (a real process), the web
board's API (a real server), the bot protocol and gdef-test."""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path


from gdef_core.cli.test import run as gdef_test
from gdef_core.runtime import reasons
from gdef_core.runtime.game import VerdictKind, load_game
from gdef_core.runtime.session import Session
from web_support import GDEF_RUN, ROOT

CHESS = ROOT / "examples" / "chess"
GO = ROOT / "examples" / "go"
BLOCKED_QUEEN = "clear(3,0); place(3,2,WQ)"   # Qd1-d3 at the start: the pawn on d2 is in the way
FOOLS_MATE = ["clear(5,1); place(5,2,WP)", "clear(4,6); place(4,4,BP)", "clear(6,1); place(6,3,WP)",
              "clear(3,7); place(7,3,BQ)"]
# Go 9x9: Black stones on b1 and a2, then White on a1 would have no liberty and capture nothing.
SUICIDE_SETUP = ["place(0,1,B)", "pass", "place(1,0,B)"]


def line_of(path: Path, text: str) -> int:
    """The line (from 1) of `path` that contains `text`, so the tests follow the file's edits."""
    found = [number for number, line in enumerate(path.read_text().split("\n"), 1) if text in line]
    assert len(found) == 1, (path, text, found)
    return found[0]


BLOCKED_LINE = line_of(CHESS / "rules.gdef", "// a piece stands between")
BLOCKED = (f"refused by rules.gdef:{BLOCKED_LINE}: a piece stands between "
           "(if (piece != knightOf(me) && between(fx, fy, tx, ty)) { return false; })")
SUICIDE_LINE = line_of(GO / "rules.gdef", "// suicide:")
SUICIDE = (f"refused by rules.gdef:{SUICIDE_LINE}: suicide: the stone would leave its group without a "
           "liberty (if (suicide(x, y, me)) { return false; })")


def test_a_blocked_queen_names_the_line_that_refuses_it() -> None:
    state = load_game(str(CHESS / "chess.gdef")).new_state()
    verdict = state.check(BLOCKED_QUEEN)
    assert (verdict.kind, verdict.reason) == (VerdictKind.REJECTED, BLOCKED)
    rule = verdict.rule
    assert (Path(rule.span.file).name, rule.span.line + 1, rule.comment) == \
        ("rules.gdef", BLOCKED_LINE, "a piece stands between")


def test_a_suicide_in_go_names_the_line_that_refuses_it() -> None:
    state = load_game(str(GO / "go9.gdef")).new_state()
    for move in SUICIDE_SETUP:
        state.apply(move)
    assert state.check("place(0,0,W)").reason == SUICIDE
    taken = state.check("place(0,1,W)")
    assert taken.reason == (f"refused by rules.gdef:{line_of(GO / 'rules.gdef', '// that point is taken')}: "
                            "that point is taken (if (CurrentPosition[x][y] != empty) { return false; })")


def test_the_reason_is_found_only_when_asked_for() -> None:
    game = load_game(str(CHESS / "chess.gdef"))
    verdict = game.new_state().check(BLOCKED_QUEEN)
    assert game not in reasons._REFERENCES and not verdict.legal
    assert verdict.rule is not None and game in reasons._REFERENCES


def test_comments_above_the_line_and_lines_without_comment(tmp_path) -> None:
    path = tmp_path / "rules.gdef"
    path.write_text("name: t\nplayers: 2\nsize: 3 x 3\nobj X\n\n"
                    "define isMoveLegal() -> bool {\n"
                    "  int x = OperationList[0][0];\n"
                    "  // a mark goes\n"
                    "  /* in the left column */\n"
                    "  if (x != 0) {\n"
                    "    return false;\n"
                    "  }\n"
                    "  return CurrentPosition[x][OperationList[0][1]] == empty && unused(x);\n"
                    "}\n\n"
                    "define unused(int x) -> bool {\n"
                    "  return x == 0;   // a comment the caller's refusal does not reach\n"
                    "}\n\n"
                    "define end() -> bool { return false; }\n")
    state = load_game(str(path)).new_state()
    assert state.check("place(1,0,X)").reason == \
        "refused by rules.gdef:11: a mark goes in the left column (if (x != 0) { return false; })"
    state.apply("place(0,0,X)")
    assert state.check("place(0,0,X)").reason == \
        "refused by rules.gdef:13 (return CurrentPosition[x][OperationList[0][1]] == empty && unused(x);)"


def test_the_end_of_a_game_names_its_line() -> None:
    game = load_game(str(CHESS / "chess.gdef"))
    session = Session(game, [])
    for move in FOOLS_MATE[:-1]:
        session.play(move)
    assert session.ended_by() is None
    session.play(FOOLS_MATE[-1])
    rule = session.ended_by()
    assert (rule.comment, rule.span.line + 1) == ("checkmate", line_of(CHESS / "rules.gdef", "// checkmate"))
    go = Session(load_game(str(GO / "go9.gdef")), [])
    for move in ["place(4,4,B)", "pass", "pass"]:
        go.play(move)
    assert go.state.is_over and go.ended_by().comment == "two passes in a row"


def test_gdef_run_says_why_in_the_console(tmp_path) -> None:
    moves = tmp_path / "game.moves"
    moves.write_text("\n".join([BLOCKED_QUEEN, *FOOLS_MATE]) + "\n")
    done = subprocess.run([GDEF_RUN, str(CHESS / "chess.gdef"), "--moves", str(moves)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert f"game.moves:1: rejected '{BLOCKED_QUEEN}' (White): {BLOCKED}\n" in done.stderr
    assert done.stdout.rstrip().endswith("Black wins: checkmate.")
    typed = subprocess.run([GDEF_RUN, str(GO / "go9.gdef")], input="\n".join([*SUICIDE_SETUP, "place(0,0,W)"]) + "\n",
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert f"Rejected: {SUICIDE}\n" in typed.stdout




def test_the_web_board_says_why(web) -> None:
    run = web("examples/chess/chess.gdef")
    answer = run.post("/api/move", {"move": BLOCKED_QUEEN})[1]
    assert (answer["accepted"], answer["reason"]) == (False, BLOCKED)
    column = (CHESS / "rules.gdef").read_text().split("\n")[BLOCKED_LINE - 1].index("return false") + 1
    assert answer["rule"] == {"file": "examples/chess/rules.gdef", "line": BLOCKED_LINE, "column": column,
                              "comment": "a piece stands between", "code": BLOCKED.split(" (", 1)[1][:-1],
                              "text": BLOCKED.removeprefix("refused by ")}
    for move in FOOLS_MATE:
        assert run.post("/api/move", {"move": move})[1]["accepted"]
    ended = run.get("/api/state")[1]["endedBy"]
    assert (ended["comment"], ended["line"]) == ("checkmate", line_of(CHESS / "rules.gdef", "// checkmate"))
    go = web("examples/go/go9.gdef")
    for move in SUICIDE_SETUP:
        go.post("/api/move", {"move": move})
    assert go.get("/api/check?move=place(0,0,W)")[1]["reason"] == SUICIDE


def test_the_protocol_and_gdef_test_say_why(tmp_path) -> None:
    protocol = subprocess.run([GDEF_RUN, "--protocol", str(CHESS / "chess.gdef")],
                              input='{"cmd": "play", "move": "%s"}\n' % BLOCKED_QUEEN,
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert f'"message": "{BLOCKED}"' in protocol.stdout
    for name in ("chess.gdef", "rules.gdef"):
        shutil.copy(CHESS / name, tmp_path / name)
    (tmp_path / "chess.test.moves").write_text(f"[the queen]\n{BLOCKED_QUEEN}\n")
    out = io.StringIO()
    assert gdef_test([str(tmp_path)], out, io.StringIO()) == 1
    assert f"the move {BLOCKED_QUEEN} was rejected: {BLOCKED}" in out.getvalue()
