// Settings of the servers under test that change their results, as the suite config field
// `server`: each one's default, schema and the variable that carries it to the servers. The
// harness passes every one to every server (serverSettingsEnv), result.json keeps them with
// the config and the github-action-benchmark `extra` text names them, so that two runs with
// different values never look alike in a trend.
const whole = (minimum, maximum) => ({ type: 'integer', minimum, maximum });

const SERVER_SETTINGS = {
  // node-cluster's processes and node-workers' threads; 0: one per CPU the server is pinned to.
  workers: { default: 0, env: 'PERFGATE_SERVER_WORKERS', schema: whole(0, 1024), show: (value) => (value === 0 ? 'one per server CPU' : String(value)) },
  // Tomcat's connector limits (its own defaults).
  tomcatMaxThreads: { default: 200, env: 'PERFGATE_TOMCAT_MAX_THREADS', schema: whole(1, 100000) },
  tomcatMaxConnections: { default: 8192, env: 'PERFGATE_TOMCAT_MAX_CONNECTIONS', schema: whole(1, 1000000) },
  // The database connection pool of the db scenario's servers (koa-pg, tomcat).
  dbPoolSize: { default: 10, env: 'PERFGATE_DB_POOL_SIZE', schema: whole(1, 1000) },
};

const entries = Object.entries(SERVER_SETTINGS);

export const SERVER_DEFAULTS = Object.freeze(Object.fromEntries(entries.map(([name, setting]) => [name, setting.default])));

export const serverSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(entries.map(([name, setting]) => [name, setting.schema])),
};

// The environment that carries the settings to a server; workers 0 is "unset" (one per CPU).
export function serverSettingsEnv(settings = SERVER_DEFAULTS) {
  return Object.fromEntries(entries.map(([name, { env }]) => {
    const value = settings[name] ?? SERVER_DEFAULTS[name];
    return [env, name === 'workers' && value === 0 ? '' : String(value)];
  }));
}

// "workers=one per server CPU, tomcatMaxThreads=200, ...": one line for reports.
export function describeServerSettings(settings = SERVER_DEFAULTS) {
  return entries.map(([name, setting]) => {
    const value = settings[name] ?? SERVER_DEFAULTS[name];
    return `${name}=${setting.show ? setting.show(value) : value}`;
  }).join(', ');
}

// A setting left in the harness's environment would be overridden without a word: refuse it.
export function settingsInEnvironment(env = process.env) {
  return entries.filter(([, setting]) => env[setting.env] !== undefined)
    .map(([name, setting]) => `${setting.env} is set in the environment: it is the suite config field server.${name} now (recorded with the results); set it there and unset the variable`);
}
