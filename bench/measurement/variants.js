// Which variants exist and how each is launched. Built-in variants are the files in
// servers/variants/ (the file name is the variant name); a suite config may add its own
// servers under "commands". Both end up as a launch description the process runner uses.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeVariants } from './describe/describe-variants.js';
import { OPTION_DEFAULTS, PROXY_CLIENTS } from '../../servers/contract/options.js';
import { SCENARIO_NAMES, SCENARIOS } from '../../servers/contract/scenarios.js';

const SERVERS_DIR = new URL('../../servers/', import.meta.url);
const VARIANTS_DIR = new URL('variants/', SERVERS_DIR);
// What a variant serves when it does not say: every scenario but the opt-in ones (db).
const DEFAULT_SCENARIOS = SCENARIO_NAMES.filter((name) => !SCENARIOS[name].optIn);

export function builtInVariantNames() {
  return readdirSync(VARIANTS_DIR)
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -3))
    .sort();
}

// Built-in variants as the describe step (servers/describe.js) tells them, run as a child
// process of the checkout whose servers/ they are: the harness never imports a variant module.
// Besides start(), a variant module may export:
//   packages       npm packages whose versions the result records
//   scenarios      the scenarios it serves, when not all the common ones (opt-in ones must be listed)
//   role           'backend' for the mock backend
//   unavailable()  a one-line reason why it cannot run on this machine, or null
//   runtime        the runtime it always runs on, when not the suite's (express-bun: 'bun', the
//                  express app on Bun; bench/measurement/runtime/variant.js places it there)
//   command()      the argv that starts it, when not `node servers/launch.js <name>`
//                  (another runtime, a compiled binary)
//   proxyClients   the proxyClient values it runs, when not all (a server in another language
//                  forwards with a client of its own, measured as the default, http), and
//   proxyClientNote  why the others do not apply
// `serversDir` is another checkout's servers/ when a comparison runs that checkout's code;
// `launch` how that side's processes run (its sandbox: bench/measurement/process/server.js sideCommand).
// A variant's `unavailable` is the reason it cannot run here, or null.
export async function loadBuiltInVariants(names, { serversDir = SERVERS_DIR, launch = {} } = {}) {
  const dir = fileURLToPath(serversDir);
  const described = await describeVariants(names, { serversDir: dir, launch });
  const launchScript = join(dir, 'launch.js');
  return described.map((variant) => ({
    name: variant.name,
    kind: 'builtin',
    packages: variant.packages ?? [],
    scenarios: variant.scenarios ?? DEFAULT_SCENARIOS,
    role: variant.role ?? 'server',
    proxyClients: variant.proxyClients ?? PROXY_CLIENTS,
    proxyClientNote: variant.proxyClientNote,
    unavailable: variant.unavailable,
    ...(variant.runtime ? { ownRuntime: variant.runtime } : {}),
    launch: {
      ...launch,
      command: variant.command ?? [process.execPath, launchScript, variant.name],
      readiness: 'ready-file',
    },
  }));
}

export async function loadBuiltInVariant(name, serversDir = SERVERS_DIR) {
  const [variant] = await loadBuiltInVariants([name], { serversDir });
  return variant;
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
    unavailable: null,
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

// launch: how their processes run (a runtime: the describe step runs on it too).
export async function loadVariants(names, commands, launch = {}) {
  const builtIns = await loadBuiltInVariants(
    names.filter((name) => !commands[name]),
    { launch },
  );
  return names.map((name) =>
    commands[name] ? commandVariant(name, commands[name]) : builtIns.find((variant) => variant.name === name),
  );
}
