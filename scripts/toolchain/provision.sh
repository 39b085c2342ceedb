#!/usr/bin/env bash
# Makes the real Pulumi CLI usable offline for the project's scripts and tests:
#   pulumi                         an installed one of version >= MIN_CLI (below), else built from
#                                  Go source at BUILD_VERSION (scripts/toolchain/cli-version)
#   pulumi-language-nodejs         the one beside the installed CLI or on PATH, else our own host
#                                  built from ./language-host
#   pulumi-language-yaml           the one beside the installed CLI or on PATH, else built from
#                                  Pulumi YAML's Go module at YAML_VERSION (below)
#   pulumi-language-go             the one beside the installed CLI or on PATH, else Pulumi's own
#                                  built from its Go module at the CLI's commit (./go-host), else
#                                  our Node.js host's binary under that name: SDK generation only
#   pulumi-language-python         the one beside the installed CLI or on PATH, else our Node.js host's
#                                  binary under that name: SDK generation only (gen-sdk)
#   pulumi-language-dotnet         the one beside the installed CLI or on PATH, else ours built from
#                                  ./dotnet-host: SDK generation only (gen-sdk)
#   pulumi-resource-pulumi-nodejs  the dynamic provider's plugin, shipped in @pulumi/pulumi
# Prints one line on stdout: the colon-separated directories to prepend to PATH. Which CLI and
# hosts are used goes to stderr. Everything built lands in a cache outside the repo, so only the
# first build is slow.
#
# Why MIN_CLI is 3.160.0: `pulumi refresh --run-program` (used by `mediahost-drift --run-program`)
# arrived in 3.160.0; every other command the provider, its tools and tests use is older
# (`refresh --preview-only` 3.105, `refresh --clear-pending-creates` 3.39).
# Why YAML_VERSION is 1.25.0: see scripts/toolchain/README.md.
#
# Layout of the cache (shared by every checkout of the repository on the machine):
#   pulumi-vX.Y.Z/bin/pulumi                    the CLI built from source (build-cli.sh)
#   pulumi-vX.Y.Z/nodejs-host/<hash>/           our Node.js language host (also our Python and Go
#                                               SDK-only hosts), per source hash
#   pulumi-vX.Y.Z/dotnet-host/<hash>/           our .NET SDK-only host, per source hash
#   pulumi-vX.Y.Z/yaml-host/vA.B.C/             pulumi-language-yaml built from its module
#   pulumi-vX.Y.Z/go-host/<pseudo-version>/     pulumi-language-go built from its module (a failed
#                                               build's error in <pseudo-version>.failed, for a day)
#   pulumi-vX.Y.Z/path/<key>/bin/               what goes on PATH: hard links to the CLI and the
#                                               hosts this checkout uses, side by side, because the
#                                               CLI looks for its language hosts next to its own
#                                               real path. One directory per combination, so two
#                                               checkouts with different host sources never swap
#                                               each other's host mid-run.
#
# Environment: MEDIAHOST_TOOLCHAIN_CACHE (default $XDG_CACHE_HOME/pulumi-mediahost or
# ~/.cache/pulumi-mediahost), GO (path of the go binary), MEDIAHOST_PULUMI_FROM_SOURCE=1 (ignore
# an installed CLI), MEDIAHOST_PULUMI_SOURCE (a checkout of pulumi at the CLI's tag: the Go host's
# source is taken from it instead of the module proxy).
set -euo pipefail

MIN_CLI=3.160.0
YAML_VERSION=1.25.0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sdk="$repo/node_modules/@pulumi/pulumi"
log() { echo "toolchain: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$sdk/package.json" ] || die "$sdk is missing: run \`npm install\` (or \`npm ci\`) first"
version=$(tr -d ' \n' <"$here/cli-version")
[ -n "$version" ] || die "$here/cli-version is empty"

root="${MEDIAHOST_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-mediahost}"
root="${root%/}"
cache="$root/pulumi-v$version"
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
have_go() {
  go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
  [ -x "$go" ]
}
require_go() { # what-to-install-instead
  have_go || die "Go is needed to build the Pulumi toolchain (set GO=/path/to/go), or install $1"
}

