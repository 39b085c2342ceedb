#!/usr/bin/env bash
# Builds the real Pulumi CLI from its Go module, at the version of the @pulumi/pulumi
# npm dependency, into a cache outside the repo. Prints the bin directory on stdout.
#
# Why a wrapper module: pkg/v3's go.mod has `replace` directives (sdk => ../sdk, a clipboard
# fork), so `go install pkg@version` refuses. A module of our own that requires pkg/v3 and
# sdk/v3 at the same version and copies the third-party replace line builds it fine.
set -euo pipefail
version="$1"      # e.g. 3.260.0
cache="$2"        # e.g. ~/.cache/pulumi-mediahost/pulumi-v3.260.0
bin="$cache/bin"
if [ -x "$bin/pulumi" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "v$version" ]; then
  echo "$bin"; exit 0
fi
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
src="$cache/src/cli"
mkdir -p "$src" "$bin"
cd "$src"
info=$("$go" mod download -json "github.com/pulumi/pulumi/pkg/v3@v$version" || true)
if grep -q '"Error"' <<<"$info"; then
  echo "cannot download github.com/pulumi/pulumi/pkg/v3@v$version from the Go module proxy:" >&2
  grep '"Error"' <<<"$info" >&2
  exit 1
fi
pkgmod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' <<<"$info")
{
  echo "module pulumi-mediahost.local/toolchain/cli"
  echo
  echo "go $(sed -n 's/^go \([0-9.]*\).*/\1/p' "$pkgmod")"
  echo
  echo "require ("
  echo "	github.com/pulumi/pulumi/pkg/v3 v$version"
  echo "	github.com/pulumi/pulumi/sdk/v3 v$version"
  echo ")"
  # third-party replaces only; the sdk => ../sdk one is what we replace by a version
  grep -E '^replace ' "$pkgmod" | grep -v 'pulumi/pulumi/sdk' || true
} > go.mod
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO
echo "building pulumi v$version (first run only; a few minutes)..." >&2
GOFLAGS=-mod=mod "$go" mod tidy >&2
GOFLAGS=-mod=mod "$go" build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
  -o "$bin/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
mv "$bin/pulumi.tmp" "$bin/pulumi"
echo "$bin"
