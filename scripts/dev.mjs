#!/usr/bin/env node
// `npm run dev -- --variant express`: for someone tuning a server. nodemon re-runs a 3 s
// smoke load of that variant each time a file under servers/ changes.
import nodemon from 'nodemon';
import { runCommand } from '../bench/cli/run.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { closedLoad, loadTag } from '../site/shared/load-point.js';

const DEV_COMMAND = {
  name: 'dev',
  invocation: 'npm run dev --',
  synopsis: '[options]',
  summary: 'Re-runs a 3 s smoke load of one variant each time a file under servers/ changes.',
  options: {
    variant: { type: 'string', value: 'NAME', help: 'the variant being tuned', default: 'node-http' },
    scenario: { type: 'string', value: 'NAME', help: 'the scenario it serves', default: 'hello' },
    connections: { type: 'count', value: 'N', help: 'connections of the load', default: 10 },
  },
};

await runCommand(DEV_COMMAND, async ({ values: { variant, scenario, connections } }) => {
  // Fail here, once, on a typo, rather than on every restart.
  await resolveSuite({ suite: 'smoke', overrides: { variants: [variant], scenarios: [scenario] } });
  const benchCommand = [
    'node',
    'scripts/bench.mjs',
    '--suite',
    'smoke',
    '--variant',
    variant,
    '--scenario',
    scenario,
    '--connections',
    connections,
    '--duration',
    '3',
    '--warmup',
    '0.5',
    '--no-history',
    '--out',
    'results/dev',
  ];
  nodemon({ exec: benchCommand.join(' '), watch: ['servers/'], ext: 'js,mjs,cjs,json', signal: 'SIGTERM' })
    .on('start', () =>
      console.log(
        `perfgate dev: ${variant} ${scenario} ${loadTag(closedLoad(connections))}, 3 s load; edit servers/ to re-run, Ctrl-C to stop`,
      ),
    )
    .on('quit', () => process.exit(0));
});
