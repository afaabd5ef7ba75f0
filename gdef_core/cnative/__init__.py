"""The C route of the native backend: a game's rules emitted as C from the IR (emit.py, with
the fixed runtime in runtime/gdef.h and runtime/kernel.c), compiled by the system C compiler
into a cached shared library (compiler.py) and loaded with ctypes behind the numba module's
calls (library.py), so native/backend.py's NativeRules drives either route. Needs a C compiler
(gcc or clang) and numpy; compiling takes a second or two where numba takes tens."""
