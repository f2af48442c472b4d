#!/usr/bin/env node
// `perfgate <command> [options]`: the one command line of an installed perfgate. Each command
// is the script that `npm run <command>` runs in perfgate's own checkout, with the same flags;
// it runs in this process, as if started directly.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { invokedAs, reportError } from '../bench/cli/run.js';
import { errors } from '../bench/core/errors.js';

const SCRIPTS = new URL('../scripts/', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export const COMMANDS = {
  bench: [
    'bench.mjs',
    'measure the servers of perfgate.config (or a built-in suite), write results and the local history',
  ],
  compare: [
    'compare.mjs',
    'base vs head (--base REF --head REF, or --dep PKG@V1 --vs PKG@V2) with a verdict per benchmark',
  ],
  calibrate: ['calibrate.mjs', 'inject known slowdowns and report which ones compare detects on this machine'],
  bisect: ['bisect.mjs', 'find the commit that made a benchmark slower, with a differential CPU profile'],
  detect: ['detect.mjs', 'change points in the history (each step of a trend line, with its commit)'],
  site: ['site.mjs', 'serve the trend site over the local history'],
  publish: ['publish.mjs', 'append results to a history branch (gh-pages)'],
  'client-check': ['client-check.mjs', 'is the load generator the limit? autocannon vs wrk on the same server'],
  trend: ['trend.mjs', 'the relative trend: HEAD against the pinned baseline in duet, appended to the history'],
  'sandbox-overhead': [
    'sandbox-overhead.mjs',
    "what the sandbox costs on this machine: perfgate's node-http unsandboxed vs sandboxed, duet A/A",
  ],
  'agent-overhead': [
    'agent-overhead.mjs',
    "what the runtime agent (--runtime-metrics) costs on this machine: perfgate's node-http without vs with it, duet A/A",
  ],
  'duet-cost': ['duet-cost.mjs', 'what duet costs each server, and an injected change in duet vs each server alone'],
};

const USAGE = `usage: perfgate <command> [options]      (perfgate <command> --help for its options)

${Object.entries(COMMANDS)
  .map(([name, [, what]]) => `  ${name.padEnd(13)} ${what}`)
  .join('\n')}

In a repository, perfgate reads perfgate.config.json at its root: see
docs/getting-started.md in the perfgate package.`;

const [command, ...args] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h' || command === 'help') {
  console.log(USAGE);
} else if (command === '--version' || command === '-v') {
  console.log(version);
} else if (!COMMANDS[command]) {
  // The catalogue's bad-arguments error, with the exit code every command gives it.
  reportError(
    errors.badArgs([`unknown command "${command}": choose one of ${Object.keys(COMMANDS).join(', ')}`], USAGE),
  );
} else {
  const script = fileURLToPath(new URL(COMMANDS[command][0], SCRIPTS));
  // The script reads its own path and arguments from process.argv, as when started directly.
  process.argv = [process.argv[0], script, ...args];
  invokedAs('perfgate');
  await import(pathToFileURL(script));
}
