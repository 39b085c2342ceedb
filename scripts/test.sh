#!/usr/bin/env bash
# `npm test`: lint, build, type-check the tests, unit-test the language hosts, then run every vitest
# project (unit, integration, contract, e2e). Every step runs even if an earlier one failed, so one
# run shows all problems; the exit code is non-zero if any step failed.
# e2e tests provision the real Pulumi CLI (scripts/toolchain/provision.sh), and the console's browser
# test Debian's Chromium (scripts/toolchain/chromium.sh), the object-store tests versitygw
# (scripts/toolchain/objectstore.sh), both run below before the tests; locally they
# skip with a message if that is impossible, under CI=true they fail instead.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
# The project's Node 24 (the `node` devDependency), also when run as plain `bash scripts/test.sh`.
export PATH="$repo/node_modules/.bin:$PATH"

failed=()
step() { # name command...
  local name=$1 start=$SECONDS
  shift
  printf '\n=== %s: %s\n' "$name" "$*"
  if "$@"; then
    printf '=== %s: ok (%ss)\n' "$name" $((SECONDS - start))
  else
    printf '=== %s: FAILED (%ss)\n' "$name" $((SECONDS - start))
    failed+=("$name")
  fi
}

step lint biome check .
step build npm run -s build
step typecheck-tests tsc -p tsconfig.test.json

go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [ -x "$go" ]; then
  # -trimpath as provision.sh builds the host: the packages it compiled (Pulumi's sdk and code
  # generators) are reused from Go's build cache instead of compiled again (minutes on 2 cores)
  step language-host bash -c "cd scripts/toolchain/language-host && GOFLAGS='-mod=readonly -buildvcs=false -trimpath' '$go' test ./..."
  step dotnet-host bash -c "cd scripts/toolchain/dotnet-host && GOFLAGS='-mod=readonly -buildvcs=false -trimpath' '$go' test ./..."
  step hostkit bash -c "cd scripts/toolchain/hostkit && GOFLAGS='-mod=readonly -buildvcs=false -trimpath' '$go' test ./..."
elif [ "${CI:-}" = "true" ]; then
  echo "=== language-host, dotnet-host, hostkit: FAILED: Go not found (needed under CI=true)"
  failed+=(language-host dotnet-host hostkit)
else
  echo "=== language-host, dotnet-host, hostkit: skipped: Go not found"
fi

# before the e2e tier, as the Pulumi toolchain is: the browser test needs Chromium
if [ "${CI:-}" = "true" ]; then
  step chromium bash scripts/toolchain/chromium.sh
elif bash scripts/toolchain/chromium.sh >/dev/null; then
  echo "=== chromium: ok"
else
  echo "=== chromium: unavailable (see above): test/e2e/console.test.ts will say so and skip"
fi

# likewise the S3 object store of test/e2e/objectstore-*.test.ts (versitygw, built once from its Go module)
if [ "${CI:-}" = "true" ]; then
  step objectstore bash scripts/toolchain/objectstore.sh
elif bash scripts/toolchain/objectstore.sh >/dev/null; then
  echo "=== objectstore: ok"
else
  echo "=== objectstore: unavailable (see above): test/e2e/objectstore-*.test.ts will say so and skip"
fi

step vitest vitest run

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED steps: ${failed[*]}"
  exit 1
fi
echo "npm test: all steps passed"
