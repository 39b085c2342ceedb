#!/usr/bin/env bash
# Fails the build when the media account has drifted from the stack: someone changed settings,
# aliases, folders, options or meta outside Pulumi.
#
#   drift-check.sh [--stack NAME] [--cwd PROJECT_DIR] [extra `pulumi preview` flags...]
#
# Runs `pulumi preview --refresh --expect-no-changes --diff` (read-only: nothing is written to
# the account or the state) and exits with
#   0  no drift
#   2  drift: prints each drifted resource and the properties that differ, as Pulumi's diff
#      shows what `pulumi up` would write back: `~ title: "account value" => "stack value"`
#   1  the check itself failed (credentials, network, program error): the output says why
# (the same codes as `mediahost-drift`, so either can run in the same CI step)
#
# Needs `pulumi` (and node for the TypeScript program) on PATH, a logged-in backend
# (PULUMI_BACKEND_URL / PULUMI_ACCESS_TOKEN), the stack's secrets provider passphrase if it uses
# one (PULUMI_CONFIG_PASSPHRASE) and the mediahost credentials in the stack config or in
# MEDIAHOST_BASE_URL / MEDIAHOST_CLIENT_ID / MEDIAHOST_CLIENT_SECRET.
#
# For a property-level report with state and account values side by side (also as JSON), use the
# `mediahost-drift` tool of the pulumi-mediahost package (docs/tools.md); this script only needs
# the Pulumi CLI.
set -uo pipefail

args=(--refresh --expect-no-changes --diff --non-interactive --suppress-progress --color never)
while [ $# -gt 0 ]; do
  case $1 in
    --stack | -s) args+=(--stack "$2"); shift 2 ;;
    --cwd | -C) args+=(--cwd "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "drift-check: pulumi preview ${args[*]}"
pulumi preview "${args[@]}" >"$out" 2>&1
status=$?

if [ $status -eq 0 ]; then
  echo "drift-check: no drift"
  exit 0
fi

if ! grep -q "no changes were expected" "$out"; then
  cat "$out"
  echo "drift-check: ERROR: the preview failed (exit $status) for another reason than drift; see above" >&2
  exit 1
fi

# Each changed resource's block of the --diff display: its header, URN and property lines.
echo "drift-check: DRIFT: the account differs from the stack in these resources and properties"
echo "(shown as \`pulumi up\` would put them back: account value => stack value)"
awk '
  # a changed resource: its header line, then [urn=...], then its properties
  /^ *[~+-]+ [^ ]+: \((update|replace|create|delete|create-replacement|delete-replaced)\)/ {
    op = $0; sub(/.*\(/, "", op); sub(/\).*/, "", op)
    type = $2; sub(/:$/, "", type); sub(/^pulumi-nodejs:dynamic\//, "", type)
    inres = 1; top = 0; mode = ""; next
  }
  /^ *[~+-]* *[^ ]+: \(same\)/ || /^Resources:/ { inres = 0; next }
  !inres || NF == 0 { next }
  /\[urn=/ { name = $0; sub(/.*::/, "", name); sub(/\].*/, "", name); printf "  %s %s (%s)\n", type, name, op; next }
  /^ *\[[a-z]+=/ { next }
  {
    # print the properties marked ~ + - (with what they contain), not the unchanged ones
    match($0, /[^ ]/); col = RSTART; marked = substr($0, col, 2) ~ /^[~+-] $/
    if (marked) { rest = substr($0, col + 1); match(rest, /[^ ]/); col += RSTART }
    if (top == 0) top = col
    line = $0; sub(/^ +/, "", line); gsub(/ +:/, ":", line)
    if (col > top) { if (mode == "nested") print "    " substr($0, top - 2); next }
    if (line ~ /^[]}]/) { if (mode == "nested") print "      " line; mode = ""; next }
    if (marked) print "    " line
    mode = (line ~ /[[{]$/) ? (marked ? "nested" : "skip") : ""
  }
' "$out"
echo
sed -n '/^Resources:/,$p' "$out" | sed '/^$/q'
echo "drift-check: FAILED: drift found; run \`pulumi up --refresh\` to put the account back, or change the program to accept it" >&2
exit 2