# What a build of one of our Go modules depends on: go.mod, go.sum, the non-test sources, the
# words given (e.g. the version stamped into it), and the go.mod and non-test sources of ../hostkit,
# the module both hosts share (through a replace to its folder).
source_hash() { # dir words...
  local dir=$1
  shift
  (cd "$dir" && {
    echo "$*"
    cat go.mod go.sum $(ls *.go | grep -v '_test\.go$' | LC_ALL=C sort)
    cd ../hostkit && cat go.mod $(find . -name '*.go' ! -name '*_test.go' | LC_ALL=C sort)
  } | sha256sum | cut -c1-16)
}

# Builds one of our Go modules (the language hosts) into out, atomically.
build_module() { # label src out version
  local t=$SECONDS
  built=true
  mkdir -p "$(dirname "$3")"
  (cd "$2" && GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false" "$go" build -trimpath \
    -ldflags "-s -w -X main.version=$4" -o "$3.tmp" .) >&2 \
    || die "building $1 failed (see above)"
  mv -f "$3.tmp" "$3"
  log "built $1 in $((SECONDS - t))s"
}

# Atomic install: readers in other processes never see a half-written file.
install_file() { # src dest
  cmp -s "$1" "$2" 2>/dev/null && return 0
  cp "$1" "$2.tmp.$$"
  chmod +x "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}

# A hard link (a copy across file systems), atomically: the CLI resolves symbolic links to find
# the hosts beside it, a hard link it does not.
install_link() { # src dest
  [ "$1" -ef "$2" ] && return 0
  if ! ln -f "$1" "$2.tmp.$$" 2>/dev/null; then
    install_file "$1" "$2"
    return 0
  fi
  mv -f "$2.tmp.$$" "$2"
}

# Sees through PATH entries inside our cache (what an earlier provisioning put on PATH).
ambient() { # name -> path outside $root, or nothing
  local p
  p=$(PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$root" | grep -vF "$root/" | paste -sd: -) \
    command -v "$1" 2>/dev/null) || true
  echo "$p"
}

at_least() { # version minimum -> true when version >= minimum (both X.Y.Z)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

# Removes what no provisioning has used for two weeks (other checkouts keep theirs fresh).
prune() { # dir keep
  [ -d "$1" ] || return 0
  touch "$1/$2"
  find "$1" -mindepth 1 -maxdepth 1 -type d ! -name "$2" -mtime +14 -exec rm -rf {} +
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
    require_go "a Pulumi CLI >= $MIN_CLI"
    built=true
    t=$SECONDS
    GO=$go bash "$here/build-cli.sh" "$version" "$cache" >/dev/null \
      || die "building pulumi v$version failed (see above)"
    log "built pulumi v$version in $((SECONDS - t))s"
  fi
  log "using pulumi v$version built from source at $bin/pulumi"
fi

# Our Node.js language host (./language-host), rebuilt whenever its source changes. The same binary
# is our Python and Go host (it picks its language by the name it runs under).
lh_hash=$(source_hash "$here/language-host" "$version")
lh_bin="$cache/nodejs-host/$lh_hash/pulumi-language-nodejs"
lh_used=false
language_host() { # what-to-install-instead -> builds it when missing
  lh_used=true
  [ -x "$lh_bin" ] && return 0
  log "building our language host ($lh_hash; ~1 min the first time, seconds after a source change)"
  require_go "$1"
  build_module "our language host" "$here/language-host" "$lh_bin" "$version"
}

# 2. The Node.js language host: the one that came with the installed CLI (beside it, or on PATH),
# else ours.
host=""
our_host=""
if [ -n "$installed" ] && [ -x "$(dirname "$pulumi_path")/pulumi-language-nodejs" ]; then
  host="$(dirname "$pulumi_path")/pulumi-language-nodejs"
elif [ -n "$installed" ]; then
  host=$(ambient pulumi-language-nodejs)
fi
if [ -n "$host" ]; then
  log "using the language host $host"
else
  language_host "a Pulumi CLI >= $MIN_CLI"
  our_host=$lh_bin
  log "using our pulumi-language-nodejs: $our_host"
fi

# 3. The YAML language host: the one that came with the installed CLI, else one on PATH, else ours,
# built from Pulumi YAML's module at YAML_VERSION. The module proxy serves it like any module; its
# go.mod has no replace directives, so `go install module@version` builds it as published.
yaml=""
our_yaml=""
if [ -n "$installed" ] && [ -x "$(dirname "$pulumi_path")/pulumi-language-yaml" ]; then
  yaml="$(dirname "$pulumi_path")/pulumi-language-yaml"
else
  yaml=$(ambient pulumi-language-yaml)
fi
if [ -n "$yaml" ]; then
  log "using the YAML language host $yaml"
else
  our_yaml="$cache/yaml-host/v$YAML_VERSION/pulumi-language-yaml"
  if [ ! -x "$our_yaml" ]; then
    log "building pulumi-language-yaml v$YAML_VERSION from Go source (first run only; ~1-3 min on 2 cores)"
    require_go "pulumi-language-yaml (or a Pulumi CLI >= $MIN_CLI that comes with it)"
    built=true
    t=$SECONDS
    gobin="$(dirname "$our_yaml").tmp.$$"
    rm -rf "$gobin"
    mkdir -p "$gobin"
    # GOFLAGS cleared: a -mod setting of the caller's would make `go install module@version` refuse.
    GOBIN="$gobin" GOTOOLCHAIN=local GOFLAGS= "$go" install -trimpath \
      -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION" \
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$YAML_VERSION" >&2 \
      || { rm -rf "$gobin"; die "building pulumi-language-yaml v$YAML_VERSION failed (see above)"; }
    mkdir -p "$(dirname "$our_yaml")"
    mv -f "$gobin/pulumi-language-yaml" "$our_yaml"
    rm -rf "$gobin"
    log "built pulumi-language-yaml v$YAML_VERSION in $((SECONDS - t))s"
  fi
  log "using pulumi-language-yaml v$YAML_VERSION built from source at $our_yaml"
fi

# 4. The Python, Go and .NET language hosts, for `pulumi package gen-sdk`: the ones that came with
# the installed CLI, else ones on PATH, else ours, which only generate SDKs (and say so when asked
# for anything else): for python and go our language host's binary, for dotnet one built from
# ./dotnet-host (its own module: the C# generator left Pulumi's pkg after v3.228.0). Without Go,
# a missing one is left out with a warning: nothing else of the project needs them.
declare -A sdk_other=() sdk_ours=()
dn_hash=""

# Pulumi's Go language host at the CLI's version, which runs Go programs: built by ./go-host/build.sh
# and cached. A failed build is remembered for a day, its error in <dir>.failed, so that every
# run does not retry it; Go programs then cannot run, and SDK generation falls back to ours.
go_host=""
pulumi_go_host() {
  local pseudo dir failed
  pseudo=$(sed -n "s/^v$version //p" "$here/go-host/pseudo-versions")
  [ -n "$pseudo" ] || return 1
  dir="$cache/go-host/$pseudo"
  failed="$dir.failed"
  go_host="$dir/pulumi-language-go"
  [ -x "$go_host" ] && return 0
  if [ -f "$failed" ] && [ -z "${MEDIAHOST_PULUMI_SOURCE:-}" ] && [ -z "$(find "$failed" -mmin +1440)" ]; then
    log "pulumi-language-go could not be built today (see $failed): Go programs will not run"
    return 1
  fi
  have_go || return 1
  log "building pulumi-language-go v$version from its Go module (first run only; ~1-3 min on 2 cores)"
  built=true
  mkdir -p "$dir"
  if GO=$go bash "$here/go-host/build.sh" "$version" "$go_host" 2>"$failed"; then
    rm -f "$failed"
    return 0
  fi
  log "warning: building pulumi-language-go failed, Go programs will not run (see $failed): $(grep -m1 -E 'Forbidden|error' "$failed")"
  return 1
}

for lang in python go dotnet; do
  p=""
  if [ -n "$installed" ] && [ -x "$(dirname "$pulumi_path")/pulumi-language-$lang" ]; then
    p="$(dirname "$pulumi_path")/pulumi-language-$lang"
  else
    p=$(ambient "pulumi-language-$lang")
  fi
  if [ -n "$p" ]; then
    sdk_other[$lang]=$p
    log "using the $lang language host $p"
    continue
  fi
  if [ "$lang" = go ] && pulumi_go_host; then
    sdk_ours[go]=$go_host
    log "using pulumi-language-go v$version built from source at $go_host"
    continue
  fi
  if [ "$lang" = dotnet ]; then
    dn_hash=$(source_hash "$here/dotnet-host")
    out="$cache/dotnet-host/$dn_hash/pulumi-language-dotnet"
  else
    out=$lh_bin
  fi
  if [ ! -x "$out" ] && ! have_go; then
    log "warning: no pulumi-language-$lang (\`pulumi package gen-sdk --language $lang\` will fail): Go is needed to build ours (set GO=/path/to/go), or install it"
    [ "$lang" != dotnet ] || dn_hash=""
    continue
  fi
  if [ "$lang" = dotnet ]; then
    if [ ! -x "$out" ]; then
      log "building our pulumi-language-dotnet ($dn_hash; ~1-3 min the first time)"
      # stamped with the version of pkg it generates with
      build_module "our pulumi-language-dotnet" "$here/dotnet-host" "$out" \
        "$(sed -n 's|^[[:space:]]*github.com/pulumi/pulumi/pkg/v3 v\([0-9.]*\).*|\1|p' "$here/dotnet-host/go.mod")"
    fi
  else
    language_host "pulumi-language-$lang"
  fi
  sdk_ours[$lang]=$out
  log "using our pulumi-language-$lang (SDK generation only): $out"
done
[ "$lh_used" = false ] || prune "$cache/nodejs-host" "$lh_hash"
[ -z "$dn_hash" ] || prune "$cache/dotnet-host" "$dn_hash"

# 5. The directory that goes on PATH: what this checkout uses side by side. With our CLI, hard links
# to it and to its hosts (an installed YAML host is linked symbolically: it stays that one); with an
# installed CLI, only what it lacks. The dynamic provider's plugin is a shell script that runs
# @pulumi/pulumi/cmd/dynamic-provider, resolved with node from the provider process's working
# directory.
dynamic="$sdk/pulumi-resource-pulumi-nodejs"
key=$({ echo "cli ${installed:-ours}"; echo "nodejs ${our_host:-$host}"; echo "yaml ${our_yaml:-$yaml}"; \
  for lang in python go dotnet; do echo "$lang ${sdk_ours[$lang]:-${sdk_other[$lang]:-}}"; done; \
  sha256sum <"$dynamic"; } | sha256sum | cut -c1-16)
# .../bin: test/e2e/helpers/toolchain.ts hands <dir>/.. to the Automation API as the CLI's root
path_dir="$cache/path/$key/bin"
mkdir -p "$path_dir"
if [ -z "$installed" ]; then
  install_link "$bin/pulumi" "$path_dir/pulumi"
  install_link "$our_host" "$path_dir/pulumi-language-nodejs"
  if [ -n "$our_yaml" ]; then
    install_link "$our_yaml" "$path_dir/pulumi-language-yaml"
  else
    ln -sfn "$yaml" "$path_dir/pulumi-language-yaml"
  fi
elif [ -n "$our_yaml" ]; then
  # the CLI will say it uses it "from \$PATH": it is not beside the installed CLI
  install_link "$our_yaml" "$path_dir/pulumi-language-yaml"
fi
for lang in python go dotnet; do
  if [ -n "${sdk_ours[$lang]:-}" ]; then
    install_link "${sdk_ours[$lang]}" "$path_dir/pulumi-language-$lang"
  elif [ -z "$installed" ] && [ -n "${sdk_other[$lang]:-}" ]; then
    ln -sfn "${sdk_other[$lang]}" "$path_dir/pulumi-language-$lang"
  fi
done
install_file "$dynamic" "$path_dir/pulumi-resource-pulumi-nodejs"
prune "$cache/path" "$key"

dirs+=("$path_dir")
# quiet when nothing had to be built: `npm run -s pulumi -- ...` output stays clean
[ "$built" = false ] || log "pulumi v$version toolchain ready in $cache ($((SECONDS - start))s)"
(IFS=:; echo "${dirs[*]}")
