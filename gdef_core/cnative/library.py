"""A game's rules compiled to C, loaded with ctypes, behind the same calls as the numba module
(playouts, perft, judge, _legal_into, _outcomes_into, _hist_load, _starts and the layout
constants), so that
native/backend.py's NativeRules drives either route.

    module, compiled = load_c_rules(c_source(program, max_steps, max_depth))
    module.playouts(seeds, board, player, ...)    # numpy arrays in and out

Where the C kernel stops (a run-time error or a limit: runtime/kernel.c's g_fail), `_legal_into`
and `perft` raise RuntimeError as the numba kernels do, and the caller asks the Python backend.
"""
from __future__ import annotations

import ctypes

import numpy as np

from gdef_core.cnative.compiler import CompileFailed, build_library, find_compiler, library_path
from gdef_core.cnative.emit import CSource, CUnsupported, c_source, runtime_dir, runtime_text

__all__ = ["CModule", "CompileFailed", "CUnsupported", "c_compiler_available", "c_library_cached", "c_source",
           "load_c_rules"]

_P = ctypes.c_void_p
_I = ctypes.c_int64
# The C functions' argument types (runtime/kernel.c), in order.
_SIGNATURES = {
    "gdef_playouts": (_I, [_I, _P, _P, _I, _I, _P, _P, _P, _I, _P, _P, _P, _P, _I, _P, _I, _P, _I, _P, _I, _P,
                           _P, _P, _P, _I, _P, _I]),
    "gdef_simulate": (_I, [ctypes.c_uint64, _I, _I, _P, _I, _I, _P, _P, _P, _I, _P, _P, _P, _P, _I, _P, _P, _P,
                           _P, _I, _P, _I]),
    "gdef_legal_into": (_I, [_P, _P, _P, _P, _P, _I, _P, _I, _I, _P, _I, _P, _I, _P]),
    "gdef_outcomes_into": (_I, [_P, _P, _P, _P, _P, _I, _P, _I, _I, _P, _I, _P, _I, _P, _P]),
    "gdef_hist_load": (None, [_P, _P, _I]),
    "gdef_judge": (None, [_P, _I, _I, _P, _P, _P, _P, _P, _P, _I, _P, _I, _P]),
    "gdef_perft": (_I, [_P, _I, _I, _P, _P, _P, _I, _P, _P, _I, _P, _I]),
}


def c_compiler_available() -> bool:
    return find_compiler() is not None


def _ptr(array) -> int:
    """The address of a C-contiguous numpy array's data (the kernels read and write it)."""
    return array.ctypes.data


def _c(array, dtype):
    return np.ascontiguousarray(array, dtype=dtype)


