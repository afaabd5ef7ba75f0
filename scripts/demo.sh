#!/usr/bin/env bash
# Installs gdef into .venv and shows the main job on the bundled examples:
# check every example, then replay a scripted game of tic-tac-toe.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
echo "== gdef-check examples/"
.venv/bin/gdef-check examples/
echo
echo "== gdef-run examples/tictactoe.gdef --moves examples/tictactoe.moves"
.venv/bin/gdef-run examples/tictactoe.gdef --moves examples/tictactoe.moves --no-color
echo
echo "Play yourself: .venv/bin/gdef-run examples/tictactoe.gdef"
