#!/usr/bin/env node
// `npm run dev -- --variant express`: for someone tuning a server. nodemon re-runs a 3 s
// smoke load of that variant each time a file under servers/ changes.
import nodemon from 'nodemon';
import { minimist } from 'zx';
import { resolveSuite } from '../bench/config/resolve.js';
import { PerfgateError } from '../bench/errors.js';

const args = minimist(process.argv.slice(2), { string: ['variant', 'scenario', 'connections'] });
const variant = args.variant ?? 'node-http';
const scenario = args.scenario ?? 'hello';
const connections = args.connections ?? '10';
try {
  // Fail here, once, on a typo, rather than on every restart.
  await resolveSuite({ suite: 'smoke', overrides: { variants: [variant], scenarios: [scenario] } });
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exit(2);
}

const benchCommand = ['node', 'scripts/bench.mjs', '--suite', 'smoke', '--variant', variant, '--scenario', scenario,
  '--connections', connections, '--duration', '3', '--warmup', '0.5', '--no-history', '--out', 'results/dev'];
nodemon({ exec: benchCommand.join(' '), watch: ['servers/'], ext: 'js,mjs,cjs,json', signal: 'SIGTERM' })
  .on('start', () => console.log(`perfgate dev: ${variant} ${scenario} c=${connections}, 3 s load; edit servers/ to re-run, Ctrl-C to stop`))
  .on('quit', () => process.exit(0));
