// Each side alone, once, after a duet's rounds: the figures `bench` gives for that server, beside
// duet's. In duet both servers share the server cores, and a server sharing its cores costs more
// per request and serves fewer requests than one alone (fewer requests per event-loop turn,
// caches, GC threads); the change between the sides is what duet judges, and this says how far
// its absolute figures are from a single server's, so a reader does not compare them with bench's.
import { commandLine } from '../core/invocation.js';
import { measureOnce } from '../measurement/measure.js';
import { isFaster, isSlower, mean } from '../stats/index.js';
import { roundSample } from './rounds.js';

const SIDES = ['base', 'head'];
const CPU_KEY = 'cpuMicrosPerRequest';

// 'auto' measures a benchmark alone when duet called a change (its size is what a reader weighs);
// 'always' and 'never' as they say. Only duet has a shared core to explain.
export const wantsAlone = (asked = 'auto', mode, { verdict }) =>
  mode === 'duet' &&
  (asked === 'always' || (asked === 'auto' && (isSlower(verdict.verdict) || isFaster(verdict.verdict))));

/**
 * @param {{spec: object, variants: {base: object, head: object}, measurement: object, settings: object}} run
 * @param {{base: object[], head: object[]}} duetSamples  the duet's per-round samples
 * @returns {Promise<{base: object, head: object, inflation: {base: number, head: number}}>}
 *   each side's sample alone, and its duet CPU µs/request over its alone one
 */
export async function measureAlone({ spec, variants, measurement, settings }, duetSamples) {
  const alone = {};
  for (const side of SIDES)
    alone[side] = roundSample(
      await measureOnce({ spec, variant: variants[side], measurement, settings, repetition: `alone-${side}` }),
    );
  const inflation = Object.fromEntries(
    SIDES.map((side) => [side, mean(duetSamples[side].map((sample) => sample[CPU_KEY])) / alone[side][CPU_KEY]]),
  );
  return { ...alone, inflation };
}

const cpu = (sample) => sample[CPU_KEY];

/**
 * The report's section on each server alone: duet's shared-core figures beside a single
 * server's, so that they are not read against bench's; a note on duet's figures when no
 * benchmark was measured alone.
 * @param {object} comparison  comparison.json
 * @param {{number: Function, signedPercent: Function, cell: Function}} format
 */
export function aloneLines(comparison, { number, signedPercent, cell }) {
  if (comparison.settings.mode !== 'duet') return [];
  const measuredAlone = comparison.benchmarks.filter((benchmark) => benchmark.alone);
  const note =
    "In duet both servers share the server cores, so each side's CPU µs/request is higher and its req/s lower than `bench` gives for one server; the change between the sides is what is judged.";
  if (!measuredAlone.length)
    return [
      `${note} \`--alone\` measures each side alone as well; \`${commandLine('duet-cost')}\` says by how much on this machine.`,
      '',
    ];
  return [
    '**Each server alone**',
    '',
    `${note} One more round of each side alone gives a single server's figures (one round each: a reading, not a verdict).`,
    '',
    '| benchmark | CPU µs/request alone, base → head | change alone | duet / alone (base, head) | req/s alone, base → head |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...measuredAlone.map(({ id, alone }) => {
      const change = cpu(alone.head) / cpu(alone.base) - 1;
      return `| ${cell(id)} | ${number(cpu(alone.base))} → ${number(cpu(alone.head))} | ${signedPercent(change)} | ${alone.inflation.base.toFixed(2)}×, ${alone.inflation.head.toFixed(2)}× | ${number(alone.base.requestsPerSecond)} → ${number(alone.head.requestsPerSecond)} |`;
    }),
    '',
  ];
}
