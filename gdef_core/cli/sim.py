"""gdef-sim: play many games between computer players and count the results.

    gdef-sim examples/connect4.gdef --games 1000 --player 0=random --player 1=mcts:iterations=200

Thin: parse the arguments, load the game, hand the work to gdef_core.play.simulate, print
the table (and --json). Exit codes: 0 done; 1 the rules have errors or a game failed at run
time (the located error is printed; with --max-errors the run goes on and the first distinct
errors are printed, the rest counted); 2 bad arguments or unreadable files; 130 interrupted.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from functools import partial

from gdef_core.cli.common import add_param_option, add_version, exit_or_return, param_values, positive, whole_number
from gdef_core.play.errors import AgentSpecError
from gdef_core.play.spec import AgentSpec, agent_help, parse_player

PROG = "gdef-sim"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DEFAULT_AGENT = "random"
DEFAULT_MAX_MOVES = 10_000


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Play many games of a .gdef game between computer players and print wins, "
                    "draws and game lengths.",
        epilog=f"Agents: {agent_help()}. Players without --player are '{DEFAULT_AGENT}'. "
               "The same --seed gives the same results whatever --jobs is (except for "
               "mcts with a time= budget).")
    parser.add_argument("files", nargs="+", metavar="FILE", help="the .gdef files of the game")
    parser.add_argument("--games", "-n", type=positive, default=100, metavar="N",
                        help="how many games to play (default 100)")
    parser.add_argument("--player", "-p", action="append", default=[], metavar="N=AGENT",
                        help="who plays player N, e.g. 0=random or 1=mcts:iterations=500 "
                             "(repeatable)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the seed every game's agents are seeded from (default 0)")
    add_param_option(parser)
    parser.add_argument("--jobs", "-j", type=whole_number(0, " (0: all cores)"), default=1, metavar="J",
                        help="processes to play in (0: one per core; default 1)")
    parser.add_argument("--max-moves", type=positive, default=DEFAULT_MAX_MOVES, metavar="M",
                        help="stop a game after M moves and count it as capped "
                             f"(default {DEFAULT_MAX_MOVES})")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play on a Dask cluster: dask://HOST:PORT (a running scheduler) or "
                             "local:N (N worker processes here); needs gdef[cluster]")
    parser.add_argument("--backend", choices=("python", "native", "auto"), default="python",
                        help="who runs the rules: python (default), native (random players' "
                             "games compiled with numba, needs gdef[fast]; a game it cannot "
                             "compile runs on python with a notice) or auto (native for random "
                             "players when numba is installed and the run has at least 300 games "
                             "or the game's compile is cached). The same "
                             "--seed gives the same results within one backend")
    parser.add_argument("--max-errors", type=whole_number(0, " (0: every one)"), metavar="N",
                        help="go on past games that fail at run time: print the first N distinct "
                             "errors, located, each with how many games it stopped, and count the "
                             "rest (0: print every one). Without it the run stops at the first")
    parser.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    parser.add_argument("--no-progress", action="store_true", help="do not show progress")
    add_version(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; returns (and exits with) the exit code. `prog`: the
    name in usage lines (`gdef sim` when the gdef command runs this one)."""
    return exit_or_return(prog, partial(run, prog=prog), argv, interrupted=EXIT_INTERRUPTED, internal=EXIT_INTERNAL,
                          broken_pipe=EXIT_FAILED, interrupted_message=f"\n{PROG}: interrupted\n")


