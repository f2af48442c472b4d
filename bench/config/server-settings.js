// Settings of the servers under test that change their results, as the suite config field
// `server`: each one's default, schema and the variable that carries it to the servers. The
// harness passes every one to every server (serverSettingsEnv), result.json keeps them with
// the config and the github-action-benchmark `extra` text names them, so that two runs with
// different values never look alike in a trend. A setting whose variable is NODE_OPTIONS is
// appended to the options the server would have anyway (bench/measurement/process/server.js).
const whole = (minimum, maximum) => ({ type: 'integer', minimum, maximum });

const SERVER_SETTINGS = {
  // node-cluster's processes and node-workers' threads; 0: one per CPU the server is pinned to.
  workers: {
    default: 0,
    env: 'PERFGATE_SERVER_WORKERS',
    schema: whole(0, 1024),
    show: (value) => (value === 0 ? 'one per server CPU' : String(value)),
    value: (value) => (value === 0 ? '' : String(value)),
  },
  // Tomcat's connector limits (its own defaults).
  tomcatMaxThreads: { default: 200, env: 'PERFGATE_TOMCAT_MAX_THREADS', schema: whole(1, 100000) },
  tomcatMaxConnections: { default: 8192, env: 'PERFGATE_TOMCAT_MAX_CONNECTIONS', schema: whole(1, 1000000) },
  // The database connection pool of the db scenario's servers (koa-pg, tomcat).
  dbPoolSize: { default: 10, env: 'PERFGATE_DB_POOL_SIZE', schema: whole(1, 1000) },
  // V8's young generation (semi-space) of every Node process of a server, in MB; 0: V8 grows
  // it by its own heuristic. Fixed, two processes of the same code cost the same per request:
  // left to grow, a pinned fastify hello settled in one of two states ~15 % apart in CPU per
  // request, by chance, which no number of rounds averages away (bench/stats/METHOD.md §1b).
  // 1 MB is where every Node process starts, and was the cheaper of the two states.
  nodeSemiSpaceMB: {
    default: 1,
    env: 'NODE_OPTIONS',
    schema: whole(0, 1024),
    show: (value) => (value === 0 ? 'V8 default' : `${value} MB`),
    value: (value) => (value === 0 ? '' : `--max-semi-space-size=${value}`),
  },
};

const entries = Object.entries(SERVER_SETTINGS);

export const SERVER_DEFAULTS = Object.freeze(
  Object.fromEntries(entries.map(([name, setting]) => [name, setting.default])),
);

export const serverSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(entries.map(([name, setting]) => [name, setting.schema])),
};

// The environment that carries the settings to a server; '' is "unset" (workers 0: one per CPU).
export function serverSettingsEnv(settings = SERVER_DEFAULTS) {
  return Object.fromEntries(
    entries.map(([name, setting]) => {
      const value = settings[name] ?? SERVER_DEFAULTS[name];
      return [setting.env, setting.value ? setting.value(value) : String(value)];
    }),
  );
}

// "workers=one per server CPU, tomcatMaxThreads=200, ...": one line for reports.
export function describeServerSettings(settings = SERVER_DEFAULTS) {
  return entries
    .map(([name, setting]) => {
      const value = settings[name] ?? SERVER_DEFAULTS[name];
      return `${name}=${setting.show ? setting.show(value) : value}`;
    })
    .join(', ');
}

// A setting left in the harness's environment would be overridden without a word: refuse it
// (NODE_OPTIONS is added to, not overridden).
export function settingsInEnvironment(env = process.env) {
  return entries
    .filter(([, setting]) => setting.env !== 'NODE_OPTIONS' && env[setting.env] !== undefined)
    .map(
      ([name, setting]) =>
        `${setting.env} is set in the environment: it is the suite config field server.${name} now (recorded with the results); set it there and unset the variable`,
    );
}
