#!/usr/bin/env bash
# Installs bubblewrap (and python3-seccomp, which compiles the sandbox's system call filter:
# bench/measurement/sandbox/seccomp.js) on a GitHub-hosted Ubuntu runner and lets bubblewrap make
# user namespaces: run by ci.yml, bench-hosted.yml and the hosted template (perfgate-hosted.yml)
# before anything is sandboxed. Ubuntu 24.04's
# AppArmor (kernel.apparmor_restrict_unprivileged_userns=1, which GitHub's ubuntu-24.04 image
# keeps) lets no unprivileged program make user namespaces unless a profile allows it: this one
# allows it for /usr/bin/bwrap only, not system-wide. Not Ubuntu's extra profile
# bwrap-userns-restrict: it takes the capabilities of whatever bwrap starts, so the servers' bwrap,
# which runs inside the private-network step's bwrap, could not set up its mounts
# (docs/self-hosted-runner.md).
set -eo pipefail
sudo apt-get update -qq
sudo apt-get install -y -qq --no-install-recommends bubblewrap python3-seccomp
printf '%s\n' 'abi <abi/4.0>,' 'include <tunables/global>' \
  'profile bwrap /usr/bin/bwrap flags=(unconfined) {' '  userns,' '}' | sudo tee /etc/apparmor.d/bwrap >/dev/null
sudo apparmor_parser -r /etc/apparmor.d/bwrap
