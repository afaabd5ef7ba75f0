"""gdef-dap: the debug adapter of gdef (Debug Adapter Protocol over stdio), thin handlers over
the core's debugger engine (gdef_core.debug).

    framing.py   Content-Length framing of JSON messages, bounded, thread-safe writing
    server.py    the requests and events
"""
