"""The C route drops the index, square, division and negation checks the interval analysis
proves cannot fail (lower/ranges.py proven_checks, cnative/emit.py): indexes from bounded
counters into local arrays and constant tables, board reads after an `onBoard()`-style guard
and with neighbours from a constant table, `%` and `/` by a nonzero constant, arguments whose
every call site is proven. It keeps each check that some input can make fail (a counter up to
INT_MAX, an argument one call site passes out of range, a divisor range holding -1 with a
dividend that may be INT_MIN), and such a failure is still the located error of the Python
backend.
"""
from __future__ import annotations

import re

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime.errors import GdefRuntimeError  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games  # noqa: E402, F401 (c_route: a fixture)

# The checks dropped where proven (a sum, difference or product keeps its check: emit.py binary())
CHECKS = ("g_neg(", "g_ix(", "g_sq(", "g_idiv(", "g_imod(")


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


def function_text(game, name: str) -> str:
    """The emitted C function u_`name` (its definition, not its prototype)."""
    text = c_source(game.program, game.max_steps, game.max_depth).text
    found = re.search(r"^static[^\n;]* u_" + name + r"\([^\n]*\) \{\n(.*?)^\}\n", text, re.S | re.M)
    assert found, name
    return found.group(1)


def checks_in(game, name: str) -> list[str]:
    body = function_text(game, name)
    return [check for check in CHECKS if check in body]


# moves() proposes the empty squares whose neighbours (crowded(): a constant table of steps, an
# onBoard() guard before the board read, a count bounded by the loop's four passes) and pick()
# (a 3-element local array indexed by x % 3 and y / 2) allow.
PROVEN = """name: proven
players: 2
size: 4 x 5
obj X

int bonus = 0;
int dx[4] = {0, -1, 1, 0};
int dy[4] = {-1, 0, 0, 1};

define isMoveLegal() -> bool {
  return isGenerated();
}

define onBoard(int x, int y) -> bool {
  return x >= 0 && x < 4 && y >= 0 && y < 5;
}

define moves() {
  for (int x = 0; x < 4; x = x + 1) {
    for (int y = 0; y < 5; y = y + 1) {
      if (CurrentPosition[x][y] == empty && crowded(x, y) < 4 && pick(x % 3) && pick(y / 2)) {
        addPlace(x, y, X);
        addMove();
      }
    }
  }
}

define crowded(int x, int y) -> int {
  int around = 0;
  for (int d = 0; d < 4; d = d + 1) {
    int nx = x + dx[d];
    int ny = y + dy[d];
    if (onBoard(nx, ny) && CurrentPosition[nx][ny] == X) {
      around = around + 1;
    }
  }
  return around;
}

define pick(int k) -> bool {
  int row[3] = 0;
  row[k] = k;
  return row[k] == k;
}

define end() -> bool {
  if (moveNumber() >= 6) {
    setWinner(moveNumber() % 2);
    return true;
  }
  return false;
}
"""


def test_the_checks_proven_are_not_emitted(tmp_path):
    game, native = compile_rules(tmp_path, "proven", PROVEN)
    for name in ("moves", "crowded", "pick"):
        assert checks_in(game, name) == [], (name, function_text(game, name))
    assert "c->B[(l_nx) * H + (l_ny)]" in function_text(game, "crowded")
    # the same games as the Python backend plays
    replay_native_games(game, native, game.new_state(), 8, seed=3)


@pytest.mark.parametrize("change, function, kept", [
    # a loop to INT_MAX: its counter leaves the board
    (("y < 5; y = y + 1", "y <= 9223372036854775807; y = y + 1"), "moves", ["g_sq("]),
    # a call site passing 3 to pick(): row[k] may leave its 3 elements
    (("pick(y / 2)", "pick(y - 1)"), "pick", ["g_ix("]),
    # without the guard the neighbour may be off the board
    (("onBoard(nx, ny) && CurrentPosition", "nx != 7 && CurrentPosition"), "crowded", ["g_sq("]),
    # a divisor that may be 0
    (("pick(y / 2)", "pick(y / (y - 2) + 1)"), "moves", ["g_idiv("]),
    # the same division by a divisor that cannot be 0 (y - 5 is -5..-1, y 0..4)
    (("pick(y / 2)", "pick(y / (y - 5) + 1)"), "moves", []),
    # a dividend that may be INT_MIN, a divisor range holding -1: INT_MIN / -1 overflows
    (("int around = 0;", "int around = 0;\n  int q = bonus / (y % 2 - 2);"), "crowded", ["g_idiv("]),
])
def test_the_checks_that_can_fail_are_kept(tmp_path, change, function, kept):
    game, _ = compile_rules(tmp_path, "kept", PROVEN.replace(*change))
    assert checks_in(game, function) == kept, function_text(game, function)


def test_a_proven_argument_range_joins_every_call_site(tmp_path):
    """pick(k) proven for the call sites 0..2 and 0..2; a third call with 4 keeps the index
    check, and the G614 it raises is the Python backend's, located."""
    failing = PROVEN.replace("pick(y / 2))", "pick(y / 2) && pick(4 - x))")
    line = failing.splitlines().index("  row[k] = k;") + 1
    game, native = compile_rules(tmp_path, "failing", failing)
    assert checks_in(game, "pick") == ["g_ix("]
    with pytest.raises(GdefRuntimeError) as raised:
        game.new_state().legal_moves()
    located = str(raised.value).splitlines()[0]
    assert f"{tmp_path / 'failing.gdef'}:{line}:" in located and "G614" in located, located
    outcome, = native_games(native, range(1), 0, None)
    assert located in str(outcome)
