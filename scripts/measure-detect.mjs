#!/usr/bin/env node
// Measures change-point detection (site/shared/change-points.js) the way bench-main uses it: a
// main-branch history of 100 runs, then a step of -3, -5 or -10 % (or none: A/A), then 40 more
// runs, with detection re-run after every run as each push to main would. Prints, per noise
// level and significance level: how often the step is flagged within the 40 runs (at the right
// run, +-3), after how many runs (median and 90th percentile), and how often a history gets a
// point reported elsewhere in those 40 runs (for A/A: a false alarm). Noise levels are this machine's
// per-run spread (bench/stats/METHOD.md: per-round cv 2-16 %; about 4 % per
// run is typical), with and without bursts.
//   node scripts/measure-detect.mjs [--trials N] [--markdown FILE]
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { syntheticSeries } from '../bench/history/detect/synthetic.js';
import { REPORT_TOLERANCE } from '../bench/history/detect/reported.js';
import { detectChangePoints } from '../site/shared/change-points.js';
import { runCommand } from '../bench/cli/run.js';

const MEASURE_DETECT_COMMAND = {
  name: 'measure-detect',
  invocation: 'node scripts/measure-detect.mjs',
  synopsis: '[--trials N] [--markdown FILE]',
  summary:
    "Measures change-point detection on synthetic histories with this machine's noise: detection rate, delay, false alarms.",
  options: {
    trials: { type: 'count', value: 'N', help: 'histories per row', default: 100 },
    markdown: { type: 'string', value: 'FILE', help: 'also write the table to this file' },
  },
};
const BEFORE = 100;
const WATCHED = 40;
const NOISE = [
  { cv: 0.02, bursts: 0 },
  { cv: 0.04, bursts: 0 },
  { cv: 0.08, bursts: 0 },
  { cv: 0.04, bursts: 0.03 },
];
const STEPS = [0, -0.03, -0.05, -0.1];
const SETTINGS = [
  { maxPValue: 0.001, minSegment: 1 },
  { maxPValue: 0.001, minSegment: 3 },
  { maxPValue: 0.0001, minSegment: 3 },
  { maxPValue: 0.00001, minSegment: 3 },
];

// Replays the watched runs: the first run (1 = the step's own run) at which a point within
// tolerance of the step is found, and whether any other point got reported meanwhile.
function replay(values, settings, step) {
  let flaggedAfter = null;
  let falseAlarm = false;
  for (let t = BEFORE + 1; t <= values.length; t++) {
    for (const point of detectChangePoints(values.slice(0, t), settings)) {
      const atStep = step !== 0 && Math.abs(point.index - BEFORE) <= REPORT_TOLERANCE;
      if (atStep && flaggedAfter === null) flaggedAfter = t - BEFORE;
      // Only points among the watched runs would be reported now; older ones were judged before.
      if (!atStep && point.index > BEFORE - REPORT_TOLERANCE) falseAlarm = true;
    }
  }
  return { flaggedAfter, falseAlarm };
}

const quantile = (sorted, q) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null;

await runCommand(MEASURE_DETECT_COMMAND, ({ values: { trials: TRIALS, markdown } }) => {
  const rows = [];
  const started = process.cpuUsage();
  for (const settings of SETTINGS) {
    for (const noise of NOISE) {
      for (const step of STEPS) {
        const outcomes = Array.from({ length: TRIALS }, (_, trial) => {
          const seed = 1 + trial + 1000 * STEPS.indexOf(step) + 100_000 * NOISE.indexOf(noise);
          const values = syntheticSeries({
            length: BEFORE + WATCHED,
            cv: noise.cv,
            bursts: noise.bursts,
            steps: step ? [{ at: BEFORE, factor: 1 + step }] : [],
            seed,
          });
          return replay(values, settings, step);
        });
        const delays = outcomes
          .map((o) => o.flaggedAfter)
          .filter((d) => d !== null)
          .sort((a, b) => a - b);
        rows.push({
          ...settings,
          noise: `${100 * noise.cv} %${noise.bursts ? ` + ${100 * noise.bursts} % bursts` : ''}`,
          step: step ? `${100 * step} %` : 'A/A',
          detected: step ? delays.length / TRIALS : null,
          median: quantile(delays, 0.5),
          p90: quantile(delays, 0.9),
          falseAlarms: outcomes.filter((o) => o.falseAlarm).length / TRIALS,
        });
      }
    }
  }
  const pct = (x) => (x === null ? '' : `${(100 * x).toFixed(0)} %`);
  const lines = [
    `| p < | min runs per side | per-run noise (cv) | step | flagged within ${WATCHED} runs | runs until flagged: median (90th pct) | histories with a false point reported (A/A), or one away from the step |`,
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.maxPValue} | ${r.minSegment} | ${r.noise} | ${r.step} | ${pct(r.detected)} | ${r.median === null ? (r.detected === null ? '' : '-') : `${r.median} (${r.p90})`} | ${pct(r.falseAlarms)} |`,
    ),
    '',
    `${TRIALS} histories per row (${BEFORE} runs, then ${WATCHED} watched runs); CPU ${(process.cpuUsage(started).user / 1e6).toFixed(0)} s.`,
  ];
  console.log(lines.join('\n'));
  if (markdown) writeFileAtomicSync(markdown, `${lines.join('\n')}\n`);
});
