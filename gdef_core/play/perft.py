"""perft moved to gdef_core.runtime.perft (the native backend falls back to it, and the
runtime is below the native backend). This name stays only for gdef_core/cli/run.py, which
the session branch rewrites: delete this module when that branch lands."""
from gdef_core.runtime.perft import perft

__all__ = ["perft"]
