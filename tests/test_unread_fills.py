"""lower/unread_fills.py: the local arrays whose fill no element read can see (a flood fill's
stacks), which the C route makes without filling them; and the arrays whose fill may be read,
which keep it."""
from __future__ import annotations

import pytest
from support import EXAMPLES

from gdef_core.loader import load_program
from gdef_core.lower.build import lower_program
from gdef_core.lower import ir
from gdef_core.lower.unread_fills import exits_whole, unread_fills
from gdef_core.runtime import load_game

# One function per pattern; `unfilled_*` functions' arrays are proven, `filled_*` ones' are not.
PATTERNS = """name: patterns
players: 2
size: 4 x 1
obj X

define isMoveLegal() -> bool { return true; }
define end() -> bool { return false; }

// the flood fill's stack: pushed at top, popped after top = top - 1
define unfilled_stack(int from) -> int {
  int a[4] = 0;
  int top = 1;
  a[0] = from;
  int sum = 0;
  while (top > 0) {
    top = top - 1;
    int v = a[top];
    sum = sum + v;
    if (v > 1 && top < 3) {
      a[top] = v - 1;
      top = top + 1;
    }
  }
  return sum;
}

// the same with a second stack moved in step and a constant index read back
define unfilled_two_stacks(int x) -> int {
  int xs[8] = 0;
  int ys[8] = 0;
  xs[0] = x;
  ys[0] = x;
  int top = 1;
  int first = xs[0];
  while (top > 0 && top < 8) {
    top = top - 1;
    int px = xs[top];
    int py = ys[top];
    for (int d = 0; d < 2; d = d + 1) {
      if (px + py + d < 3) {
        xs[top] = px + 1;
        ys[top] = py;
        top = top + 1;
      }
    }
  }
  return first;
}

// the read at top after the push sees the fill
define filled_read_above(int x) -> int {
  int a[4] = 0;
  int top = 0;
  a[top] = x;
  top = top + 1;
  return a[top];
}

// read before the write of the same iteration: the first iteration sees the fill
define filled_read_then_write() -> int {
  int a[4] = 0;
  int s = 0;
  for (int i = 0; i < 4; i = i + 1) {
    s = s + a[i];
    a[i] = i;
  }
  return s;
}

// written on one branch only
define filled_one_branch(int x) -> int {
  int a[2] = 0;
  if (x > 0) { a[0] = 1; }
  return a[0];
}

// passed to a function, which may read it
define filled_passed(int x) -> int {
  int a[2] = 0;
  a[0] = x;
  a[1] = x;
  return total(a);
}

define total(int v[]) -> int { return v[0] + v[1]; }

// top changed otherwise than by one: the facts about it go
define filled_jump(int x) -> int {
  int a[4] = 0;
  a[0] = x;
  int top = 1;
  top = top * 2;
  top = top - 1;
  return a[top];
}

// a fact that holds where the loop's test ends it, but not where it breaks out
define filled_break(int x) -> int {
  int a[4] = 0;
  a[0] = x;
  int top = 0;
  while (top < 3) {
    top = top + 1;
    if (x > top) { break; }
    a[top] = x;
  }
  return a[top];
}

// copied whole by a loop its test ends (kalah's sow()): any element may be read after it
define unfilled_copied(int at) -> int {
  int a[4] = 0;
  for (int i = 0; i < 4; i = i + 1) { if (CurrentPosition[i][0] == X) { a[i] = 1; } else { a[i] = 2; } }
  a[at] = a[at] + 1;
  return a[3 - at];
}

// the copy stops one short: the last element keeps its fill
define filled_copied_short(int at) -> int {
  int a[4] = 0;
  for (int i = 0; i < 3; i = i + 1) { a[i] = i; }
  return a[at];
}

// a copy the loop may leave by a break: written whole only where its test ends it
define filled_copied_break(int at) -> int {
  int a[4] = 0;
  for (int i = 0; i < 4; i = i + 1) {
    if (CurrentPosition[i][0] == X) { break; }
    a[i] = i;
  }
  return a[at];
}

// a copy that skips an element
define filled_copied_skip(int at) -> int {
  int a[4] = 0;
  for (int i = 0; i < 4; i = i + 1) {
    if (i != 2) { a[i] = i; }
  }
  return a[at];
}

// two dimensions are left alone
define filled_grid(int x) -> int {
  int g[2][2] = 0;
  g[0][0] = x;
  return g[0][0];
}
"""


