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
# The browser tests (tests/test_web_browser.py) drive Debian's Chromium through the playwright
# package: playwright's own browser download cannot work here, so Chromium comes from apt.
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium (for the browser tests) ..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } \
      > .venv/apt.log 2>&1 || { cat .venv/apt.log >&2; echo "scripts/bootstrap.sh: installing chromium failed" >&2; exit 1; }
  else
    echo "Chromium is not installed: the browser tests will be skipped (apt-get install chromium)" >&2
  fi
fi
