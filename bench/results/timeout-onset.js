// Where timeouts begin, the proxy-baseline study's question: per server, scenario and options,
// the lowest load point whose requests timed out, at each load model the run has (connection
// tiers, offered rates), so a closed-loop sweep and an open-model one read side by side.
import { isOpen, loadPointOf, loadTag, MODELS } from '../../site/shared/load-point.js';
import { percentValue } from '../core/format.js';

const COLUMNS = { [MODELS.closed]: 'connection tiers', [MODELS.open]: 'offered rates' };
const loadValue = (point) => (isOpen(point) ? point.rate : point.connections);

/**
 * @param {object[]} benchmarks  a result's (bench/results/schema.js)
 * @returns {{server: string, onsets: Record<string, string>}[]}  per server and model, "c=2000 (0.40 %)",
 *   or "none up to c=20000" when no measured load point timed out
 */
export function timeoutOnsets(benchmarks, label) {
  const groups = new Map();
  for (const benchmark of benchmarks.filter((each) => each.status === 'ok')) {
    const point = loadPointOf(benchmark);
    const server = label(benchmark);
    const byModel = groups.get(server) ?? {};
    byModel[point.model] = [...(byModel[point.model] ?? []), { point, timeoutPct: benchmark.summary.timeoutPct }];
    groups.set(server, byModel);
  }
  return [...groups].map(([server, byModel]) => ({
    server,
    onsets: Object.fromEntries(
      Object.entries(byModel).map(([model, loads]) => {
        const sorted = loads.sort((a, b) => loadValue(a.point) - loadValue(b.point));
        const first = sorted.find((load) => load.timeoutPct > 0);
        return [
          model,
          first
            ? `${loadTag(first.point)} (${percentValue(first.timeoutPct)})`
            : `none up to ${loadTag(sorted.at(-1).point)}`,
        ];
      }),
    ),
  }));
}

// The run table's section: only for a run with a timeout, one column per model it has.
export function timeoutOnsetLines(benchmarks, label) {
  const onsets = timeoutOnsets(benchmarks, label);
  if (!benchmarks.some((benchmark) => benchmark.status === 'ok' && benchmark.summary.timeoutPct > 0)) return [];
  const models = Object.keys(COLUMNS).filter((model) => onsets.some((each) => each.onsets[model]));
  return [
    '',
    'Where timeouts begin (the lowest load point whose requests timed out):',
    '',
    `| Server | ${models.map((model) => COLUMNS[model]).join(' | ')} |`,
    `| --- |${models.map(() => ' --- |').join('')}`,
    ...onsets.map((each) => `| ${each.server} | ${models.map((model) => each.onsets[model] ?? '').join(' | ')} |`),
  ];
}
