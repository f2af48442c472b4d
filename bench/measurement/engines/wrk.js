// wrk (Debian package), the second engine: a C client that outruns autocannon on fast
// servers. Its Lua script (./wrk-report.lua) sends POST bodies and writes every distinct
// response time (µs) with its count. wrk corrects that histogram for coordinated omission
// before the script sees it, so it holds more values than responses and its tail is higher
// than autocannon's, which is uncorrected: compare latency within one engine only. Its CPU
// time is read as a reaped child's (./reaped-cpu.js).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHistogram, encodeHistogram } from '../latency-histogram.js';
import { stopGroup } from '../process/children.js';
import { runReaped } from './reaped-cpu.js';
import { installHint } from '../../core/invocation.js';

const SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

export function wrkUnavailable() {
  return spawnSync('wrk', ['-v']).error ? `wrk is not installed (Debian package wrk: ${installHint('wrk')})` : null;
}

// wrk takes whole seconds only: a shorter load runs 1 s (the sample says how long it ran).
const wholeSeconds = (seconds) => Math.max(1, Math.round(seconds));

// Pure: perfgate's load options -> wrk's arguments.
export function wrkArguments({ host, port, request, connections, duration, timeout, threads = 1 }) {
  const headers = Object.entries(request.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return [
    `-t${Math.min(threads, connections)}`,
    `-c${connections}`,
    `-d${wholeSeconds(duration)}s`,
    '--timeout',
    `${Math.max(1, Math.ceil(timeout))}s`,
    '-s',
    SCRIPT,
    ...headers,
    `http://${host}:${port}${request.path}`,
  ];
}

// Pure: the script's report and wrk's CPU seconds -> perfgate's part sample.
function parseWrkReport(report, cpuSeconds) {
  const histogram = createHistogram();
  let summary;
  let errorCounts;
  for (const line of report.split('\n')) {
    const [kind, ...fields] = line.split(' ');
    const numbers = fields.map(Number);
    if (kind === 'summary') summary = { durationMicros: numbers[0], requests: numbers[1], bytes: numbers[2] };
    if (kind === 'errors')
      errorCounts = {
        connect: numbers[0],
        read: numbers[1],
        write: numbers[2],
        status: numbers[3],
        timeout: numbers[4],
      };
    if (kind === 'latency') histogram.recordValueWithCount(Math.max(1, numbers[0]), numbers[1]);
  }
  if (!summary || !errorCounts) throw new Error(`wrk wrote no report:\n${report}`);
  const errorCodes = Object.fromEntries(
    [
      ['ECONNREFUSED', errorCounts.connect],
      ['READ', errorCounts.read],
      ['WRITE', errorCounts.write],
      ['TIMEOUT', errorCounts.timeout],
    ].filter(([, count]) => count > 0),
  );
  const socketErrors = errorCounts.connect + errorCounts.read + errorCounts.write;
  return {
    durationSeconds: summary.durationMicros / 1e6,
    requests: { total: summary.requests, perSecond: [] }, // wrk counts no seconds
    responses: { '2xx': summary.requests - errorCounts.status, non2xx: errorCounts.status },
    bytes: summary.bytes,
    errors: socketErrors + errorCounts.timeout,
    timeouts: errorCounts.timeout,
    errorCodes,
    latencyHistogram: encodeHistogram(histogram),
    client: { cpuSeconds },
  };
}

export const wrkEngine = {
  name: 'wrk',
  help: 'wrk (Debian package) for servers faster than autocannon',
  packages: [], // a Debian package, not one of node_modules
  unavailable: wrkUnavailable,
  async launch(launchOptions) {
    // wrk starts per load (go): nothing to start before the server's port is known.
    const options = { ...launchOptions, port: await launchOptions.port };
    const dir = mkdtempSync(join(tmpdir(), 'perfgate-wrk-'));
    const bodyFile = join(dir, 'body');
    if (options.request.body !== undefined) writeFileSync(bodyFile, options.request.body);
    const env = {
      ...process.env,
      PERFGATE_WRK_OUT: join(dir, 'report'),
      PERFGATE_WRK_METHOD: options.request.method ?? 'GET',
      PERFGATE_WRK_BODY_FILE: options.request.body !== undefined ? bodyFile : '',
    };
    let group; // one wrk process per load
    const cleanUp = async () => {
      if (group) await stopGroup(group);
      rmSync(dir, { recursive: true, force: true });
    };
    return {
      async go(duration = options.duration) {
        // Affinity is inherited: the harness runs on the load cores (bench/measurement/pinning.js pinSelf).
        const { cpuSeconds } = await runReaped({
          name: 'wrk',
          program: 'wrk',
          args: wrkArguments({ ...options, duration }),
          env,
          seconds: wholeSeconds(duration) + options.timeout + 30,
          onSpawn: (spawned) => {
            group = spawned;
          },
        });
        return parseWrkReport(readFileSync(env.PERFGATE_WRK_OUT, 'utf8'), cpuSeconds);
      },
      stop: cleanUp,
    };
  },
};
