// uWebSockets.js is a native addon shipped by an npm mirror (package.json "overrides"); its
// binary needs a recent enough glibc and a known Node ABI. The variants built on it ask here
// whether it loads (in a child process), and import the package only inside start(), so that
// listing the variants works where it cannot load.
import { createRequire } from 'node:module';
import { commandProblem } from './probe.js';

let verdict;

function loadProblem() {
  let entry;
  try {
    entry = createRequire(import.meta.url).resolve('uWebSockets.js');
  } catch {
    return 'uWebSockets.js is not installed (npm ci installs the mirror named in package.json)';
  }
  return commandProblem([process.execPath, '-e', `require(${JSON.stringify(entry)})`], 'uWebSockets.js');
}

export async function uwsUnavailable() {
  verdict ??= loadProblem();
  return verdict;
}