def run(argv: Sequence[str] | None, prog: str = PROG) -> int:
    from gdef_core.play.progress import Progress
    from gdef_core.play.cluster import ClusterError as ClusterUnavailable
    from gdef_core.play.simulate import SimulationError, SimulationInterrupted, simulate

    parser = build_parser(prog)
    args = parser.parse_args(argv)
    chosen: dict[int, AgentSpec] = {}
    for text in args.player:
        try:
            player, spec = parse_player(text)
        except AgentSpecError as error:
            parser.error(f"--player {text}: {error}")
        if player in chosen:
            parser.error(f"--player {text}: player {player} is given twice")
        chosen[player] = spec

    if args.cluster is not None:
        from gdef_core.play.cluster import ClusterError, check_address
        try:
            check_address(args.cluster)
        except ClusterError as error:
            parser.error(f"--cluster {error}")
        if args.jobs != 1:
            parser.error("--cluster and --jobs do not go together: the cluster's workers do the jobs")

    game, code = _load(args.files, param_values(args.param))
    if game is None:
        return code
    players = game.players
    extra = sorted(p for p in chosen if p >= players)
    if extra:
        parser.error(f"--player {extra[0]}=...: {game.name} has {players} players, "
                     f"numbered 0 to {players - 1}")
    specs = [chosen.get(p, AgentSpec(DEFAULT_AGENT)) for p in range(players)]
    cores = usable_cores()
    jobs = args.jobs or cores
    if jobs > cores:   # more processes than cores only share them, each loading the rules first
        _notice(f"{PROG}: --jobs {jobs} is more than the {cores} core{'s' if cores != 1 else ''} this process may "
                f"use: playing in {cores}")
        jobs = cores

    progress = None if args.no_progress else Progress(sys.stderr, terminal=sys.stderr.isatty())
    try:
        summary = simulate(game, specs, args.games, seed=args.seed, jobs=jobs,
                           max_moves=args.max_moves, on_progress=progress, cluster=args.cluster,
                           backend=args.backend, notify=_notice, max_errors=args.max_errors)
    except SimulationError as error:
        if progress is not None:
            progress.finish()
        sys.stderr.write(f"{PROG}: {error}\n")
        return EXIT_FAILED
    except ClusterUnavailable as error:
        if progress is not None:
            progress.finish()
        sys.stderr.write(f"{PROG}: error: {error}\n")
        return EXIT_USAGE
    except SimulationInterrupted as stopped:
        if progress is not None:
            progress.finish()
        _print_errors(stopped.summary, args.seed)
        sys.stderr.write(f"{PROG}: interrupted: the table counts the {stopped.summary.games} "
                         f"games finished before\n")
        sys.stdout.write(render_table(game.name, specs, stopped.summary, args, jobs))
        return EXIT_INTERRUPTED
    _print_errors(summary, args.seed)
    sys.stdout.write(render_table(game.name, specs, summary, args, jobs))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump({**summary.to_json(), **provenance(args, game, specs, argv, summary.backend)},
                          out, indent=2)
                out.write("\n")
        except OSError as error:
            sys.stderr.write(f"{PROG}: cannot write {args.json}: {error.strerror}\n")
            return EXIT_USAGE
    return EXIT_FAILED if summary.failed else EXIT_OK


def _print_errors(summary, seed: int) -> None:
    """The errors that stopped games (--max-errors): each located, with how many games it
    stopped; then how many games failed otherwise."""
    for group in summary.errors:
        more = f"\n  (the same error stopped {group.games - 1} more game{'s' if group.games > 2 else ''})" \
            if group.games > 1 else ""
        sys.stderr.write(f"{PROG}: game {group.first + 1} (run seed {seed}): {group.message}{more}\n")
    rest = summary.failed_unshown
    if rest:
        sys.stderr.write(f"{PROG}: {rest} more game{'s' if rest != 1 else ''} failed with other errors "
                         f"(--max-errors 0 prints every one)\n")


def usable_cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than the
    machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


