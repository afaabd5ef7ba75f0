"""The fixed part of a native module: value operations with the language's semantics, the
built-ins that touch the state, the position history, and the playout, perft and judge kernels.

The generated gdef functions (native/codegen.py) sit between these parts (and before them the
value semantics of gdef_core/lower/arithmetic.py, which the Python backend runs too) in one module file,
so numba can cache every function on disk: codegen copies each part's text from its
MODULE_TEXT line on (`module_text`); the imports above that line, from `generated` (the names
codegen defines per game) and from the parts before, are there for linters and editors.
Conventions shared with codegen:

- the board `B` is a flat int64 array (square x, y at x * H + y; 0 is empty, object k is k);
- `OPS` holds the move being judged or ended from row S[_OP0], S[_NOPS] rows of x, y, object,
  is-place (not a slice: making one costs a reference count);
- `S` holds the scalars of the call in progress (slots in helpers.py), `V` the int, bool and
  obj game variables, `VF` the float ones, `SC` the scores;
- moves() appends candidate operations to `CO` and their start offsets to `CS`;
- `HS` holds the board before the move and the positions of the game (history.py).

Generated code never raises: a failed check is flagged in S (helpers._bad) and the kernel
looks at the flag; a failure of end() or moves() stops the game (helpers._fail), which the
caller (native/backend.py) replays through the Python backend for the located error. Nothing
here formats messages.
"""
from importlib import resources

# The parts in the order of the generated module: the value semantics both backends share,
# then this package's (the history before the kernels that use it).
PARTS = ("gdef_core.lower.arithmetic", *(f"{__name__}.{part}" for part in ("helpers", "history", "kernel", "judge")))
_MARK = "\n# MODULE_TEXT"


def module_text(part: str) -> str:
    """The text of module `part` (a dotted name) that goes into a generated module: from its
    MODULE_TEXT line on."""
    package, _, name = part.rpartition(".")
    text = resources.files(package).joinpath(f"{name}.py").read_text(encoding="utf-8")
    start = text.index(_MARK)
    return text[text.index("\n", start + 1) + 1:]
