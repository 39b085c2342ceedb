#!/usr/bin/env bash
# Makes the real Pulumi CLI usable offline for the project's scripts and tests:
#   pulumi                         an installed one of version >= MIN_CLI (below), else built from
#                                  Go source at BUILD_VERSION (scripts/toolchain/cli-version)
#   pulumi-language-nodejs         the one beside the installed CLI or on PATH, else our own host
#                                  built from ./language-host
#   pulumi-resource-pulumi-nodejs  the dynamic provider's plugin, shipped in @pulumi/pulumi
# Prints one line on stdout: the colon-separated directories to prepend to PATH. Which CLI and
# host are used goes to stderr. Everything built lands in a cache outside the repo, so only the
# first build is slow.
#
# Why MIN_CLI is 3.160.0: `pulumi refresh --run-program` (used by `mediahost-drift --run-program`)
# arrived in 3.160.0; every other command the provider, its tools and tests use is older
# (`refresh --preview-only` 3.105, `refresh --clear-pending-creates` 3.39).
#
# Environment: MEDIAHOST_TOOLCHAIN_CACHE (default $XDG_CACHE_HOME/pulumi-mediahost or
# ~/.cache/pulumi-mediahost), GO (path of the go binary), MEDIAHOST_PULUMI_FROM_SOURCE=1 (ignore
# an installed CLI).
set -euo pipefail

MIN_CLI=3.160.0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sdk="$repo/node_modules/@pulumi/pulumi"
log() { echo "toolchain: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$sdk/package.json" ] || die "$sdk is missing: run \`npm install\` (or \`npm ci\`) first"
version=$(tr -d ' \n' <"$here/cli-version")
[ -n "$version" ] || die "$here/cli-version is empty"

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
  [ -x "$go" ] || die "Go is needed to build the Pulumi toolchain (set GO=/path/to/go), or install a Pulumi CLI >= $MIN_CLI"
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

at_least() { # version minimum -> true when version >= minimum (both X.Y.Z)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

dirs=()

# 1. The CLI: an installed one that is new enough, else ours.
pulumi_path=$(ambient pulumi)
[ -z "${MEDIAHOST_PULUMI_FROM_SOURCE:-}" ] || pulumi_path=""
installed=""
if [ -n "$pulumi_path" ]; then
  installed=$("$pulumi_path" version 2>/dev/null | sed -n 's/^v\([0-9][0-9.]*\).*/\1/p' | head -n1)
  if [ -n "$installed" ] && at_least "$installed" "$MIN_CLI"; then
    log "using the installed pulumi v$installed at $pulumi_path"
    dirs+=("$(dirname "$pulumi_path")")
  else
    log "ignoring $pulumi_path (v${installed:-unknown}): older than v$MIN_CLI"
    installed=""
  fi
fi
if [ -z "$installed" ]; then
  if [ ! -x "$bin/pulumi" ] || [ "$("$bin/pulumi" version 2>/dev/null)" != "v$version" ]; then
    log "building pulumi v$version from Go source into $cache (first run only; ~8-20 min on 2 cores)"
    require_go
    built=true
    GO=$go bash "$here/build-cli.sh" "$version" "$cache" >/dev/null \
      || die "building pulumi v$version failed (see above)"
  fi
  log "using pulumi v$version built from source at $bin/pulumi"
fi

# 2. The Node.js language host: the one that came with the installed CLI (beside it, or on PATH),
# else ours, rebuilt whenever its source changes.
host=""
if [ -n "$installed" ] && [ -x "$(dirname "$pulumi_path")/pulumi-language-nodejs" ]; then
  host="$(dirname "$pulumi_path")/pulumi-language-nodejs"
elif [ -n "$installed" ]; then
  host=$(ambient pulumi-language-nodejs)
fi
if [ -n "$host" ]; then
  log "using the language host $host"
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
