#!/usr/bin/env bash
# Fetches $HEAD_SHA (a full commit SHA, checked here) from origin with $GH_TOKEN; run by the
# compare and upgrade-gate actions before they read that commit.
set -eo pipefail
if [[ ! "$HEAD_SHA" =~ ^[0-9a-f]{40}$ ]]; then
  echo "::error::head-sha must be a full 40-character commit SHA"
  exit 2
fi
# shellcheck source=actions/git-token.sh
source "$(dirname "${BASH_SOURCE[0]}")/git-token.sh"
git fetch --quiet --no-tags origin "$HEAD_SHA"
