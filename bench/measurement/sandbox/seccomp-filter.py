# Compiles the sandbox's system call filter with libseccomp (Debian package python3-seccomp), for
# bubblewrap's --seccomp (bench/measurement/sandbox/seccomp.js says what it refuses and why).
# Usage: /usr/bin/python3 seccomp-filter.py '<json: {"errno": {"EPERM": [names]}, "ioctls": [numbers]}>' <out>
import errno
import json
import sys

import seccomp

rules, out = json.loads(sys.argv[1]), sys.argv[2]
bpf = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
# The same rules for the 32-bit calls a 64-bit process can make, else they would bypass them.
COMPAT = {seccomp.Arch.X86_64: [seccomp.Arch.X86, seccomp.Arch.X32], seccomp.Arch.AARCH64: [seccomp.Arch.ARM]}
for arch in COMPAT.get(seccomp.system_arch(), []):
    bpf.add_arch(arch)
for name, calls in rules['errno'].items():
    for call in calls:
        bpf.add_rule(seccomp.ERRNO(getattr(errno, name)), call)
for request in rules['ioctls']:
    bpf.add_rule(seccomp.ERRNO(errno.EPERM), 'ioctl', seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, request))
with open(out, 'wb') as file:
    bpf.export_bpf(file)
