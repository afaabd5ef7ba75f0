"""gdef-run's prompt at a terminal: line editing, history and tab completion, through the
standard library's readline where the platform has it (GNU readline or libedit), plain input()
where it does not.

The history is kept across runs in the user's state folder (gdef_core.user_state:
`~/.local/state/gdef/run_history`, at most HISTORY_LENGTH lines). Tab completes the commands
and the legal moves of the position on the screen (completion.py: bounded on a big board).
"""
from __future__ import annotations

import os
from collections.abc import Callable

from gdef_core.runtime.errors import GdefRuntimeError
from gdef_core.user_state import state_path

HISTORY_FILE = "run_history"
HISTORY_LENGTH = 1000
QUIT_WORDS = ("quit", "exit", "q")
COMMANDS = ("help", "moves", "board", "hint", "objects", "undo", "save", *QUIT_WORDS)

try:
    import readline
except ImportError:  # Windows without pyreadline: input() still works, without history
    readline = None


class Prompt:
    """Reads lines at a terminal. `moves(text)` gives the legal moves' texts that start with
    `text`, for completion (called when Tab is pressed: gdef_core/cli/completion.py)."""

    def __init__(self, moves: Callable[[str], list[str]]) -> None:
        self.moves = moves
        self.history = None
        self._candidates: list[str] = []
        if readline is not None:
            self._set_up()

    def _set_up(self) -> None:
        readline.set_history_length(HISTORY_LENGTH)
        try:
            self.history = state_path(HISTORY_FILE)
            if os.path.exists(self.history):
                readline.read_history_file(self.history)
            readline.write_history_file(self.history)  # at most HISTORY_LENGTH lines, kept short
        except (OSError, ValueError):  # an unusable state folder: a prompt without a past
            self.history = None
        readline.set_completer_delims("")  # a move holds ( , ; and spaces: complete the whole line
        readline.set_completer(self._complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def read(self, prompt: str) -> str | None:
        """One line, or None at the end of input (Ctrl-D)."""
        self._candidates = []
        try:
            line = input(prompt)
        except EOFError:
            return None
        if line:  # input() added it to the history: append it, so that runs side by side keep theirs
            self._keep()
        return line

    def _keep(self) -> None:
        if self.history is None:
            return
        try:
            if hasattr(readline, "append_history_file"):
                readline.append_history_file(1, self.history)
            else:  # a readline without it: the whole history, this run's last
                readline.write_history_file(self.history)
        except OSError:
            self.history = None  # said nothing: history is a comfort, never a reason to stop

    def _complete(self, text: str, index: int) -> str | None:
        """readline's completer: the `index`-th command or legal move starting with `text`."""
        if index == 0:
            words = [word for word in COMMANDS if word.startswith(text)]
            try:
                words += self.moves(text)
            except GdefRuntimeError:  # the rules failed: complete the commands (`moves` shows the error)
                pass
            self._candidates = list(dict.fromkeys(words))
        return self._candidates[index] if index < len(self._candidates) else None
