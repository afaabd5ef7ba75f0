"""What every gdef command shares: the promise that no input ends in a Python traceback,
`--version`, and the argument types they parse numbers with."""
from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from gdef_core import __version__

EXIT_USAGE = 2  # argparse's own code for bad arguments, kept by every command


def whole_number(minimum: int, meaning: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number of at least `minimum` (`meaning` explains the smallest)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} must be at least {minimum}{meaning}")
        return value
    return parse


positive = whole_number(1)
MAX_SECONDS = 3600.0


def seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0 and at most {MAX_SECONDS:g} seconds")
    return value


def add_param_option(parser: argparse.ArgumentParser) -> None:
    """`--param NAME=VALUE` (repeatable): a value for one of the game's declared parameters."""
    parser.add_argument("--param", action="append", default=[], type=_param_setting, metavar="NAME=VALUE",
                        help="set one of the game's parameters, e.g. --param board_size=7 (repeatable; "
                             "the others keep their defaults)")


def param_values(settings: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The `--param` settings by name (the last one of a name counts)."""
    return dict(settings)


def _param_setting(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE (for example board_size=7)")
    return name.strip(), value.strip()


def add_version(parser: argparse.ArgumentParser, name: str) -> None:
    """`--version`: prints `name VERSION` and exits 0 (every command answers it)."""
    parser.add_argument("--version", action="version", version=f"{name} {__version__}",
                        help="print the version and exit")


def guarded(prog: str, run: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None, *,
            interrupted: int, internal: int, broken_pipe: int,
            interrupted_message: str | None = None) -> int:
    """Run a command's `run(argv)` and turn every way it can end into an exit code: argparse's
    exits, Ctrl-C, a reader that left the pipe, and (a bug in gdef) any other exception, which
    is reported in one line instead of a traceback."""
    _tolerant_output()
    try:
        return run(argv)
    except SystemExit as exit_:  # argparse: usage errors (2), --help and --version (0)
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        if interrupted_message:
            sys.stderr.write(interrupted_message)
        return interrupted
    except BrokenPipeError:  # `gdef-check ... | head`: the reader left; the output was cut
        _silence_stdout()
        return broken_pipe
    except Exception as error:  # noqa: BLE001 - the promise is: never a traceback
        sys.stderr.write(f"{prog}: internal error: {type(error).__name__}: {error}\n"
                         "This is a bug in gdef, not in your game; please report it with the "
                         "input that caused it.\n")
        return internal


def exit_or_return(prog: str, run: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None,
                   **codes) -> int:
    """A command's `main`: `guarded` with `codes`, then the code is the process's exit status
    when run as a console script (argv None) and returned when called with arguments (the
    `gdef` command, tests)."""
    code = guarded(prog, run, argv, **codes)
    if argv is None:
        sys.exit(code)
    return code


def exit_without_teardown(code: int) -> NoReturn:
    """Exit a console script with `code`, leaving what the run built to the operating system.
    Freeing a big board's millions of candidates one object at a time at the interpreter's
    teardown took seconds after `quit` (they hang from a cycle: a Game and its cached Moves,
    so only the last garbage collection frees them). Frozen, that collection skips them;
    the atexit handlers still run and the standard streams are still flushed, and the run
    has written and closed its files before it returned."""
    gc.freeze()
    sys.exit(code)


def _tolerant_output() -> None:
    """Paths and messages may hold characters the terminal's encoding lacks (or undecodable
    file names): escape them rather than fail."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """After a broken pipe, later writes (and the interpreter's final flush) must not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
