"""The native backend's C route (gdef_core/cnative) itself: the C it emits for every example is
clean C (compiled with every warning an error), compiled libraries are cached on disk (a warm
start compiles nothing, another source is another library), and where no C compiler can build
the rules the route says so in one line. Its behaviour against the Python backend (perft,
replayed games, random rules, limits) is tested with numba's in tests/test_native*.py.
"""
from __future__ import annotations

import subprocess

import pytest

from support import EXAMPLES, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative import compiler  # noqa: E402
from gdef_core.cnative.emit import c_source, runtime_dir  # noqa: E402
from gdef_core.cnative.library import c_compiler_available  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402

from native_support import use_route  # noqa: E402

EVERY_EXAMPLE = ["tictactoe", "tictactoe-split/tictactoe", "connect4", "breakthrough", "gomoku", "checkers",
                 "reversi", "go/go9", "go/go19", "chess/chess"]


@pytest.fixture(autouse=True)
def c_route():
    with use_route("c"):
        yield


@pytest.mark.parametrize("name", EVERY_EXAMPLE)
def test_emitted_c_has_no_warnings(tmp_path, name):
    game = load_game(str(EXAMPLES / f"{name}.gdef"))
    path = tmp_path / "rules.c"
    path.write_text(c_source(game.program, game.max_steps, game.max_depth).text, encoding="utf-8")
    cc, _ = compiler.find_compiler()
    done = subprocess.run([cc, "-O1", "-c", "-std=gnu11", "-Wall", "-Wextra", "-Werror", f"-I{runtime_dir()}",
                           "-o", str(tmp_path / "rules.o"), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_warm_start_loads_the_cached_library(cache_dir):
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    first = NativeRules.load(game, said.append)
    assert first is not None and first.route == "c"
    assert first.module.path.is_relative_to(cache_dir / "cnative")
    second = NativeRules.load(game, said.append)
    assert second.route == "c" and not second.compiled and second.module.path == first.module.path
    assert said in ([], ["gdef: compiling rules (once) for tictactoe ..."])   # the first, unless cached
    # another step budget is another source, so another library
    other = load_game(str(EXAMPLES / "tictactoe.gdef"), max_steps=1000)
    assert NativeRules.load(other, said.append).module.path != first.module.path


def test_without_a_c_compiler_the_route_says_so(cache_dir, monkeypatch):
    monkeypatch.setattr("gdef_core.cnative.library.find_compiler", lambda: None)
    assert not c_compiler_available()
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    assert NativeRules.load(game, said.append) is None
    assert said == ["gdef: no C compiler found (cc, gcc or clang; or set CC): using the Python backend"]


def test_a_compiler_that_fails_is_reported_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path))
    failing = tmp_path / "failing-cc"
    failing.write_text("#!/bin/sh\necho 'rules.c:1: no' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setattr("gdef_core.cnative.library.find_compiler", lambda: (str(failing), "failing 1.0"))
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    assert NativeRules.load(game, said.append) is None
    assert said == ["gdef: compiling rules (once) for tictactoe ...",
                    "gdef: the C compiler failed on tictactoe (rules.c:1: no); using the Python backend"]
    assert not list((tmp_path / "cnative").rglob("*.so"))   # nothing half-made is kept
