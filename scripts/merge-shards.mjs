#!/usr/bin/env node
// Merges the results directories of bench-main's shards (one per variant) into one pair of
// github-action-benchmark inputs for the publishing job (and the relative trend's pair, with its
// baselines file, when the shards measured one; step outputs trend and baselines say which):
//   node scripts/merge-shards.mjs --out DIR SHARD_DIR...
// Exit 0 merged, 2 bad input (no shard measured anything, a malformed file, a name twice).
import { join } from 'node:path';
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { runCommand, usageLine } from '../bench/cli/run.js';
import { errors } from '../bench/core/errors.js';
import { mergeShards } from '../bench/github/shards.js';
import { setOutputs } from '../bench/github/context.js';
import { OUTPUT_FILES } from '../bench/results/write.js';
import { BASELINES_FILE, writeBaselines } from '../bench/comparison/trend/anchors.js';
import { TREND_FILES } from '../bench/comparison/trend/write.js';

const MERGE_SHARDS_COMMAND = {
  name: 'merge-shards',
  invocation: 'node scripts/merge-shards.mjs',
  synopsis: '--out DIR SHARD_DIR...',
  summary: "Merges the results directories of bench-main's shards into one pair of github-action-benchmark inputs.",
  options: {
    out: { type: 'string', value: 'DIR', help: 'where the merged inputs are written', required: true },
  },
  positionals: { value: 'SHARD_DIR...', min: 1, max: Infinity, missing: 'name at least one shard directory' },
};

await runCommand(MERGE_SHARDS_COMMAND, ({ values, positionals }) => {
  const merged = mergeShards(positionals);
  for (const dir of merged.missing)
    console.error(`merge-shards: ${dir} has no benchmark files (its shard measured nothing); left out`);
  if (!merged.merged.length)
    throw errors.badArgs(['no shard has benchmark files: nothing to publish'], usageLine(MERGE_SHARDS_COMMAND));
  for (const kind of ['bigger', 'smaller'])
    writeFileAtomicSync(join(values.out, OUTPUT_FILES[kind]), `${JSON.stringify(merged[kind], null, 2)}\n`);
  console.log(
    `merged ${merged.merged.length} shard(s): ${merged.bigger.length} + ${merged.smaller.length} benchmarks into ${values.out}`,
  );
  // The relative trend: its inputs only when some shard measured one (the action refuses an
  // empty file), and the baselines file whenever a shard has one (a re-anchor adds no point).
  const trend = merged.trendBigger.length + merged.trendSmaller.length > 0;
  if (trend) {
    writeFileAtomicSync(join(values.out, TREND_FILES.bigger), `${JSON.stringify(merged.trendBigger, null, 2)}\n`);
    writeFileAtomicSync(join(values.out, TREND_FILES.smaller), `${JSON.stringify(merged.trendSmaller, null, 2)}\n`);
    console.log(`relative trend: ${merged.trendBigger.length} + ${merged.trendSmaller.length} lines`);
  }
  if (merged.baselines) writeBaselines(join(values.out, BASELINES_FILE), merged.baselines);
  setOutputs({ trend, baselines: Boolean(merged.baselines) });
});
