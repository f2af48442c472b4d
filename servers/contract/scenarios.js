// The common scenarios: what each route receives and must answer, byte for byte.
// Servers import the payloads and the work from here; the harness imports the same
// definitions to build requests and to verify answers, so the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const HELLO_TEXT = 'Hello World';
export const JSON_BODY = JSON.stringify({ message: 'Hello, World!' });
export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';

// The mock AI backend's answer (proxy-baseline study): fixed, so a proxy's answer can be verified.
export const COMPLETION_BODY = JSON.stringify({
  id: 'cmpl-perfgate',
  object: 'text_completion',
  model: 'perfgate-mock',
  choices: [{ index: 0, text: 'Hello from the mock backend.', finish_reason: 'stop' }],
  usage: { prompt_tokens: 8, completion_tokens: 6, total_tokens: 14 },
});

// The db scenario (node-vs-java study): one aggregate query through a connection pool, over
// rows that bench/measurement/database.js seeds, so that the answer is known.
export const DB_QUERY = 'SELECT count(*)::int AS items, sum(price)::int AS total FROM items';
export const DB_BODY = JSON.stringify({ items: 10000, total: 495000 });

// The query scenario (frameworks study): the framework's router takes the user id from the
// path, its query parser the fields; the answer is the id and the asked fields of that user,
// in the order asked (unknown fields ignored).
const QUERY_PATH = '/users/42?fields=name,email';

export function userAnswer(id, fields) {
  const user = { name: `user-${id}`, email: `user-${id}@example.com` };
  const answer = { id };
  for (const field of String(fields ?? '').split(',')) if (Object.hasOwn(user, field)) answer[field] = user[field];
  return JSON.stringify(answer);
}

// The static scenario: a 10 KB page served by the framework's static-file middleware (or its
// idiomatic equivalent) from STATIC_DIR, under /static/.
export const STATIC_DIR = fileURLToPath(new URL('../static/', import.meta.url));
const STATIC_PAGE = 'page.html';
export const HTML_TYPE = 'text/html; charset=utf-8';

// `optIn`: served only by variants that list it (the db scenario needs a database driver).
export const SCENARIOS = {
  hello: { method: 'GET', path: '/hello', respond: () => ({ type: TEXT_TYPE, body: HELLO_TEXT }) },
  json: { method: 'GET', path: '/json', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  echo: { method: 'POST', path: '/echo', respond: (requestBody) => ({ type: JSON_TYPE, body: requestBody }) },
  proxy: { method: 'POST', path: '/proxy', respond: () => ({ type: JSON_TYPE, body: COMPLETION_BODY }) },
  io: { method: 'GET', path: '/io', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  cpu: { method: 'GET', path: '/cpu', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  db: { method: 'GET', path: '/db', optIn: true, respond: () => ({ type: JSON_TYPE, body: DB_BODY }) },
  query: {
    method: 'GET',
    path: QUERY_PATH,
    respond: () => ({ type: JSON_TYPE, body: userAnswer('42', 'name,email') }),
  },
  // Static servers choose their own headers: the answer is checked for its length (the whole
  // file, its size known up front, no chunking) and for its media type and charset as a client
  // reads them (Express 4 writes "charset=UTF-8", Tomcat drops the space), not byte for byte.
  static: {
    method: 'GET',
    path: `/static/${STATIC_PAGE}`,
    staticFile: true,
    respond: () => ({ type: HTML_TYPE, body: readFileSync(`${STATIC_DIR}${STATIC_PAGE}`, 'utf8') }),
  },
};

export const SCENARIO_NAMES = Object.keys(SCENARIOS);

// A compact JSON document of about `bytes` bytes, the same for every run, for the echo
// scenario. Compact and key-unique, so parse + stringify in any framework gives it back unchanged.
export function echoPayload(bytes = 1024) {
  const items = [];
  let text = '';
  for (let i = 0; text.length < bytes; i++) {
    items.push({ id: i, name: `item-${i}`, tags: ['perf', 'gate'], price: i * 1.5, active: i % 2 === 0 });
    text = JSON.stringify({ items });
  }
  return text;
}

// The multicore study's CPU-bound handler: a loop of divisions.
export function divisionLoop(iterations) {
  let x = 0;
  for (let i = 1; i <= iterations; i++) x += i / (i + 1);
  return x;
}

// A graph of `count` small linked objects, kept until the next call: it escapes, so the
// compiler cannot drop the allocation, and it dies young, so it costs allocation and
// scavenges rather than a growing heap.
let lastGraph = null;
export function allocateGraph(count) {
  let head = null;
  for (let i = 0; i < count; i++) head = { value: i, next: head };
  lastGraph = head;
  return lastGraph;
}

// A calibration leak: about `bytes` kept for good per request, as an array of small integers
// (a slot of 8 bytes each on a 64-bit heap), on the V8 heap where the soak reads it.
const kept = [];
export function keepBytes(bytes) {
  kept.push(new Array(Math.ceil(bytes / 8)).fill(0));
}

// A calibration amount from the environment: absent means none; anything but a positive integer
// stops the server with the variable, what it holds and the fix.
export function injectedAmount(env, name, unit) {
  const value = env[name];
  if (value === undefined || value === '') return 0;
  if (!/^\d+$/.test(value) || !(Number(value) > 0))
    throw new Error(`${name}="${value}" is not a positive integer: give ${unit} per request, or leave it unset`);
  return Number(value);
}

// The concurrency-models study's CPU-bound task.
export function fibonacci(n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}

// "loop:180000" or "fib:30" -> a function doing that work once.
// A calibration stall, "<ms>/<every>" ("20/200" or "20ms/200"): the process sleeps ms milliseconds,
// synchronously, on every every-th request. It holds the event loop, so the requests queued behind
// it wait too (the tail moves), while sleeping costs no CPU (the mean CPU per request barely moves).
export function parseStall(spec) {
  const match = /^(\d+(?:\.\d+)?)(?:ms)?\/(\d+)$/.exec(String(spec).trim());
  if (!match || !(Number(match[1]) > 0) || !(Number(match[2]) >= 1))
    throw new Error(
      `stall "${spec}" is not understood: use "<ms>/<every>", a pause of more than 0 ms every 1 or more requests (e.g. 20ms/200)`,
    );
  return { ms: Number(match[1]), every: Number(match[2]) };
}

// Counts requests and stalls on every `every`-th one.
export function stallEvery({ ms, every }) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let count = 0;
  return () => {
    count += 1;
    if (count % every === 0) Atomics.wait(sleeper, 0, 0, ms);
  };
}

export function parseCpuWork(spec) {
  const match = /^(loop|fib):(\d+)$/.exec(spec);
  if (!match) throw new Error(`cpu work "${spec}" is not understood: use "loop:<iterations>" or "fib:<n>"`);
  const amount = Number(match[2]);
  return match[1] === 'loop' ? () => divisionLoop(amount) : () => fibonacci(amount);
}
