"""gdef-run: play a game defined in .gdef files, in the terminal or from a move script.

Thin on purpose: the game API (gdef_core.runtime) does the work; this module parses arguments,
reads lines, prints. Exit codes: 0 the game reached its end; 1 the definition has errors (or
setup() failed); 2 bad arguments, unreadable files or a record that does not replay; 3 the
moves ran out before the end (the record is saved); 4 an internal error (a bug in gdef).
"""
from __future__ import annotations

import argparse
import io
import os
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from functools import partial
from typing import TextIO

from gdef_core.cli import move_entry
from gdef_core.cli.common import guarded, positive, whole_number
from gdef_core.codes import DEFAULT_MAX_ERRORS
from gdef_core.files import read_text
from gdef_core.testing.assertions import is_assertion

EXIT_OVER, EXIT_DEFINITION, EXIT_USAGE, EXIT_UNFINISHED, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_ASSERTION = 5  # a `?` line of --moves did not hold
PROG = "gdef-run"
MAX_DEPTH_LIMIT = 100_000

HELP = """\
Moves: place(x,y,OBJ) puts OBJ on square (x, y); clear(x,y) empties it; several operations
are joined with ';' (clear(0,0); place(1,1,X)); pass is the empty move.
Commands: help (this text), moves (list the legal moves, numbered; 'moves 3,1' only those
touching square 3,1), a number (play that move of the list), hint (ask the computer for a move;
'hint 10' lets it think 10 seconds), undo (take back the last move), save FILE (write the game
record), quit (save the record and stop)."""


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Play a game defined in .gdef files: interactively, or from a move script.",
        epilog="Exit codes: 0 the game ended; 1 the definition has errors; 2 bad arguments or "
               "unreadable files; 3 the moves ran out before the end (the record is saved); "
               "4 an internal error. Docs: docs/runtime.md.")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="the game's .gdef files (with --resume: default the record's files)")
    parser.add_argument("--moves", metavar="FILE",
                        help="play the moves of FILE ('-' for stdin), one per line; '#' starts a comment")
    parser.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    parser.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")
    parser.add_argument("--no-color", action="store_true", help="never colour the board")
    parser.add_argument("--y-down", action="store_true",
                        help="draw row y = 0 at the top (default: at the bottom)")
    parser.add_argument("--max-steps", type=positive, default=None, metavar="N",
                        help="loop iterations plus calls allowed per call of the rules (default 5,000,000)")
    parser.add_argument("--max-depth", type=positive, default=None, metavar="N",
                        help=f"nested recursive calls allowed (default 500, at most {MAX_DEPTH_LIMIT:,})")
    parser.add_argument("--max-errors", type=whole_number(0), default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"show at most N syntax errors per file (default {DEFAULT_MAX_ERRORS}; 0: all)")
    parser.add_argument("--player", action="append", default=[], metavar="N=AGENT",
                        help="let the computer play player N: random, greedy, mcts, "
                             "mcts:iterations=2000, mcts:time=1 (repeatable; others are people)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the computer players (default: a random one, printed)")
    parser.add_argument("--perft", type=whole_number(0), default=None, metavar="DEPTH",
                        help="print the number of move sequences to each depth, then stop")
    parser.add_argument("--backend", choices=("python", "native"), default="python",
                        help="who counts for --perft: python (default) or native (compiled with "
                             "numba, gdef[fast]; falls back to python with a notice)")
    parser.add_argument("--protocol", action="store_true",
                        help="speak the bot protocol (JSON lines) on stdin/stdout instead of "
                             "playing in the terminal (docs/protocol.md)")
    parser.add_argument("--web", action="store_true",
                        help="play on a board page in the browser, served on 127.0.0.1 (docs/web.md)")
    parser.add_argument("--port", type=whole_number(0), default=None, metavar="N",
                        help="with --web: the port to serve on (default: a free one, printed)")
    parser.add_argument("--no-browser", action="store_true",
                        help="with --web: print the page's address without opening a browser")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; exits with the exit code. `prog`: the name in usage
    lines (`gdef run` when the gdef command runs this one)."""
    _stop_on_signals()
    sys.exit(guarded(prog, partial(run, prog=prog), argv, interrupted=EXIT_UNFINISHED, internal=EXIT_INTERNAL,
                     broken_pipe=EXIT_USAGE, interrupted_message="\nInterrupted.\n"))


def run(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None, prog: str = PROG) -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    check_modes(parser, args)
    runner = Runner(args, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    return runner.run()


# The ways of playing, one a run; --web also takes --moves: the board opens the script (docs/web.md).
MODES = ("--web", "--protocol", "--perft", "--moves")


def check_modes(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (usage error, exit 2) options that would otherwise be silently ignored: two ways
    of playing at once, and the options of a way that was not chosen."""
    given = (args.web, args.protocol, args.perft is not None, args.moves is not None)
    clashing = [flag for flag, on in zip(MODES, given) if on and not (flag == "--moves" and args.web)]
    if len(clashing) > 1:
        parser.error(f"{', '.join(clashing[:-1])} and {clashing[-1]} cannot be used together: a run plays one way, "
                     f"{', '.join(MODES[:-1])} or {MODES[-1]} (--web may take --moves, to open the "
                     "script on the board)")
    for option, given_ in (("--port", args.port is not None), ("--no-browser", args.no_browser)):
        if given_ and not args.web:
            parser.error(f"{option} is an option of the browser board: add --web, or leave {option} out")
    if args.perft is not None:
        for option, given_ in (("--record", args.record is not None), ("--player", bool(args.player))):
            if given_:
                parser.error(f"--perft only counts moves and plays no game, so {option} would do "
                             f"nothing: leave {option} out")


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: the game stops as on Ctrl-C, its record saved."""


def _stop_on_signals() -> None:
    import signal

    def stop(number, frame):
        raise Terminated(signal.Signals(number).name)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


class Runner:
    def __init__(self, args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.args = args
        self.stdin, self.out, self.err = stdin, stdout, stderr
        self.color = not args.no_color and _is_terminal(stdout) and not os.environ.get("NO_COLOR")
        self.session = None
        self.input_line = 0
        self.computers = None  # gdef_core.play.opponents.ComputerPlayers
        self.record_failed = False

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def complain(self, text: str) -> None:
        self.err.write(text + "\n")
        self.err.flush()

    # ------------------------------------------------------------ starting

    def run(self) -> int:
        args = self.args
        if args.max_depth is not None and args.max_depth > MAX_DEPTH_LIMIT:
            self.complain(f"{PROG}: error: --max-depth {args.max_depth} is more than {MAX_DEPTH_LIMIT:,}")
            return EXIT_USAGE
        record = None
        if args.resume:
            from gdef_core.runtime.session import RecordError, load_record
            try:
                record = load_record(args.resume)
            except RecordError as error:
                self.complain(f"{PROG}: error: {error}")
                return EXIT_USAGE
        files = list(args.files) or (record["files"] if record else [])
        if not files:
            self.complain(f"{PROG}: error: name the game's .gdef files (for example: {PROG} examples/tictactoe.gdef)")
            return EXIT_USAGE
        loaded = self.load(files)
        if isinstance(loaded, int):
            return loaded
        game = loaded
        from gdef_core.runtime.errors import GdefRuntimeError
        from gdef_core.runtime.session import RecordError, Session
        try:
            state = game.new_state()
        except GdefRuntimeError as error:
            self.complain("setup() failed, so the game cannot start:")
            self.show_error(error, game)
            return EXIT_DEFINITION
        self.session = Session(game, files, state)
        if record is not None:
            if record.get("game") != game.name:
                self.complain(f"{PROG}: error: {args.resume} is a record of '{record.get('game')}', but these "
                              f"files define '{game.name}': name the record's own game files (or none)")
                return EXIT_USAGE
            try:
                self.session.resume(record)
            except RecordError as error:
                self.complain(f"{PROG}: error: {args.resume}: {error}")
                return EXIT_USAGE
        if args.record is not None and not self.prepare_record(args.record):
            return EXIT_USAGE
        if args.perft is not None:
            return self.perft(args.perft, args.backend)
        from gdef_core.play.errors import AgentSpecError
        from gdef_core.play.opponents import computer_players
        try:
            self.computers = computer_players(args.player, game.players, args.seed)
        except AgentSpecError as error:
            self.complain(f"{PROG}: error: --player {error}")
            return EXIT_USAGE
        if args.protocol:
            return self.protocol()
        if self.computers:
            self.say(f"Computer players: {', '.join(f'{p} = {self.computers.label(p)}' for p in sorted(self.computers.specs))} "
                     f"(seed {self.computers.seed}).")
        try:
            if args.web:
                from gdef_core.web.server import serve
                return serve(self)
            if args.moves is not None:
                return self.scripted(args.moves)
            return self.interactive()
        except KeyboardInterrupt as signal_:
            self.say()
            return self.stop(f"stopped by {signal_}" if isinstance(signal_, Terminated) else "interrupted")
        except Exception:
            self.rescue()
            raise

    def load(self, files: list[str]):
        """The Game, or an exit code after printing why there is none."""
        from gdef_core.loader import GdefFileError, load_program
        from gdef_core.runtime.errors import GameLoadError
        from gdef_core.runtime.game import DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, game_from_program

        try:
            program = load_program(files)
        except GdefFileError as error:
            self.complain(f"{PROG}: error: {error}")
            return EXIT_USAGE
        try:
            return game_from_program(program, max_steps=self.args.max_steps or DEFAULT_MAX_STEPS,
                                     max_depth=self.args.max_depth or DEFAULT_MAX_DEPTH)
        except GameLoadError as error:
            self.report_definition(program, error)
            return EXIT_DEFINITION

    def report_definition(self, program, error) -> None:
        """The definition's problems, printed as gdef-check prints them."""
        from gdef_core.project import InputProblem
        from gdef_core.report import Report, render_text
        from gdef_core.report.limit import limit_syntax_errors

        diagnostics = limit_syntax_errors(error.diagnostics, self.args.max_errors)
        files = [module.path for module in program.modules]
        problems = []
        if not any(d.is_error for d in diagnostics):  # a library given as a game: the error is the file's
            self.complain(f"{PROG}: error: {error}")
            problems = [InputProblem(" ".join(files), str(error))]
        sources = {module.path: module.text for module in program.modules}
        report = Report(diagnostics, files, sources, problems)
        self.err.write(render_text(report, color=self.color and _is_terminal(self.err)))
        if problems:
            self.complain("The game cannot run: name the file that declares the game, with its `use`d files.")
        else:
            self.complain("The game cannot run until these errors are fixed (gdef-check shows them too).")

    def show_error(self, error, game) -> None:
        """A run-time error as gdef-check shows a diagnostic: location, source line, caret."""
        from gdef_core.report.text import SourceLines, Style, render_diagnostic

        sources = {module.path: module.text for module in game.program.modules}
        style = Style(self.color and _is_terminal(self.err))
        self.err.write(render_diagnostic(error.as_diagnostic(), SourceLines(sources), style) + "\n")

    # ------------------------------------------------------------ scripted

    def scripted(self, path: str) -> int:
        if path == "-":
            lines, name = self.stdin, "<stdin>"
        else:
            try:
                handle = io.StringIO(read_text(path))
            except OSError as error:
                self.complain(f"{PROG}: error: {path}: cannot read the moves: {error.strerror or error}")
                return EXIT_USAGE
            lines, name = handle, path
        session = self.session
        failed = 0
        try:
            for number, line in enumerate(lines, 1):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                if not self.computer_turns():
                    return self.stop("the computer player could not move")
                if is_assertion(text):
                    failed += not self.check_assertion(text, name, number)
                    continue
                if session.state.is_over:
                    self.complain(f"{name}:{number}: the game is over; this line and the ones after it are ignored")
                    break
                played = session.play(text, number)
                if played.accepted:
                    self.say(f"{len(session.moves)}. player {played.player}: {played.text}")
                else:
                    self.complain(f"{name}:{number}: rejected '{text}' (player {played.player}): "
                                  f"{played.verdict.reason}")
                    self.show_stack(played.verdict)
                self.autosave()
            if not self.computer_turns():
                return self.stop("the computer player could not move")
        finally:
            if lines is not self.stdin:
                lines.close()
        code = self.finish()
        if failed:
            self.complain(f"{failed} assertion{'s' if failed > 1 else ''} of {name} failed.")
            return EXIT_ASSERTION
        return code

    def check_assertion(self, text: str, name: str, number: int) -> bool:
        """A `?` line of --moves (gdef_core.testing.assertions): checked, never played."""
        from gdef_core.runtime.errors import GdefRuntimeError
        from gdef_core.testing.assertions import AssertionSyntaxError, evaluate, parse_assertion

        try:
            outcome = evaluate(parse_assertion(text, number), self.session.state)
        except AssertionSyntaxError as error:
            self.complain(f"{name}:{number}:{error.column + 1}: cannot read the assertion '{text}': {error.message}")
            return False
        except GdefRuntimeError as error:
            self.complain(f"{name}:{number}: the rules failed while checking '{text}':")
            self.show_error(error, self.session.game)
            return False
        if not outcome.passed:
            self.complain(f"{name}:{number}: assertion failed: {text}\n  expected: {outcome.expected}\n"
                          f"  actual:   {outcome.actual}")
        return outcome.passed

    # ------------------------------------------------------------ interactive

    def interactive(self) -> int:
        session = self.session
        game = session.game
        self.say(f"{game.name}: {game.players} player{'s' if game.players > 1 else ''}, "
                 f"{game.width}x{game.height} board; x runs left to right, y "
                 f"{'top to bottom' if self.args.y_down else 'bottom to top'}. Type 'help' for help.")
        self.draw()
        while not session.state.is_over:
            player = session.state.current_player
            if self.computers.plays(player):
                if not self.computer_move():
                    return self.stop("the computer player could not move")
                self.draw()
                continue
            used = session.objects_used(player)
            played_with = (f"has played {', '.join(used)}" if used else
                           f"has not placed anything yet; objects: {', '.join(game.objects)}")
            self.say(f"Player {player} to move ({played_with}).")
            line = self.read_line(f"player {player}> ")
            if line is None:
                self.say()
                return self.stop("end of input")
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if word == "help":
                self.say(HELP)
            elif word == "quit":
                return self.stop("quit")
            elif word == "undo":
                if self.take_back():
                    self.say("Took back the last move.")
                    self.autosave()
                    self.draw()
                else:
                    self.say("There is no move to take back.")
            elif word == "save":
                self.save_command(rest.strip())
            elif word == "moves":
                self.list_moves(rest.strip())
            elif word == "hint":
                self.hint(rest.strip())
            elif move_entry.is_move_number(text):
                self.play_number(int(text))
            else:
                self.move(text)
        return self.finish()

    def read_line(self, prompt: str) -> str | None:
        if _is_terminal(self.stdin) and self.stdin is sys.stdin and self.out is sys.stdout:
            try:
                line = input(prompt)
            except EOFError:
                return None
        else:
            self.out.write(prompt)
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                return None
            self.out.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        self.input_line += 1
        return line

    def move(self, text: str) -> None:
        played = self.session.play(text, self.input_line)
        if played.accepted:
            self.autosave()
            self.draw()
        else:
            self.say(f"Rejected: {played.verdict.reason}")
            self.show_stack(played.verdict, self.out)
            self.say("Try another move ('help' explains how to write one).")

    def legal_moves(self) -> list | None:
        """The legal moves here, or None after showing the run-time error of the rules."""
        from gdef_core.runtime.errors import GdefRuntimeError

        try:
            return self.session.state.legal_moves()
        except GdefRuntimeError as error:
            self.say("The legal moves cannot be listed: the rules failed.")
            self.show_error(error, self.session.game)
            return None

    def list_moves(self, square_text: str) -> None:
        square = None
        if square_text:
            square = move_entry.parse_square(square_text)
            if square is None:
                self.say(f"'{square_text}' is not a square: write 'moves' or, say, 'moves 3,1'.")
                return
        legal = self.legal_moves()
        if legal is not None:
            width = shutil.get_terminal_size((100, 24)).columns if _is_terminal(self.out) else 100
            self.say(move_entry.format_listing(move_entry.listing(legal, square), width))

    def play_number(self, number: int) -> None:
        legal = self.legal_moves()
        if legal is None:
            return
        if not 1 <= number <= len(legal):
            self.say(f"There is no move {number}: {self._count(legal)} here. "
                     "Type 'moves' to list them.")
            return
        self.say(f"Move {number}: {legal[number - 1]}")
        self.move(str(legal[number - 1]))

    def hint(self, budget_text: str) -> None:
        from gdef_core.play.errors import AgentError
        from gdef_core.runtime.errors import GdefRuntimeError

        seconds = move_entry.hint_budget(budget_text)
        if isinstance(seconds, str):
            self.say(seconds.capitalize())
            return
        legal = self.legal_moves()
        if legal is None:
            return
        if not legal:
            self.say("There is no legal move to suggest.")
            return
        seed = (self.args.seed or 0) * 1_000_003 + len(self.session.moves)
        self.say(f"Thinking for up to {seconds:g} s ...")
        try:
            found = move_entry.hint(self.session.state, legal, seconds, seed)
        except (AgentError, GdefRuntimeError) as error:
            self.say("No hint: the rules failed while the computer searched.")
            if isinstance(error, GdefRuntimeError):
                self.show_error(error, self.session.game)
            return
        self.say(f"Hint: {found.move}  (move {found.number} of {len(legal)}; type {found.number} to play it; "
                 f"mcts, {found.iterations:,} playouts in {found.seconds:.1f} s)")

    @staticmethod
    def _count(legal: list) -> str:
        return f"{len(legal)} legal move{'s' if len(legal) != 1 else ''}"

    def save_command(self, path: str) -> None:
        if not path:
            self.say("Usage: save FILE")
            return
        try:
            self.session.save(path)
        except OSError as error:
            self.say(f"Cannot save to {path}: {error.strerror or error}")
            return
        self.say(f"Saved the game record to {path}.")

    # ------------------------------------------------------------ computer players and perft

    def computer_turns(self) -> bool:
        """The computer moves while one of its players is on turn; False when it cannot."""
        while not self.session.state.is_over and self.computers.plays(self.session.state.current_player):
            if not self.computer_move():
                return False
        return True

    def computer_move(self) -> bool:
        """One move of the computer for the player on turn; False (after saying why) when it
        has no legal move or its move fails at run time."""
        from gdef_core.play.errors import AgentError
        from gdef_core.runtime.errors import GdefRuntimeError

        session = self.session
        player = session.state.current_player
        try:
            move = self.computers.choose(session.state)
        except AgentError as error:
            self.complain(f"Player {player} ({self.computers.label(player)}): {error}")
            return False
        except GdefRuntimeError as error:  # moves() failed
            self.complain(f"Player {player} ({self.computers.label(player)}) cannot choose a move:")
            self.show_error(error, session.game)
            return False
        played = session.play(str(move), self.input_line)
        if not played.accepted:
            self.complain(f"Player {player} ({self.computers.label(player)}) played {move}, "
                          f"which was rejected: {played.verdict.reason}")
            self.show_stack(played.verdict)
            return False
        self.say(f"{len(session.moves)}. player {player} ({self.computers.label(player)}): {move}")
        self.autosave()
        return True

    def take_back(self) -> bool:
        """Undo the last move, and the computer's moves before it, so that a person is on turn
        again (against the computer, `undo` takes back the person's last move)."""
        session = self.session
        if not session.undo():
            return False
        while self.computers.plays(session.state.current_player) and session.moves:
            if not self.computers.everyone(session.game.players):
                session.undo()
            else:
                break
        return True

    def perft(self, depth: int, backend: str = "python") -> int:
        """`--perft DEPTH`: the number of move sequences of each length from the position."""
        from gdef_core.play.perft import perft
        from gdef_core.runtime.errors import GdefRuntimeError

        if backend == "native":
            from gdef_core.native import NativeRules
            native = NativeRules.load(self.session.game, self.complain)
            perft = native.perft if native is not None else perft
        started = time.perf_counter()
        try:
            counts = perft(self.session.state, depth)
        except GdefRuntimeError as error:
            self.complain("moves() failed while counting:")
            self.show_error(error, self.session.game)
            return EXIT_DEFINITION
        for level, count in enumerate(counts, 1):
            self.say(f"depth {level}: {count}")
        seconds = time.perf_counter() - started
        self.complain(f"perft {depth}: {sum(counts)} moves in {seconds:.2f} s")
        return EXIT_OVER

    # ------------------------------------------------------------ output and endings

    def draw(self) -> None:
        from gdef_core.runtime.render import render_board

        game = self.session.game
        state = self.session.state
        self.say(render_board(state.board, list(game.objects), color=self.color,
                              y_down=self.args.y_down, scores=state.scores))

    def show_stack(self, verdict, stream: TextIO | None = None) -> None:
        error = verdict.error
        if error is not None and len(error.stack) > 1:
            stream = stream or self.err
            for line in str(error).split("\n")[1:]:
                stream.write(line + "\n")
            stream.flush()

    def finish(self) -> int:
        state = self.session.state
        if not state.is_over:
            return self.stop("the moves ran out")
        if self.args.moves is not None:
            self.draw()
        self.say("Draw." if state.winner is None else f"Player {state.winner} wins.")
        if self.args.record:
            self.save_to(self.args.record)
        return EXIT_OVER

    def stop(self, why: str) -> int:
        """The game stops before its end: keep the record (nothing is lost) and exit 3."""
        session = self.session
        message = f"Stopped ({why}) before the game ended, after {len(session.moves)} move(s)."
        path = self.keep_record()
        if path is not None:
            message += f" The record is in {path}; continue with: {PROG} --resume {shlex.quote(path)}"
        self.complain(message)
        return EXIT_UNFINISHED

    def rescue(self) -> None:
        """An internal error: the moves played so far are saved all the same."""
        if self.session is not None:
            path = self.keep_record()
            if path is not None:
                self.complain(f"The moves so far are saved in {path}.")

    def keep_record(self) -> str | None:
        """Save the record to --record, or (without one, or when it cannot be written) to a new
        file of the temporary folder, never into the project; the path written, or None."""
        session = self.session
        if self.args.record is not None and self.save_to(self.args.record):
            return self.args.record
        if not (session.moves or session.rejected):
            return None
        handle, path = tempfile.mkstemp(prefix=f"gdef-run-{_safe(session.game.name)}-{time.strftime('%Y%m%d-%H%M%S')}-",
                                        suffix=".json")
        os.close(handle)
        if self.args.record is not None:
            self.complain(f"{PROG}: the record goes to {path} instead")
        return path if self.save_to(path) else None

    def prepare_record(self, path: str) -> bool:
        """--record names a regular file (or a new one); an existing record that is not the
        one being resumed is kept as PATH.~N~ rather than overwritten."""
        from gdef_core.files import stat_regular

        if not os.path.exists(path):  # a new file (or a symbolic link to one)
            return True
        try:
            stat_regular(path)
        except OSError as error:
            self.complain(f"{PROG}: error: --record {path}: {error.strerror or error}")
            return False
        if self.args.resume is not None and os.path.realpath(self.args.resume) == os.path.realpath(path):
            return True
        backup = _backup_name(path)
        try:
            os.replace(os.path.realpath(path), backup)
        except OSError as error:
            self.complain(f"{PROG}: error: --record {path} exists and cannot be kept as {backup}: "
                          f"{error.strerror or error}")
            return False
        self.complain(f"{PROG}: {path} already existed: it is kept as {backup}")
        return True

    def save_to(self, path: str) -> bool:
        try:
            self.session.save(path)
            return True
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or error
            self.complain(f"{PROG}: error: cannot write the record to {path}: {reason}")
            return False

    def protocol(self) -> int:
        """--protocol: answer bot-protocol requests (gdef_core.play.protocol) until `quit`; the
        engine behind `go` is the --player agent of the player on turn, else random."""
        from gdef_core.play.agents import RandomAgent
        from gdef_core.play.protocol import ProtocolServer
        from gdef_core.runtime.session import Session

        game, files, computers = self.session.game, self.session.files, self.computers
        fallback = RandomAgent(computers.seed)

        def choose(state):
            return (computers.choose(state) if computers.plays(state.current_player)
                    else fallback.choose(state))

        def new_session(state=None):
            return Session(game, files, state if state is not None else game.new_state())

        def changed(session) -> None:
            self.session = session
            self.autosave()

        server = ProtocolServer(new_session, choose, changed)
        server.session = self.session   # the resumed game, if any
        return server.serve(self.stdin, self.out)

    def autosave(self) -> None:
        """After each move; a --record that cannot be written is said once (stop() then
        saves to the temporary folder instead)."""
        if self.args.record and not self.record_failed:
            self.record_failed = not self.save_to(self.args.record)


def _safe(name: str) -> str:
    """A game name fit for a file name."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "game"


def _backup_name(path: str) -> str:
    """PATH.~N~ with the first N not taken (GNU cp's numbered backups)."""
    number = 1
    while os.path.lexists(f"{path}.~{number}~"):
        number += 1
    return f"{path}.~{number}~"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    main()
