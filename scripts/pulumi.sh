#!/usr/bin/env bash
# `npm run -s pulumi -- <args>`: the real Pulumi CLI that scripts/toolchain/provision.sh chose (an
# installed one >= 3.160, else one built from source), with the repo's Node 24, offline and with
# local state unless you say otherwise.
#
# Defaults (each only if you have not set it yourself):
#   PULUMI_BACKEND_URL=file://<repo>/.pulumi-state   state stays in the repo dir (git-ignored)
#   PULUMI_CONFIG_PASSPHRASE=mediahost-local-dev     ONLY for local throwaway stacks: it is public.
#                                                    Set it or PULUMI_CONFIG_PASSPHRASE_FILE for
#                                                    anything you care about.
#   PULUMI_SKIP_UPDATE_CHECK=true, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true (offline)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dirs=$(bash "$repo/scripts/toolchain/provision.sh")
export PATH="$dirs:$repo/node_modules/.bin:$PATH"

export PULUMI_SKIP_UPDATE_CHECK="${PULUMI_SKIP_UPDATE_CHECK:-true}"
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION="${PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION:-true}"
if [ -z "${PULUMI_BACKEND_URL:-}" ]; then
  mkdir -p "$repo/.pulumi-state"
  export PULUMI_BACKEND_URL="file://$repo/.pulumi-state"
fi
if [ -z "${PULUMI_CONFIG_PASSPHRASE+set}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  export PULUMI_CONFIG_PASSPHRASE=mediahost-local-dev
fi

exec pulumi "$@"
