"""A minimal bot for the gdef bot protocol (docs/protocol.md): it plays the first legal move.

    gdef-run examples/tictactoe.gdef --player 1=cmd:"python examples/bots/first_legal.py"

gdef sends one JSON request a line; for {"cmd": "go", "legal": [...]} the bot answers
{"ok": true, "move": ...}; every other request gets {"ok": true}; "quit" ends it.
"""
import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    if request.get("cmd") == "quit":
        break
    answer = {"ok": True}
    if request.get("cmd") == "go":
        answer["move"] = request["legal"][0]
    print(json.dumps(answer), flush=True)
