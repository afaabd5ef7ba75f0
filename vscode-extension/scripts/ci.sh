#!/usr/bin/env bash
# Builds and tests gdef's editor support, from a fresh machine, for .ci/run:
#   the VS Code extension (type-check, lint, unit and grammar tests, .vsix built with the server bundled),
#   Neovim headless and Emacs batch with the documented configurations, the extension end to end in a
#   real VS Code (code-server from npm, driven by Playwright with Debian's Chromium).
# Installs what it needs from the registries (apt as root, npm from the lock files).
# --install: only install (Debian packages, both npm trees), as scripts/test.sh does beside the
# Python suite; --installed: only build and test, on what --install left. Neither: both.
# $GDEF_PYTHON: a Python with gdef installed (default python3). Exits non-zero on any failure.
set -euo pipefail
phase="${1:-}"
case "$phase" in
  ""|--install|--installed) ;;
  *) echo "usage: vscode-extension/scripts/ci.sh [--install | --installed]" >&2; exit 2 ;;
esac

extension_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$extension_dir/.." && pwd)
e2e_dir="$root/tests/editors/vscode"
export GDEF_PYTHON="${GDEF_PYTHON:-python3}"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
started=$SECONDS

step() { printf '\n== %s (%ss)\n' "$*" "$((SECONDS - started))"; }
fail() { echo "editors ci: $*" >&2; exit 1; }

# ---------------------------------------------------------------- installing
install() {
step "system packages"
# neovim, emacs-nox + elpa-eglot: their tests; chromium: the browser Playwright drives; the
# rest builds code-server's native modules (node-pty, keymaps, kerberos) and serves its search.
wanted=(neovim emacs-nox elpa-eglot chromium build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep)
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  [[ $(id -u) == 0 ]] || fail "missing Debian packages: ${missing[*]} (run as root, or apt-get install them)"
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v node >/dev/null || fail "node is not installed (Node 20 is needed: code-server 4.100 runs on it)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[[ $node_major == 20 ]] || echo "warning: Node $node_major; code-server 4.100.x is built for Node 20"
cd "$extension_dir"
step "extension: npm ci"
npm ci --no-progress --loglevel=error
cd "$e2e_dir"
step "code-server: npm ci"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# @vscode/ripgrep (inside code-server) downloads rg from GitHub at install time; give it
# Debian's rg in the cache it looks in first. The version is the one code-server 4.100.3 uses.
ripgrep_cache="$work/vscode-ripgrep-cache-1.15.11"
mkdir -p "$ripgrep_cache"
tar czf "$ripgrep_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
# as root, npm runs install scripts only with unsafe-perm; node-pty's runs `npx node-gyp`
TMPDIR="$work" npm_config_unsafe_perm=true npm_config_yes=true npm ci --no-progress --loglevel=error
}

# ---------------------------------------------------------------- the extension
check() {
"$GDEF_PYTHON" -c "import gdef_lsp, gdef_core" || fail "gdef is not installed in $GDEF_PYTHON (set GDEF_PYTHON)"
cd "$extension_dir"
step "extension: grammar in step with gdef_core/builtins.py"
"$GDEF_PYTHON" scripts/sync_grammar.py --check
step "extension: type-check"
npm run -s typecheck
step "extension: lint"
npm run -s lint
step "extension: unit tests (the choice of Python and gdef)"
npm run -s test:unit
step "extension: grammar tests (token assertions, and every token of the examples against gdef's scanner)"
npm run -s test:grammar
step "extension: package the .vsix"
rm -f gdef.vsix
npm run -s package >/dev/null
[[ -s gdef.vsix ]] || fail "npm run package made no gdef.vsix"
"$GDEF_PYTHON" -c "import sys, zipfile; sys.exit('extension/dist/extension.js' not in zipfile.ZipFile('gdef.vsix').namelist())" \
  || fail "gdef.vsix has no bundled extension"
"$GDEF_PYTHON" -c "import sys, zipfile; names = zipfile.ZipFile('gdef.vsix').namelist(); sys.exit(not {'extension/bundled/manifest.json', 'extension/bundled/libs/gdef_lsp/server.py', 'extension/bundled/libs/gdef_dap/server.py', 'extension/bundled/libs/pygls/__init__.py'} <= set(names))" \
  || fail "gdef.vsix does not carry the language server (bundled/)"

# ---------------------------------------------------------------- Neovim and the editor tests in pytest
cd "$root"
step "pytest tests/editors and the formatter in Neovim (Neovim headless, Emacs batch, grammar sync, snippets, docs, problem matcher)"
GDEF_REQUIRE_EDITORS=1 "$GDEF_PYTHON" -m pytest -q -p no:cacheprovider tests/editors tests/test_format_editors.py

# ---------------------------------------------------------------- VS Code end to end
cd "$e2e_dir"
step "VS Code end to end (code-server + Playwright + Chromium)"
GDEF_VSIX="$extension_dir/gdef.vsix" timeout 900 npm test
step "editors: all passed"
}

if [[ $phase != --installed ]]; then install; fi
if [[ $phase != --install ]]; then check; fi