class CModule:
    """The compiled library of one game, called like the numba module."""

    # The size of the S array callers make for the numba module's _legal_into; _legal_into here
    # ignores it (each exported C function keeps its own S[NSLOTS], gdef.h).
    NSLOTS = 1
    # The slots of simulate()'s totals T (runtime/kernel.c, the numba kernels' alike).
    _TGAMES, _TDRAWS, _TCAPPED, _TLEN, _TMAX, _TODD, _TWINS = range(7)

    def __init__(self, path, constants: dict[str, int]) -> None:
        self.path = path
        # PyDLL: the calls keep the GIL, as numba's do, so threads sharing a NativeRules (its
        # buffers) never run the kernels at once
        self.lib = ctypes.PyDLL(str(path))
        for name, (result, args) in _SIGNATURES.items():
            function = getattr(self.lib, name)
            function.restype = result
            function.argtypes = args
        self.constants = constants
        self.HSIZE = constants["HSIZE"]
        self.KEYLEN = constants["KEYLEN"]
        self.USES_HISTORY = bool(constants["USES_HISTORY"])

    def _starts(self):
        """CS: the candidates' starts, the search stamps, the duplicate table, the memo of
        hasLegalMove()'s candidates and the weights of a chance node's outcomes (kernel.c)."""
        return np.zeros(self.constants["WEIGHTS"] + self.constants["CAP_MOVES"], np.int64)

    def playouts(self, seeds, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status, scores,
                 record, rec_ops, rec_starts, CO, CS, order, MV, H0, HS, chance0) -> int:
        seeds = _c(seeds, np.uint64)
        board, V0, H0 = _c(board, np.int64), _c(V0, np.int64), _c(H0, np.int64)
        VF0, SC0 = _c(VF0, np.float64), _c(SC0, np.float64)
        return self.lib.gdef_playouts(
            len(seeds), _ptr(seeds), _ptr(board), int(player0), int(mn0), _ptr(V0), _ptr(VF0), _ptr(SC0),
            int(max_moves), _ptr(winners), _ptr(lengths), _ptr(status), _ptr(scores), int(bool(record)),
            _ptr(rec_ops), rec_ops.shape[0], _ptr(rec_starts), rec_starts.shape[0], _ptr(CO), CO.shape[0],
            _ptr(CS), _ptr(order), _ptr(MV), _ptr(H0), H0.shape[0] if H0.ndim == 2 else 0, _ptr(HS),
            int(bool(chance0)))

    def simulate(self, seed, first, stop, board, player0, mn0, V0, VF0, SC0, max_moves, T, TS, odd, CO, CS,
                 order, MV, H0, HS, chance0) -> int:
        """gdef-sim's games first .. stop - 1 of a run seeded `seed`, added up into T and TS,
        the games left to Python in `odd` (the numba kernels' simulate)."""
        board, V0, H0 = _c(board, np.int64), _c(V0, np.int64), _c(H0, np.int64)
        VF0, SC0 = _c(VF0, np.float64), _c(SC0, np.float64)
        return self.lib.gdef_simulate(
            int(seed), int(first), int(stop), _ptr(board), int(player0), int(mn0), _ptr(V0), _ptr(VF0), _ptr(SC0),
            int(max_moves), _ptr(T), _ptr(TS), _ptr(odd), _ptr(CO), CO.shape[0], _ptr(CS), _ptr(order), _ptr(MV),
            _ptr(H0), H0.shape[0] if H0.ndim == 2 else 0, _ptr(HS), int(bool(chance0)))

    def _legal_into(self, B, S, V, VF, SC, CO, CS, player, mn, LO, LS, HS) -> int:
        n = self.lib.gdef_legal_into(_ptr(B), _ptr(V), _ptr(VF), _ptr(SC), _ptr(CO), CO.shape[0], _ptr(CS),
                                     int(player), int(mn), _ptr(LO), LO.shape[0], _ptr(LS), LS.shape[0], _ptr(HS))
        if n < 0:
            raise RuntimeError("gdef")   # a run-time error or limit: the Python backend says which
        return n

    def _outcomes_into(self, B, S, V, VF, SC, CO, CS, player, mn, LO, LS, WT, HS) -> int:
        """A chance node's outcomes into LO / LS and their weights into WT (the numba kernels'
        _outcomes_into)."""
        n = self.lib.gdef_outcomes_into(_ptr(B), _ptr(V), _ptr(VF), _ptr(SC), _ptr(CO), CO.shape[0], _ptr(CS),
                                        int(player), int(mn), _ptr(LO), LO.shape[0], _ptr(LS), LS.shape[0],
                                        _ptr(WT), _ptr(HS))
        if n < 0:
            raise RuntimeError("gdef")   # chance() failed or proposed nothing: the Python backend says
        return n

    def _hist_load(self, HS, H0) -> None:
        H0 = _c(H0, np.int64)
        self.lib.gdef_hist_load(_ptr(HS), _ptr(H0), H0.shape[0])

    def judge(self, board, player, mn, V, VF, SC, ops, starts, verdicts, H0, HS) -> None:
        ops, starts, H0 = _c(ops, np.int64), _c(starts, np.int64), _c(H0, np.int64)
        self.lib.gdef_judge(_ptr(board), int(player), int(mn), _ptr(V), _ptr(VF), _ptr(SC), _ptr(ops),
                            _ptr(starts), _ptr(verdicts), verdicts.shape[0], _ptr(H0), H0.shape[0], _ptr(HS))

    def perft(self, board, player, mn, V, VF, SC, depth, counts, H0, HS, chance0) -> None:
        H0 = _c(H0, np.int64)
        if self.lib.gdef_perft(_ptr(board), int(player), int(mn), _ptr(V), _ptr(VF), _ptr(SC), int(depth),
                               _ptr(counts), _ptr(H0), H0.shape[0], _ptr(HS), int(bool(chance0))) < 0:
            raise RuntimeError("gdef")


def c_library_cached(source: CSource) -> bool:
    """Whether the library of `source` is in the cache (a warm start)."""
    compiler = find_compiler()
    return compiler is not None and library_path(source.text, runtime_text(), compiler).exists()


def load_c_rules(source: CSource) -> tuple[CModule, bool]:
    """(the compiled rules of `source` (emit.c_source), whether they were compiled now).
    Raises CompileFailed or OSError."""
    compiler = find_compiler()
    if compiler is None:
        raise CompileFailed("no C compiler")
    path, compiled = build_library(source.text, runtime_text(), runtime_dir(), compiler)
    return CModule(path, source.constants), compiled
