// The load-engine seam. Every engine has the same shape:
//   name, unavailable() -> null | the reason it cannot run here,
//   launch(options) -> { go(duration?) -> part sample, stop() }: launch makes it ready
//     (processes started), each go loads once (a warm-up, then the measured load), stop ends
//     it; two engines launched first can be started at the same moment.
// options: { port, request: {method, path, headers, body}, connections, duration, pipelining, rate, timeout, threads };
// an engine that can hold a rate says `paces: true`.
// The part sample (one process's): { durationSeconds, requests: {total, perSecond}, responses,
// bytes, errors, timeouts, errorCodes, latencyHistogram (µs, encoded), client: {cpuSeconds} };
// bench/load.js merges the parts of a load into perfgate's load sample.
import { errors } from '../errors.js';
import { autocannonEngine } from './autocannon.js';
import { wrkEngine } from './wrk.js';

export const DEFAULT_ENGINE = 'autocannon';
const ENGINES = { autocannon: autocannonEngine, wrk: wrkEngine };
export const ENGINE_NAMES = Object.keys(ENGINES);

// A name (or an engine object, for tests' double) -> an engine that can run here, and hold
// `rate` requests per second when one is asked (0: unpaced).
export function engineFor(nameOrEngine = DEFAULT_ENGINE, rate = 0) {
  const engine = typeof nameOrEngine === 'string' ? ENGINES[nameOrEngine] : nameOrEngine;
  if (!engine) throw errors.unknownEngine(nameOrEngine, ENGINE_NAMES);
  const reason = engine.unavailable();
  if (reason) throw errors.engineUnavailable(engine.name, reason);
  if (rate > 0 && !engine.paces)
    throw errors.engineCannotPace(
      engine.name,
      ENGINE_NAMES.filter((name) => ENGINES[name].paces),
    );
  return engine;
}
