#!/usr/bin/env bash
# Makes a real S3 object store available offline for the tests that run Pulumi's DIY backend on an
# object store (test/e2e/objectstore-*.test.ts): versitygw (Versity's S3 gateway, Apache-2.0), built
# from its Go module at VERSION with `go install module@version` (its go.mod has no `replace`
# lines) into the toolchain cache, beside the Pulumi CLI. Only the first run builds (~2-4 min on
# 2 cores); later runs print the cached binary at once.
#
# Prints one line on stdout: the path of the versitygw binary. What it did goes to stderr.
# Exit 1 when it cannot be had (no Go and nothing cached, a failed build).
#
# Environment: MEDIAHOST_TOOLCHAIN_CACHE (default $XDG_CACHE_HOME/pulumi-mediahost or
# ~/.cache/pulumi-mediahost), GO (path of the go binary), MEDIAHOST_VERSITYGW (a versitygw binary
# to use instead; nothing is built).
set -euo pipefail

VERSION=1.7.0
MODULE=github.com/versity/versitygw/cmd/versitygw
log() { echo "objectstore: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [ -n "${MEDIAHOST_VERSITYGW:-}" ]; then
  [ -x "$MEDIAHOST_VERSITYGW" ] || die "MEDIAHOST_VERSITYGW=$MEDIAHOST_VERSITYGW is not an executable"
  echo "$MEDIAHOST_VERSITYGW"
  exit 0
fi

root="${MEDIAHOST_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-mediahost}"
cache="${root%/}/versitygw-v$VERSION"
binary="$cache/bin/versitygw"
mkdir -p "$cache"

# Two test workers may ask at once: the second waits here, then finds it built.
exec 9>"$cache/.lock"
if ! flock -n 9; then
  log "waiting for another build of versitygw (lock $cache/.lock)..."
  flock 9
fi

if [ ! -x "$binary" ]; then
  go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
  [ -x "$go" ] || die "Go is needed to build versitygw v$VERSION (set GO=/path/to/go, or MEDIAHOST_VERSITYGW=<binary>)"
  log "building versitygw v$VERSION from Go source into $cache (first run only; ~2-4 min on 2 cores)"
  start=$SECONDS
  gobin="$cache/bin.tmp.$$"
  rm -rf "$gobin"
  mkdir -p "$gobin"
  # GOFLAGS cleared: a -mod setting of the caller's would make `go install module@version` refuse.
  GOBIN="$gobin" GOTOOLCHAIN=local GOFLAGS= "$go" install -trimpath -ldflags "-s -w" "$MODULE@v$VERSION" >&2 \
    || { rm -rf "$gobin"; die "building versitygw v$VERSION failed (see above)"; }
  mkdir -p "$cache/bin"
  mv -f "$gobin/versitygw" "$binary"
  rm -rf "$gobin"
  log "built versitygw v$VERSION in $((SECONDS - start))s"
fi
echo "$binary"
