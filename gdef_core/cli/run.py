"""gdef-run: play a game defined in .gdef files, in the terminal or from a move script.

Thin on purpose: the game being played is a gdef_core.controller PlaySession (moves, records,
computer players, scripts); this module parses arguments, reads lines, prints. Exit codes (the
controller's): 0 the game reached its end; 1 the definition has errors (or setup() failed); 2 bad
arguments, unreadable files or a record that does not replay; 3 the moves ran out before the end
(the record is saved); 4 an internal error (a bug in gdef); 5 a `?` line of --moves failed.
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TextIO

from gdef_core.cli import move_entry
from gdef_core.cli.common import (add_param_option, add_version, exit_without_teardown, guarded, param_values, positive,
                                  seconds, whole_number)
from gdef_core.cli.completion import completions
from gdef_core.cli.prompt import QUIT_WORDS, Prompt
from gdef_core.codes import DEFAULT_MAX_ERRORS
from gdef_core.controller.play_session import (EXIT_INTERNAL, EXIT_UNFINISHED, EXIT_USAGE, MAX_DEPTH_LIMIT, PROG,
                                               PlayOptions, PlaySession, stop_on_signals)
from gdef_core.files import read_text
from gdef_core.play.mcts import DEFAULT_THINK_SECONDS
from gdef_core.play.no_move import refusals
from gdef_core.runtime.errors import GdefRuntimeError

HELP = """\
Moves: by name, as 'moves' lists them (e2e4, D4, pass; the only move to a square also by that
square: e4), or as operations: place(x,y,OBJ) puts OBJ on square (x, y); clear(x,y) empties
it; count(x,y,N) sets its count to N (in a game whose squares count); several operations are
joined with ';' (clear(0,0); place(1,1,X)); pass is the empty move.
When chance moves next (a die, a draw), Enter rolls (with --seed the same rolls every time), or
type one of its outcomes ('moves' lists them).
Commands:
  help            this text
  moves [SQUARE]  list the legal moves, numbered (only those touching SQUARE: 3,1 or e2;
                  at most 400: a bigger board's others by SQUARE or by number)
  board [SQUARE]  draw the board again (a board bigger than 26x26 is drawn around the last
                  move, or around SQUARE; 'board all' draws every square)
  NUMBER          play that move of the list
  hint [SECONDS]  ask the computer for a move (it thinks as long as --think, 2 s by default,
                  or SECONDS, at most 60)
  objects         list the game's objects (pieces), by side
  undo            take back the last move
  save FILE       write the game record to FILE (a file there is kept as FILE.~1~)
  quit, exit, q   save the record and stop (Ctrl-D too)
Up and down recall earlier lines, kept across runs; Tab completes commands and legal moves."""


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
    parser.add_argument("--ascii", action="store_true",
                        help="draw pieces by their object names, not their glyphs (the default when "
                             "the output's encoding cannot show the glyphs)")
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
                             "mcts:time=5, mcts:iterations=2000 (repeatable; others are people)")
    parser.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                        help=f"how long a plain mcts player thinks a move, and `hint` by default "
                             f"(default {DEFAULT_THINK_SECONDS:g}; mcts:time=S or mcts:iterations=N "
                             "set one player's budget)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the computer players and of chance's outcomes (default: a random one, printed)")
    add_param_option(parser)
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
    add_version(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; exits with the exit code. `prog`: the name in usage
    lines (`gdef run` when the gdef command runs this one)."""
    stop_on_signals()
    code = guarded(prog, partial(run, prog=prog), argv, interrupted=EXIT_UNFINISHED, internal=EXIT_INTERNAL,
                   broken_pipe=EXIT_USAGE, interrupted_message="\nInterrupted.\n")
    if argv is None:  # the process's own command: a big board's candidates are left to the system
        exit_without_teardown(code)
    sys.exit(code)


def run(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None, prog: str = PROG) -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    check_modes(parser, args)
    runner = Runner(args, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    return runner.run()


FEW_OBJECTS = 4  # a game of more objects names them on `objects`, not before every move

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
        for option, given_ in (("--record", args.record is not None), ("--player", bool(args.player)),
                               ("--think", args.think is not None)):
            if given_:
                parser.error(f"--perft only counts moves and plays no game, so {option} would do "
                             f"nothing: leave {option} out")


class Console:
    """The terminal as gdef-run's Reporter: the game's course on stdout, problems on stderr,
    errors and diagnostics as gdef-check prints them, the board in colour on a terminal."""

    def __init__(self, stdout: TextIO, stderr: TextIO, color: bool, y_down: bool,
                 max_errors: int = DEFAULT_MAX_ERRORS, ascii_only: bool = False) -> None:
        self.out, self.err = stdout, stderr
        self.color, self.y_down, self.ascii_only = color, y_down, ascii_only
        self.max_errors = max_errors  # syntax errors shown per file (gdef_core.report.limit)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def complain(self, text: str) -> None:
        self.err.write(text + "\n")
        self.err.flush()

    def show_error(self, error, game) -> None:
        """A run-time error as gdef-check shows a diagnostic: location, source line, caret."""
        from gdef_core.report.text import SourceLines, Style, render_diagnostic

        sources = {module.path: module.text for module in game.program.modules}
        style = Style(self.color and _is_terminal(self.err))
        self.err.write(render_diagnostic(error.as_diagnostic(), SourceLines(sources), style) + "\n")

    def show_definition(self, program, error) -> None:
        """The definition's problems, printed as gdef-check prints them."""
        from gdef_core.project import InputProblem
        from gdef_core.report import Report, render_text
        from gdef_core.report.limit import limit_syntax_errors

        diagnostics = limit_syntax_errors(error.diagnostics, self.max_errors)
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

    def show_board(self, session, around: tuple[int, int] | None = None, whole: bool = False) -> None:
        """The board with the game's labels, its glyphs coloured by side (object names with
        --ascii, or when the output's encoding cannot carry the glyphs). A board too big to
        read is drawn around `around` (by default the last move's square), with a line on
        what is shown; `whole` draws every square."""
        from gdef_core.runtime.render import can_show, render_board, window_around

        state, shown, game = session.state, session.game.presentation, session.game
        plain = self.ascii_only or not can_show(shown, getattr(self.out, "encoding", None))
        focus = around if around is not None else session.last_square()
        window = None if whole else window_around(game.width, game.height, focus)
        self.say(render_board(state.board, list(game.objects), color=self.color, y_down=self.y_down,
                              scores=state.scores, presentation=shown, ascii=plain, window=window))
        if window is not None:
            xs, ys = window
            where = ("from its corner" if focus is None else "around the last move" if around is None
                     else f"around {shown.square(*focus)}")
            self.say(f"Columns {shown.columns[xs[0]]}-{shown.columns[xs[-1]]}, rows {shown.rows[ys[0]]}-"
                     f"{shown.rows[ys[-1]]} of the {game.width}x{game.height} board, {where}; 'board SQUARE' "
                     "draws around a square (3,1 or e2), 'board all' the whole board.")


# Automatic candidates (squares x objects) up to which gdef-run looks for a stuck player before
# a move is typed (0.1 s at most); beyond, only once a move is refused.
CHEAP_STUCK_CHECK = 100_000


class Runner:
    """gdef-run's terminal side: starts the PlaySession, then plays it the chosen way (the
    interactive prompt here; a script, the board page or the bot protocol elsewhere)."""

    def __init__(self, args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.args = args
        self.stdin, self.out = stdin, stdout
        color = not args.no_color and _is_terminal(stdout) and not os.environ.get("NO_COLOR")
        self.console = Console(stdout, stderr, color, args.y_down, args.max_errors, args.ascii)
        self.play: PlaySession | None = None
        self.input_line = 0
        self.prompt: Prompt | None = None  # made at the first line read at a terminal
        self.script: Iterable[str] = ()  # --moves: the script's lines (open_script)
        self.stuck_checked: tuple[str, ...] | None = None  # the moves to the position warn_if_stuck() saw

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def complain(self, text: str) -> None:
        self.console.complain(text)

    def run(self) -> int:
        args = self.args
        options = PlayOptions(files=list(args.files), record=args.record, resume=args.resume, players=args.player,
                              seed=args.seed, max_steps=args.max_steps, max_depth=args.max_depth,
                              params=param_values(args.param), think=args.think)
        if args.moves is not None:
            problem = self.open_script(args.moves, options)
            if problem is not None:
                return problem
        play = PlaySession.start(options, self.console)
        if isinstance(play, int):
            return play
        self.play = play
        if args.perft is not None:
            return play.perft(args.perft, args.backend)
        if args.protocol:
            from gdef_core.play.protocol import ProtocolServer

            return ProtocolServer(play).serve(self.stdin, self.out)
        computers = play.computers
        if computers:
            self.say(f"Computer players: {', '.join(f'{p} = {computers.label(p)}' for p in sorted(computers.specs))} "
                     f"(seed {computers.seed}).")
        elif play.game.rules.raw_chance is not None:
            self.say(f"Chance's outcomes are drawn with seed {computers.seed} (--seed {computers.seed} repeats them).")
        if args.web:
            from gdef_core.web.server import serve

            return play.guard(lambda: serve(play, args, self.stdin))
        if args.moves is not None:
            return play.guard(lambda: self.scripted(args.moves))
        return play.guard(self.interactive)

    def open_script(self, path: str, options: PlayOptions) -> int | None:
        """--moves FILE: read its header before the game is loaded, which is loaded with the
        values of its `# param:` lines (testing.scripts.script_params); an exit code when FILE
        cannot be read or its parameters clash with --param. Standard input's lines after the
        header are read as the game goes (the board page reads them all)."""
        from gdef_core.testing.scripts import TestFileError, script_params
        from gdef_core.testing.start_header import read_ahead

        name = "<stdin>" if path == "-" else path
        try:
            if path == "-" and not self.args.web:
                head, self.script = read_ahead(self.stdin)
            else:
                text = self.stdin.read() if path == "-" else read_text(path)
                head, self.script = [text], io.StringIO(text)
                if path == "-":
                    self.stdin = io.StringIO(text)  # the board page reads the script from it
        except OSError as error:
            self.complain(f"{PROG}: error: {path}: cannot read the moves: {error.strerror or error}")
            return EXIT_USAGE
        try:
            options.params, options.script_params = script_params(name, "".join(head), options.params, "--param")
        except TestFileError as error:
            self.complain(f"{PROG}: error: {error.where}: {error.message}")
            return EXIT_USAGE
        options.script = name
        return None

    def scripted(self, path: str) -> int:
        return self.play.run_script(self.script, "<stdin>" if path == "-" else path)

    # ------------------------------------------------------------ interactive

    def interactive(self) -> int:
        play = self.play
        game = play.game
        many = "" if len(game.objects) <= FEW_OBJECTS else f", 'objects' for its {len(game.objects)} objects"
        self.say(f"{game.name}: {game.players} player{'s' if game.players > 1 else ''}, "
                 f"{game.width}x{game.height} board; x runs left to right, y "
                 f"{'top to bottom' if self.args.y_down else 'bottom to top'}. Type 'help' for help{many}.")
        self.draw()
        while not play.session.state.is_over:
            player = play.session.state.current_player
            chance = play.session.state.is_chance_node
            if play.computers.plays(player):
                if chance and not play.roll(self.input_line):
                    return play.stop(play.roll_failure)
                if not chance and not play.computer_move(self.input_line):
                    return play.stop("the computer player could not move")
                self.draw()
                continue
            if chance:  # a person waits for it: Enter rolls, an outcome typed is played
                self.say(f"Chance moves before {play.who(player)}: press Enter to roll, or type an outcome "
                         "('moves' lists them).")
            else:
                self.warn_if_stuck()
                self.say(f"{play.who(player, True)} to move{self.objects_hint(player)}.")
            line = self.read_line("roll> " if chance else f"{play.who(player)}> ")
            if line is None:
                self.say()
                return play.stop("end of input")
            text = line.split("#", 1)[0].strip()
            if not text:
                if chance:
                    if not play.roll(self.input_line):
                        return play.stop(play.roll_failure)
                    self.draw()
                continue
            word, _, rest = text.partition(" ")
            if word == "help":
                self.say(HELP)
            elif word == "objects":
                self.say(self.objects_listing())
            elif word in QUIT_WORDS:
                return play.stop("quit")
            elif word == "undo":
                if play.take_back():
                    self.say("Took back the last move.")
                    self.draw()
                else:
                    self.say("There is no move to take back.")
            elif word == "save":
                self.save_command(rest.strip())
            elif word == "moves":
                self.list_moves(rest.strip())
            elif word == "board":
                self.board_command(rest.strip())
            elif word == "hint":
                self.hint(rest.strip())
            elif move_entry.is_move_number(text):
                self.play_number(int(text))
            else:
                self.move(text)
        return play.finish()

    def warn_if_stuck(self, refused: bool = False) -> None:
        """Once per position: a player left without a legal move by rules whose end() goes on
        would otherwise type moves that are all refused without knowing why. Before a move is
        typed only where that is cheap (on a board of millions of automatic candidates, nearly
        full, finding the first legal one takes seconds), else once one is refused."""
        state = self.play.session.state
        key = tuple(played["move"] for played in self.play.session.moves)
        if key == self.stuck_checked:
            return
        game = state.game
        if not refused and game.rules.raw_moves is None and game.width * game.height * len(game.objects) > CHEAP_STUCK_CHECK:
            return
        self.stuck_checked = key
        try:
            if state.has_legal_move():
                return
        except GdefRuntimeError:
            return   # moves() fails: a move typed here reports it located
        why = refusals(state)
        who = self.play.who(state.current_player, True)
        if why is not None and why.first is not None:
            said = f"{who} has no legal move here: {why}; a move whose isMoveLegal() fails is refused."
        else:
            because = f" ({why})" if why is not None else ""
            said = (f"{who} has no legal move here{because}, yet end() did not end the game: the rules should "
                    "end it (or let the player pass).")
        self.say(f"{said} Type 'undo' to take back the last move, or 'quit'.")

    def objects_hint(self, player: int) -> str:
        """What the prompt's line says of the objects: in a game of a few objects (tic-tac-toe's
        X and O), those the player has used, else all of them; nothing in a game of many (chess:
        its twelve pieces would be a wall of names before every move; `objects` lists them)."""
        objects = self.play.game.objects
        if len(objects) > FEW_OBJECTS or not objects:  # none: a game of counts only (kalah)
            return ""
        used = self.play.session.objects_used(player)
        return f" (has played {', '.join(used)})" if used else \
            f" (has not placed anything yet; objects: {', '.join(objects)})"

    def objects_listing(self) -> str:
        """The `objects` command: the objects by side (the player they belong to), each with
        its glyph (when it is not the name itself) unless the board is drawn in ASCII."""
        from gdef_core.runtime.render import can_show

        game, play = self.play.game, self.play
        shown = game.presentation
        glyphs = not self.args.ascii and can_show(shown, getattr(self.out, "encoding", None))
        sides: dict[int | None, list[str]] = {}
        for name in game.objects:
            piece = shown.piece(name)
            drawn = glyphs and piece.glyph and piece.glyph != name
            sides.setdefault(piece.side, []).append(f"{name} {piece.glyph}" if drawn else name)
        lines = [f"  {play.who(side, True) if side is not None else 'Objects'}: {', '.join(names)}"
                 for side, names in sorted(sides.items(), key=lambda item: (item[0] is None, item[0] or 0))]
        return "\n".join(lines)

    def read_line(self, prompt: str) -> str | None:
        if _is_terminal(self.stdin) and self.stdin is sys.stdin and self.out is sys.stdout:
            if self.prompt is None:
                self.prompt = Prompt(self._completions)
            line = self.prompt.read(prompt)
            if line is None:
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

    def _completions(self, text: str) -> list[str]:
        """What Tab completes `text` to at the prompt: the legal moves' names and operations."""
        return completions(self.play.session.state, text)

    def move(self, text: str) -> None:
        played = self.play.play(text, self.input_line)
        if played.accepted:
            self.draw()
        else:
            self.say(f"Rejected: {played.verdict.reason}")
            self.play.show_stack(played, to_err=False)
            self.warn_if_stuck(refused=True)
            self.say("Try another move ('help' explains how to write one).")

    def list_moves(self, square_text: str) -> None:
        square = None
        if square_text:
            square = move_entry.parse_square(square_text, self.play.game.presentation)
            if square is None:
                self.say(f"'{square_text}' is not a square: write 'moves' or, say, 'moves {self.example_square()}'.")
                return
        legal = self.play.legal_ops()
        if legal is not None:
            width = shutil.get_terminal_size((100, 24)).columns if _is_terminal(self.out) else 100
            state = self.play.session.state
            found = move_entry.listing(legal, square)
            moves = state.moves_of([ops for _, ops in found.shown])
            # Named as in the whole list: a big board's first page without naming its millions.
            names = state.move_names(moves) if len(moves) == len(legal) else state.names_in_position(moves)
            weights = [weight for _, weight in state.chance_outcomes()] if state.is_chance_node else None
            self.say(move_entry.format_listing(found, names, width, weights))
            if not legal:
                why = refusals(state)
                if why is not None:
                    self.say(f"Why: {why}.")

    def example_square(self) -> str:
        """The name of a square of this board (its middle), for a message that shows how to
        write one."""
        game = self.play.game
        return game.presentation.square(game.width // 2, game.height // 2)

    def board_command(self, square_text: str) -> None:
        """`board`: the board again (around the last move when it is too big to read whole);
        `board all`: every square; `board SQUARE`: around that square."""
        if square_text in ("", "all"):
            self.console.show_board(self.play.session, whole=square_text == "all")
            return
        game = self.play.game
        square = move_entry.parse_square(square_text, game.presentation)
        if square is None or not (0 <= square[0] < game.width and 0 <= square[1] < game.height):
            self.say(f"'{square_text}' is not a square of the board: write 'board', 'board all' or, say, "
                     f"'board {self.example_square()}'.")
            return
        self.console.show_board(self.play.session, around=square)

    def play_number(self, number: int) -> None:
        legal = self.play.legal_ops()
        if legal is None:
            return
        if not 1 <= number <= len(legal):
            self.say(f"There is no move {number}: {_count(len(legal))} here. Type 'moves' to list them.")
            return
        state = self.play.session.state
        move = state.moves_of([legal[number - 1]])[0]
        self.say(f"Move {number}: {state.move_name(move)}")
        self.move(str(move))

    def hint(self, budget_text: str) -> None:
        seconds = move_entry.hint_budget(budget_text)
        if isinstance(seconds, str):
            self.say(seconds.capitalize())
            return
        seconds = seconds or self.play.computers.think
        if self.play.session.state.is_chance_node:
            self.say("Chance moves next: no move to suggest (press Enter to roll).")
            return
        legal = self.play.legal_ops()
        if legal is None:
            return
        if not legal:
            self.say("There is no legal move to suggest.")
            return
        self.say(f"Thinking for up to {seconds:g} s ...")
        found = self.play.hint(legal, seconds)
        if found is not None:
            self.say(f"Hint: {self.play.session.state.move_name(found.move)}  (move {found.number} of {len(legal):,}; type {found.number} to play it; "
                     f"mcts, {found.iterations:,} {found.engine} playouts in {found.seconds:.1f} s)")

    def save_command(self, path: str) -> None:
        if not path:
            self.say("Usage: save FILE")
            return
        try:
            backup = self.play.save(path)
        except (OSError, ValueError) as error:
            self.say(f"Cannot save to {path}: {getattr(error, 'strerror', None) or error}")
            return
        kept = f" (the file that was there is kept as {backup})" if backup else ""
        self.say(f"Saved the game record to {path}{kept}.")

    def draw(self) -> None:
        self.console.show_board(self.play.session)


def _count(count: int) -> str:
    return f"{count:,} legal move{'s' if count != 1 else ''}"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    main()
