"""The bounds every run of the rules keeps to, in both backends (spec 13, 15.1): time as a
step budget, recursion as a depth, memory as steps per operation held and elements per array.
"""
from __future__ import annotations

# The most elements one array may have (spec 15.1): the checker's bound, for sizes it knows.
from gdef_core.semantics.constants import MAX_ARRAY_ELEMENTS

__all__ = ["DEFAULT_MAX_DEPTH", "DEFAULT_MAX_STEPS", "MAX_ARRAY_ELEMENTS", "OPERATION_STEPS",
           "SEARCH_POOL_FACTOR"]

DEFAULT_MAX_STEPS = 5_000_000
DEFAULT_MAX_DEPTH = 500
# One search for legal moves (legal_moves(), hasLegalMove()) may take this many times the step
# limit in all.
SEARCH_POOL_FACTOR = 10
# What an operation held by addPlace/addClear in moves() costs from the step budget: memory is
# bounded like time (5,000,000 steps hold at most 1,250,000 operations, about 120 MB).
OPERATION_STEPS = 4
