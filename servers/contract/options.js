// The scenario options, in one place: each one's default (the only one: servers have none of
// their own), its JSON schema, the PERFGATE_* variable that carries it to the server, which
// scenarios it changes and how a value other than the default shows in a benchmark's name.
// The harness passes every option to every server (optionsEnv); a server that misses one
// stops with an error naming it (readScenarioOptions here, and the same rule in the Go and
// Java servers), so no server can quietly run with a default of its own.

// How the proxy scenario's server forwards to the backend (servers/contract/forward.js).
export const PROXY_CLIENTS = ['http', 'undici', 'fetch'];

const number = (maximum) => ({ type: 'number', minimum: 0, maximum });

export const SCENARIO_OPTIONS = {
  // Harness-only: the size of the echo scenario's request body (bench/measurement/requests.js).
  echoBytes: {
    default: 1024,
    schema: { type: 'integer', minimum: 2, maximum: 10485760 },
    single: true,
    scenarios: ['echo'],
    tag: (value) => `body=${value}B`,
  },
  ioDelayMs: {
    default: 100,
    env: 'PERFGATE_IO_DELAY_MS',
    schema: number(600000),
    scenarios: ['io'],
    tag: (value) => `wait=${value}ms`,
  },
  cpuWork: {
    default: 'loop:180000',
    env: 'PERFGATE_CPU_WORK',
    schema: { type: 'string', pattern: '^(loop|fib):[0-9]+$' },
    scenarios: ['cpu'],
    tag: (value) => `work=${value}`,
  },
  backendDelayMs: {
    default: 0,
    env: 'PERFGATE_BACKEND_DELAY_MS',
    schema: number(600000),
    scenarios: ['proxy'],
    tag: (value) => `delay=${value}ms`,
  },
  proxyClient: {
    default: 'http',
    env: 'PERFGATE_PROXY_CLIENT',
    schema: { type: 'string', enum: PROXY_CLIENTS },
    scenarios: ['proxy'],
    tag: (value) => `client=${value}`,
  },
  logging: {
    default: false,
    env: 'PERFGATE_LOG',
    schema: { type: 'boolean' },
    scenarios: 'all',
    tag: (value) => (value ? 'log=on' : 'log=off'),
  },
};

export const OPTION_DEFAULTS = Object.fromEntries(
  Object.entries(SCENARIO_OPTIONS).map(([name, option]) => [name, option.default]),
);

const encode = (value) => (typeof value === 'boolean' ? (value ? '1' : '0') : String(value));

function decode(name, text) {
  const { default: fallback, env, schema } = SCENARIO_OPTIONS[name];
  if (typeof fallback === 'boolean') {
    if (text === '1' || text === '0') return text === '1';
  } else if (typeof fallback === 'number') {
    if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  } else if (!schema.enum || schema.enum.includes(text)) {
    return text;
  }
  const allowed = schema.enum?.join(', ') ?? (typeof fallback === 'boolean' ? '1, 0' : 'a number');
  throw new Error(`${env}="${text}" is not valid (allowed: ${allowed})`);
}

// The environment that carries one benchmark's option values to its server.
export function optionsEnv(options) {
  const env = {};
  for (const [name, option] of Object.entries(SCENARIO_OPTIONS)) {
    if (!option.env) continue;
    if (options[name] === undefined)
      throw new Error(
        `scenario option ${name} has no value: resolve the suite config first (its defaults fill every option)`,
      );
    env[option.env] = encode(options[name]);
  }
  return env;
}

// The server side: every option the harness passes, or an error naming the missing one.
export function readScenarioOptions(env = process.env) {
  const options = {};
  for (const [name, option] of Object.entries(SCENARIO_OPTIONS)) {
    if (!option.env) continue;
    const text = env[option.env];
    if (text === undefined)
      throw new Error(
        `${option.env} is not set: perfgate passes every scenario option to its servers (servers/contract/options.js); run the server through the harness or set it (default ${encode(option.default)})`,
      );
    options[name] = decode(name, text);
  }
  return options;
}
