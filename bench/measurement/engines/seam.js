// The load-engine seam. Every engine has the same shape:
//   name, unavailable() -> null | the reason it cannot run here,
//   launch(options) -> { go(duration?, requests?) -> part sample, stop() }: launch makes it ready
//     (processes started), each go loads once (a warm-up, then the measured load), stop ends
//     it; two engines launched first can be started at the same moment.
// options: { host (the loopback address the server listens on), port (a number, or a promise of it while the server starts), request: {method, path, headers, body}, connections, duration, pipelining, rate, timeout, threads };
// Each engine also declares itself, so that nothing outside bench/measurement/engines names one:
//   help      what --engine's help says of it
//   packages  the npm packages whose versions a result records when it ran (result.packages)
//   paces     true when it can hold a rate (--rate)
//   counts    true when its measured load can also stop at a request count (go's second
//             argument, a soak's --soak-requests), whichever of it and the duration comes first
//   model     'open' when it sends on a fixed schedule whatever the server does, and so needs a
//             rate (its part sample then has a `schedule`: ./open-schedule.js); else closed-loop
//   isDefault true for the one engine a suite uses unless it names another
// The part sample (one process's): { durationSeconds, requests: {total, perSecond}, responses,
// bytes, errors, timeouts, errorCodes, latencyHistogram (µs, encoded), client: {cpuSeconds} };
// bench/measurement/load.js merges the parts of a load into perfgate's load sample.
import { errors } from '../../core/errors.js';
import { ENGINES } from './registered.js';

export { ENGINES };

const byName = (name) => ENGINES.find((engine) => engine.name === name);
export const DEFAULT_ENGINE = ENGINES.find((engine) => engine.isDefault).name;
export const ENGINE_NAMES = ENGINES.map((engine) => engine.name);
export const PACING_ENGINES = ENGINES.filter((engine) => engine.paces).map((engine) => engine.name);
export const COUNTING_ENGINES = ENGINES.filter((engine) => engine.counts).map((engine) => engine.name);
// The closed-loop engines: as fast as the server lets them, what client-check compares.
export const CLOSED_ENGINE_NAMES = ENGINES.filter((engine) => engine.model !== 'open').map((engine) => engine.name);

// What --engine's help says: every engine and what it is for.
export const engineHelp = () => `load engine: ${ENGINES.map((engine) => engine.help).join(', or ')}`;

// The npm packages a result records the versions of, for the engine a suite ran with.
export const enginePackages = (name) => byName(name)?.packages ?? [];

// Why some engine cannot run here (the first such reason), or null when all can.
export const unavailableEngine = () =>
  ENGINES.map((engine) => engine.unavailable()).find((reason) => reason !== null) ?? null;

// A name (or an engine object, for tests' double) -> an engine that can run here, hold `rate`
// requests per second when one is asked (0: unpaced), and stop at `requests` when asked (0: never).
export function engineFor(nameOrEngine = DEFAULT_ENGINE, rate = 0, requests = 0) {
  const engine = typeof nameOrEngine === 'string' ? byName(nameOrEngine) : nameOrEngine;
  if (!engine) throw errors.unknownEngine(nameOrEngine, ENGINE_NAMES);
  // What was asked of it first: that is bad input whether or not the engine is installed here.
  if (rate > 0 && !engine.paces) throw errors.engineCannotPace(engine.name, PACING_ENGINES);
  if (!(rate > 0) && engine.model === 'open') throw errors.engineNeedsRate(engine.name);
  if (requests > 0 && !engine.counts) throw errors.engineCannotCount(engine.name, COUNTING_ENGINES);
  const reason = engine.unavailable();
  if (reason) throw errors.engineUnavailable(engine.name, reason);
  return engine;
}
