#!/bin/sh
# Renders images/icon.svg to images/icon.png (256 x 256) with headless Chromium.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
  --window-size=256,256 --screenshot="$out/icon.png" "file://$PWD/images/icon.svg" >/dev/null 2>&1
mv "$out/icon.png" images/icon.png
rmdir "$out"
