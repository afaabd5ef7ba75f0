"""The board in a browser: `gdef-run --web` serves a page (static/) and a small JSON API.

`board.py` is what the API does (plain methods over the controller's PlaySession, no HTTP);
`server.py` is the HTTP side (loopback only, the run's token, Host and Origin checks, bounded
bodies, clients and connections, JSON errors). docs/web.md.
"""
