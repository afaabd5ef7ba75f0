"""lower/counters.py: the int locals whose increments cannot overflow within the step budget
(assigned only constants and themselves plus or minus a constant, not a parameter, not a `for`
counter), which the C route adds without the overflow check."""
from __future__ import annotations

import pytest

from gdef_core.loader import load_program
from gdef_core.lower.build import lower_program
from gdef_core.lower.counters import counters, increment
from gdef_core.lower import ir

COUNTS = """name: counts
players: 2
size: 6 x 1
define count(int p) -> int {
  int n = 0;
  int far = 9223372036854775806;
  int m = p;
  int down = 5;
  int twice = 0;
  for (int i = 0; i < p; i = i + 1) {
    if (CurrentPosition[i][0] == empty) {
      n = n + 1;
      far = far + 1;
    }
    m = m + 1;
    down = down - 2;
    twice = 1 + twice;
    twice = twice * 2;
    p = p + 1;
  }
  return n + far + m + down + twice;
}
define isMoveLegal() -> bool {
  return count(3) > 0;
}
define end() -> bool {
  return false;
}
"""


@pytest.fixture(scope="module")
def count(tmp_path_factory):
    path = tmp_path_factory.mktemp("counters") / "counts.gdef"
    path.write_text(COUNTS, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, program.errors
    return lower_program(program).functions["count"]


def test_counters_are_the_locals_changed_only_by_constants(count):
    """n (+1) and down (-2) count; far's bound is past int64, m starts from a parameter, twice
    is doubled too, p is a parameter, the for counter keeps its check."""
    assert counters(count, 5_000_000) == {"n", "down"}


def test_the_bound_grows_with_the_step_budget(count):
    """A budget of 2^62 steps: n reaches at most 2^62 + 1, but down could fall by 2^63 + 2."""
    assert counters(count, 2 ** 62) == {"n"}
    assert counters(count, 2 ** 63) == set()


def test_increment_reads_the_constant_of_a_sum():
    n = ir.Local("n", "int")
    assert increment("n", ir.Binary("+", n, ir.Const(3, "int"), "int")) == 3
    assert increment("n", ir.Binary("+", ir.Const(3, "int"), n, "int")) == 3
    assert increment("n", ir.Binary("-", n, ir.Const(3, "int"), "int")) == -3
    assert increment("n", ir.Binary("-", ir.Const(3, "int"), n, "int")) is None
    assert increment("n", ir.Binary("+", n, ir.Local("k", "int"), "int")) is None
    assert increment("k", ir.Binary("+", n, ir.Const(3, "int"), "int")) is None
