"""The value semantics of gdef's numbers, defined once for both backends: int64 bounds, C
division and remainder, C fmod, and when an operation fails.

Plain Python over ints and floats that numba compiles as it is: the Python backend calls these
functions (runtime/ops.py raises the located error where a `*_fails` test holds), and every
generated native module holds this module's text from its MODULE_TEXT line on, jitted by
native/kernels/helpers.py (which flags the error instead). Each function expects operands for
which the matching `*_fails` test is false; none may overflow int64 on the way, so the same
text is exact on Python's unbounded ints and on numba's int64.
"""


# MODULE_TEXT (copied into each generated native module from here on)


import math

INT_MIN = -9223372036854775807 - 1
INT_MAX = 9223372036854775807


def fits_int(value):
    """Whether an exact int result is a gdef int (signed 64 bits); outside, it is G602."""
    return INT_MIN <= value <= INT_MAX


def negate_fails(a):
    """-a overflows for INT_MIN alone."""
    return a == INT_MIN


def int_div_fails(a, b):
    """`a / b` on ints fails for a zero divisor (G601) and for INT_MIN / -1 (G602)."""
    return b == 0 or (b == -1 and a == INT_MIN)


def int_div(a, b):
    """`a / b` on ints: truncated toward zero, as C does (-7 / 2 == -3)."""
    q = a // b
    if a % b != 0 and (a < 0) != (b < 0):
        q += 1
    return q


def int_mod(a, b):
    """`a % b` on ints (b != 0): the sign of the dividend, as C does (-7 % 2 == -1). b == -1
    is special-cased: INT_MIN % -1 traps in int64 machine arithmetic."""
    if b == -1:
        return a * 0
    r = a % b
    if r != 0 and (r < 0) != (a < 0):
        r -= b
    return r


def float_div(a, b):
    """`/` with a float operand (b != 0)."""
    return a / b


def float_mod_is_nan(a, b):
    """Whether `a % b` with a float operand (b != 0) is NaN: an infinite dividend or a NaN.
    Otherwise it is C's fmod (math.fmod in Python, np.fmod in numba, which has no math.fmod),
    where Python's math.fmod would raise "math domain error" for an infinite dividend."""
    return math.isinf(a) or math.isnan(a) or math.isnan(b)
