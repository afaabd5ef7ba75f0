"""The value semantics both backends share (gdef_core/lower/arithmetic.py): exact against
definitions written with fractions, and the same jitted by numba (as every native module holds
it) as run by Python."""
from __future__ import annotations

import functools
import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from gdef_core.lower import arithmetic
from gdef_core.lower.arithmetic import INT_MAX, INT_MIN

from support import need_module

INTS = st.one_of(st.integers(INT_MIN, INT_MAX), st.sampled_from([INT_MIN, INT_MIN + 1, -2, -1, 0, 1, 2, INT_MAX]))
FLOATS = st.floats(allow_nan=True, allow_infinity=True)


def _c_div(a: int, b: int) -> int:
    """C's division: the exact quotient truncated toward zero."""
    q = Fraction(a, b)
    return math.floor(q) if q >= 0 else math.ceil(q)


@given(INTS, INTS)
@settings(max_examples=400, deadline=None)
def test_int_division_and_remainder_are_c_s(a, b):
    assert arithmetic.int_div_fails(a, b) == (b == 0 or not INT_MIN <= _c_div(a, b) <= INT_MAX)
    if b != 0:
        assert arithmetic.int_mod(a, b) == a - b * _c_div(a, b)
    if not arithmetic.int_div_fails(a, b):
        assert arithmetic.int_div(a, b) == _c_div(a, b)
    assert arithmetic.negate_fails(a) == (not arithmetic.fits_int(-a))


def test_float_remainder_is_c_fmod_where_python_raises():
    assert arithmetic.float_mod_is_nan(math.inf, 2.0) and arithmetic.float_mod_is_nan(1.0, math.nan)
    assert not arithmetic.float_mod_is_nan(-7.5, 2.0) and not arithmetic.float_mod_is_nan(5.0, math.inf)
    assert arithmetic.float_div(1.0, 4.0) == 0.25


@functools.cache
def _jitted() -> dict:
    numba = need_module("numba", "pip install -e '.[fast]'")
    return {name: numba.njit(getattr(arithmetic, name))
            for name in ("negate_fails", "int_div_fails", "int_div", "int_mod", "float_div", "float_mod_is_nan")}


@given(INTS, INTS, FLOATS, FLOATS)
@settings(max_examples=200, deadline=None)
def test_numba_runs_the_same_operations(a, b, x, y):
    jitted = _jitted()
    assert jitted["negate_fails"](a) == arithmetic.negate_fails(a)
    assert jitted["int_div_fails"](a, b) == arithmetic.int_div_fails(a, b)
    if not arithmetic.int_div_fails(a, b):
        assert jitted["int_div"](a, b) == arithmetic.int_div(a, b)
    if b != 0:
        assert jitted["int_mod"](a, b) == arithmetic.int_mod(a, b)
    assert jitted["float_mod_is_nan"](x, y) == arithmetic.float_mod_is_nan(x, y)
    if y != 0:
        assert repr(jitted["float_div"](x, y)) == repr(arithmetic.float_div(x, y))
