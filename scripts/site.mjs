#!/usr/bin/env node
// `npm run site`: serves the trend site (site/) over perfgate's local history, which
// appears at /dev/bench/data.js exactly where gh-pages has it, or over any data.js files
// (github-action-benchmark's gh-pages format, e.g. copies of several branches), with
// bench/site/server.js. Loopback only. `npm run site -- --help` lists the options.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandLine, runCommand } from '../bench/cli/run.js';
import { defaultHistoryPath } from '../bench/history/history-file.js';
import { repositoryRoot } from '../bench/project/config.js';
import { startSiteServer } from '../bench/site/server.js';

const SITE_COMMAND = {
  name: 'site',
  invocation: 'npm run site --',
  synopsis: '[--port N] [--data FILE...]',
  summary:
    "Serves the trend site (site/) over data.js files in github-action-benchmark's gh-pages format; loopback only.\n" +
    "Without --data: perfgate's local history (PERFGATE_HISTORY, default .perfgate/history/data.js), at /dev/bench/data.js as on gh-pages.\n" +
    'Several files (e.g. one per branch) show side by side: the printed URL names them all in ?data=.',
  options: {
    port: { type: 'port', value: 'N', help: 'the port on 127.0.0.1; the URL is printed', default: 0 },
    data: {
      type: 'string',
      multiple: true,
      value: 'FILE',
      help: 'a data.js to show; repeat it, or list the files after it',
    },
  },
  // --data a.js b.js: the files after the first are positionals to the parser.
  positionals: { max: Infinity, value: 'FILE' },
  check: (values, positionals) =>
    [...(values.data ?? []), ...positionals]
      .filter((file) => !existsSync(file))
      .map(
        (file) =>
          `--data ${file}: no such file; give the path of a data.js (github-action-benchmark's dev/bench/data.js or perfgate's .perfgate/history/data.js)`,
      ),
};

async function main({ values: { port, data }, positionals }) {
  const given = [...(data ?? []), ...positionals].map((file) => resolve(file));
  // Default: the same file `npm run bench` appends to (PERFGATE_HISTORY or .perfgate/history/data.js),
  // in the repository it runs in: perfgate's own, or a user's with perfgate installed.
  const dataFiles = given.length ? given : [defaultHistoryPath(repositoryRoot())];
  const site = await startSiteServer({ dataFiles, port });
  console.log(`perfgate site: ${site.pageUrl}`);
  console.log(
    dataFiles.every((file) => existsSync(file))
      ? `data: ${dataFiles.join(', ')}`
      : `no data yet at ${dataFiles[0]}: run ${commandLine('bench')}`,
  );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => site.close().then(() => process.exit(0)));
  }
}

await runCommand(SITE_COMMAND, main);
