// Which variants exist and how each is launched. Built-in variants are the files in
// servers/variants/ (the file name is the variant name); a suite config may add its own
// servers under "commands". Both end up as a launch description the process runner uses.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTION_DEFAULTS, PROXY_CLIENTS } from '../servers/options.js';
import { SCENARIO_NAMES, SCENARIOS } from '../servers/scenarios.js';

const SERVERS_DIR = new URL('../servers/', import.meta.url);
const VARIANTS_DIR = new URL('variants/', SERVERS_DIR);
// What a variant serves when it does not say: every scenario but the opt-in ones (db).
const DEFAULT_SCENARIOS = SCENARIO_NAMES.filter((name) => !SCENARIOS[name].optIn);

export function builtInVariantNames() {
  return readdirSync(VARIANTS_DIR)
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -3))
    .sort();
}

// Metadata of a built-in variant, read from its module without starting it. Besides
// start(), a variant module may export:
//   packages       npm packages whose versions the result records
//   scenarios      the scenarios it serves, when not all the common ones (opt-in ones must be listed)
//   role           'backend' for the mock backend
//   unavailable()  a one-line reason why it cannot run on this machine, or null
//   command()      the argv that starts it, when not `node servers/launch.js <name>`
//                  (another runtime, a compiled binary)
//   proxyClients   the proxyClient values it runs, when not all (a server in another language
//                  forwards with a client of its own, measured as the default, http), and
//   proxyClientNote  why the others do not apply
// `serversDir` is another checkout's servers/ when a comparison runs that checkout's code.
export async function loadBuiltInVariant(name, serversDir = SERVERS_DIR) {
  const module = await importVariant(name, serversDir);
  const launchScript = fileURLToPath(new URL('launch.js', serversDir));
  return {
    name,
    kind: 'builtin',
    packages: module.packages ?? [],
    scenarios: module.scenarios ?? DEFAULT_SCENARIOS,
    role: module.role ?? 'server',
    proxyClients: module.proxyClients ?? PROXY_CLIENTS,
    proxyClientNote: module.proxyClientNote,
    unavailable: module.unavailable ?? (async () => null),
    launch: {
      command: module.command ? module.command({ launchScript, name }) : [process.execPath, launchScript, name],
      readiness: 'ready-file',
    },
  };
}

// The framework of a reference variant is not a dependency of an installed perfgate (a
// project installs only the frameworks it wants beside its own servers): a variant whose
// package is missing is skipped with the command that installs it.
async function importVariant(name, serversDir) {
  try {
    return await import(new URL(`variants/${name}.js`, serversDir));
  } catch (error) {
    const missing = error.code === 'ERR_MODULE_NOT_FOUND' && /Cannot find package '([^']+)'/.exec(error.message)?.[1];
    if (!missing) throw error;
    return {
      unavailable: async () => `the npm package "${missing}" is not installed (npm install --save-dev ${missing})`,
    };
  }
}

// A server given as a module: perfgate serves its exported request handler on node:http.
function handlerLaunch(declaration) {
  const cwd = declaration.cwd ?? process.cwd();
  return {
    command: [process.execPath, fileURLToPath(new URL('handler.js', SERVERS_DIR))],
    env: {
      ...declaration.env,
      PERFGATE_HANDLER_MODULE: resolve(cwd, declaration.module),
      PERFGATE_HANDLER_EXPORT: declaration.export ?? 'default',
    },
    readiness: 'ready-file',
  };
}

// A user's own server from the suite config's "commands": a command, or a module's handler.
export function commandVariant(name, declaration) {
  return {
    name,
    kind: 'command',
    packages: [],
    scenarios: Object.keys(declaration.scenarios),
    role: 'server',
    unavailable: async () => null,
    requests: declaration.scenarios,
    launch: {
      command: declaration.command,
      cwd: declaration.cwd,
      env: declaration.env ?? {},
      port: declaration.port,
      readiness: 'http',
      readyPath: declaration.readyPath ?? Object.values(declaration.scenarios)[0].path,
      ...(declaration.module ? handlerLaunch(declaration) : {}),
    },
  };
}

// Why one benchmark of a variant that can run here is not run, or null: the proxyClient
// option picks the proxy's outgoing client; the backend does not forward at all, and some
// variants cannot use every client (proxyClients).
export function skipReason(variant, { scenario, options }) {
  if (scenario !== 'proxy' || variant.kind !== 'builtin' || options.proxyClient === OPTION_DEFAULTS.proxyClient)
    return null;
  if (variant.role === 'backend')
    return `the backend answers the proxy route itself: proxyClient=${options.proxyClient} does not apply`;
  if (variant.proxyClients.includes(options.proxyClient)) return null;
  return `${variant.proxyClientNote}: proxyClient=${options.proxyClient} does not apply (it runs ${variant.proxyClients.join(', ')})`;
}

export async function loadVariants(names, commands) {
  return Promise.all(
    names.map((name) => (commands[name] ? commandVariant(name, commands[name]) : loadBuiltInVariant(name))),
  );
}
