"""One game being played, for whichever front end shows it: gdef-run's console, its board page
(`--web`) and its bot protocol (`--protocol`) all drive a PlaySession.

It owns what does not depend on how the game is shown: loading the game and resuming a record,
playing and taking back moves, the record (written after every move, kept when the game stops
early, backups instead of overwrites), the computer players, chance's outcomes (drawn from a
generator seeded by the run's seed, so `--seed` repeats them), hints, perft, move scripts with
their `?` assertions, and stopping cleanly on a signal. What it has to say goes through a
Reporter, which the front end supplies (the console prints it, in colour on a terminal).

Exit codes (gdef-run's): 0 the game reached its end; 1 the definition has errors (or setup()
failed); 2 bad arguments, unreadable files or a record that does not replay; 3 the game stopped
before its end (the record is saved); 4 an internal error; 5 a `?` line of a script failed.
"""
from __future__ import annotations

import os
import shlex
import signal
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from gdef_core.controller import records
from gdef_core.files import is_own
from gdef_core.runtime.errors import GdefRuntimeError
from gdef_core.runtime.session import Played, RecordError, Session, load_record, record_files

EXIT_OVER, EXIT_DEFINITION, EXIT_USAGE, EXIT_UNFINISHED, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_ASSERTION = 5
PROG = "gdef-run"
MAX_DEPTH_LIMIT = 100_000
HINT_PLAYOUT_CAP = 200   # moves; chess and Go playouts are long, and a hint must come quickly


class Reporter(Protocol):
    """What a front end shows of the game; PlaySession says everything through it."""

    def say(self, text: str = "") -> None:
        """The course of the game (moves played, results)."""

    def complain(self, text: str) -> None:
        """Problems: refused input, errors, where a record went."""

    def show_error(self, error: GdefRuntimeError, game) -> None:
        """A run-time error of the rules, located in the gdef source."""

    def show_definition(self, program, error) -> None:
        """The errors that keep a definition from running (gdef_core.runtime.errors.GameLoadError)."""

    def show_board(self, session: Session) -> None:
        """The position."""


