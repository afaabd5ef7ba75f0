"""The debugger's engine: a game played as `gdef-run --moves` plays it, with the rules' reference
build run under sys.settrace so that it can stop on gdef statements. It knows nothing of the
Debug Adapter Protocol (gdef_dap speaks that over it).

    statements.py  which generated lines are gdef statements; breakpoint lines; frame locations
    engine.py      DebugSession: the game thread, breakpoints, stepping, step back by re-running
    values.py      what a stop shows: scopes, variables as trees, the board as rows
    expressions.py what a stop shows: names, positions, values as text
    watches.py     gdef expressions (watches, hovers, conditions) checked and compiled by the language's own tools
"""
