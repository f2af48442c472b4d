// vegeta (built from the Go module proxy by scripts/setup.mjs: ./vegeta-install.js), the
// open-model engine: it sends requests on a fixed schedule whatever the server does (a new
// worker for every request due while the others wait, without limit), and writes every
// request's sequence number, the time it was sent and its latency. From those, perfgate
// computes when each request was due and counts its latency from then (./open-schedule.js).
// One vegeta process per load (go): it writes its results to a file, decoded after the load,
// outside the measured window; its CPU time is read as a reaped child's (./reaped-cpu.js).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { spawnGroup, stopGroup } from '../process/children.js';
import { LOOPBACK } from '../process/ports.js';
import { boundedWait } from './bounded.js';
import { openSchedule } from './open-schedule.js';
import { runReaped } from './reaped-cpu.js';
import { VEGETA_BIN, VEGETA_VERSION } from './vegeta-install.js';

export function vegetaUnavailable() {
  return existsSync(VEGETA_BIN)
    ? null
    : `vegeta ${VEGETA_VERSION} is not built (npm run setup builds it with Go into ${VEGETA_BIN})`;
}

// Go durations take milliseconds: a 0.5 s warm-up is 500ms.
const goDuration = (seconds) => `${Math.max(1, Math.round(seconds * 1000))}ms`;

// vegeta's rate is a whole number of requests per period: a rate's share of a load split over
// processes (333.33…) is given per 1000 s.
const rateFlag = (rate) => (Number.isInteger(rate) ? `${rate}/1s` : `${Math.round(rate * 1000)}/1000s`);

// Pure: perfgate's load options -> vegeta attack's arguments (the targets and body files given).
export function vegetaArguments({ request, connections, duration, rate, timeout }, { targetsFile, bodyFile }) {
  const headers = Object.entries(request.headers ?? {}).flatMap(([name, value]) => ['-header', `${name}: ${value}`]);
  return [
    'attack',
    `-targets=${targetsFile}`,
    ...(bodyFile ? [`-body=${bodyFile}`] : []),
    ...headers,
    `-rate=${rateFlag(rate)}`,
    `-duration=${goDuration(duration)}`,
    `-timeout=${goDuration(timeout)}`,
    // The load point's connections, when it names them, are the client's pool: requests due while
    // all are busy wait for one, their latency still counted from when they were due. Without,
    // vegeta opens as many as the schedule needs.
    ...(connections === undefined ? [] : [`-connections=${connections}`, `-max-connections=${connections}`]),
    // Response bodies are not kept (their size is read from Content-Length).
    '-max-body=0',
  ];
}

// vegeta's error text -> the error codes the other engines report.
const ERROR_CODES = [
  [/Client\.Timeout|deadline exceeded|timeout/i, 'TIMEOUT'],
  [/connection refused/, 'ECONNREFUSED'],
  [/connection reset/, 'ECONNRESET'],
  [/too many open files/, 'EMFILE'],
  [/cannot assign requested address/, 'EADDRNOTAVAIL'],
  [/broken pipe/, 'EPIPE'],
];
const errorCode = (text) => ERROR_CODES.find(([pattern]) => pattern.test(text))?.[1] ?? 'OTHER';

// An RFC 3339 time with nanoseconds (vegeta's JSON) -> ns since the epoch, as a BigInt (a
// Number cannot hold them to the nanosecond).
function epochNanos(text) {
  const [, seconds, fraction = '', zone] = /^(.+T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(text);
  return BigInt(Date.parse(`${seconds}${zone}`)) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}

// Pure: vegeta's results (one decoded JSON object a line) -> perfgate's part sample, but its CPU.
export function vegetaSample(lines, { rate, duration }) {
  let origin;
  const results = [];
  const errorCodes = {};
  const responses = { '2xx': 0, non2xx: 0 };
  let bytes = 0;
  for (const line of lines) {
    const result = JSON.parse(line);
    const sent = epochNanos(result.timestamp);
    origin ??= sent;
    const completed = result.code !== 0;
    results.push({ seq: result.seq, sentNs: Number(sent - origin), latencyNs: result.latency, completed });
    if (!completed) {
      const code = errorCode(result.error);
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      continue;
    }
    responses[result.code >= 200 && result.code < 300 ? '2xx' : 'non2xx']++;
    bytes += Number(result.headers?.['Content-Length']?.[0] ?? 0);
  }
  const { latencyHistogram, completedNs, schedule } = openSchedule({ rate, duration, results });
  // Responses that ended in each whole second of the schedule.
  const perSecond = Array(Math.floor(duration)).fill(0);
  for (const endNs of completedNs) {
    const second = Math.floor(endNs / 1e9);
    if (second < perSecond.length) perSecond[second]++;
  }
  const completed = responses['2xx'] + responses.non2xx;
  return {
    durationSeconds: duration,
    requests: { total: completed, perSecond },
    responses,
    bytes,
    errors: results.length - completed,
    timeouts: errorCodes.TIMEOUT ?? 0,
    errorCodes,
    latencyHistogram,
    schedule,
  };
}

// `vegeta encode` of the results file, within `seconds`: one JSON object a line.
async function decodeResults(resultsFile, seconds) {
  const group = spawnGroup([VEGETA_BIN, 'encode', '--to', 'json', resultsFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const lines = [];
    const reading = (async () => {
      for await (const line of createInterface({ input: group.child.stdout })) if (line) lines.push(line);
    })();
    const exit = await boundedWait(group.exited, seconds, 'vegeta encode did not finish');
    await reading;
    if (exit.code !== 0) throw new Error(`vegeta encode failed (${exit.signal ?? `code ${exit.code}`})`);
    return lines;
  } finally {
    await stopGroup(group);
  }
}

export const vegetaEngine = {
  name: 'vegeta',
  help: `vegeta (Go, built by setup) for the open model: a fixed request rate (--rate), latency from each request's due time`,
  packages: [], // a Go program, not one of node_modules
  unavailable: vegetaUnavailable,
  paces: true, // holds a rate, and needs one (model)
  model: 'open',
  async launch(launchOptions) {
    // vegeta starts per load (go): nothing to start before the server's port is known.
    const options = { ...launchOptions, port: await launchOptions.port };
    const dir = mkdtempSync(join(tmpdir(), 'perfgate-vegeta-'));
    const files = { targetsFile: join(dir, 'targets'), bodyFile: undefined };
    const url = `http://${options.host ?? LOOPBACK}:${options.port}${options.request.path}`;
    writeFileSync(files.targetsFile, `${options.request.method ?? 'GET'} ${url}\n`);
    if (options.request.body !== undefined) {
      files.bodyFile = join(dir, 'body');
      writeFileSync(files.bodyFile, options.request.body);
    }
    let group; // one vegeta process per load
    return {
      async go(duration = options.duration) {
        const resultsFile = join(dir, 'results');
        try {
          // Affinity is inherited: the harness runs on the load cores (bench/measurement/pinning.js pinSelf).
          // Every request ends within its timeout after the schedule does.
          const { cpuSeconds } = await runReaped({
            name: 'vegeta',
            program: VEGETA_BIN,
            args: [...vegetaArguments({ ...options, duration }, files), `-output=${resultsFile}`],
            seconds: duration + options.timeout + 30,
            onSpawn: (spawned) => {
              group = spawned;
            },
          });
          const lines = await decodeResults(resultsFile, 30 + duration);
          return { ...vegetaSample(lines, { rate: options.rate, duration }), client: { cpuSeconds } };
        } finally {
          rmSync(resultsFile, { force: true });
        }
      },
      stop: async () => {
        if (group) await stopGroup(group);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
