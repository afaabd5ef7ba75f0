#!/usr/bin/env bash
# Runs every test: the Python suite (core, CLIs, language server), then the editor tests
# (VS Code extension build, grammar tests, VS Code and Neovim end to end), which install what
# they need from npm and Debian. --python-only skips the editor tests; --fresh rebuilds .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=""; python_only=""
for arg in "$@"; do
  case "$arg" in
    --fresh) fresh="--fresh" ;;
    --python-only) python_only=1 ;;
    *) echo "usage: scripts/test.sh [--fresh] [--python-only]" >&2; exit 2 ;;
  esac
done
scripts/bootstrap.sh $fresh
# in CI a missing browser fails the browser tests instead of skipping them
if [ -n "${CI:-}" ]; then export GDEF_REQUIRE_BROWSER=1; fi
# The native backend's example tests spend about ten minutes of one core in numba's compiler:
# they run in a second pytest beside the rest of the suite (the machines have two cores), their
# report after. (Its other test files, two minutes, stay in the first one, which is shorter.)
native=(tests/test_native.py)
native_log=$(mktemp)
.venv/bin/python -m pytest -q "${native[@]}" >"$native_log" 2>&1 &
native_pid=$!
status=0
.venv/bin/python -m pytest -q "${native[@]/#/--ignore=}" || status=$?
native_status=0
wait "$native_pid" || native_status=$?
echo "--- the native backend's tests (${native[*]}):"
cat "$native_log"
rm -f "$native_log"
if [ "$status" -ne 0 ]; then exit "$status"; fi
if [ "$native_status" -ne 0 ]; then exit "$native_status"; fi
if [ -z "$python_only" ] && [ -x vscode-extension/scripts/ci.sh ]; then
  GDEF_PYTHON="$PWD/.venv/bin/python" vscode-extension/scripts/ci.sh
fi
