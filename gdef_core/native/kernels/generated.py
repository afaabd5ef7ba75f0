"""The names each generated native module defines for its game before the fixed parts
(native/codegen.py writes them): the game's sizes and limits, the layout of the history
array HS, and the generated entry points the kernels call.

Declared here with a game's neutral values so that the fixed parts are real modules that
linters, type checkers and editors resolve; a generated module never imports this one, and
tests/test_native_kernels.py checks that codegen defines every name declared here.
"""
from gdef_core.builtins import Context

# The entry point running, S[_CTX]: builtins.Context's numbers (codegen.NativeCompiler.compile).
CTX_IS_MOVE_LEGAL, CTX_END = Context.IS_MOVE_LEGAL.number, Context.END.number
CTX_MOVES, CTX_SETUP, CTX_CHANCE = Context.MOVES.number, Context.SETUP.number, Context.CHANCE.number
# The board, players, objects, limits (codegen.NativeCompiler.compile).
W = H = P = NOBJ = 1
MAXSTEPS = MAXDEPTH = POOL = OPERATION_STEPS = 1
CAP_OPS = CAP_MOVES = KEYS = TABLE = WEIGHTS = PERFT_OPS = PERFT_MOVES = MEMO = MEMO_LEN = 1
OWN_CANDIDATES = 0
# Squares that count (runtime/counts.py): the board holds NBO objects, then NBO counts.
COUNTING = False
NBO = 1
CHANCE = False   # the game has chance nodes (chance() and chanceNext())
NRT = CACHE = False
# The history array HS (codegen.NativeCompiler.history_constants).
USES_HISTORY = USES_PREVIOUS = False
NB = KEYLEN = HCAP = TSIZE = TMASK = HSIZE = 1
H_PREV = H_RES = H_KEY = H_PT = H_BT = H_EH = H_EB = H_EK = H_ROWS = 0


def e_isMoveLegal(B, OPS, S, V, VF, SC, CO, CS, HS):
    """isMoveLegal() of the move in OPS from row S[_OP0] (codegen._entry)."""


def e_end(B, OPS, S, V, VF, SC, CO, CS, HS):
    """end() after the move in OPS (codegen._entry)."""


def e_moves(B, OPS, S, V, VF, SC, CO, CS, HS):
    """moves(): candidates appended to CO and their starts to CS (codegen._entry)."""


def _candidates(B, S, V, VF, SC, CO, CS, HS):
    """The candidate moves of the position, deduplicated -> how many (codegen.compile)."""


def _chance_outcomes(B, S, V, VF, SC, CO, CS, HS):
    """The outcomes of a chance node, identical ones merged -> how many (codegen.compile)."""


def _key_row(B, p, V, VF, HS, at):
    """A position's key into HS from `at` (codegen.NativeCompiler.key_row)."""
