"""gdef-sim on Dask (--cluster local:N and dask://HOST:PORT) and the provenance in --json:
the same table as --jobs 1 for the same seed, errors explained, a run that can be repeated."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import EVENT_SECONDS, ROOT, ctrl_c_as_at_a_terminal, line_within, need_module

need_module("dask.distributed", "pip install -e '.[cluster]'")

from gdef_core import load_game  # noqa: E402
from gdef_core.cli.sim import main  # noqa: E402
from gdef_core.play.cluster import ClusterError, check_address  # noqa: E402
from gdef_core.play.simulate import simulate  # noqa: E402
from gdef_core.play.spec import parse_agent  # noqa: E402

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
SPLIT = str(ROOT / "examples" / "tictactoe-split" / "tictactoe.gdef")


def without_time(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key != "seconds"}


def test_local_cluster_of_two_workers_gives_the_table_of_one_job():
    game = load_game([TICTACTOE])
    specs = [parse_agent("random"), parse_agent("random")]
    one = simulate(game, specs, 10_000, seed=4, jobs=1)
    dask = simulate(game, specs, 10_000, seed=4, cluster="local:2")
    assert dask.games == 10_000
    assert without_time(dask.to_json()) == without_time(one.to_json())


def test_workers_get_every_file_of_the_game_from_the_task(tmp_path):
    game = load_game([SPLIT])
    specs = [parse_agent("greedy"), parse_agent("random")]
    one = simulate(game, specs, 40, seed=9, jobs=1)
    dask = simulate(game, specs, 40, seed=9, cluster="local:1")
    assert without_time(dask.to_json()) == without_time(one.to_json())


def _scheduler_and_worker(tmp_path):
    """A `dask scheduler` on a free loopback port and one `dask worker` for it: (port, both
    processes). Their scratch and lock files stay in the test's folder."""
    port = _free_port()
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    scheduler = subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, env=env)
    worker = subprocess.Popen([str(bin_dir / "dask"), "worker", f"tcp://127.0.0.1:{port}",
                               "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, env=env)
    return port, scheduler, worker


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_running_scheduler_and_worker_by_address(tmp_path, capsys):
    port, scheduler, worker = _scheduler_and_worker(tmp_path)
    try:
        deadline = time.monotonic() + 60
        code = None
        while time.monotonic() < deadline:
            code = main([TICTACTOE, "--games", "200", "--seed", "3", "--no-progress",
                         "--cluster", f"dask://127.0.0.1:{port}", "--json", str(tmp_path / "d.json")])
            if code == 0:
                break
            time.sleep(1)
        assert code == 0
        out = capsys.readouterr().out
        assert f"cluster dask://127.0.0.1:{port}" in out
        assert main([TICTACTOE, "--games", "200", "--seed", "3", "--no-progress",
                     "--json", str(tmp_path / "l.json")]) == 0
        remote = json.loads((tmp_path / "d.json").read_text())
        local = json.loads((tmp_path / "l.json").read_text())
        for data in (remote, local):
            data.pop("seconds"), data.pop("command")
        assert remote == local
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.parametrize("address", ["local:2", "dask://sched.example:8786", "tcp://10.0.0.1:8786",
                                     "dask://[::1]:8786"])
def test_addresses_understood(address):
    assert check_address(address) == address


@pytest.mark.parametrize("address", ["bogus", "local:0", "local:x", "dask://host", "http://h:1",
                                     "dask://h:99999"])
def test_bad_addresses_are_refused(address, capsys):
    with pytest.raises(ClusterError):
        check_address(address)
    assert main([TICTACTOE, "--cluster", address]) == 2
    assert "--cluster" in capsys.readouterr().err


def test_cluster_with_jobs_is_refused(capsys):
    assert main([TICTACTOE, "--cluster", "local:2", "--jobs", "2"]) == 2
    assert "--cluster and --jobs" in capsys.readouterr().err


def test_json_says_how_to_run_the_same_games_again(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main([TICTACTOE, "--games", "12", "--seed", "5", "--player", "1=mcts:iterations=10",
                 "--no-progress", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["seed"] == 5 and data["game_indexes"] == [0, 11]
    assert "blake2b" in data["seed_rule"]
    assert data["gdef_version"]
    assert data["files"] == [{"path": TICTACTOE, "sha256": "sha256:" + __import__("hashlib").sha256(
        Path(TICTACTOE).read_bytes()).hexdigest()}]
    assert data["agents"] == [{"player": 0, "agent": "random", "options": {}},
                              {"player": 1, "agent": "mcts", "options": {"iterations": 10}}]
    assert data["command"].startswith("gdef-sim ") and "--seed 5" in data["command"]


def test_ctrl_c_stops_a_cluster_run_with_the_games_finished_so_far(tmp_path):
    # (its own temporary folder: workers interrupted with the run may leave their scratch files)
    process = subprocess.Popen([str(Path(sys.executable).with_name("gdef-sim")), TICTACTOE,
                                "--games", "5000000", "--cluster", "local:1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(tmp_path)}, preexec_fn=ctrl_c_as_at_a_terminal)
    try:
        # the first progress line says games are being played on the cluster
        first = line_within(process.stderr)
        assert "games" in first, first
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=EVENT_SECONDS)
    finally:
        process.kill()
    assert process.returncode == 130
    finished = int(re.search(r"the table counts the (\d+) games finished before", err)[1])
    assert 0 < finished < 5_000_000
    assert f"tictactoe: {finished} games, seed 0, cluster local:1" in out
    assert "Traceback" not in err and "WARNING" not in err


def test_a_cluster_that_goes_away_mid_run_is_a_clear_error(tmp_path):
    port, scheduler, worker = _scheduler_and_worker(tmp_path)
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:   # the scheduler answers and has its worker
            probe = subprocess.run([str(bin_dir / "gdef-sim"), TICTACTOE, "--games", "4", "--no-progress",
                                    "--cluster", f"dask://127.0.0.1:{port}"], capture_output=True, env=env)
            if probe.returncode == 0:
                break
            time.sleep(1)
        process = subprocess.Popen([str(bin_dir / "gdef-sim"), TICTACTOE, "--games", "5000000",
                                    "--cluster", f"dask://127.0.0.1:{port}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        first = process.stderr.readline()
        assert "games" in first, first
        scheduler.kill()
        out, err = process.communicate(timeout=120)
        assert process.returncode == 2
        assert f"the Dask cluster at dask://127.0.0.1:{port} stopped before the run ended" in err
        assert "internal error" not in err and "Traceback" not in err
    finally:
        for child in (worker, scheduler):
            child.kill()
            child.wait(timeout=30)
