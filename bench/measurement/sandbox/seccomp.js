// The system calls a sandboxed process may not make (bubblewrap's --seccomp, ./bubblewrap.js
// wrap): the kernel's attack surface a server never needs, refused with an error, never a kill.
// The filter is compiled once per process with libseccomp (./seccomp-filter.py; Debian package
// python3-seccomp, which scripts/setup.mjs installs); without it the sandbox runs unfiltered,
// its other walls unchanged.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerCleanup } from '../process/children.js';

// Debian's Python, where python3-seccomp is (not whichever python3 comes first on PATH).
const PYTHON = '/usr/bin/python3';
const COMPILER = fileURLToPath(new URL('./seccomp-filter.py', import.meta.url));

export const REFUSED = {
  EPERM: [
    // The kernel's keyrings are not namespaced: another user's keys, the runner's.
    'keyctl',
    'add_key',
    'request_key',
    // Programs run in the kernel, and the CPU's counters (of the other side's processes too).
    'bpf',
    'perf_event_open',
    // A tool of kernel exploits, and what only the machine's administrator does.
    'userfaultfd',
    'kexec_load',
    'kexec_file_load',
    'init_module',
    'finit_module',
    'delete_module',
  ],
  // Not there, as on an older kernel, so that a runtime falls back to its other I/O (libuv does).
  ENOSYS: ['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
};
// ioctl requests refused: typing into a terminal (TIOCSTI) or the console's (TIOCLINUX).
export const REFUSED_IOCTLS = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c };

let compiled;

/** The compiled filter: { file }, or { reason } there is none here, in one line. */
export function seccompFilter() {
  compiled ??= compile();
  return compiled;
}

function compile() {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-seccomp-'));
  registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'filter.bpf');
  const rules = JSON.stringify({ errno: REFUSED, ioctls: Object.values(REFUSED_IOCTLS) });
  const made = spawnSync(PYTHON, [COMPILER, rules, file], { encoding: 'utf8' });
  if (made.error)
    return { reason: `${PYTHON} cannot run (${made.error.code}): Debian packages python3, python3-seccomp` };
  if (made.status !== 0) {
    const said = (made.stderr ?? '').trim().split('\n').at(-1);
    return { reason: /No module named 'seccomp'/.test(said) ? 'python3-seccomp is not installed' : said };
  }
  return { file };
}