@dataclass
class PlayOptions:
    """How a game is played, as gdef-run's options give it."""

    files: list[str] = field(default_factory=list)
    record: str | None = None       # --record: the record file, written after every move
    resume: str | None = None       # --resume: a record to continue (and, without --record, to go on writing)
    players: list[str] = field(default_factory=list)  # --player N=AGENT
    seed: int | None = None
    max_steps: int | None = None
    max_depth: int | None = None
    optimize: bool = True           # False: the reference build (the debugger's)
    params: dict[str, str] = field(default_factory=dict)  # --param NAME=VALUE: the game's parameters
    think: float | None = None      # --think: seconds a move of a plain mcts, and of `hint` (default 2)
    prog: str = PROG                # who speaks in error messages (the debugger's: gdef-dap)
    # the move script whose `# param:` lines (testing.scripts.ParamSetting by name) are in `params`
    script: str | None = None
    script_params: dict = field(default_factory=dict)
    record_setting: str = "--record"  # how they name the record file's setting


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: the game stops as on Ctrl-C, its record saved."""


def stop_on_signals() -> None:
    """Make SIGTERM and SIGHUP stop a game as Ctrl-C does (PlaySession.guard saves the record)."""

    def stop(number, frame):
        raise Terminated(signal.Signals(number).name)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


class KeepError(OSError):
    """The game so far cannot be saved, so it is not replaced by a new one (an OSError: a file
    could not be written or renamed)."""


@dataclass(frozen=True)
class Hint:
    move: object
    number: int         # its number in the position's legal moves, from 1
    iterations: int
    seconds: float
    engine: str         # the playouts': "python" or "native"


class PlaySession:
    """A game being played: its Session, computer players and record file. Not thread-safe:
    a front end that serves several requests at once makes them take turns."""

    def __init__(self, session: Session, computers, report: Reporter, options: PlayOptions,
                 record: str | None) -> None:
        self.session = session
        self.computers = computers  # gdef_core.play.opponents.ComputerPlayers
        self.report = report
        self.options = options
        self.record = record        # the file written after every move, or None
        self.record_failed = False
        self.kept: str | None = None  # the records-folder file of a game without `record`
        self._fallback = None  # the random engine_move() of players without an agent
        from gdef_core.play.games import chance_rng

        # chance's outcomes, drawn as gdef-sim draws game 0's of a run with the same seed
        self.chance = chance_rng(computers.seed, 0)
        self.roll_failure = ""  # why the last roll() could not play chance's move

    @property
    def game(self):
        return self.session.game

    def say(self, text: str = "") -> None:
        self.report.say(text)

    def complain(self, text: str) -> None:
        self.report.complain(text)

    # ------------------------------------------------------------ starting

    @classmethod
    def start(cls, options: PlayOptions, report: Reporter) -> "PlaySession | int":
        """Load the game (resuming a record), check the record file and the computer players;
        the PlaySession, or an exit code after reporting why there is none."""
        if options.max_depth is not None and options.max_depth > MAX_DEPTH_LIMIT:
            report.complain(f"{options.prog}: error: --max-depth {options.max_depth} is more than {MAX_DEPTH_LIMIT:,}")
            return EXIT_USAGE
        record = None
        files = list(options.files)
        if options.resume:
            try:
                record = load_record(options.resume)
            except RecordError as error:
                report.complain(f"{options.prog}: error: {error}")
                return EXIT_USAGE
            if not files:
                files, notes = record_files(record, options.resume)
                for note in notes:
                    report.complain(f"{options.prog}: note: {note}")
        if not files:
            report.complain(f"{options.prog}: error: name the game's .gdef files (for example: {PROG} examples/tictactoe.gdef)")
            return EXIT_USAGE
        params = dict(options.params)
        if record is not None:
            recorded = record.get("params", {})
            clash = [name for name in params if name in recorded and str(recorded[name]).lower() != params[name].lower()]
            if clash:
                written = [name for name in clash if name in options.script_params]
                report.complain(f"{options.prog}: error: {options.resume} was played with "
                                + ", ".join(f"{name}={_shown(recorded[name])}" for name in clash)
                                + ": a resumed game keeps its parameters (drop "
                                + (f"the `# param:` line of {options.script}, line {options.script_params[written[0]].line}"
                                   if written else "--param") + ")")
                return EXIT_USAGE
            params = {**recorded, **params}
        game = _load(files, options, report, params, options.resume if record is not None else None)
        if isinstance(game, int):
            return game
        try:
            session = Session(game, files, game.new_state())
        except GdefRuntimeError as error:
            report.complain("setup() failed, so the game cannot start:")
            report.show_error(error, game)
            return EXIT_DEFINITION
        if record is not None:
            if record.get("game") != game.name:
                report.complain(f"{options.prog}: error: {options.resume} is a record of '{record.get('game')}', but these "
                                f"files define '{game.name}': name the record's own game files (or none)")
                return EXIT_USAGE
            try:
                session = Session.from_record(game, files, record)
            except RecordError as error:
                report.complain(f"{options.prog}: error: {options.resume}: {error}")
                return EXIT_USAGE
        path = options.record
        if path is not None and not _prepare_record(path, options, report):
            return EXIT_USAGE
        if path is None and options.resume is not None and _is_own_regular_file(options.resume):
            path = options.resume  # a resumed game goes on in its own record
        from gdef_core.play.errors import AgentSpecError
        from gdef_core.play.opponents import computer_players

        try:
            computers = computer_players(options.players, game.players, options.seed,
                                         *([options.think] if options.think is not None else []))
        except AgentSpecError as error:
            report.complain(f"{options.prog}: error: --player {error}")
            return EXIT_USAGE
        computers.prepare(game)
        return cls(session, computers, report, options, path)

    def guard(self, mode: Callable[[], int]) -> int:
        """Run a way of playing: Ctrl-C, SIGTERM or SIGHUP stop the game with its record saved
        (exit 3); an internal error saves the moves so far before it is raised again."""
        try:
            return mode()
        except KeyboardInterrupt as signal_:
            self.say()
            return self.stop(f"stopped by {signal_}" if isinstance(signal_, Terminated) else "interrupted")
        except Exception:
            self.rescue()
            raise

    # ------------------------------------------------------------ playing

    def play(self, text: str, line: int | None = None) -> Played:
        """A person's move: applied when legal, else kept as rejected; the record is written."""
        played = self.session.play(text, line)
        self.autosave()
        return played

    def legal_ops(self) -> list | None:
        """The legal moves here as operation tuples (State.legal_ops(): a big board's millions
        without their Moves), or None after reporting the run-time error of the rules."""
        try:
            return self.session.state.legal_ops()
        except GdefRuntimeError as error:
            self.say("The legal moves cannot be listed: the rules failed.")
            self.report.show_error(error, self.game)
            return None

    def undo(self) -> bool:
        """Take back the last move (whoever made it); False when there is none."""
        undone = self.session.undo()
        if undone:
            self.autosave()
        return undone

    def take_back(self) -> bool:
        """Undo the last move, and the computer's moves before it, so that a person is on turn
        again (against the computer, `undo` takes back the person's last move)."""
        session, computers = self.session, self.computers
        if not session.undo():
            return False
        while session.moves and not computers.everyone(session.game.players) \
                and (session.state.is_chance_node or computers.plays(session.state.current_player)):
            session.undo()  # a computer's move, or chance's before the person's move
        self.autosave()
        return True

    def set_position(self, state) -> None:
        """Go on from `state` (a position of this game) as a new game; the record keeps where
        it started, so that it can be resumed."""
        self.session = Session(self.game, self.session.files, state, state.to_json())
        self.autosave()

    def restart(self) -> None:
        """Go on from the start position as a new game (the record file is reused)."""
        self.session = Session(self.game, self.session.files, self.game.new_state())
        self.autosave()

    def new_game(self, start: dict | None = None, params: dict | None = None) -> str | None:
        """A new game at the start position (or at `start`, a position as State.to_json()
        writes it, checked by the caller); the game so far, if anything was played, is kept
        first: the record file is renamed PATH.~N~ (as a --record file that would be overwritten
        is) and the new game goes on in PATH; a game without one goes to the records folder.
        `params`: new values for some of the game's parameters (the game is loaded again with
        them; ParamError, or GameLoadError for what they break, before anything changes).
        Returns where it was kept, or None; KeepError when it cannot be kept (nothing changes)."""
        old = self.session
        game = self.variant(params) if params else self.game
        kept = None
        if old.moves or old.rejected:
            if self.record and self.save_to(self.record):
                try:
                    kept = records.keep_as_backup(self.record)
                except OSError as error:
                    raise KeepError(f"cannot keep the game so far beside {self.record}: "
                                    f"{error.strerror or error}") from None
            else:
                kept = self.keep_record()
            if kept is None:
                raise KeepError("cannot save the game so far (see the terminal): nothing was changed")
            self.say(f"The game so far is kept in {kept}.")
        self.kept = None
        state = game.new_state() if start is None else game.state_from_json(start)
        self.session = Session(game, old.files, state, start)
        return kept

    def variant(self, params: dict):
        """This game loaded again with new values for some of its parameters (ParamError, or
        GameLoadError for what they break); nothing changes here."""
        from gdef_core.runtime.game import load_game

        game = self.game
        return load_game(self.session.files, max_steps=game.max_steps, max_depth=game.max_depth,
                         params={**game.params, **params})

    # ------------------------------------------------------------ computer players

    def computer_turns(self, chance: bool = True) -> bool:
        """The computer moves while one of its players is on turn, and (when `chance`) chance
        while its move is next; False when it cannot."""
        while not self.session.state.is_over:
            state = self.session.state
            if state.is_chance_node:
                if not chance:
                    break
                if not self.roll():
                    return False
            elif self.computers.plays(state.current_player):
                if not self.computer_move():
                    return False
            else:
                break
        return True

    def chance_works(self) -> bool:
        """Whether chance() gives this chance node its outcomes; else (the located error shown)
        the game cannot go on: no player moved, so nothing is rejected."""
        try:
            self.session.state.chance_outcomes()
        except GdefRuntimeError as error:
            self.complain("chance() failed, so the game cannot go on:")
            self.report.show_error(error, self.session.game)
            return False
        return True

    def roll(self, line: int | None = None) -> bool:
        """Chance's move at a chance node: an outcome drawn by weight (`rolled: D3` said);
        False (after showing the located error; `roll_failure` says which) when chance() fails
        or end() fails after the outcome drawn: drawing another would change the odds."""
        session = self.session
        if not self.chance_works():
            self.roll_failure = "chance() failed"
            return False
        move = session.state.sample_chance(self.chance)
        played = session.play(str(move), line)
        if not played.accepted:  # end() failed after the outcome
            self.roll_failure = "end() failed after chance's outcome"
            self.complain(f"chance's outcome {session.state.move_name(move)} was rejected: end() failed after it, "
                          "so the game cannot go on:")
            self.report.show_error(played.verdict.error, session.game)
            return False
        self.say(self.numbered(played))
        self.autosave()
        return True

    def computer_move(self, line: int | None = None) -> bool:
        """One move of the computer for the player on turn; False (after saying why) when it
        has no legal move or its move fails at run time."""
        from gdef_core.play.errors import AgentError

        session = self.session
        player = session.state.current_player
        label = self.computers.label(player)
        try:
            move = self.computers.choose(session.state)
        except AgentError as error:
            self.complain(f"{self.who(player, True)} ({label}): {error}")
            return False
        except GdefRuntimeError as error:  # moves() failed
            self.complain(f"{self.who(player, True)} ({label}) cannot choose a move:")
            self.report.show_error(error, session.game)
            return False
        played = session.play(str(move), line)
        if not played.accepted:
            self.complain(f"{self.who(player, True)} ({label}) played {move}, which was rejected: {played.verdict.reason}")
            self.show_stack(played)
            return False
        self.say(self.numbered(played, label))
        self.autosave()
        return True

    def who(self, player: int, start: bool = False) -> str:
        """A player as the game names them ("White"; by default "player 0", "Player 0" at the
        `start` of a sentence)."""
        return self.game.presentation.who(player, start)

    def numbered(self, played: Played, agent: str | None = None) -> str:
        """`12. White: e2e4 (...)`: the move just played, numbered as moveNumber() counts them
        (after a script's `# move: 10` or a record's ten moves, its first is 11)."""
        return f"{self.session.state.move_number}. {self.played(played, agent)}"

    def played(self, played: Played, agent: str | None = None) -> str:
        """`White: e2e4 (clear(4,1); place(4,3,WP))`: who, the move's name, its operations;
        `rolled: D3` for a chance outcome."""
        if played.chance:
            return f"rolled: {played.name or played.text}"
        who = f"{self.who(played.player)} ({agent})" if agent else self.who(played.player)
        name = played.name
        return f"{who}: {name} ({played.text})" if name and name != played.text else f"{who}: {played.text}"

    def engine_move(self, state):
        """The move the computer would make in `state` (nothing is played): the --player agent
        of the player on turn, else a random legal move (seeded from the run's seed)."""
        if self.computers.plays(state.current_player):
            return self.computers.choose(state)
        if self._fallback is None:
            from gdef_core.play.agents import RandomAgent

            self._fallback = RandomAgent(self.computers.seed)
        return self._fallback.choose(state)

    def hint(self, legal: list, seconds: float | None = None) -> Hint | None:
        """The move a short mcts search (`seconds`, by default the computer players' budget)
        prefers for the player on turn (`legal`: the moves here, legal_ops()), with native playouts once
        the game's compile is ready; None after reporting why there is none."""
        from gdef_core.play.errors import AgentError
        from gdef_core.play.mcts import MctsAgent

        seed = (self.options.seed or 0) * 1_000_003 + len(self.session.moves)
        agent = MctsAgent(seed, time_limit=seconds or self.computers.think, playout_cap=HINT_PLAYOUT_CAP)
        started = time.perf_counter()
        try:
            move = agent.choose(self.session.state.clone())
        except (AgentError, GdefRuntimeError) as error:
            self.say("No hint: the rules failed while the computer searched.")
            if isinstance(error, GdefRuntimeError):
                self.report.show_error(error, self.game)
            return None
        return Hint(move, legal.index(self.game.resolve(move).ops) + 1, agent.last_iterations, time.perf_counter() - started,
                    agent.last_engine)

    # ------------------------------------------------------------ move scripts and perft

    def run_script(self, lines: Iterable[str], name: str, header=None) -> int:
        """Play a move script (one move a line, `#` comments, `?` assertions checked), the
        computer moving for its players; the exit code. At a chance node the line names the
        outcome (as gdef-test reads scripts): every roll of a script is written, so a script
        plays the same game every time. A header may write where the script starts, as a rule
        test's does (`# from:`, `# board:` ...: start_from); `header`: that start, when the
        caller has read it already (the debugger, whose lines come as they are typed)."""
        from gdef_core.testing.assertions import is_assertion
        from gdef_core.testing.start_header import HeaderError, split_header

        if header is None:
            try:
                header, lines = split_header(lines)
            except HeaderError as error:
                self.complain(f"{self.options.prog}: error: {name}:{error.line}:{error.column + 1}: {error.message}")
                return EXIT_USAGE
        if (header.is_record or header.writes_position) and not self.start_from(header, name):
            return EXIT_USAGE
        failed = 0
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if not self.computer_turns(chance=False):
                return self.stop("the computer player could not move")
            if is_assertion(text):
                failed += not self.check_assertion(text, name, number)
                continue
            if self.session.state.is_over:
                self.complain(f"{name}:{number}: the game is over; this line and the ones after it are ignored")
                break
            if self.session.state.is_chance_node and not self.chance_works():
                return self.stop("chance() failed")
            played = self.play(text, number)
            if played.accepted:
                self.say(self.numbered(played))
            else:
                self.complain(f"{name}:{number}: rejected '{text}' ({self.who(played.player)}): {played.verdict.reason}")
                self.show_stack(played)
        if not self.computer_turns(chance=False):
            return self.stop("the computer player could not move")
        code = self.finish(show_board=True)
        if failed:
            self.complain(f"{failed} assertion{'s' if failed > 1 else ''} of {name} failed.")
            return EXIT_ASSERTION
        return code

    def start_from(self, header, name: str) -> bool:
        """Go on from the position the header of the move script `name` writes (a
        testing.start_header.StartHeader: a record, written squares, the turn ...), as gdef-test
        starts a test from it; False after saying what does not fit, at its line and column."""
        from gdef_core.runtime.start_position import StartError, first_line, script_start

        if self.options.resume:
            where = header.source_at or first_line(header)
            self.complain(f"{self.options.prog}: error: {name}:{where.line}:{where.column + 1}: the script's header "
                          f"writes where it starts, and {self.options.resume} is resumed: drop one of them")
            return False
        try:
            state = script_start(self.game, header, name, None if self.session.moves else self.session.state)
        except StartError as error:
            self.complain(f"{self.options.prog}: error: {name}:{error.at.line}:{error.at.column + 1}: {error.message}"
                          + (f" (at {error.location})" if error.location else ""))
            return False
        self.set_position(state)
        return True

    def check_assertion(self, text: str, name: str, number: int) -> bool:
        """A `?` line of a script (gdef_core.testing.assertions): checked, never played."""
        from gdef_core.testing.assertions import AssertionSyntaxError, evaluate, parse_assertion

        try:
            outcome = evaluate(parse_assertion(text, number), self.session.state)
        except AssertionSyntaxError as error:
            self.complain(f"{name}:{number}:{error.column + 1}: cannot read the assertion '{text}': {error.message}")
            return False
        except GdefRuntimeError as error:
            self.complain(f"{name}:{number}: the rules failed while checking '{text}':")
            self.report.show_error(error, self.game)
            return False
        if not outcome.passed:
            self.complain(f"{name}:{number}: assertion failed: {text}\n  expected: {outcome.expected}\n"
                          f"  actual:   {outcome.actual}")
        return outcome.passed

    def perft(self, depth: int, backend: str = "python") -> int:
        """The number of move sequences of each length from the position, said a line a depth."""
        from gdef_core.runtime.perft import perft

        ready = ""  # the native rules' compile (or load) time, said apart from the count's
        if backend == "native":
            from gdef_core.native import NativeRules

            preparing = time.perf_counter()
            native = NativeRules.load(self.game, self.complain)
            perft = native.perft if native is not None else perft
            if native is not None:
                try:
                    perft(self.session.state, 1)  # compiles (or loads) the perft kernel
                except GdefRuntimeError:
                    pass  # moves() fails here: the count below says where
                ready = (f" (after {time.perf_counter() - preparing:.2f} s "
                         f"{'compiling the rules' if native.compiled else 'loading the compiled rules'})")
        started = time.perf_counter()
        try:
            counts = perft(self.session.state, depth)
        except GdefRuntimeError as error:
            # the entry point that failed: the outermost call (chance()'s own G615/G616 have none)
            entry = error.stack[-1].function if error.stack else "chance" if error.code in ("G615", "G616") \
                else "moves"
            self.complain(f"{entry}() failed while counting:")
            self.report.show_error(error, self.game)
            return EXIT_DEFINITION
        for level, count in enumerate(counts, 1):
            self.say(f"depth {level}: {count}")
        seconds = time.perf_counter() - started
        self.complain(f"perft {depth}: {sum(counts)} moves in {seconds:.2f} s{ready}")
        return EXIT_OVER

    def show_stack(self, played: Played, to_err: bool = True) -> None:
        """The gdef call stack of a move that failed at run time, below its one-line reason."""
        error = played.verdict.error
        if error is not None and len(error.stack) > 1:
            text = "\n".join(str(error).split("\n")[1:])
            (self.complain if to_err else self.say)(text)

    # ------------------------------------------------------------ endings and records

    def finish(self, show_board: bool = False) -> int:
        """The end of a way of playing: the result and the record of a game that ended (exit
        0), else stop()."""
        state = self.session.state
        if not state.is_over:
            return self.stop("the moves ran out")
        if show_board:
            self.report.show_board(self.session)
        rule = self.session.ended_by()  # the line of end() that ended the game, with its comment
        result = "Draw" if state.winner is None else f"{self.who(state.winner, True)} wins"
        self.say(f"{result}: {rule.comment}." if rule is not None and rule.comment else f"{result}.")
        if self.record:
            self.save_to(self.record)
        return EXIT_OVER

    def stop(self, why: str) -> int:
        """The game stops before its end: keep the record (nothing is lost) and exit 3."""
        message = f"Stopped ({why}) before the game ended, after {len(self.session.moves)} move(s)."
        path = self.keep_record()
        if path is not None:
            message += f" The record is in {path}; continue with: {PROG} --resume {shlex.quote(path)}"
        self.complain(message)
        return EXIT_UNFINISHED

    def rescue(self) -> None:
        """An internal error: the moves played so far are saved all the same."""
        path = self.keep_record()
        if path is not None:
            self.complain(f"The moves so far are saved in {path}.")

    def keep_record(self) -> str | None:
        """Save the record to its file, or (without one, or when it cannot be written) to the
        records folder (gdef_core.controller.records), never into the project; the path
        written, or None (nothing played yet, or nothing could be written)."""
        session = self.session
        if self.record is not None and self.save_to(self.record):
            return self.record
        if not (session.moves or session.rejected):
            return None
        if self.kept is None:
            try:
                self.kept = records.new_record_path(session.game.name)
            except OSError as error:
                self.complain(f"{self.options.prog}: error: cannot make a record file in the records folder: "
                              f"{error.strerror or error}")
                return None
            if self.record is not None:
                self.complain(f"{self.options.prog}: the record goes to {self.kept} instead")
        return self.kept if self.save_to(self.kept) else None

    def save(self, path: str) -> str | None:
        """Write the record to `path` now (the `save FILE` command); a file of this user already
        there (other than this game's own record) is first kept as PATH.~N~, as --record keeps
        one: that backup's path, or None. OSError when it cannot (then nothing has changed)."""
        backup = None
        if _is_own_regular_file(path) and not (self.record is not None and _same_file(path, self.record)):
            backup = records.keep_as_backup(path)  # a link or someone else's file: save() refuses it
        try:
            self.session.save(path)
        except (OSError, ValueError):
            if backup is not None:
                os.replace(backup, path)  # put it back: nothing lost, nothing changed
            raise
        return backup

    def save_to(self, path: str) -> bool:
        try:
            self.session.save(path)
            return True
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or error
            self.complain(f"{self.options.prog}: error: cannot write the record to {path}: {reason}")
            return False

    def autosave(self) -> None:
        """After each change; a record file that cannot be written is said once (stop() then
        saves to the records folder instead)."""
        if self.record and not self.record_failed:
            self.record_failed = not self.save_to(self.record)


