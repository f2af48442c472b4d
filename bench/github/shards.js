// The shards of bench-main's matrix, one results directory per variant, merged into one pair
// of github-action-benchmark inputs, so that each trend suite gets one entry per run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readBenchmarkInput } from '../history/input-file.js';
import { OUTPUT_FILES } from '../results/write.js';
import { githubErrors } from '../errors.js';

const KINDS = ['bigger', 'smaller'];

// Resolves to { bigger, smaller, merged: [dir], missing: [dir] }; a shard with neither file
// measured nothing (its own job failed and says why) and is left out.
export function mergeShards(dirs) {
  const merged = { bigger: [], smaller: [], merged: [], missing: [] };
  const seen = new Map();
  for (const dir of dirs) {
    if (KINDS.every((kind) => !existsSync(join(dir, OUTPUT_FILES[kind])))) {
      merged.missing.push(dir);
      continue;
    }
    for (const kind of KINDS) {
      for (const bench of readBenchmarkInput(join(dir, OUTPUT_FILES[kind]))) {
        const key = `${kind}\n${bench.name}`;
        if (seen.has(key)) throw githubErrors.duplicateBenchmark(bench.name, seen.get(key), dir);
        seen.set(key, dir);
        merged[kind].push(bench);
      }
    }
    merged.merged.push(dir);
  }
  return merged;
}
