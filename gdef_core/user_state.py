"""Where gdef keeps what it remembers for the user between runs: the prompt's history and the
records of games that were not given a `--record` file.

The XDG base-directory rule: `$XDG_STATE_HOME/gdef`, or `~/.local/state/gdef` when the variable
is unset, empty or not an absolute path. Setting XDG_STATE_HOME moves everything (the test
suite points it at a temporary folder of its own).
"""
from __future__ import annotations

import os

APP = "gdef"


def state_folder() -> str:
    """The folder's path (not created)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, APP)


def state_path(*parts: str) -> str:
    """A path inside the state folder, its folders created (private to the user: 0700)."""
    path = os.path.join(state_folder(), *parts)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    return path
