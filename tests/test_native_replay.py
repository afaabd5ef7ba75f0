"""A judgement's call replayed in end() (lower/replayed.py, the C route's r_NAME_keep /
r_NAME_take): a function reading only its arguments and ResultPosition, called by isMoveLegal()
and again by end() with the same arguments on the same board (Go's capture()), is answered in
end() from the judgement's call: the same result, consequences and steps. Games replay through
the Python backend, and the step budget runs out where the Python backend's does.
"""
from __future__ import annotations

import pytest

from support import EXAMPLES, need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.lower.build import lowered  # noqa: E402
from gdef_core.lower.replayed import replayed  # noqa: E402
from gdef_core.lower.tables import constant_arrays  # noqa: E402
from gdef_core.play.games import kernel_seed  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games  # noqa: E402, F401 (c_route: a fixture)


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


# flip() turns the enemy stones right of the new stone, on ResultPosition: judged (a scratch
# copy) and again in end() (the board), between two loops of three steps there.
FLIP = """
name: flip
players: 2
size: 6 x 1
obj X
obj O
int turned = 0;

define stoneOf(int p) -> obj {
  if (p == 0) { return X; }
  return O;
}

define flip(int x, obj mine) -> int {
  int at = x + 1;
  int n = 0;
  while (at < 6 && ResultPosition[at][0] != empty && ResultPosition[at][0] != mine) {
    addPlace(at, 0, mine);
    at = at + 1;
    n = n + 1;
  }
  return n;
}

define isMoveLegal() -> bool {
  if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; }
  int x = OperationList[0][0];
  if (CurrentPosition[x][0] != empty || OperationList[0][2] != stoneOf(onTurn())) { return false; }
  return BODY;
}

define end() -> bool {
  int x = OperationList[0][0];
  for (int i = 0; i < 3; i = i + 1) { }
  int n = flip(x, stoneOf(onTurn()));
  for (int i = 0; i < 3; i = i + 1) { }
  if (n > 1) { setWinner(onTurn()); return true; }
  return moveNumber() >= 6;
}
"""


def _replayed(tmp_path, body: str) -> set[str]:
    path = tmp_path / "flip.gdef"
    path.write_text(FLIP.replace("BODY", body), encoding="utf-8")
    module = lowered(load_game(str(path)).program)
    return replayed(module, set(constant_arrays(module)))


@pytest.mark.parametrize("body, found", [
    ("flip(x, stoneOf(onTurn())) >= 0", {"flip"}),
    ("true", set()),   # end() alone calls it: nothing to keep
])
def test_a_function_isMoveLegal_and_end_both_call_is_replayed(tmp_path, body, found):
    assert _replayed(tmp_path, body) == found


@pytest.mark.parametrize("change", [
    ("ResultPosition[at][0] != empty", "CurrentPosition[at][0] != empty"),   # differs judged and in end()
    ("int n = 0;", "int n = turned;"),   # a game variable
    ("int n = 0;", "int n = moveNumber() - moveNumber();"),   # a built-in other than the consequences
])
def test_a_function_reading_more_than_its_arguments_and_result_position_is_not(tmp_path, change):
    text = FLIP.replace("BODY", "flip(x, stoneOf(onTurn())) >= 0").replace(*change)
    path = tmp_path / "flip.gdef"
    path.write_text(text, encoding="utf-8")
    module = lowered(load_game(str(path)).program)
    assert replayed(module, set(constant_arrays(module))) == set()


def test_go_keeps_the_judgements_captures_for_end():
    game = load_game(str(EXAMPLES / "go" / "go9.gdef"))
    text = c_source(game.program, game.max_steps, game.max_depth).text
    judge = text[text.index("int u_isMoveLegal(Ctx *c, int64_t _d, int64_t *_stp) {"):]
    end = text[text.index("int u_end(Ctx *c, int64_t _d, int64_t *_stp) {"):]
    assert "r_capture_keep(c, _d, " in judge[:judge.index("\n}\n")]
    assert "r_capture_take(c, _d, " in end[:end.index("\n}\n")]
    assert "#define REPLAY 1" in text
    from gdef_core.native import NativeRules
    native = NativeRules.load(game, None)
    assert native.route == "c"
    replay_native_games(game, native, game.new_state(), 2, seed=3)


@pytest.mark.parametrize("max_steps", range(10, 19))
def test_a_replayed_call_spends_the_steps_of_the_python_backend(tmp_path, max_steps):
    """end() spends steps before and after flip(): near the budget, the call kept from the
    judgement is answered only when the steps it spent are left (else flip() runs out of steps
    where the Python backend does), and spends them (the loop after it runs out where the
    Python backend's does). Each game the kernel finished replays through the Python
    backend (the same moves legal, the same end); each it could not finish is one the Python
    backend stops with a located error."""
    game, native = compile_rules(tmp_path, "flip", FLIP.replace("BODY", "flip(x, stoneOf(onTurn())) >= 0"),
                                 max_steps=max_steps)
    text = c_source(game.program, game.max_steps, game.max_depth).text
    assert "r_flip_keep(c, _d, " in text and "r_flip_take(c, _d, " in text
    count, seed = 8, 0
    outcomes = native_games(native, range(count), seed, None)
    seeds = np.array([kernel_seed(seed, index, 0) for index in range(count)], dtype=np.uint64)
    status = native.playouts(seeds, game.new_state(), None).status
    for index, outcome in enumerate(outcomes):
        if status[index] != 0:   # the Python backend says why: end() or every judgement ran out
            said = "step limit exceeded" if status[index] == 3 else "has no legal move"
            assert isinstance(outcome, Exception) and said in str(outcome), (status[index], outcome)
            continue
        state = game.new_state()
        recorded = native.recorded_moves(kernel_seed(seed, index, 0), game.new_state(), None)
        for move in recorded:
            assert state.check(move).legal
            state.apply(move)   # end() through the Python backend: raises where it runs out
        assert state.is_over and (state.winner, len(recorded)) == (outcome.winner, outcome.length)


@pytest.mark.parametrize("judged, before_end", [
    ("return flip(x, stoneOf(onTurn())) >= 0;", ""),
    # a consequence before the judgement's call (its right neighbour cleared, on the scratch copy
    # alone): ResultPosition is no longer the board after the move, the call is not kept
    ("if (x < 5) { addClear(x + 1, 0); }\n  return flip(x, stoneOf(onTurn())) >= 0;", ""),
    # end() changes the board before its call: it finds another board and runs flip()
    ("return flip(x, stoneOf(onTurn())) >= 0;", "if (CurrentPosition[5][0] == O) { addClear(5, 0); }"),
])
def test_a_replayed_call_plays_the_python_backends_games(tmp_path, judged, before_end):
    """Every game of the kernel, where end()'s call is answered from the judgement's and where
    it must not be, replays move by move through the Python backend with the same end."""
    text = FLIP.replace("return BODY;", judged).replace("  int n = flip(", f"  {before_end}\n  int n = flip(")
    game, native = compile_rules(tmp_path, "flip", text)
    assert "r_flip_take(c, _d, " in c_source(game.program, game.max_steps, game.max_depth).text
    replay_native_games(game, native, game.new_state(), 12, seed=1)
