#!/usr/bin/env node
// Merges the results directories of bench-main's shards (one per variant) into one pair of
// github-action-benchmark inputs for the publishing job:
//   node scripts/merge-shards.mjs --out DIR SHARD_DIR...
// Exit 0 merged, 2 bad input (no shard measured anything, a malformed file, a name twice).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomicSync } from '../bench/atomic-file.js';
import { PerfgateError } from '../bench/errors.js';
import { githubErrors } from '../bench/github/errors.js';
import { mergeShards } from '../bench/github/shards.js';
import { OUTPUT_FILES } from '../bench/results/write.js';

const USAGE = 'usage: node scripts/merge-shards.mjs --out DIR SHARD_DIR...';

try {
  const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true, strict: false });
  const problems = [
    ...Object.keys(values).filter((flag) => flag !== 'out').map((flag) => `unknown option --${flag}`),
    ...(typeof values.out === 'string' ? [] : ['--out DIR is required']),
    ...(positionals.length ? [] : ['name at least one shard directory']),
  ];
  if (problems.length) throw githubErrors.badArgs(problems, USAGE);
  const merged = mergeShards(positionals);
  for (const dir of merged.missing) console.error(`merge-shards: ${dir} has no benchmark files (its shard measured nothing); left out`);
  if (!merged.merged.length) throw githubErrors.badArgs(['no shard has benchmark files: nothing to publish'], USAGE);
  for (const kind of ['bigger', 'smaller']) writeFileAtomicSync(join(values.out, OUTPUT_FILES[kind]), `${JSON.stringify(merged[kind], null, 2)}\n`);
  console.log(`merged ${merged.merged.length} shard(s): ${merged.bigger.length} + ${merged.smaller.length} benchmarks into ${values.out}`);
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
}
