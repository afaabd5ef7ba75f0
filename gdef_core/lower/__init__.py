"""The middle of the compiler, between the checked Program (gdef_core/semantics) and the two
backends (gdef_core/runtime: Python source; gdef_core/native: numba source).

The IR (ir.py, built by build.py, printed by printer.py): typed, resolved functions with every
run-time check explicit. The analyses both backends share, computed once: the call graph with
its cycles and each entry point's reach (calls.py), control flow (flow.py), value ranges and
condition facts (facts.py), what may be inlined (inlining.py), loop-scoped locals (loops.py),
the limits of a run (limits.py), the value domain (values.py) and the value semantics both
backends run (arithmetic.py)."""
