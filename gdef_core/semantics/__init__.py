"""Names, types and game structure -> diagnostics and a Program. Never runs user code."""
