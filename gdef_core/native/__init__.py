"""The native backend: a game's rules compiled by numba (an optional extra, `gdef[fast]`), so
that whole random playouts and perft run in machine code. See backend.py; the Python backend
(gdef_core.runtime) stays the reference and reports every error."""
from __future__ import annotations

from gdef_core.native.backend import NativeRules, numba_available
from gdef_core.native.codegen import NativeUnsupported

__all__ = ["NativeRules", "NativeUnsupported", "numba_available"]
