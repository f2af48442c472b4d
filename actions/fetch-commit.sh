#!/usr/bin/env bash
# Fetches $HEAD_SHA (a full commit SHA, checked here) from origin with $GH_TOKEN; run by the
# compare and upgrade-gate actions before they read that commit. Like perfgate's own
# scripts/approved-commit.mjs, it refuses to run from any ref but the default branch (the
# event's repository.default_branch): the definition that runs must be the reviewed one.
set -eo pipefail
if [[ ! "$HEAD_SHA" =~ ^[0-9a-f]{40}$ ]]; then
  echo "::error::head-sha must be a full 40-character commit SHA"
  exit 2
fi
default_branch="$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.env.GITHUB_EVENT_PATH, "utf8")).repository?.default_branch ?? ""))')"
if [[ -z "$default_branch" || "$GITHUB_REF" != "refs/heads/$default_branch" ]]; then
  echo "::error::this runs on ${GITHUB_REF:-no ref}: dispatch the workflow on the default branch (${default_branch:-unknown}) only, so that its definition is the reviewed one"
  exit 2
fi
# shellcheck source=actions/git-token.sh
source "$(dirname "${BASH_SOURCE[0]}")/git-token.sh"
git fetch --quiet --no-tags origin "$HEAD_SHA"
