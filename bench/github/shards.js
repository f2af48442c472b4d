// The shards of bench-main's matrix, one results directory per variant, merged into one pair
// of github-action-benchmark inputs (and one of the relative trend's, with one baselines file),
// so that each trend suite gets one entry per run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readBenchmarkInput } from '../history/input-file.js';
import { OUTPUT_FILES } from '../results/write.js';
import { githubErrors } from '../core/errors.js';
import { BASELINES_FILE, mergeBaselines, readBaselines } from '../comparison/trend/anchors.js';
import { TREND_FILES } from '../comparison/trend/write.js';

const KINDS = ['bigger', 'smaller'];

// A shard's relative trend (bench/comparison/trend/) is optional: before the first release there is none.
const TREND_KINDS = { trendBigger: TREND_FILES.bigger, trendSmaller: TREND_FILES.smaller };

// Resolves to { bigger, smaller, trendBigger, trendSmaller, baselines, merged: [dir], missing: [dir] };
// a shard with neither bench file measured nothing (its own job failed and says why) and is
// left out. baselines: the shards' baselines files as one (null when none has one).
export function mergeShards(dirs) {
  const merged = { bigger: [], smaller: [], trendBigger: [], trendSmaller: [], merged: [], missing: [] };
  const seen = new Map();
  const add = (kind, file, dir) => {
    for (const bench of readBenchmarkInput(file)) {
      const key = `${kind}\n${bench.name}`;
      if (seen.has(key)) throw githubErrors.duplicateBenchmark(bench.name, seen.get(key), dir);
      seen.set(key, dir);
      merged[kind].push(bench);
    }
  };
  const baselines = [];
  for (const dir of dirs) {
    if (KINDS.every((kind) => !existsSync(join(dir, OUTPUT_FILES[kind])))) {
      merged.missing.push(dir);
      continue;
    }
    for (const kind of KINDS) add(kind, join(dir, OUTPUT_FILES[kind]), dir);
    for (const [kind, name] of Object.entries(TREND_KINDS))
      if (existsSync(join(dir, name))) add(kind, join(dir, name), dir);
    const state = readBaselines(join(dir, BASELINES_FILE));
    if (state) baselines.push(state);
    merged.merged.push(dir);
  }
  return { ...merged, baselines: mergeBaselines(baselines) };
}
