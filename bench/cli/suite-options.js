// The options that choose and shape a suite (`npm run bench`, `compare`, `calibrate`, `dev`),
// as one option table, and their turning into the overrides of a suite config. Ranges are
// checked by the suite schema (bench/config/schema.js), which names the field.
import { SUITES } from '../config/suites.js';
import { DEFAULT_ENGINE, engineHelp, PACING_ENGINES } from '../measurement/engines/seam.js';

export const SUITE_OPTIONS = {
  suite: {
    type: 'string',
    value: 'NAME',
    help: `a named suite: ${Object.keys(SUITES).join(', ')}`,
    defaultText: 'default, or none with --config',
  },
  config: { type: 'string', value: 'FILE', help: 'a suite config file (JSON), e.g. to benchmark your own server' },
  variant: { type: 'list', value: 'A,B', help: 'only these variants' },
  scenario: { type: 'list', value: 'A,B', help: 'only these scenarios' },
  connections: { type: 'list', value: 'N,M', help: 'connection tiers' },
  rates: {
    type: 'list',
    value: 'R,S',
    help: 'offered rates (req/s, benchmarks named r=R) instead of the tiers, or beside --connections; an open-model --engine',
  },
  duration: { type: 'number', value: 'S', help: 'seconds measured per benchmark' },
  warmup: { type: 'number', value: 'S', help: 'seconds of discarded warm-up per benchmark' },
  repetitions: { type: 'number', value: 'N', help: 'runs per benchmark (round-robin over the suite)' },
  engine: {
    type: 'string',
    value: 'NAME',
    help: engineHelp(),
    defaultText: DEFAULT_ENGINE,
  },
  workers: {
    type: 'number',
    value: 'N',
    help: "load-generator processes (0: one; a tier beyond one process's open-file limit gets more)",
  },
  pipelining: { type: 'number', value: 'N', help: 'requests in flight per connection' },
  rate: {
    type: 'number',
    value: 'R',
    help: `requests per second each load sends: at most in a closed loop, exactly on a fixed schedule with an open-model engine (which needs one); 0: as fast as it can; ${PACING_ENGINES.join(', ')} only`,
    defaultText: '0',
  },
  timeout: { type: 'number', value: 'S', help: 'request timeout in seconds' },
  'soak-every': {
    type: 'number',
    value: 'S',
    help: "a leak check: every S seconds of the measured window, each Node.js server process's heap after a forced full GC; the run reports the heap's growth per 10,000 requests with its 95 % interval, one slope through every serving process, each process's warm-up set apart where its growth settles (--duration bounds it, and --soak-requests too; implies --runtime-metrics; the forced GCs are in that run's CPU µs/request)",
  },
  'soak-requests': {
    type: 'number',
    value: 'N',
    help: "with --soak-every, a soak's measured load also stops after N requests, whichever of them and --duration comes first (autocannon only)",
  },
  'runtime-metrics': {
    type: 'boolean',
    negatable: true,
    help: 'read memory and the event loop in every Node.js server process: heap bytes/request (which compare then judges), GC pause/request, event-loop delay and utilization, heap and external memory after the load (runtimeMetrics in a config); off by default, since the agent adds 1.4–4.5 % to CPU µs/request (the agent-overhead command measures it; bench/stats/METHOD.md §8)',
  },
};

const LISTS = { variant: 'variants', scenario: 'scenarios', connections: 'connections', rates: 'rates' };
const NUMBER_LISTS = ['connections', 'rates'];
const NUMBERS = ['duration', 'warmup', 'repetitions', 'workers', 'pipelining', 'rate', 'timeout'];
const NAMED_NUMBERS = { 'soak-every': 'soakEvery', 'soak-requests': 'soakRequests' };

// Keeps non-numbers as they are, so the schema reports them with the field's name.
const toNumber = (text) => (String(text).trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text);

// The option values that choose and shape a suite, as overrides of its config.
function suiteOverrides(values) {
  const overrides = {};
  for (const [flag, field] of Object.entries(LISTS)) {
    if (values[flag] === undefined) continue;
    const items = [values[flag]]
      .flat()
      .flatMap((value) => String(value).split(','))
      .filter(Boolean);
    overrides[field] = NUMBER_LISTS.includes(flag) ? items.map(toNumber) : items;
  }
  // --connections and --rates ask for exactly these load points, also where the suite gives a scenario its own;
  // --rates alone, for no tiers.
  if (overrides.connections) overrides.scenarioConnections = {};
  if (overrides.rates) overrides.scenarioRates = {};
  if (overrides.rates && !overrides.connections)
    Object.assign(overrides, { connections: undefined, scenarioConnections: {} });
  for (const flag of NUMBERS) if (values[flag] !== undefined) overrides[flag] = toNumber(values[flag]);
  for (const [flag, field] of Object.entries(NAMED_NUMBERS))
    if (values[flag] !== undefined) overrides[field] = toNumber(values[flag]);
  if (values.engine !== undefined) overrides.engine = values.engine;
  if (values['runtime-metrics'] !== undefined) overrides.runtimeMetrics = values['runtime-metrics'];
  return overrides;
}

// The suite request of resolveSuite (bench/config/resolve.js).
export const suiteRequest = (values) => ({
  suite: values.suite,
  configFile: values.config,
  overrides: suiteOverrides(values),
});
