// The headline of a comparison's report and PR comment: what happened, in words a reader checks
// against the rows ("2 regressions; none certainly beyond the 10 % gate: the check passes"), then
// which benchmark failed and why, and what the references say. The gate itself is
// bench/comparison/gate.js; this only words it. quote: how a text from the comparison is shown
// (escaped in the report, a code span in the PR comment), given the text and its longest shown length.
import { percent, signedPercent } from '../core/format.js';
import { oneLine } from '../core/text.js';
import { VERDICTS } from '../stats/index.js';
import { notComparedBecause } from './gate.js';
import { metricByName } from '../results/metrics.js';

// What a small change is, said wherever one is shown apart from "no change".
export const SMALL_CHANGE_NOTE = 'smaller than the gate, but certain';

// Lists of names are cut here, so that a headline stays a sentence (the rows name every benchmark).
const SHOWN = 20;
const shown = (list) => [...list.slice(0, SHOWN), ...(list.length > SHOWN ? [`and ${list.length - SHOWN} more`] : [])];

// " ms" after a value of a metric of the registry (a metric it does not know: nothing).
const unitOf = (name) => (metricByName(name) ? ` ${metricByName(name).unit}` : '');
// A metric's name is ours, shown as is; any other name from the file is quoted.
const metricName = (name, quote) => (metricByName(name) ? name : quote(name));

const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

const OUTCOMES = {
  fails: { symbol: '🔴', words: 'the check fails' },
  couldNotRun: { symbol: '⚠️', words: 'the check could not run' },
  passes: { symbol: '✅', words: 'the check passes' },
};

const outcomeOf = (gate) => OUTCOMES[gate.failed ? 'fails' : gate.notCompared?.length ? 'couldNotRun' : 'passes'];

// The counts of the sentence, over the benchmarks of the run's own servers (references aside).
function countParts(comparison, quote) {
  const { gate } = comparison;
  const own = comparison.benchmarks.filter((benchmark) => !benchmark.reference);
  const judged = own.filter((benchmark) => benchmark.status === 'ok');
  const having = (...verdicts) => judged.filter((benchmark) => verdicts.includes(benchmark.verdict?.verdict));
  const beyond = gate.regressions ?? [];
  const regressions = new Set([...having(VERDICTS.regression).map((benchmark) => benchmark.id), ...beyond]).size;
  const threshold = percent(gate.failThreshold);
  const ids = (list) => shown(list.map((id) => quote(id))).join(', ');
  const failedOnHead = gate.failedOnHead ?? [];
  const notCompared = gate.notCompared ?? [];
  const sloBroken = gate.sloBroken ?? [];
  const parts = [
    failedOnHead.length ? `the head failed ${counted(failedOnHead.length, 'benchmark')} (${ids(failedOnHead)})` : '',
    leakPart(gate.leaks ?? [], quote),
    sloBroken.length
      ? `the head breaks ${counted(sloBroken.length, 'SLO')} the base met (${ids([...new Set(sloBroken.map((each) => each.id))])})`
      : '',
    notCompared.length ? `${counted(notCompared.length, 'benchmark')} could not be compared (${ids(notCompared)})` : '',
    regressions
      ? `${counted(regressions, 'regression')}; ${beyond.length ? `${beyond.length} certainly beyond the ${threshold} gate (${ids(beyond)})` : `none certainly beyond the ${threshold} gate`}`
      : judged.length
        ? 'no regression'
        : '',
  ];
  // A 🔴 row whose metric did not call its benchmark's verdict (p99 latency, which does not decide).
  const notCalling = judged.filter(
    (benchmark) =>
      benchmark.verdict &&
      benchmark.verdict.verdict !== VERDICTS.regression &&
      Object.values(benchmark.verdicts ?? {}).some((each) => each.verdict === VERDICTS.regression),
  );
  const notCallingMetrics = [
    ...new Set(
      notCalling.flatMap((benchmark) =>
        Object.entries(benchmark.verdicts)
          .filter(([, each]) => each.verdict === VERDICTS.regression)
          .map(([name]) => name),
      ),
    ),
  ];
  if (notCalling.length)
    parts.push(
      `${counted(notCalling.length, 'benchmark')} with a regression only in ${notCallingMetrics.map((name) => metricName(name, quote)).join(' and ')}, which did not call ${notCalling.length === 1 ? 'its' : 'their'} verdict`,
    );
  const small = having(VERDICTS.smallRegression).length;
  const inconclusive = having(VERDICTS.inconclusive).length;
  const improvements = having(VERDICTS.improvement, VERDICTS.smallImprovement).length;
  parts.push(
    small ? `${counted(small, 'small regression')} (${SMALL_CHANGE_NOTE})` : '',
    inconclusive ? `${inconclusive} inconclusive` : '',
    improvements ? counted(improvements, 'improvement') : '',
  );
  const said = parts.filter(Boolean);
  return said.length ? said : ['no benchmark of your servers was compared'];
}

