// The differential profiles of one benchmark between two prepared sides: CPU time, bytes
// allocated or both from one run (profile-sides.js), ranked by differential.js, with flame graph
// pages for the kept CPU profiles. A side that cannot be profiled (not a Node.js process) gives a
// one-line reason instead.
import { join } from 'node:path';
import { PerfgateError } from '../../core/errors.js';
import { differentialProfile } from './differential.js';
import { writeFlameGraphs } from './flamegraph.js';
import { PROFILE_KINDS, profileSides } from './profile-sides.js';

// Where each kind of profile goes in a benchmark's entry of comparison.json.
const ENTRY_FIELDS = { cpu: 'profile', allocation: 'allocationProfile' };

/**
 * @param {{spec: object, variants: {base: object, head: object}, roots: {base: string, head: string},
 *   measurement: object, settings: object, outDir: string}} run  measurement: the run's context, settings:
 *   the benchmark's (bench/measurement/context.js)
 * @param {string[]} kinds  'cpu', 'allocation' or both, taken in the same run
 * @returns {Promise<{profile?: object, allocationProfile?: object}>} each { grew, shrank, packages, totals,
 *   requests, files, flameGraphs } or { skipped }
 */
export async function profileRun({ spec, variants, roots, measurement, settings, outDir }, kinds) {
  const dir = join(outDir, 'profile');
  try {
    const measured = await profileSides({ spec, variants, roots, measurement, settings, outDir: dir }, kinds);
    const requests = { base: measured.base.requests, head: measured.head.requests };
    const one = (kind) => {
      const sides = Object.fromEntries(
        ['base', 'head'].map((side) => [side, { ...measured[side][kind], requests: requests[side] }]),
      );
      const files = [...sides.base.profiles, ...sides.head.profiles];
      return {
        ...differentialProfile(sides, { field: PROFILE_KINDS[kind].field }),
        requests,
        files,
        ...(kind === 'cpu' ? { flameGraphs: writeFlameGraphs(dir, files) ?? [] } : {}),
      };
    };
    return Object.fromEntries(kinds.map((kind) => [ENTRY_FIELDS[kind], one(kind)]));
  } catch (error) {
    if (!(error instanceof PerfgateError)) throw error;
    return Object.fromEntries(kinds.map((kind) => [ENTRY_FIELDS[kind], { skipped: error.message }]));
  }
}

/** The differential CPU profile alone (profileRun's `profile`). */
export const profileBenchmark = async (run) => (await profileRun(run, ['cpu'])).profile;
