#!/usr/bin/env bash
# Runs every test: the Python suite (core, CLIs, language server), then the editor tests
# (VS Code extension build, grammar tests, VS Code and Neovim end to end), which install what
# they need from npm and Debian. --python-only skips the editor tests; --fresh rebuilds .venv.
# --quick runs a subset of every area for the edit loop (about 35 s of CPU); pytest arguments
# may follow it (scripts/test.sh --quick -x -k sim).
set -euo pipefail
cd "$(dirname "$0")/.."
# pytest's temporary folders go in here (--basetemp needs the parent)
mkdir -p .pytest_cache
trap 'exit 130' INT   # Ctrl-C stops the whole run (pytest in front exits 2 on it, not by the signal)

# COMMAND ARGS in the background, its output to a new file $background_log, in a process
# group of its own: so that it does not ignore SIGINT as a plain `&` job would (tests send
# Ctrl-C to the tools), and is stopped (its log removed) when this script ends.
in_background() {
  background_log=$(mktemp)
  set -m
  "$@" </dev/null >"$background_log" 2>&1 &
  background_pid=$!
  set +m
  trap 'kill -- "-$background_pid" 2>/dev/null || true; rm -f "$background_log"' EXIT
}

# The quick subset: parser, checker, runtime, the CLIs, the language server over stdio, the
# web board's API and one native backend game on each route (C, numba where installed); in two pytest
# processes (two cores), the second's report after the first's, each with a temporary folder
# of its own (pytest's numbered folders are pruned by whichever session ends). Its native
# module stays compiled between runs (in .pytest_cache), so only the first run compiles it.
quick_first=(
  tests/test_parser.py
  tests/test_checker_golden.py tests/test_checker_codes.py
  tests/test_runtime_game.py tests/test_runtime_semantics.py tests/test_perft.py
  tests/test_check_cli.py tests/test_run_cli.py tests/test_format_cli.py tests/test_rule_tests.py
)
quick_second=(
  tests/test_sim.py tests/test_gdef_command.py
  tests/test_lsp_features.py
  tests/test_web_api.py
  "tests/test_native.py::test_native_games_replay_legally_in_python[route_c-tictactoe-4]"
  "tests/test_native.py::test_native_games_replay_legally_in_python[route_numba-tictactoe-4]"
)
if [ "${1:-}" = "--quick" ]; then
  shift
  [ -x .venv/bin/python ] || scripts/bootstrap.sh
  export GDEF_TEST_NATIVE_CACHE="$PWD/.pytest_cache/gdef-native"
  in_background .venv/bin/python -m pytest -q --basetemp=.pytest_cache/tmp-2 "${quick_second[@]}" "$@"
  first_status=0
  .venv/bin/python -m pytest -q --basetemp=.pytest_cache/tmp-1 "${quick_first[@]}" "$@" || first_status=$?
  second_status=0
  wait "$background_pid" || second_status=$?
  echo "--- and:"
  cat "$background_log"
  # 5 is pytest's "no test selected": fine for one half when `-k` picks tests of the other
  if [ "$first_status" -eq 5 ] && [ "$second_status" -eq 0 ]; then first_status=0; fi
  if [ "$second_status" -eq 5 ] && [ "$first_status" -eq 0 ]; then second_status=0; fi
  if [ "$first_status" -ne 0 ]; then exit "$first_status"; fi
  exit "$second_status"
fi

fresh=""; python_only=""
for arg in "$@"; do
  case "$arg" in
    --fresh) fresh="--fresh" ;;
    --python-only) python_only=1 ;;
    *) echo "usage: scripts/test.sh [--fresh] [--python-only] | --quick [PYTEST ARGS]" >&2; exit 2 ;;
  esac
done
scripts/bootstrap.sh $fresh
# In CI (CI set) a missing optional part fails its tests instead of skipping them
# (tests/support.py); the rest of the suite still runs and reports.
pytest_options=(-q)
if [ -n "${CI:-}" ]; then pytest_options+=(--continue-on-collection-errors); fi
# The editor tests run once, in the editors' step at the end, which installs Neovim and Emacs.
editor_tests=(tests/editors tests/test_format_editors.py)
ignored=()
editors=""
if [ -z "$python_only" ] && [ -x vscode-extension/scripts/ci.sh ]; then
  editors=1
  ignored=("${editor_tests[@]/#/--ignore=}")
  # What the editors' step installs (Debian packages, npm trees: mostly waiting on the network
  # and the disk) is installed during the Python suite; its builds and tests run after it.
  in_background vscode-extension/scripts/ci.sh --install
fi
# Two pytest workers (pytest-xdist; the machines have two cores), each in a temporary folder of
# its own under .pytest_cache/tmp. --dist loadfile: a worker takes a whole test file, so what a
# file compiles or starts once for its tests (a numba module, a language server, a browser) is
# done once; it takes the next file when it is almost done with its last, so the numba
# compiles (tests/test_native*.py, minutes) and the rest of the suite end together.
.venv/bin/python -m pytest "${pytest_options[@]}" -n 2 --dist loadfile --basetemp=.pytest_cache/tmp "${ignored[@]}"
if [ -n "$editors" ]; then
  install_status=0
  wait "$background_pid" || install_status=$?
  echo "--- the editors' installs (vscode-extension/scripts/ci.sh --install, during the Python suite):"
  cat "$background_log"
  if [ "$install_status" -ne 0 ]; then exit "$install_status"; fi
  GDEF_PYTHON="$PWD/.venv/bin/python" vscode-extension/scripts/ci.sh --installed
fi
