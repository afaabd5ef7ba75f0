"""The C route keeps a local array of a constant size in its function's frame (lower/
stack_arrays.py, cnative/emit.py) instead of the run's arena: no thread-local arena, no memset
call, indexes tested against constants. Such an array is still declared each time (its size
counted as steps, then filled), so a game spends the Python backend's steps and fails where it
fails: an index out of range is its located G614, a budget one step short its located G607.
An array of a computed size, or in a recursive function, stays in the arena.
"""
from __future__ import annotations

import re

import pytest

from support import EXAMPLES, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.errors import GdefRuntimeError  # noqa: E402

from native_support import c_route, compile_rules, python_budget, replay_native_games  # noqa: E402, F401 (c_route: a fixture)


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


# moves() proposes each empty square of a row of 6 with mark(), which copies the row into a
# local array of 6 (in the frame) and writes it back changed; depth() makes an array in a
# recursion and wide() one of a computed size (both in the arena).
MARKS = """name: marks
players: 2
size: 6 x 1
obj X

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 6; x = x + 1) {
    if (CurrentPosition[x][0] == empty) {
      mark(x);
      addMove();
    }
  }
}

define mark(int at) {
  int seen[6] = 0;
  for (int k = 0; k < 6; k = k + 1) {
    if (CurrentPosition[k][0] != empty) { seen[k] = 1; }
  }
  seen[at] = seen[at] + 1;
  for (int k = 0; k < 6; k = k + 1) {
    if (seen[k] == 1 && CurrentPosition[k][0] == empty) { addPlace(k, 0, X); }
  }
}

define depth(int n) -> int {
  int mine[2] = 0;
  mine[0] = n;
  if (n <= 0) { return mine[0]; }
  return depth(n - 1) + mine[0];
}

define wide(int n) -> int {
  int row[n] = 0;
  return row[n - 1];
}

define end() -> bool {
  if (moveNumber() >= 4) {
    setWinner(depth(3) % 2 + wide(moveNumber()));
    return true;
  }
  return false;
}
"""


def function_text(text: str, name: str) -> str:
    found = re.search(r"^static[^\n;]* u_" + name + r"\([^\n]*\) \{\n(.*?)^\}\n", text, re.S | re.M)
    assert found, name
    return found.group(1)


def test_a_constant_array_lives_in_the_frame(tmp_path):
    game, native = compile_rules(tmp_path, "marks", MARKS)
    text = c_source(game.program, game.max_steps, game.max_depth).text
    mark = function_text(text, "mark")
    assert "int64_t l_seen_m[6];" in mark and "l_seen.p = l_seen_m;" in mark and "g_alloc" not in mark
    assert "l_seen.p[l_seen.n0" not in mark and "g_ix(c, l_at, l_seen.n0)" not in mark
    assert "g_alloc" in function_text(text, "depth") and "g_alloc" in function_text(text, "wide")
    assert "#define ARRAYS 1\n" in text   # the arena is kept for those two
    replay_native_games(game, native, game.new_state(), 8, seed=3)


def test_kalah_and_oware_make_no_array_in_the_arena():
    for name in ("kalah", "oware"):
        game = load_game(str(EXAMPLES / f"{name}.gdef"))
        text = c_source(game.program, game.max_steps, game.max_depth).text
        assert "#define ARRAYS 0\n" in text and "g_alloc(" not in text.split('#include "gdef.h"')[1], name


def test_an_index_out_of_the_frame_array_is_the_located_error_of_the_python_backend(tmp_path):
    """seen[at + moveNumber()] leaves the 6 elements on the second move: G614, located."""
    failing = MARKS.replace("seen[at] = seen[at] + 1;", "seen[at] = seen[at + moveNumber() * 5] + 1;")
    line = failing.splitlines().index("  seen[at] = seen[at + moveNumber() * 5] + 1;") + 1
    game, native = compile_rules(tmp_path, "failing", failing)
    mark = function_text(c_source(game.program, game.max_steps, game.max_depth).text, "mark")
    assert "l_seen_m[6]" in mark and ", INT64_C(6))" in mark   # the check kept, against the constant
    state = game.new_state()
    state.apply(state.legal_moves()[0])
    with pytest.raises(GdefRuntimeError) as raised:
        state.legal_moves()
    located = str(raised.value).splitlines()[0]
    assert f"{tmp_path / 'failing.gdef'}:{line}:" in located and "G614" in located, located
    outcome, = native_games(native, range(1), 0, None)
    assert located in str(outcome)


def test_the_frame_array_spends_the_steps_of_the_python_backend(tmp_path):
    """The declaration counts its 6 elements as steps: with the Python backend's last sufficient
    budget the native games are the Python backend's, one step less is its located G607."""
    path = tmp_path / "marks.gdef"
    path.write_text(MARKS, encoding="utf-8")
    enough = python_budget(path, high=400)
    assert enough > 6 * 6   # six arrays of six elements among them
    game, native = compile_rules(tmp_path / "..", f"{tmp_path.name}/marks", MARKS, max_steps=enough)
    assert "l_seen.p = l_seen_m;" in c_source(game.program, game.max_steps, game.max_depth).text
    replay_native_games(game, native, game.new_state(), 4, seed=5)
    short = tmp_path / "short"
    short.mkdir()
    game, native = compile_rules(short, "marks", MARKS, max_steps=enough - 1)
    _fails_where_the_python_backend_does(game, native)


# mark() copies the row whole into `seen` before reading it (lower/unread_fills.py: made unfilled)
COPIED = MARKS.replace("    if (CurrentPosition[k][0] != empty) { seen[k] = 1; }",
                       "    if (CurrentPosition[k][0] != empty) { seen[k] = 1; } else { seen[k] = 0; }")


@pytest.mark.parametrize("short", [1, 3, 7, 12, 20])
def test_an_unfilled_copy_left_by_the_budget_fails_where_the_python_backend_does(tmp_path, short):
    """With budgets short of the Python backend's by 1 to 20 steps, the first moves() runs out
    in or after a copy into the unfilled frame array (in it, mark() returns at once: nothing reads
    the elements never written, lower/unread_fills.py's exits_whole): each is the Python
    backend's located G607."""
    path = tmp_path / "copied.gdef"
    path.write_text(COPIED, encoding="utf-8")
    enough = python_budget(path, high=400)
    game, native = compile_rules(tmp_path, "copied", COPIED, max_steps=enough - short)
    mark = function_text(c_source(game.program, game.max_steps, game.max_depth).text, "mark")
    assert "l_seen.p = l_seen_m;" in mark and "not filled" in mark
    _fails_where_the_python_backend_does(game, native)


def _fails_where_the_python_backend_does(game, native) -> None:
    """The first moves() runs out of steps: the Python backend's located G607, which the native
    game (handed back to it) reports too."""
    with pytest.raises(GdefRuntimeError) as raised:
        game.new_state().legal_moves()
    located = str(raised.value).splitlines()[0]
    assert "G607" in located, located
    outcome, = native_games(native, range(1), 0, None)
    assert located in str(outcome)