// A soak's heap growth per 10,000 requests, in MB: "10.8 MB per 10,000 requests (+8.0 … +13.5)".
const signedMegabytes = (bytes) => `${bytes >= 0 ? '+' : ''}${(bytes / 1e6).toFixed(1)}`;
const growthText = ({ growthBytesPer10kRequests: growth, interval }) =>
  `${(growth / 1e6).toFixed(1)} MB per 10,000 requests (${signedMegabytes(interval[0])} … ${signedMegabytes(interval[1])})`;

// The head's leaks the base does not have (bench/comparison/leak-gate.js): one is said with its figure.
function leakPart(leaks, quote) {
  if (leaks.length === 1)
    return `the head leaks ${growthText(leaks[0].head)} in ${quote(leaks[0].id)}; the base does not`;
  return leaks.length
    ? `the head leaks in ${counted(leaks.length, 'benchmark')} (${shown(leaks.map((each) => quote(each.id))).join(', ')}); the base does not`
    : '';
}

// Each failed benchmark with its reason: the head's (which fail the check), those that could not be
// compared, and references (which never fail it).
function failureLines(comparison, quote) {
  const byId = new Map(comparison.benchmarks.map((benchmark) => [benchmark.id, benchmark]));
  const line = (id, what) => `- ${quote(id)} ${what}: ${quote(oneLine(byId.get(id)?.reason ?? ''), 600)}`;
  const { failedOnHead = [], notCompared = [], referencesFailed = [], sloBroken = [] } = comparison.gate;
  const lines = [
    ...failedOnHead.map((id) => line(id, 'failed on the head, where the base did not')),
    ...(comparison.gate.leaks ?? []).map(
      (each) =>
        `- ${quote(each.id)}: the heap grows ${growthText(each.head)} on the head, ${growthText(each.base)} on the base: a leak beyond the ${(comparison.gate.leakThreshold / 1e6).toFixed(1)} MB threshold that the base does not have`,
    ),
    ...sloBroken.map(
      (each) =>
        `- ${quote(each.id)}: ${quote(each.metric)} ${each.head}${unitOf(each.metric)} on the head, ${each.base}${unitOf(each.metric)} on the base: SLO ${quote(each.bound)} broken by the head`,
    ),
    ...notCompared.map((id) => line(id, `could not be compared, ${notComparedBecause(byId.get(id) ?? {})}`)),
    ...referencesFailed.map((id) => line(id, 'failed (a reference: it never fails the check)')),
  ];
  return shown(lines).map((each) => (each.startsWith('- ') ? each : `- ${each}`));
}

// The change of the metric that called a benchmark's verdict, e.g. "+12.3 % in CPU µs/request".
function calledMove({ verdict, verdicts }, quote) {
  const called = verdicts && Object.hasOwn(verdicts, verdict.calledBy) ? verdicts[verdict.calledBy] : undefined;
  return Number.isFinite(called?.change)
    ? `${signedPercent(called.change)} in ${metricName(verdict.calledBy, quote)}`
    : verdict.verdict;
}

// A reference that runs the same code on both sides and moved: the machine was not steady. One whose
// sides differ (a runtime comparison) measured that difference instead, and says so.
function referenceLines(comparison, quote) {
  const moved = comparison.gate.referencesMoved ?? [];
  const steadiness = moved.length
    ? [
        `⚠️ The reference ${moved.map((id) => quote(id)).join(', ')} moved although its code is the same on both sides: the machine was not steady, so read the other verdicts with care.`,
      ]
    : [];
  const differing = comparison.benchmarks.filter(
    (benchmark) => benchmark.reference && benchmark.referenceDiffers && benchmark.verdict,
  );
  return [
    ...steadiness,
    ...differing.map(
      (benchmark) =>
        `ℹ️ The reference ${quote(benchmark.id)}: ${benchmark.verdict.verdict} (${calledMove(benchmark, quote)}); ${quote(benchmark.referenceDiffers)}, so this is that difference's effect on it, not a measure of the machine's steadiness.`,
    ),
  ];
}

/**
 * The headline and what it rests on, as markdown lines: the sentence, the failed benchmarks with
 * their reasons, the references.
 * @param {object} comparison  comparison.json's content (bench/comparison/schema.js)
 * @param {(text: string) => string} quote
 */
export function headlineLines(comparison, quote) {
  const outcome = outcomeOf(comparison.gate);
  const parts = countParts(comparison, quote);
  const failures = failureLines(comparison, quote);
  const references = referenceLines(comparison, quote);
  return [
    `${outcome.symbol} ${capitalized(parts.join('; '))}: ${outcome.words}.`,
    ...(failures.length ? ['', ...failures] : []),
    ...(references.length ? ['', ...references] : []),
  ];
}
