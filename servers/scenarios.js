// The common scenarios: what each route receives and must answer, byte for byte.
// Servers import the payloads and the work from here; the harness imports the same
// definitions to build requests and to verify answers, so the two cannot drift apart.

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
// rows that bench/database.js seeds, so that the answer is known.
export const DB_QUERY = 'SELECT count(*)::int AS items, sum(price)::int AS total FROM items';
export const DB_BODY = JSON.stringify({ items: 10000, total: 495000 });

// `optIn`: served only by variants that list it (the db scenario needs a database driver).
export const SCENARIOS = {
  hello: { method: 'GET', path: '/hello', respond: () => ({ type: TEXT_TYPE, body: HELLO_TEXT }) },
  json: { method: 'GET', path: '/json', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  echo: { method: 'POST', path: '/echo', respond: (requestBody) => ({ type: JSON_TYPE, body: requestBody }) },
  proxy: { method: 'POST', path: '/proxy', respond: () => ({ type: JSON_TYPE, body: COMPLETION_BODY }) },
  io: { method: 'GET', path: '/io', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  cpu: { method: 'GET', path: '/cpu', respond: () => ({ type: JSON_TYPE, body: JSON_BODY }) },
  db: { method: 'GET', path: '/db', optIn: true, respond: () => ({ type: JSON_TYPE, body: DB_BODY }) },
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

// The concurrency-models study's CPU-bound task.
export function fibonacci(n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}

// "loop:180000" or "fib:30" -> a function doing that work once.
export function parseCpuWork(spec) {
  const match = /^(loop|fib):(\d+)$/.exec(spec);
  if (!match) throw new Error(`cpu work "${spec}" is not understood: use "loop:<iterations>" or "fib:<n>"`);
  const amount = Number(match[2]);
  return match[1] === 'loop' ? () => divisionLoop(amount) : () => fibonacci(amount);
}