def _notice(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def provenance(args, game, specs: Sequence[AgentSpec], argv: Sequence[str] | None = None,
               backend: str = "python") -> dict:
    """What a --json reader needs to run the same games again: the seeds (as the backend that
    played derives them), the exact rules (file hashes) and the parameter values they were
    played with, the gdef version and every agent's settings."""
    import hashlib
    import shlex

    import gdef_core
    from gdef_core.play.games import NATIVE_SEED_RULE, SEED_RULE
    from gdef_core.runtime.game import json_value

    return {
        "seed": args.seed,
        "game_indexes": [0, args.games - 1],
        "seed_rule": NATIVE_SEED_RULE if backend == "native" else SEED_RULE,
        "max_moves": args.max_moves,
        "gdef_version": gdef_core.__version__,
        "game": game.name,
        **({"params": {name: json_value(value) for name, value in game.params.items()}} if game.params else {}),
        "files": [{"path": module.path, "sha256": "sha256:" + hashlib.sha256(module.text.encode("utf-8", "surrogatepass")).hexdigest()} for module in game.program.modules],
        "agents": [{"player": p, "agent": spec.name, "options": dict(spec.options)}
                   for p, spec in enumerate(specs)],
        "command": shlex.join([PROG, *(sys.argv[1:] if argv is None else argv)]),
    }


def render_table(name: str, specs: Sequence[AgentSpec], summary, args, jobs: int) -> str:
    """The results as a small table; every game is in exactly one of the counted rows."""
    games = summary.games + summary.failed
    rate = games / summary.seconds if summary.seconds > 0 else 0.0

    def share(count: int) -> str:
        return f"{100 * count / games:5.1f}%" if games else "    -"

    rows = [(f"player {p} ({spec})", wins) for p, (spec, wins) in enumerate(zip(specs, summary.wins))]
    rows.append(("draws", summary.draws))
    rows.append((f"capped at {args.max_moves} moves", summary.capped))
    if summary.failed:
        rows.append(("failed (errors above)", summary.failed))
    width = max(len(label) for label, _ in rows)
    where = (f"cluster {args.cluster}" if getattr(args, "cluster", None)
             else f"{jobs} job{'s' if jobs != 1 else ''}")
    if getattr(summary, "backend", "python") != "python":
        where += f", {summary.backend} backend"
    ready = ""  # the native rules' compile (or load) time, apart from the games' rate
    if getattr(summary, "backend", "python") == "native":
        ready = (f", after {summary.compile_seconds:.1f} s "
                 f"{'compiling the rules' if summary.compiled else 'loading the compiled rules'}")
    lines = [f"{name}: {games} games, seed {args.seed}, {where}, "
             f"{summary.seconds:.1f} s ({rate:.1f} games/s){ready}", "",
             f"{'':{width}}  {'games':>7}  {'share':>6}"]
    lines += [f"{label:{width}}  {count:>7}  {share(count)}" for label, count in rows]
    lines += ["", f"length: average {summary.avg_length:.1f} moves, max {summary.max_length}" if summary.games
              else "length: no game finished"]   # the failed games' lengths are not counted
    if summary.scored or any(summary.total_scores):
        means = ", ".join(f"player {p} {mean:.2f}" for p, mean in enumerate(summary.mean_scores))
        lines.append(f"mean final score: {means}")
    return "\n".join(lines) + "\n"


def _load(files: Sequence[str], params: dict[str, str]):
    """(game, EXIT_OK), or (None, exit code) after saying why the files make no game; the
    definition's errors are shown as gdef-check shows them."""
    from gdef_core.loader import GdefFileError, load_program
    from gdef_core.project import InputProblem
    from gdef_core.report import Report, render_text
    from gdef_core.report.limit import limit_syntax_errors
    from gdef_core.runtime import GameLoadError, ParamError, game_from_program

    try:
        program = load_program(list(files), params=params)
    except GdefFileError as error:
        sys.stderr.write(f"{PROG}: error: {error}\n")
        return None, EXIT_USAGE
    try:
        return game_from_program(program), EXIT_OK
    except ParamError as error:
        sys.stderr.write(f"{PROG}: error: --param: {error}\n")
        return None, EXIT_USAGE
    except GameLoadError as error:
        files = [module.path for module in program.modules]
        problems = []
        if not any(d.is_error for d in error.diagnostics):  # a library: the error is the files'
            sys.stderr.write(f"{PROG}: error: {error}\n")
            problems = [InputProblem(" ".join(files), str(error))]
        sources = {module.path: module.text for module in program.modules}
        report = Report(limit_syntax_errors(error.diagnostics), files, sources, problems)
        sys.stderr.write(render_text(report, color=False))
        return None, EXIT_FAILED