@pytest.fixture(scope="module")
def functions(tmp_path_factory):
    path = tmp_path_factory.mktemp("fills") / "patterns.gdef"
    path.write_text(PATTERNS, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, program.errors
    return lower_program(program).functions


def test_the_arrays_each_pattern_keeps_filled_or_not(functions):
    found = {name: set(unread_fills(f)) for name, f in functions.items()
             if name.startswith(("filled_", "unfilled_"))}
    assert found == {
        "unfilled_stack": {"a"},
        "unfilled_two_stacks": {"xs", "ys"},
        "filled_read_above": set(),
        "filled_read_then_write": set(),
        "filled_one_branch": set(),
        "filled_passed": set(),
        "filled_jump": set(),
        "filled_break": set(),
        "filled_grid": set(),
        "unfilled_copied": {"a"},
        "filled_copied_short": set(),
        "filled_copied_break": set(),
        "filled_copied_skip": set(),
    }


def test_gos_and_hexs_stacks_are_found_and_their_seen_arrays_kept():
    go = lower_program(load_game(str(EXAMPLES / "go" / "go9.gdef")).program).functions
    assert {name: set(unread_fills(f)) for name, f in go.items() if unread_fills(f)} == {
        "label": {"stackX", "stackY"}, "breathes": {"stackX", "stackY"},
        "removeGroup": {"stackX", "stackY"}, "score": {"stackX", "stackY"}}
    hex_ = lower_program(load_game(str(EXAMPLES / "hex.gdef")).program).functions
    assert set(unread_fills(hex_["joinsEdges"])) == {"stackX", "stackY"}


def test_kalahs_seeds_copied_whole_and_owares_passed_on():
    """kalah's sow() copies the 14 pits into `seeds` before any read; oware's does too but
    passes `seeds` to grandSlam(), which may read it, so it keeps its fill."""
    kalah = lower_program(load_game(str(EXAMPLES / "kalah.gdef")).program).functions
    assert set(unread_fills(kalah["sow"])) == {"seeds"}
    oware = lower_program(load_game(str(EXAMPLES / "oware.gdef")).program).functions
    assert set(unread_fills(oware["sow"])) == set()


def test_running_out_of_steps_in_a_copy_made_whole_leaves_the_function():
    """The copy loop of kalah's sow() proves `seeds` written whole when its test ends it; out of
    steps inside it, the C route leaves sow() (returning), not only the loop, so that no read
    after it sees an element left unwritten. The loop in moves() proves nothing: it breaks."""
    from gdef_core.cnative.emit import c_source
    game = load_game(str(EXAMPLES / "kalah.gdef"))
    sow = lower_program(game.program).functions["sow"]
    unfilled = unread_fills(sow)
    loops = [node for node in ir.walk(sow.body) if isinstance(node, ir.Loop)]
    assert [exits_whole(loop, unfilled, sow) for loop in loops] == [True, False, True]
    assert not exits_whole(loops[0], frozenset(), sow)
    text = c_source(game.program, game.max_steps, game.max_depth).text
    sow_at = text.index("void u_sow(", text.index("void u_sow(") + 1)   # the body, after its prototype
    sow_c = text[sow_at:text.index("\n}\n", sow_at)]
    assert sow_c.split("while (", 1)[1].splitlines()[1].strip() == (
        "if (--_st < 0) { g_bad(c); { *_stp = _st; *_ncp = _nc; return ; } }")
    moves_c = text[text.index("void u_moves(", text.index("void u_moves(") + 1):]
    assert moves_c.split("while (", 1)[1].splitlines()[1].strip() == "if (--_st < 0) { g_bad(c); break; }"
