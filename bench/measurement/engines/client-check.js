// The client check (npm run client-check): the same benchmark measured with every engine in
// alternating rounds at the same pinning, each round a full measurement (bench/measurement/measure.js),
// so that a load generator that limits what a server shows is seen beside one that does not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSuite } from '../../config/resolve.js';
import { measureOnce } from '../measure.js';
import { currentPinning, pinSelf } from '../pinning.js';
import { expandSpecs } from '../specs.js';
import { median } from '../../stats/index.js';
import { loadBuiltInVariant } from '../variants.js';
import { DEFAULT_ENGINE, ENGINE_NAMES } from './seam.js';

// The default engine's median req/s over each other engine's, keyed "<default>/<other>":
// below 1, the default engine limits what a server shows.
export const engineRatios = (medianRequests) =>
  Object.fromEntries(
    ENGINE_NAMES.filter((name) => name !== DEFAULT_ENGINE).map((name) => [
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
  const plan = currentPinning({ loadWorkers: config.workers });
  pinSelf(plan);
  const backend = await loadBuiltInVariant('mock-backend');
  const variant = variants.find((each) => each.name === spec.variant);
  const logDir = mkdtempSync(join(tmpdir(), 'perfgate-client-check-'));
  const runs = Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, []]));
  try {
    for (let round = 1; round <= rounds; round++) {
      // Alternating which engine goes first, so a slow phase of the machine hits both.
      for (const engine of round % 2 ? ENGINE_NAMES : [...ENGINE_NAMES].reverse()) {
        const run = await measureOnce({
          spec,
          variant,
          backend,
          config: { ...config, engine },
          plan,
          logDir,
          repetition: `${engine}${round}`,
        });
        runs[engine].push(run);
        onRun(round, engine, run);
      }
    }
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
  const medianRequests = Object.fromEntries(
    ENGINE_NAMES.map((engine) => [engine, median(runs[engine].map((run) => run.requests.mean))]),
  );
  return { spec, plan, runs, medianRequests, ratios: engineRatios(medianRequests) };
}
