# shellcheck shell=bash
# Sourced by the actions' steps: git authenticates to GitHub with $GH_TOKEN, which reaches git
# as an HTTP header from the environment, never in a URL or an argument (where logs show it).
basic="$(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraheader GIT_CONFIG_VALUE_0="AUTHORIZATION: basic $basic"
