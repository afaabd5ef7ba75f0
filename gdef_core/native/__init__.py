"""The native backend: a game's rules compiled to machine code, so that whole random playouts
and perft run there: by the system C compiler (gdef_core/cnative) where there is one, else by
numba (an optional extra, `gdef[fast]`). See backend.py; the Python backend (gdef_core.runtime)
stays the reference and reports every error."""
from __future__ import annotations

from gdef_core.native.backend import NativeRules, native_available, numba_available
from gdef_core.native.codegen import NativeUnsupported

__all__ = ["NativeRules", "NativeUnsupported", "native_available", "numba_available"]
