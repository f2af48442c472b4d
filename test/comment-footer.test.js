// The PR comment's footer says how the rounds ran (duet, sequential, or both where a benchmark
// fell back), from the artifact's modes; a mode it does not know says nothing of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderComment } from '../bench/github/comment.js';

const benchmark = (id, mode) => ({
  id,
  status: 'ok',
  ...(mode ? { mode } : {}),
  rounds: 2,
  verdicts: { 'req/s': { verdict: 'no change', ci: null }, 'p99 latency': { verdict: 'no change', ci: null } },
  samples: {
    base: [{ requestsPerSecond: 100, p99LatencyMs: 2 }],
    head: [{ requestsPerSecond: 100, p99LatencyMs: 2 }],
  },
});
const footer = (benchmarks, settings = {}) =>
  renderComment(
    {
      pr: { headSha: 'a'.repeat(40) },
      comparisons: [
        {
          comparison: {
            sides: { base: { description: 'base' }, head: { description: 'head' } },
            settings,
            benchmarks,
            gate: { failThreshold: 0.1, failed: false, regressions: [] },
          },
        },
      ],
    },
    { runUrl: 'https://example.test/run', workflow: 'bench' },
  )
    .split('\n')
    .at(-1);

test('duet rounds are called duet, not alternating', () => {
  const text = footer([benchmark('a', 'duet')], { mode: 'duet' });
  assert.match(text, /Verdicts from duet rounds \(base and head at the same time on the same cores\);/);
  assert.doesNotMatch(text, /alternating/);
});

test('sequential rounds, a fallback beside duet, and a file without modes', () => {
  assert.match(footer([benchmark('a', 'sequential')]), /from sequential rounds \(base and head one after the other/);
  assert.match(
    footer([benchmark('a', 'duet'), benchmark('b', 'sequential')]),
    /from duet rounds .* and sequential rounds/,
  );
  assert.match(footer([benchmark('a')]), /from sequential rounds/, 'comparisons before duet were sequential');
});

test('an unknown mode from the artifact is not repeated', () => {
  const text = footer([benchmark('a', '<img src=x>')]);
  assert.match(text, /Verdicts from rounds;/);
  assert.doesNotMatch(text, /img/);
});
