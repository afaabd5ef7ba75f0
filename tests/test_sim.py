"""gdef-sim and the simulation engine: correct totals, reproducible from the seed whatever
--jobs is, the length cap reported, bad input explained."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from gdef_core.cli.sim import main
from gdef_core.play.progress import Progress
from gdef_core.play import spread
from gdef_core.play.games import game_seed, kernel_seed, play_game
from gdef_core.play.simulate import simulate
from gdef_core.play.spec import parse_agent
from gdef_core import load_game

from support import ROOT, ctrl_c_as_at_a_terminal

CONNECT4 = str(ROOT / "examples" / "connect4.gdef")
TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
STUCK = str(ROOT / "tests" / "data" / "play" / "stuck.gdef")
FAILS = str(ROOT / "tests" / "data" / "play" / "fails_every_move.gdef")
SUMMARY_KEYS = {"games", "wins", "draws", "capped", "avg_length", "max_length", "mean_scores", "seconds",
                "processes"}
JSON_KEYS = SUMMARY_KEYS | {"seed", "game_indexes", "seed_rule", "max_moves", "gdef_version",
                            "game", "files", "agents", "command"}


def run_sim(*args: str, capsys) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def without_time(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key not in ("seconds", "command", "processes")}


@pytest.fixture
def always_spread(monkeypatch):
    """--jobs spreads even the shortest run (by default a short one stays in one process)."""
    monkeypatch.setattr(spread, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(spread, "PYTHON_START_SECONDS", 0.0)
    monkeypatch.setattr(spread, "NATIVE_START_SECONDS", 0.0)


@pytest.fixture(scope="module")
def connect4():
    return load_game([CONNECT4])


def test_game_seeds_differ_per_game_and_player_and_are_stable():
    seeds = {game_seed(7, index, player) for index in range(100) for player in range(2)}
    assert len(seeds) == 200
    assert game_seed(7, 3, 1) == game_seed(7, 3, 1) != game_seed(8, 3, 1)


def test_kernel_seeds_are_splitmix64_counters():
    """The native kernel's seeds (kernels/kernel.py: _game_seed, checked against this twin
    in tests/test_native.py) as docs/simulation.md spells them out."""
    from gdef_core.play.games import _mix

    assert _mix(0x9E3779B97F4A7C15) == 0xE220A8397B1DCDAF   # splitmix64's first output from 0
    assert kernel_seed(0, 0, 0) == 0x238275BC38FCBE91       # pinned: a change breaks reproducibility
    seeds = {kernel_seed(7, index, player) for index in range(1000) for player in range(2)}
    assert len(seeds) == 2000 and all(0 <= s < 2**64 for s in seeds)
    assert kernel_seed(-1, 3, 0) == kernel_seed(2**64 - 1, 3, 0) != kernel_seed(-2, 3, 0)


def test_results_do_not_depend_on_jobs(connect4, always_spread):
    specs = [parse_agent("random"), parse_agent("greedy")]
    one = simulate(connect4, specs, 40, seed=11, jobs=1)
    two = simulate(connect4, specs, 40, seed=11, jobs=2)
    assert (one.processes, two.processes) == (1, 2)
    assert without_time(one.to_json()) == without_time(two.to_json())
    other = simulate(connect4, specs, 40, seed=12, jobs=1)
    assert without_time(other.to_json()) != without_time(one.to_json())


def test_a_short_run_stays_in_one_process(connect4):
    """--jobs 2 on a run shorter than starting workers costs: played here (spread.py)."""
    summary = simulate(connect4, [parse_agent("random")] * 2, 20, seed=1, jobs=2)
    assert summary.processes == 1 and summary.to_json()["processes"] == 1 and summary.games == 20


def test_batches_cover_every_game_once():
    batches = spread.calls(5, 1005, 2, 100.0)   # 25 games (0.25 s) a batch, 125 per process at most
    assert batches[0] == (5, 30) and batches[-1][1] == 1005
    assert [g for a, b in batches for g in range(a, b)] == list(range(5, 1005))
    assert spread.calls(0, 10, 4, 1e9) == [(k, k + 1) for k in range(10)]   # four per process
    assert not spread.worth_spreading(100, 1000.0, 2, 1.0)    # 0.1 s left: stays here
    assert spread.worth_spreading(5000, 1000.0, 2, 1.0) and not spread.worth_spreading(5000, 1000.0, 1, 1.0)


def test_workers_load_every_file_of_a_game(always_spread):
    split = load_game([str(ROOT / "examples" / "tictactoe-split" / "tictactoe.gdef")])
    specs = [parse_agent("greedy"), parse_agent("random")]
    one = simulate(split, specs, 30, seed=2, jobs=1)
    two = simulate(split, specs, 30, seed=2, jobs=2)
    assert without_time(one.to_json()) == without_time(two.to_json())


def test_each_game_is_the_same_game_wherever_it_is_played(connect4):
    specs = [parse_agent("random"), parse_agent("random")]
    assert play_game(connect4, specs, 5, 17) == play_game(connect4, specs, 5, 17)
    assert play_game(connect4, specs, 5, 17) != play_game(connect4, specs, 5, 18)


def test_totals_add_up(connect4):
    summary = simulate(connect4, [parse_agent("random")] * 2, 60, seed=3)
    data = summary.to_json()
    assert set(data) == SUMMARY_KEYS
    assert sum(data["wins"]) + data["draws"] + data["capped"] == data["games"] == 60
    assert 7 <= data["avg_length"] <= data["max_length"] <= 42
    assert data["capped"] == 0


def test_cli_table_and_json(tmp_path, capsys):
    out_file = tmp_path / "result.json"
    code, out, err = run_sim(CONNECT4, "--games", "30", "--player", "1=greedy", "--seed", "4",
                             "--json", str(out_file), "--no-progress", capsys=capsys)
    assert code == 0, err
    data = json.loads(out_file.read_text())
    assert set(data) == JSON_KEYS
    assert data["games"] == 30 and len(data["wins"]) == 2
    lines = out.splitlines()
    assert lines[0].startswith("connect4: 30 games, seed 4, 1 job,")
    rows = {line.split("  ")[0].strip(): line.split() for line in lines[3:7]}
    assert rows["player 0 (random)"][-2] == str(data["wins"][0])
    assert rows["player 1 (greedy)"][-2] == str(data["wins"][1])
    assert rows["draws"][-2] == str(data["draws"])
    assert rows["capped at 10000 moves"][-2] == "0"
    assert f"average {data['avg_length']:.1f} moves, max {data['max_length']}" in out
    assert err == ""


def test_cli_is_reproducible_across_jobs(tmp_path, capsys, always_spread):
    results = []
    for jobs in ("1", "2"):
        out_file = tmp_path / f"jobs{jobs}.json"
        code, _, err = run_sim(TICTACTOE, "-n", "80", "--seed", "9", "--jobs", jobs,
                               "--player", "0=greedy", "--json", str(out_file), "--no-progress",
                               capsys=capsys)
        assert code == 0, err
        results.append(without_time(json.loads(out_file.read_text())))
    assert results[0] == results[1]


def test_length_cap_is_counted_and_shown(tmp_path, capsys):
    out_file = tmp_path / "capped.json"
    code, out, _ = run_sim(CONNECT4, "--games", "10", "--max-moves", "5", "--json", str(out_file),
                           "--no-progress", capsys=capsys)
    assert code == 0
    data = json.loads(out_file.read_text())
    assert data["capped"] == 10 and data["wins"] == [0, 0] and data["draws"] == 0
    assert data["max_length"] == 5
    assert "capped at 5 moves" in out and "100.0%" in out


def test_a_player_without_a_legal_move_stops_the_run_with_a_clear_message(capsys):
    code, out, err = run_sim(STUCK, "--games", "3", "--no-progress", capsys=capsys)
    assert code == 1
    assert "game 1 (run seed 0): player 1 has no legal move after 1 moves" in err
    assert out == ""


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_rule_failing_on_every_candidate_is_named_where_no_move_is_left(backend, capsys):
    if backend == "native":
        pytest.importorskip("numba")
    code, out, err = run_sim(FAILS, "--games", "3", "--backend", backend, "--no-progress", capsys=capsys)
    assert code == 1 and out == ""
    assert ("game 1 (run seed 0): player 1 has no legal move after 1 moves: isMoveLegal() failed on 2 of its 4 "
            "candidates, the first `place(0,0,X)` at ") in err
    assert "fails_every_move.gdef:19:12: error[G601]: division by zero (6 / 0)" in err


def test_a_run_whose_every_game_failed_shows_no_length(capsys):
    code, out, _ = run_sim(FAILS, "--games", "4", "--max-errors", "1", "--no-progress", capsys=capsys)
    assert code == 1
    assert "failed (errors above)        4  100.0%" in out
    assert out.rstrip().endswith("length: no game finished")


# Two bugs in end(): a division by zero once (2, 2) is taken, a modulo by zero once O holds
# (0, 0) and X (1, 1) (and (2, 2) is empty); most games of random players hit one of them.
TWO_BUGS = """\
name: twobugs
players: 2
size: 3 x 3
obj X
obj O
int zero = 0;
define isMoveLegal() -> bool {
  return CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty;
}
define end() -> bool {
  if (CurrentPosition[2][2] != empty) { return 1 / zero == 1; }
  if (CurrentPosition[0][0] == O && CurrentPosition[1][1] == X) { return 1 % zero == 1; }
  return moveNumber() == 9;
}
"""


def test_max_errors_goes_on_and_prints_the_first_distinct_errors_located(tmp_path, capsys):
    game = tmp_path / "twobugs.gdef"
    game.write_text(TWO_BUGS)
    out_json = tmp_path / "out.json"
    code, out, err = run_sim(str(game), "--games", "200", "--no-progress", "--max-errors", "1",
                             "--json", str(out_json), capsys=capsys)
    summary = json.loads(out_json.read_text())
    (division,) = summary["errors"]
    modulo = summary["failed"] - division["games"]
    assert code == 1 and summary["games"] + summary["failed"] == 200 and modulo > 0
    assert division == {"message": "end() failed:\n" + f"{game}:11:50: error[G601]: division by zero (1 / 0)\n"
                                   f"  in end() at {game}:11:50",
                        "first_game": division["first_game"], "games": division["games"]}
    assert err == (f"gdef-sim: game {division['first_game']} (run seed 0): {division['message']}\n"
                   f"  (the same error stopped {division['games'] - 1} more games)\n"
                   f"gdef-sim: {modulo} more games failed with other errors (--max-errors 0 prints every one)\n")
    assert f"failed (errors above)  {summary['failed']:>7}" in out
    assert out.startswith("twobugs: 200 games, seed 0")
    code, _, err = run_sim(str(game), "--games", "200", "--no-progress", "--max-errors", "0", capsys=capsys)
    assert code == 1 and err.count("gdef-sim: game ") == 2 and "modulo by zero (1 % 0)" in err
    assert "more games failed" not in err


def test_without_max_errors_the_first_failed_game_stops_the_run(tmp_path, capsys):
    game = tmp_path / "twobugs.gdef"
    game.write_text(TWO_BUGS)
    code, out, err = run_sim(str(game), "--games", "200", "--no-progress", capsys=capsys)
    assert code == 1 and out == "" and err.count("gdef-sim: game ") == 1


@pytest.mark.parametrize("args, words", [
    (["--max-errors", "-1"], "at least 0 (0: every one)"),
    (["--player", "2=random"], "tictactoe has 2 players, numbered 0 to 1"),
    (["--player", "0=chess"], "unknown agent 'chess'"),
    (["--player", "0=random", "--player", "0=greedy"], "player 0 is given twice"),
    (["--games", "0"], "must be at least 1"),
    (["--jobs", "-1"], "at least 0 (0: all cores)"),
])
def test_bad_arguments_exit_2_with_a_reason(args, words, capsys):
    code, _, err = run_sim(TICTACTOE, *args, capsys=capsys)
    assert code == 2
    assert words in err


def test_unreadable_file_and_rules_with_errors(tmp_path, capsys):
    code, _, err = run_sim(str(tmp_path / "missing.gdef"), capsys=capsys)
    assert code == 2 and "missing.gdef" in err and "cannot read" in err
    broken = tmp_path / "broken.gdef"
    broken.write_text("players: 2\nsize: 3 x 3\ndefine isMoveLegal() -> bool { return 1; }\n")
    code, _, err = run_sim(str(broken), capsys=capsys)
    assert code == 1 and "broken.gdef:" in err


def test_progress_bar_on_a_terminal_and_lines_otherwise():
    screen = io.StringIO()
    bar = Progress(screen, terminal=True)
    bar(1, 4, 0.5)
    bar(4, 4, 1.0)
    text = screen.getvalue()
    assert text.startswith("\r[#######-----------------------] 1/4  2.0 games/s  ETA 2 s")
    assert text.endswith("\r[##############################] 4/4  4.0 games/s\x1b[K\n")
    log = io.StringIO()
    now = [100.0]
    lines = Progress(log, terminal=False, clock=lambda: now[0])
    lines(1, 4, 0.5)   # too soon after the start: nothing yet
    now[0] += 6
    lines(2, 4, 6.0)
    now[0] += 1
    lines(3, 4, 7.0)   # too soon after the last line
    lines(4, 4, 8.0)   # the end is always shown
    assert log.getvalue() == "2/4 games, 0.3 games/s\n4/4 games, 0.5 games/s\n"


def test_more_jobs_than_cores_play_in_as_many_processes_as_cores(capsys, monkeypatch):
    """--jobs 1000 on two cores started a thousand processes, each loading the rules: minutes
    for what one process does in seconds."""
    monkeypatch.setattr("gdef_core.cli.sim.usable_cores", lambda: 2)
    code, out, err = run_sim(TICTACTOE, "--games", "10", "--jobs", "1000", "--no-progress", capsys=capsys)
    assert code == 0
    assert err == "gdef-sim: --jobs 1000 is more than the 2 cores this process may use: playing in 2\n"
    assert out.startswith("tictactoe: 10 games, seed 0, 2 jobs")
    code, out, err = run_sim(TICTACTOE, "--games", "10", "--jobs", "0", "--no-progress", capsys=capsys)
    assert (code, err) == (0, "") and out.startswith("tictactoe: 10 games, seed 0, 2 jobs")


def test_console_script_end_to_end(tmp_path):
    """The installed `gdef-sim` (or the module) in a subprocess: stderr is not a terminal, so
    progress comes as plain lines."""
    out_file = tmp_path / "r.json"
    command = [sys.executable, "-c", "from gdef_core.cli.sim import main; main()",
               TICTACTOE, "--games", "20", "--jobs", "2", "--json", str(out_file)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    assert "20/20 games" in done.stderr
    assert "tictactoe: 20 games, seed 0, 2 jobs" in done.stdout
    assert json.loads(out_file.read_text())["games"] == 20


def test_ctrl_c_prints_the_games_finished_so_far():
    import signal
    import time

    command = [sys.executable, "-c", "from gdef_core.cli.sim import main; main()",
               str(ROOT / "examples" / "reversi.gdef"), "--games", "1000000", "--jobs", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_at_a_terminal)
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    if "games finished before" in err:   # (not if the signal came while the game loaded)
        games = int(err.split("the table counts the ")[1].split()[0])
        assert out.startswith(f"reversi: {games} games, seed 0, 2 jobs")
