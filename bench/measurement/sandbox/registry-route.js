// A sandboxed install's way to the npm registry and nowhere else (./install.js): the install runs
// in a network namespace of its own (loopback only, so no cloud metadata address, no private
// range and none of the runner's loopback services), behind ./registry-bridge.js, whose port
// leads through a unix socket to ./registry-proxy.js, run by the harness outside, which lets
// through only the registries' hosts and ports. Works unprivileged (no veth, no firewall rules),
// as bubblewrap does.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGroup } from '../process/children.js';

const PROXY = fileURLToPath(new URL('./registry-proxy.js', import.meta.url));
const BRIDGE = fileURLToPath(new URL('./registry-bridge.js', import.meta.url));
const READY_MS = 10_000;

// "host:port" of a registry's address (the protocol's port when it names none).
export function registryDestination(url) {
  const { protocol, hostname, port } = new URL(url);
  return `${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`.toLowerCase();
}

// The proxy the harness's npm would reach the registry through (npm's settings in the environment,
// then the usual variables, as npm reads them), for the registry proxy to go through in turn.
function harnessProxy(env) {
  const first = (...names) => names.map((name) => env[name]).find(Boolean) ?? '';
  return {
    PERFGATE_UPSTREAM_HTTP: first('npm_config_proxy', 'http_proxy', 'HTTP_PROXY'),
    PERFGATE_UPSTREAM_HTTPS: first(
      'npm_config_https_proxy',
      'https_proxy',
      'HTTPS_PROXY',
      'npm_config_proxy',
      'http_proxy',
      'HTTP_PROXY',
    ),
    PERFGATE_NO_PROXY: first('npm_config_noproxy', 'no_proxy', 'NO_PROXY'),
  };
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Starts the proxy for `registries` (addresses) in the harness's directory `parent`.
 * @returns {{dir: string, command: (install: string[]) => string[], refused: () => string[], close: () => void}}
 *   dir: to bind read-only into the sandbox; command: the install behind the bridge;
 *   refused: the destinations the install was refused
 */
export function openRegistryRoute(parent, registries, env = process.env) {
  const dir = join(parent, 'route');
  mkdirSync(dir, { mode: 0o755 });
  const socket = join(dir, 'proxy.sock');
  const log = join(parent, 'refused.log');
  // Copied beside the socket: the bridge runs in the sandbox, which may not reach perfgate's installation.
  const bridge = join(dir, 'bridge.mjs');
  copyFileSync(BRIDGE, bridge);
  const allowed = [...new Set(registries.map(registryDestination))];
  const proxy = spawnGroup([process.execPath, PROXY, socket, log, ...allowed], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: env.PATH, ...harnessProxy(env) },
  });
  // The install is started synchronously: wait here until the proxy listens, open to the sandbox's uid.
  const ready = () => (statSync(socket, { throwIfNoEntry: false })?.mode & 0o002) > 0;
  for (let waited = 0; !ready() && waited < READY_MS && proxy.child.exitCode === null; waited += 10) sleep(10);
  const close = () => {
    try {
      process.kill(-proxy.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  if (!ready()) {
    close();
    throw new Error(`the registry proxy of a sandboxed install did not start within ${READY_MS / 1000} s`);
  }
  return {
    dir,
    command: (install) => [process.execPath, bridge, socket, ...install],
    refused: () => (existsSync(log) ? [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] : []),
    close,
  };
}
