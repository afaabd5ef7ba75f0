#!/usr/bin/env bash
# Creates .venv (or reuses it) and installs gdef with its test dependencies.
# --fresh: start from a new virtualenv (what CI does). pip's output goes to .venv/install.log
# and is shown only if the install fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fresh" ]; then rm -rf .venv; fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
echo "Installing gdef and its test dependencies into .venv ..."
if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -e '.[dev]'; } \
    > .venv/install.log 2>&1; then
  cat .venv/install.log >&2
  echo "scripts/bootstrap.sh: the install failed (log above, also in .venv/install.log)" >&2
  exit 1
fi
