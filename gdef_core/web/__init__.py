"""The board in a browser: `gdef-run --web` serves a page (static/) and a small JSON API.

`board.py` is what the API does (plain methods over the terminal runner's session, no HTTP);
`server.py` is the HTTP side (loopback only, Host and Origin checks, JSON errors). docs/web.md.
"""
