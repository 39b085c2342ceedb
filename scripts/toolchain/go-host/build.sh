#!/usr/bin/env bash
# Builds Pulumi's Go language host, pulumi-language-go, at the CLI's version, into OUT. Called by
# scripts/toolchain/provision.sh when no installed one is found.
#
# The host is the module github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3 (main.go at its
# root). Its go.mod replaces pkg/v3 and sdk/v3 with directories of the pulumi repository, so
# `go install module@version` refuses it, and it has no tags of its own: the module proxy knows it
# only by the pseudo-version of a commit. So, as build-cli.sh does for the CLI, a wrapper module
# requires it at the pseudo-version of the CLI's release commit (PSEUDO below), with pkg/v3 and
# sdk/v3 at the CLI's version and the third-party replace line copied, then builds it.
# With MEDIAHOST_PULUMI_SOURCE=<a checkout of pulumi at that tag>, the host's source is taken
# from the checkout instead of the proxy (what Pulumi's own release does).
set -euo pipefail
version="$1" # the CLI's version, e.g. 3.259.0
out="$2"     # where the binary goes
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
module=github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3
# v<CLI version> -> the pseudo-version of its tag's commit (pulumi/pulumi `git rev-list -n1 v3.259.0`)
pseudo=$(sed -n "s/^v$version //p" "$here/pseudo-versions")
[ -n "$pseudo" ] || { echo "no pseudo-version of $module for v$version in $here/pseudo-versions" >&2; exit 1; }

src="$(dirname "$out")/src"
rm -rf "$src"
mkdir -p "$src"
cd "$src"
{
  echo "module pulumi-mediahost.local/toolchain/go-host"
  echo
  echo "go 1.25.11"
  echo
  echo "require ("
  echo "	$module $pseudo"
  echo "	github.com/pulumi/pulumi/pkg/v3 v$version"
  echo "	github.com/pulumi/pulumi/sdk/v3 v$version"
  echo ")"
  echo
  echo "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e"
  if [ -n "${MEDIAHOST_PULUMI_SOURCE:-}" ]; then
    echo "replace $module => $MEDIAHOST_PULUMI_SOURCE/sdk/go/pulumi-language-go"
  fi
} >go.mod
cat >tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3"
GO
GOTOOLCHAIN=local GOFLAGS=-mod=mod "$go" mod tidy >&2
GOTOOLCHAIN=local GOFLAGS=-mod=mod "$go" build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
  -o "$out.tmp" "$module" >&2
mv -f "$out.tmp" "$out"
