// The nginx-upstream variants (multicore study): nginx load-balancing over K node:http
// processes, each pinned to a core of its own, nginx's workers on the other cores. Runs inside
// servers/launch.js: the upstreams and nginx are its children, in its process group, so the
// harness's stop (and its SIGKILL on exit) ends them all, and the group's CPU and RSS count them.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeCores, nginxConfig, planCores } from './config.js';

const LAUNCH = fileURLToPath(new URL('../launch.js', import.meta.url));
const POLL_MS = 25;

export const nginxBinary = () =>
  ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync) ??
  (spawnSync('nginx', ['-v'], { stdio: 'ignore' }).status === 0 ? 'nginx' : null);

export async function nginxUnavailable() {
  return nginxBinary() ? null : 'nginx missing (Debian package nginx)';
}

const serverCpus = () => (process.env.PERFGATE_SERVER_CPUS || '').split(',').filter(Boolean).map(Number);

const pinned = (cpus, command) => (cpus === null ? command : ['taskset', '-c', String(cpus), ...command]);

async function freePort(host) {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, host, resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const connects = (port, host) =>
  new Promise((resolve) => {
    const socket = net
      .connect(port, host, () => {
        socket.destroy();
        resolve(true);
      })
      .once('error', () => resolve(false));
  });

// Waits for `ready()` to give a value, failing as soon as one of the children has exited.
async function waitFor(ready, children) {
  for (;;) {
    const exited = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    if (exited) throw new Error(`${exited.spawnargs.join(' ')} exited (code ${exited.exitCode}) before it was ready`);
    const value = await ready();
    if (value) return value;
    await sleep(POLL_MS);
  }
}

/**
 * Starts K upstreams and nginx in front of them.
 * @returns {Promise<{port: number, close: () => Promise}>}
 */
export async function startNginxUpstream(upstreams, ctx, { port, host }) {
  const nginx = nginxBinary();
  if (!nginx) throw new Error(await nginxUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers run as an unprivileged user and write temp files here
  // However this process ends: its group's SIGTERM can reach nginx first, whose exit then ends it;
  // and a signal while it starts, before the launcher's own handlers, would end it without 'exit'.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const endWhileStarting = (signal) => process.exit(signal === 'SIGINT' ? 130 : 143);
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, endWhileStarting);
  const cores = planCores(serverCpus(), upstreams);
  console.log(describeCores(cores));
  const children = [];
  let closing = false;
  const spawnChild = (command, env = process.env) => {
    const child = spawn(command[0], command.slice(1), { env, stdio: 'inherit' });
    children.push(child);
    // One process of the variant gone means a broken variant: end it so the harness sees it.
    child.on('exit', (code, signal) => {
      if (closing || signal === 'SIGTERM') return;
      console.error(`${command.join(' ')} exited (${signal ?? `code ${code}`}): stopping nginx-upstream`);
      process.exit(1);
    });
    return child;
  };
  const close = async () => {
    closing = true;
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => once(child, 'exit')));
  };

  try {
    const upstreamPorts = await Promise.all(
      cores.upstreamCpus.map((cpu, i) => {
        const readyFile = join(dir, `upstream-${i}.json`);
        spawnChild(pinned(cpu, [process.execPath, LAUNCH, 'node-http']), {
          ...process.env,
          PORT: '0',
          // Its own address: a sandboxed side may connect only to its own (bench/measurement/sandbox/side-networks.js).
          HOST: host,
          PERFGATE_READY_FILE: readyFile,
        });
        return waitFor(() => existsSync(readyFile) && JSON.parse(readFileSync(readyFile, 'utf8')).port, children);
      }),
    );
    const listenPort = port || (await freePort(host));
    const configFile = join(dir, 'nginx.conf');
    writeFileSync(
      configFile,
      nginxConfig({
        dir,
        host,
        port: listenPort,
        upstreamPorts,
        workerCpus: cores.workerCpus,
        logging: ctx.options.logging,
      }),
    );
    const workerCpus = cores.workerCpus.length ? cores.workerCpus.join(',') : null;
    spawnChild(pinned(workerCpus, [nginx, '-p', dir, '-c', configFile, '-e', join(dir, 'error.log')]));
    await waitFor(() => connects(listenPort, host), children);
    return { port: listenPort, close };
  } catch (error) {
    await close();
    throw error;
  } finally {
    for (const signal of ['SIGTERM', 'SIGINT']) process.off(signal, endWhileStarting);
  }
}
