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
.venv/bin/python -m pytest -q
if [ -z "$python_only" ] && [ -x vscode-extension/scripts/ci.sh ]; then
  GDEF_PYTHON="$PWD/.venv/bin/python" vscode-extension/scripts/ci.sh
fi
