// The command line of `npm run bench` (and `npm run dev`), turned into a suite request.
import { errors } from '../../bench/errors.js';
import { SUITES } from '../../bench/config/suites.js';

export const BENCH_USAGE = `usage: npm run bench -- [options]
  --suite NAME          a named suite: ${Object.keys(SUITES).join(', ')} (default: default)
  --config FILE         a suite config file (JSON), e.g. to benchmark your own server
  --variant A,B         only these variants
  --scenario A,B        only these scenarios
  --connections N,M     connection tiers
  --duration S          seconds measured per benchmark
  --warmup S            seconds of discarded warm-up per benchmark
  --repetitions N       runs per benchmark (round-robin over the suite)
  --engine NAME         load engine: autocannon (default) or wrk (Debian package)
  --workers N           load-generator processes (0: one; a tier beyond one process's
                        open-file limit gets more)
  --pipelining N        requests in flight per connection
  --timeout S           request timeout in seconds
  --out DIR             results directory (default: results/<time>-<suite>)
  --history FILE        local history file (default: .perfgate/history/data.js)
  --no-history          do not append this run to the local history`;

const LISTS = { variant: 'variants', scenario: 'scenarios', connections: 'connections' };
const NUMBERS = ['duration', 'warmup', 'repetitions', 'workers', 'pipelining', 'timeout'];

// Keeps non-numbers as they are, so the schema reports them with the field's name.
const toNumber = (text) => (String(text).trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text);

export function rejectUnknownFlags(parsed, known, command) {
  const unknown = Object.keys(parsed).filter((flag) => !known.includes(flag));
  if (unknown.length) throw errors.badConfig('command line', unknown.map((flag) => `unknown option --${flag}: see npm run ${command} -- --help`));
}

// The flags that choose and shape a suite, as overrides of its config.
export function suiteOverrides(parsed, numbers = NUMBERS) {
  const overrides = {};
  for (const [flag, field] of Object.entries(LISTS)) {
    if (parsed[flag] === undefined) continue;
    const values = [parsed[flag]].flat().flatMap((value) => String(value).split(',')).filter(Boolean);
    overrides[field] = flag === 'connections' ? values.map(toNumber) : values;
  }
  // --connections asks for exactly these tiers, also where the suite gives a scenario its own.
  if (overrides.connections) overrides.scenarioConnections = {};
  for (const flag of numbers) if (parsed[flag] !== undefined) overrides[flag] = toNumber(parsed[flag]);
  if (parsed.engine !== undefined) overrides.engine = String([parsed.engine].flat().at(-1));
  return overrides;
}

export const SUITE_FLAGS = [...Object.keys(LISTS), ...NUMBERS, 'engine', '_', 'suite', 'config', 'help'];
export { toNumber };

export function parseBenchArgs(parsed) {
  rejectUnknownFlags(parsed, [...SUITE_FLAGS, 'out', 'history'], 'bench');
  const overrides = suiteOverrides(parsed);
  return {
    help: parsed.help,
    suite: parsed.suite,
    configFile: parsed.config,
    overrides,
    outDir: parsed.out,
    historyFile: parsed.history === false ? null : (typeof parsed.history === 'string' ? parsed.history : undefined),
  };
}
