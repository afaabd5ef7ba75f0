"""Where game records go, and keeping an existing one instead of overwriting it.

A game given no `--record FILE` is written, when it stops before its end or the page saves it,
to the user's records folder, `$XDG_STATE_HOME/gdef/records/` (`~/.local/state/gdef/records/`
by default: gdef_core.user_state), as `GAME-YYYY-MM-DD-HHMMSS.json` (`-2`, `-3` ... when two
games stop within the same second): one place to look, a name that says which game and when,
and never a file in the project or in the shared temporary folder.
"""
from __future__ import annotations

import os
import time

from gdef_core.files import create_new
from gdef_core.user_state import state_path

RECORDS = "records"


def new_record_path(game_name: str) -> str:
    """A new, empty file of the records folder for a record of `game_name`, created here so
    that no other run takes the same name."""
    stem = state_path(RECORDS, f"{safe_name(game_name)}-{time.strftime('%Y-%m-%d-%H%M%S')}")
    path, number = f"{stem}.json", 1
    while not create_new(path):
        number += 1
        path = f"{stem}-{number}.json"
    return path


def safe_name(name: str) -> str:
    """A game name fit for a file name."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "game"


def backup_name(path: str) -> str:
    """PATH.~N~ with the first N not taken (GNU cp's numbered backups)."""
    number = 1
    while os.path.lexists(f"{path}.~{number}~"):
        number += 1
    return f"{path}.~{number}~"


def keep_as_backup(path: str) -> str:
    """Rename the file `path` (the name itself: a symbolic link is never followed) to its
    numbered backup; the backup's path. OSError when it cannot be renamed."""
    backup = backup_name(path)
    os.replace(path, backup)
    return backup
