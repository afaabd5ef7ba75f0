"""NativeRules.judge: given moves judged by isMoveLegal() alone, as State.check judges them
(kept apart from the kernel: numba compiles it only for the callers that use it).

Part of every generated native module (see kernels/__init__.py): the lines below MODULE_TEXT
are copied into it; the imports above it are for linters and editors.
"""
import numpy as np
from numba import njit
from gdef_core.native.kernels.generated import CACHE, USES_HISTORY, e_isMoveLegal
from gdef_core.native.kernels.helpers import NSLOTS, _ERR, _ST
from gdef_core.native.kernels.history import _HN0, _hist_load
from gdef_core.native.kernels.kernel import _enter_judge


# MODULE_TEXT (copied into each generated module from here on)


@njit(cache=CACHE)
def judge(board, player, mn, V, VF, SC, ops, starts, verdicts, H0, HS):
    """isMoveLegal() of move k (ops[starts[k]:starts[k + 1]]) with its own step budget:
    verdicts[k] 1 legal, 0 rejected, -1 stopped (a run-time error or limit, or isGenerated(),
    which the kernels judge only for their own candidates)."""
    S = np.zeros(NSLOTS, np.int64)
    CO = np.empty((1, 4), np.int64)
    CS = np.zeros(2, np.int64)
    if USES_HISTORY:  # the state's positions, for nextBoardSeen()
        _hist_load(HS, H0)
        if HS[_HN0] < 0:  # more than the kernel holds: the Python backend judges
            verdicts[:] = -1
            return
    for k in range(verdicts.shape[0]):
        _enter_judge(S, player, mn, 0, starts[k], starts[k + 1])
        legal = e_isMoveLegal(board, ops, S, V, VF, SC, CO, CS, HS)
        verdicts[k] = -1 if S[_ERR] != 0 or S[_ST] < 0 else (1 if legal else 0)
