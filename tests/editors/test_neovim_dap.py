"""The nvim-dap configuration of docs/editors.md (editors/nvim/gdef-dap.lua) in real Neovim
(headless): nvim-dap itself is installed from git, not from a package registry, so a stand-in
`dap` module records what the file registers; then the adapter it names is started and answers
a launch with the configuration's arguments, as nvim-dap would send them.

Needs `nvim` (Debian: apt-get install neovim). Skipped when it is missing, unless
GDEF_REQUIRE_EDITORS=1.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "editors" / "nvim" / "gdef-dap.lua"
GAME = ROOT / "tests" / "data" / "debug" / "rows.gdef"
NVIM = shutil.which("nvim")
if NVIM is None and os.environ.get("GDEF_REQUIRE_EDITORS") != "1":
    pytest.skip("nvim is not installed (apt-get install neovim)", allow_module_level=True)

RECORD = """
local out = io.open(vim.g.gdef_test_out, 'w')
local dap = require('dap')
local configurations = {}
for i, c in ipairs(dap.configurations.gdef) do
  local copy = {}
  for k, v in pairs(c) do copy[k] = type(v) == 'function' and '<function>' or v end
  configurations[i] = copy
end
out:write(vim.fn.json_encode({ adapter = dap.adapters.gdef, configurations = configurations }))
out:close()
"""


def message(body: dict) -> bytes:
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def read_all(data: bytes) -> list[dict]:
    found = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        found.append(json.loads(rest[:length]))
        data = rest[length:]
    return found


def test_the_configuration_registers_gdef_dap_which_launches_the_game(tmp_path):
    assert NVIM, "nvim is not installed: apt-get install neovim"
    (tmp_path / "lua").mkdir()
    (tmp_path / "lua" / "dap.lua").write_text("return { adapters = {}, configurations = {} }\n", encoding="utf-8")
    (tmp_path / "record.lua").write_text(RECORD, encoding="utf-8")
    out = tmp_path / "out.json"
    command = [sys.executable, "-m", "gdef_dap"]
    done = subprocess.run([NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n",
                           "--cmd", f"set runtimepath^={tmp_path}",
                           "--cmd", f"let g:gdef_dap_cmd = {json.dumps(command)}",
                           "--cmd", f"let g:gdef_test_out = {json.dumps(str(out))}",
                           "-c", f"luafile {CONFIG}", "-c", f"luafile {tmp_path / 'record.lua'}", "-c", "qa!"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    registered = json.loads(out.read_text(encoding="utf-8"))
    assert registered["adapter"] == {"type": "executable", "command": command[0], "args": command[1:]}
    first, with_moves = registered["configurations"]
    assert first == {"type": "gdef", "request": "launch", "name": "Debug game", "program": "${file}"}
    assert with_moves["moves"] == "<function>"
    # what nvim-dap then does: start the adapter, initialize, launch with ${file} expanded
    adapter = registered["adapter"]
    launch = {**first, "program": str(GAME)}
    requests = message({"seq": 1, "type": "request", "command": "initialize", "arguments": {"adapterID": "gdef"}})
    requests += message({"seq": 2, "type": "request", "command": "launch", "arguments": launch})
    requests += message({"seq": 3, "type": "request", "command": "disconnect", "arguments": {}})
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    answered = subprocess.run([adapter["command"], *adapter["args"]], input=requests, capture_output=True,
                              timeout=60, env=env, cwd=ROOT)
    replies = read_all(answered.stdout)
    responses = {r["command"]: r["success"] for r in replies if r["type"] == "response"}
    assert responses == {"initialize": True, "launch": True, "disconnect": True}
    assert any(r.get("event") == "initialized" for r in replies)
