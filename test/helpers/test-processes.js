// Which test file a process belongs to, so that a check for processes left behind sees its own
// file's only while other e2e files run beside it (npm test runs them two at a time).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const OWN_FILE = resolve(process.argv[1] ?? '');

function parentOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The name in parentheses may hold spaces: the fields after it are state, then the parent.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const commandLine = (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

/**
 * The test file of the nearest ancestor that runs one (the process itself included).
 * @returns {string|null|undefined} null: none (an orphan: what a leftover check is for); undefined: gone
 */
export function testFileOf(pid) {
  try {
    for (let current = Number(pid), hops = 0; current > 1 && hops < 100; hops++) {
      const file = commandLine(current).find((arg) => arg.endsWith('.test.js'));
      if (file) return resolve(file);
      current = parentOf(current);
    }
    return null;
  } catch {
    return undefined;
  }
}

// Whether a live process is this test file's or an orphan, not one another test file still holds.
export function ownOrOrphan(pid) {
  const file = testFileOf(pid);
  return file === null || file === OWN_FILE;
}

// `ps -eo pid=,args=` lines of processes this test file started or left behind.
export const ownLines = (lines) => lines.filter((line) => line.trim() && ownOrOrphan(line.trim().split(/\s+/)[0]));
