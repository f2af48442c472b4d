// The differential CPU profile of one benchmark between two prepared sides: measured by
// profile-sides.js, ranked by differential.js, with flame graph pages for the kept profiles.
// A side that cannot be profiled (not a Node.js process) gives a one-line reason instead.
import { join } from 'node:path';
import { PerfgateError } from '../../core/errors.js';
import { differentialProfile } from './differential.js';
import { writeFlameGraphs } from './flamegraph.js';
import { profileSides } from './profile-sides.js';

/**
 * @param {{spec: object, variants: {base: object, head: object}, roots: {base: string, head: string},
 *   measurement: object, settings: object, outDir: string}} run  measurement: the run's context, settings:
 *   the benchmark's (bench/measurement/context.js)
 * @returns {Promise<object>} { grew, shrank, totals, requests, files, flameGraphs } or { skipped }
 */
export async function profileBenchmark({ spec, variants, roots, measurement, settings, outDir }) {
  const dir = join(outDir, 'profile');
  try {
    const measured = await profileSides({ spec, variants, roots, measurement, settings, outDir: dir });
    const files = [...measured.base.profiles, ...measured.head.profiles];
    return {
      ...differentialProfile(measured),
      requests: { base: measured.base.requests, head: measured.head.requests },
      files,
      flameGraphs: writeFlameGraphs(dir, files) ?? [],
    };
  } catch (error) {
    if (!(error instanceof PerfgateError)) throw error;
    return { skipped: error.message };
  }
}
