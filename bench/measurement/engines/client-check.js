// The client check (npm run client-check): the same benchmark measured with every closed-loop engine in
// alternating rounds at the same pinning, each round a full measurement (bench/measurement/measure.js),
// so that a load generator that limits what a server shows is seen beside one that does not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSuite } from '../../config/resolve.js';
import { measurementSettings, openMeasurement } from '../context.js';
import { measureOnce } from '../measure.js';
import { expandSpecs } from '../specs.js';
import { median } from '../../stats/index.js';
import { DEFAULT_ENGINE, CLOSED_ENGINE_NAMES } from './seam.js';

// The default engine's median req/s over each other engine's, keyed "<default>/<other>":
// below 1, the default engine limits what a server shows.
export const engineRatios = (medianRequests) =>
  Object.fromEntries(
    CLOSED_ENGINE_NAMES.filter((name) => name !== DEFAULT_ENGINE).map((name) => [
      `${DEFAULT_ENGINE}/${name}`,
      medianRequests[DEFAULT_ENGINE] / medianRequests[name],
    ]),
  );

/**
 * @param {{request: object, rounds: number, onRun?: (round: number, engine: string, run: object) => void}} check
 *   request: a suite request (bench/cli/suite-options.js), the smoke suite unless it names one
 * @returns {Promise<{spec: object, plan: object, runs: Record<string, object[]>, medianRequests: Record<string, number>, ratios: Record<string, number>}>}
 */
export async function checkClients({ request, rounds, onRun = () => {} }) {
  const { config, variants } = await resolveSuite({
    ...request,
    suite: request.suite ?? (request.configFile ? undefined : 'smoke'),
  });
  const [spec] = expandSpecs(config);
  const variant = variants.find((each) => each.name === spec.variant);
  const settings = measurementSettings(config, spec);
  // The servers' logs only matter while the check runs.
  const outDir = mkdtempSync(join(tmpdir(), 'perfgate-client-check-'));
  try {
    const measurement = await openMeasurement({ config, outDir });
    const runs = Object.fromEntries(CLOSED_ENGINE_NAMES.map((engine) => [engine, []]));
    for (let round = 1; round <= rounds; round++) {
      // Alternating which engine goes first, so a slow phase of the machine hits both.
      for (const engine of round % 2 ? CLOSED_ENGINE_NAMES : [...CLOSED_ENGINE_NAMES].reverse()) {
        const run = await measureOnce({
          spec,
          variant,
          // Every engine in the same context: the same pinning, backend and settings.
          measurement: { ...measurement, engine },
          settings,
          repetition: `${engine}${round}`,
        });
        runs[engine].push(run);
        onRun(round, engine, run);
      }
    }
    const medianRequests = Object.fromEntries(
      CLOSED_ENGINE_NAMES.map((engine) => [engine, median(runs[engine].map((run) => run.requests.mean))]),
    );
    return { spec, plan: measurement.plan, runs, medianRequests, ratios: engineRatios(medianRequests) };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
