#!/usr/bin/env bash
# Creates .venv (or reuses it) and installs gdef with its test dependencies.
# --fresh: start from a new virtualenv (what CI does).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fresh" ]; then rm -rf .venv; fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
