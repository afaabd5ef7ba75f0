"""Game records on real files, links and processes: where records of unnamed games go, a resumed
game going on in its own record, never writing through a symbolic link, records naming files
that are not games, and records of positions set over the bot protocol."""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gdef_core.runtime.game import load_game
from gdef_core.runtime.session import Session, files_for_record

from support import ROOT

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
GDEF_RUN = [sys.executable, "-m", "gdef_core.cli.run"]


def gdef_run(tmp_path, *argv: str, stdin: str = "", env: dict | None = None,
             cwd: Path | None = None) -> subprocess.CompletedProcess:
    """gdef-run in a child process whose state and temporary folders are under tmp_path (and
    whose current folder is tmp_path, or `cwd`)."""
    full = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TMPDIR": str(tmp_path / "tmp"),
            **(env or {})}
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return subprocess.run([*GDEF_RUN, *argv], input=stdin, capture_output=True, text=True, env=full,
                          cwd=cwd or tmp_path, timeout=120)


def record_in(err: str) -> str:
    found = re.search(r"The record is in (\S+); continue with", err)
    assert found, err
    return found.group(1)


def records_folder(tmp_path) -> Path:
    return tmp_path / "state" / "gdef" / "records"


def test_an_unnamed_game_goes_to_the_records_folder_and_nothing_to_the_temporary_one(tmp_path):
    done = gdef_run(tmp_path, TICTACTOE, "--moves", "-", stdin="place(1,1,X)\n")
    assert done.returncode == 3
    path = Path(record_in(done.stderr))
    assert path.parent == records_folder(tmp_path)
    assert re.fullmatch(r"tictactoe-\d{4}-\d\d-\d\d-\d{6}\.json", path.name)
    assert json.loads(path.read_text())["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]
    left = [name for name in os.listdir(tmp_path / "tmp") if not name.startswith(".lark_cache_")]
    assert left == []


def test_a_resumed_game_goes_on_in_its_own_record(tmp_path):
    first = gdef_run(tmp_path, TICTACTOE, "--moves", "-", stdin="place(1,1,X)\n")
    path = record_in(first.stderr)
    mode = 0o640
    os.chmod(path, mode)
    second = gdef_run(tmp_path, "--resume", path, "--moves", "-", stdin="place(0,0,O)\n")
    assert second.returncode == 3
    assert record_in(second.stderr) == path
    assert os.listdir(records_folder(tmp_path)) == [os.path.basename(path)]  # no second file
    assert [entry["move"] for entry in json.loads(Path(path).read_text())["moves"]] == ["place(1,1,X)", "place(0,0,O)"]
    assert stat.S_IMODE(os.stat(path).st_mode) == mode  # the file's mode is kept


def test_a_record_link_is_refused_and_what_it_points_to_is_untouched(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("root:x:0:0\n")
    target.chmod(0o644)
    link = tmp_path / "game.json"
    link.symlink_to(target)
    done = gdef_run(tmp_path, TICTACTOE, "--record", str(link), "--moves", "-", stdin="place(1,1,X)\n")
    assert done.returncode == 2
    assert f"--record {link} is a symbolic link" in done.stderr
    assert target.read_text() == "root:x:0:0\n" and stat.S_IMODE(target.stat().st_mode) == 0o644
    assert link.is_symlink() and sorted(os.listdir(tmp_path)) == ["game.json", "precious.txt", "tmp"]


def test_a_record_becoming_a_link_while_playing_is_not_written_through(tmp_path):
    """The name is checked at every write, and the rename replaces the name, never its target."""
    session = Session(load_game([TICTACTOE]), [TICTACTOE])
    session.play("place(1,1,X)")
    record = tmp_path / "game.json"
    session.save(str(record))
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    record.unlink()
    record.symlink_to(target)
    with pytest.raises(OSError, match="symbolic link"):
        session.save(str(record))
    assert target.read_text() == "keep me" and record.is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["game.json", "precious.txt"]  # no temporary file left


def test_a_record_naming_files_that_are_not_games_is_refused_unread(tmp_path):
    for name in ("/proc/self/environ", "/etc/shadow", str(tmp_path / "notes.txt")):
        (tmp_path / "notes.txt").write_text("SECRET-IN-A-FILE\n")
        record = tmp_path / "shared.json"
        record.write_text(json.dumps({"game": "tictactoe", "files": [name], "players": 2, "moves": [],
                                      "rejected": []}))
        done = gdef_run(tmp_path, "--resume", str(record), env={"GDEF_TEST_SECRET": "SECRET-IN-ENV"})
        assert done.returncode == 2, done.stderr
        assert f"'files' names '{name}', which is not a .gdef file" in done.stderr
        assert "SECRET" not in done.stderr + done.stdout


def test_a_position_set_over_the_protocol_is_recorded_so_that_it_resumes(tmp_path):
    record = tmp_path / "game.json"
    start = load_game([TICTACTOE]).new_state()
    start.apply("place(1,1,X)")
    position = start.to_json()
    requests = [{"cmd": "set", "state": position}, {"cmd": "play", "move": "place(0,0,O)"}, {"cmd": "quit"}]
    done = gdef_run(tmp_path, TICTACTOE, "--protocol", "--record", str(record),
                    stdin="".join(json.dumps(r) + "\n" for r in requests))
    answers = [json.loads(line) for line in done.stdout.splitlines()[1:]]
    assert [a["ok"] for a in answers] == [True, True, True], done.stdout
    resumed = gdef_run(tmp_path, "--resume", str(record), "--moves", "-", stdin="place(2,2,X)\n")
    assert resumed.returncode == 3, resumed.stderr
    # the game goes on from the set position (one move in), numbered as moveNumber() counts
    assert "3. player 0: 2,2 (place(2,2,X))" in resumed.stdout
    moves = json.loads(record.read_text())["moves"]
    assert [m["move"] for m in moves] == ["place(0,0,O)", "place(2,2,X)"]
    assert json.loads(record.read_text())["start"]["board"] == [[1, 1, "X"]]


def project(tmp_path) -> Path:
    """tmp_path/project/games/ttt.gdef (tic-tac-toe), and tmp_path/elsewhere holding a
    games/ttt.gdef of its own that is no game at all: the file a cwd-relative name would find."""
    games = tmp_path / "project" / "games"
    games.mkdir(parents=True)
    (games / "ttt.gdef").write_text(Path(TICTACTOE).read_text())
    decoy = tmp_path / "elsewhere" / "games"
    decoy.mkdir(parents=True)
    (decoy / "ttt.gdef").write_text("this is not the game\n")
    return tmp_path / "project"


def test_a_record_names_its_files_relative_to_its_own_folder_and_resumes_from_any_folder(tmp_path):
    root = project(tmp_path)
    (root / "records").mkdir()
    done = gdef_run(tmp_path, "games/ttt.gdef", "--record", "records/game.json", "--moves", "-",
                    stdin="place(1,1,X)\n", cwd=root)
    assert done.returncode == 3, done.stderr
    record = root / "records" / "game.json"
    assert json.loads(record.read_text())["files"] == ["../games/ttt.gdef"]
    resumed = gdef_run(tmp_path, "--resume", "../project/records/game.json", "--moves", "-",
                       stdin="place(0,0,O)\n", cwd=tmp_path / "elsewhere")
    assert resumed.returncode == 3, resumed.stderr
    assert "2. player 1: 0,0 (place(0,0,O))" in resumed.stdout and "note:" not in resumed.stderr
    data = json.loads(record.read_text())
    assert [m["move"] for m in data["moves"]] == ["place(1,1,X)", "place(0,0,O)"]
    assert data["files"] == ["../games/ttt.gdef"]  # still relative to the record, whoever wrote it


def test_absolute_file_names_stay_absolute_and_a_record_far_from_its_game_names_it_absolute(tmp_path):
    root = project(tmp_path)
    game = str(root / "games" / "ttt.gdef")
    done = gdef_run(tmp_path, game, "--record", "game.json", "--moves", "-", stdin="place(1,1,X)\n", cwd=root)
    assert done.returncode == 3, done.stderr
    assert json.loads((root / "game.json").read_text())["files"] == [game]
    # only the root in common (a record of the records folder, a game under /work): absolute
    assert files_for_record([game], "/gdef-elsewhere/records") == [game]
    assert files_for_record([os.path.relpath(game)], "/gdef-elsewhere/records") == [game]
    assert files_for_record([os.path.relpath(game)], str(root / "records")) == ["../games/ttt.gdef"]


def test_a_record_whose_folder_is_not_known_names_its_files_absolute(monkeypatch):
    """The board page's "Download record": the browser decides where it goes."""
    monkeypatch.chdir(ROOT)
    session = Session(load_game(["examples/tictactoe.gdef"]), ["examples/tictactoe.gdef"])
    assert session.record()["files"] == [TICTACTOE]


def test_a_record_of_an_earlier_version_naming_files_from_the_current_folder_still_resumes(tmp_path):
    root = project(tmp_path)
    (root / "records").mkdir()
    record = root / "records" / "old.json"
    record.write_text(json.dumps({"game": "tictactoe", "files": ["games/ttt.gdef"], "players": 2,
                                  "moves": [{"player": 0, "move": "place(1,1,X)"}], "rejected": []}))
    resumed = gdef_run(tmp_path, "--resume", "records/old.json", "--moves", "-", stdin="place(0,0,O)\n", cwd=root)
    assert resumed.returncode == 3, resumed.stderr
    assert ("records/old.json names games/ttt.gdef, which is not in the record's folder "
            f"({root / 'records'}); the games/ttt.gdef of the current folder is taken") in resumed.stderr
    assert json.loads(record.read_text())["files"] == ["../games/ttt.gdef"]  # written the new way


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to give a file to another user")
def test_someone_elses_file_is_never_replaced_nor_its_mode_changed(tmp_path):
    record = tmp_path / "theirs.json"
    record.write_text("their record")
    record.chmod(0o644)
    os.chown(record, 65534, 65534)
    session = Session(load_game([TICTACTOE]), [TICTACTOE])
    session.play("place(1,1,X)")
    with pytest.raises(OSError, match="owned by another user"):
        session.save(str(record))
    info = record.stat()
    assert (record.read_text(), info.st_uid, stat.S_IMODE(info.st_mode)) == ("their record", 65534, 0o644)


def test_save_keeps_a_file_already_there_as_a_numbered_backup(tmp_path):
    (tmp_path / "game.json").write_text("an earlier game\n")
    (tmp_path / "game.json.~1~").write_text("an even earlier game\n")
    lines = ["place(1,1,X)", "save game.json", "save own.json", "quit"]
    done = gdef_run(tmp_path, TICTACTOE, "--record", "own.json", stdin="".join(line + "\n" for line in lines))
    assert done.returncode == 3, done.stderr
    assert "Saved the game record to game.json (the file that was there is kept as game.json.~2~)." in done.stdout
    assert "Saved the game record to own.json." in done.stdout  # the game's own record: no backup of itself
    assert (tmp_path / "game.json.~2~").read_text() == "an earlier game\n"
    assert (tmp_path / "game.json.~1~").read_text() == "an even earlier game\n"
    assert json.loads((tmp_path / "game.json").read_text())["moves"][0]["move"] == "place(1,1,X)"
    assert not (tmp_path / "own.json.~1~").exists()


def test_save_refuses_a_link_and_leaves_it_and_its_target_alone(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me\n")
    (tmp_path / "game.json").symlink_to(tmp_path / "precious.txt")
    done = gdef_run(tmp_path, TICTACTOE, stdin="place(1,1,X)\nsave game.json\nquit\n")
    assert "Cannot save to game.json: a symbolic link" in done.stdout
    assert (tmp_path / "game.json").is_symlink() and (tmp_path / "precious.txt").read_text() == "keep me\n"
    assert not (tmp_path / "game.json.~1~").exists()
