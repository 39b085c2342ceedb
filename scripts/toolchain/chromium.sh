#!/usr/bin/env bash
# Makes Debian's headless-capable Chromium available for the console's browser test
# (test/e2e/console.test.ts): nothing to do when /usr/bin/chromium exists, else
# `apt-get update && apt-get install -y chromium` (as root, or through sudo without a password).
# No browser is downloaded from anywhere but Debian's archive: playwright-core drives this binary.
# Prints the browser's path on stdout; what it does goes to stderr. Exit 1 when it cannot be had.
set -euo pipefail

CHROMIUM=${MEDIAHOST_CHROMIUM:-/usr/bin/chromium}
log() { echo "chromium: $*" >&2; }

if [ -x "$CHROMIUM" ]; then
  echo "$CHROMIUM"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  log "error: $CHROMIUM is missing and installing it needs root (apt-get install -y chromium)"
  exit 1
fi
command -v apt-get >/dev/null || { log "error: $CHROMIUM is missing and there is no apt-get here"; exit 1; }

# two test workers may ask at once: the second waits, then finds the browser installed
exec 9>"${TMPDIR:-/tmp}/mediahost-chromium.lock"
flock 9
if [ ! -x "$CHROMIUM" ]; then
  start=$SECONDS
  log "installing Debian's chromium package (apt-get; first run only)"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq >&2
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium >&2
  log "installed in $((SECONDS - start))s"
fi
[ -x "$CHROMIUM" ] || { log "error: apt-get finished but $CHROMIUM is still missing"; exit 1; }
echo "$CHROMIUM"