def _shown(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _load(files: list[str], options: PlayOptions, report: Reporter, params: dict, record: str | None = None):
    """The Game, or an exit code after reporting why there is none. A refused parameter is
    blamed on --param, on the move script's `# param:` line, or on the resumed `record` whose
    "params" gave it."""
    from gdef_core.loader import GdefFileError, load_program
    from gdef_core.runtime.errors import GameLoadError, ParamError
    from gdef_core.runtime.game import DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, game_from_program

    try:
        program = load_program(files, params=params)
    except GdefFileError as error:
        report.complain(f"{options.prog}: error: {error}")
        return EXIT_USAGE
    written = {name: why for name, why in program.param_errors.items() if name in options.script_params}
    if written:
        for name, why in written.items():
            line = options.script_params[name]
            report.complain(f"{options.prog}: error: {options.script}:{line.line}:{line.column + 1}: # param: {why}")
        return EXIT_USAGE
    from_record = [why for name, why in program.param_errors.items() if name not in options.params]
    if record and from_record:
        report.complain(f"{options.prog}: error: {record}: the record's \"params\" do not fit the game: "
                        + "; ".join(from_record))
        return EXIT_USAGE
    try:
        return game_from_program(program, max_steps=options.max_steps or DEFAULT_MAX_STEPS,
                                 max_depth=options.max_depth or DEFAULT_MAX_DEPTH, optimize=options.optimize)
    except ParamError as error:
        report.complain(f"{options.prog}: error: --param: {error}")
        return EXIT_USAGE
    except GameLoadError as error:
        report.show_definition(program, error)
        return EXIT_DEFINITION


def _prepare_record(path: str, options: PlayOptions, report: Reporter) -> bool:
    """A record file is a regular file (or a new one), never a symbolic link; an existing one
    that is not the record being resumed is kept as PATH.~N~ rather than overwritten."""
    prog, setting, resume = options.prog, options.record_setting, options.resume
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError) as error:
        report.complain(f"{prog}: error: {setting} {path}: {getattr(error, 'strerror', None) or error}")
        return False
    if stat.S_ISLNK(info.st_mode):
        report.complain(f"{prog}: error: {setting} {path} is a symbolic link: a record is never written "
                        "through one, so that it cannot replace the file the link points to; name the file itself")
        return False
    if not stat.S_ISREG(info.st_mode):
        report.complain(f"{prog}: error: {setting} {path}: not a regular file: only regular files are written")
        return False
    if resume is not None and _same_file(resume, path):
        return True
    try:
        backup = records.keep_as_backup(path)
    except OSError as error:
        report.complain(f"{prog}: error: {setting} {path} exists and cannot be kept as {records.backup_name(path)}: "
                        f"{error.strerror or error}")
        return False
    report.complain(f"{prog}: {path} already existed: it is kept as {backup}")
    return True


def _same_file(one: str, other: str) -> bool:
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):
        return False


def _is_own_regular_file(path: str) -> bool:
    """Whether a resumed record can be written on: this user's regular file, not a link."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and is_own(info)
