#!/bin/sh
# The reliability fuzzing campaign: hostile rules, text, moves, records and paths for a chosen
# time, with the figures printed (inputs tried, failures by kind). docs/gdef-check.md.
#   scripts/fuzz.sh --minutes 10 [--seed S] [--hang SECONDS] [--memory MB] [--out DIR] [--targets web,protocol,...]
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" scripts/fuzz.py "$@"
