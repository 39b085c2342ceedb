#!/usr/bin/env bash
# Makes the real Pulumi CLI usable offline, at the version of the @pulumi/pulumi npm dependency:
#   pulumi                         (on PATH already at that version, or built from Go source)
#   pulumi-language-nodejs         (on PATH already, or our own host from ./language-host)
#   pulumi-resource-pulumi-nodejs  (the dynamic provider's shim, shipped in @pulumi/pulumi)
# Prints one line on stdout: the colon-separated directories to prepend to PATH. Progress goes to
# stderr. Everything lands in a cache outside the repo, so only the first run is slow.
#
# Environment: MEDIAHOST_TOOLCHAIN_CACHE (default $XDG_CACHE_HOME/pulumi-mediahost or
# ~/.cache/pulumi-mediahost), GO (path of the go binary).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sdk="$repo/node_modules/@pulumi/pulumi"
log() { echo "toolchain: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$sdk/package.json" ] || die "$sdk is missing: run \`npm install\` (or \`npm ci\`) first"
# any node will do to read JSON; sed is the fallback when none is on PATH yet
version=$(node -p 'require(process.argv[1]).version' "$sdk/package.json" 2>/dev/null ||
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$sdk/package.json" | head -n1)
[ -n "$version" ] || die "could not read the version from $sdk/package.json"

cache="${MEDIAHOST_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-mediahost}/pulumi-v$version"
bin="$cache/bin"
mkdir -p "$bin"
export PULUMI_SKIP_UPDATE_CHECK=true # `pulumi version` must not try the network

# Two test workers (or a test and a shell) may provision at once; the second waits here, then
# finds everything built.
exec 9>"$cache/.lock"
if ! flock -n 9; then
  log "waiting for another provisioning run (lock $cache/.lock)..."
  flock 9
fi
start=$SECONDS
built=false

# Only called when something must be built: a warm cache needs no Go.
require_go() {
  go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
  [ -x "$go" ] || die "Go is needed to build the Pulumi toolchain (set GO=/path/to/go)"
}

# Atomic install: readers in other processes never see a half-written file.
install_file() { # src dest
  cmp -s "$1" "$2" 2>/dev/null && return 0
  cp "$1" "$2.tmp.$$"
  chmod +x "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}

# Sees through PATH entries that are our own bin dir.
ambient() { # name -> path outside $bin, or nothing
  local p
  p=$(PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$bin" | paste -sd: -) command -v "$1" 2>/dev/null) || true
  echo "$p"
}

dirs=()

# 1. The CLI.
pulumi_path=$(ambient pulumi)
if [ -n "$pulumi_path" ] && [ "$("$pulumi_path" version 2>/dev/null)" = "v$version" ]; then
  log "using $pulumi_path (v$version)"
  dirs+=("$(dirname "$pulumi_path")")
elif [ -x "$bin/pulumi" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "v$version" ]; then
  : # built by an earlier run
else
  [ -z "$pulumi_path" ] || log "ignoring $pulumi_path: not v$version"
  log "building pulumi v$version from Go source into $cache (first run only; ~8-20 min on 2 cores)"
  require_go
  built=true
  GO=$go bash "$here/build-cli.sh" "$version" "$cache" >/dev/null \
    || die "building pulumi v$version failed (see above)"
fi

# 2. The Node.js language host, rebuilt whenever its source changes.
if [ -n "$(ambient pulumi-language-nodejs)" ]; then
  log "using $(ambient pulumi-language-nodejs)"
else
  src="$here/language-host"
  hash=$(cd "$src" && { echo "$version"; cat go.mod go.sum $(ls *.go | grep -v '_test\.go$' | sort); } \
    | sha256sum | cut -c1-16)
  lh="$cache/language-host/$hash/pulumi-language-nodejs"
  if [ ! -x "$lh" ]; then
    log "building pulumi-language-nodejs ($hash)"
    require_go
    built=true
    mkdir -p "$(dirname "$lh")"
    (cd "$src" && GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false" "$go" build -trimpath \
      -ldflags "-s -w -X main.version=$version" -o "$lh.tmp" .) >&2 \
      || die "building pulumi-language-nodejs failed (see above)"
    mv -f "$lh.tmp" "$lh"
    # older builds are unreachable now
    find "$cache/language-host" -mindepth 1 -maxdepth 1 -type d ! -name "$hash" -exec rm -rf {} +
  fi
  # Next to `pulumi`, the engine treats it as bundled (no "using ... from $PATH" warning).
  install_file "$lh" "$bin/pulumi-language-nodejs"
fi

# 3. The dynamic provider's plugin: a shell script that runs @pulumi/pulumi/cmd/dynamic-provider,
# resolved with node from the provider process's working directory.
install_file "$sdk/pulumi-resource-pulumi-nodejs" "$bin/pulumi-resource-pulumi-nodejs"

dirs+=("$bin")
# quiet when nothing had to be built: `npm run -s pulumi -- ...` output stays clean
[ "$built" = false ] || log "pulumi v$version toolchain ready in $cache ($((SECONDS - start))s)"
(IFS=:; echo "${dirs[*]}")
