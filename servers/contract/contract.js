// The server contract every built-in variant follows, so that a variant file only maps
// the scenarios onto its framework:
//   - every scenario option arrives in its PERFGATE_* environment variable (servers/contract/options.js),
//     none has a default here: a missing one stops the server with an error naming it;
//   - it listens on PORT (0 = any free port) at HOST and reports the real port by writing
//     {"port":N,"pid":P} to the file named by PERFGATE_READY_FILE (atomically);
//   - it stops cleanly on SIGTERM/SIGINT;
//   - PERFGATE_SERVER_CPUS lists the cores it was pinned to, for variants that pin processes of their own.
// A variant module (servers/variants/<name>.js) exports start(ctx, { port, host }), resolving to
// { port, close }; `ctx` carries the scenario work so that all variants do the same thing.
// It may export `packages` (npm packages whose versions are recorded) and `scenarios`
// (when it serves only some). launch.js runs it.
import { renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createForwarder } from './forward.js';
import { readScenarioOptions } from './options.js';
import {
  allocateGraph,
  divisionLoop,
  injectedAmount,
  keepBytes,
  parseCpuWork,
  parseStall,
  stallEvery,
} from './scenarios.js';

export function readOptions(env = process.env) {
  return {
    ...readScenarioOptions(env),
    port: Number(env.PORT ?? 0),
    host: env.HOST ?? '127.0.0.1',
    readyFile: env.PERFGATE_READY_FILE,
    backendUrl: env.PERFGATE_BACKEND_URL,
    // Calibration only (not a scenario option): extra division-loop iterations per request,
    // to inject a known slowdown; absent means none.
    injectedLoops: Number(env.PERFGATE_INJECT_LOOPS ?? 0),
    // Likewise an allocation-only change: small objects built and dropped per request.
    injectedObjects: injectedAmount(env, 'PERFGATE_INJECT_OBJECTS', 'the small objects built and dropped'),
    // And a leak: bytes kept for good per request.
    injectedLeak: injectedAmount(env, 'PERFGATE_INJECT_LEAK', 'the bytes kept'),
    // And an occasional stall, "<ms>/<every>": it moves the tail, not the mean CPU.
    injectedStall: env.PERFGATE_INJECT_STALL ? parseStall(env.PERFGATE_INJECT_STALL) : null,
  };
}

export function createContext(options) {
  const cpuWork = parseCpuWork(options.cpuWork);
  let forwarder; // created on the first proxied request: only the proxy scenario has a backend
  const stall = options.injectedStall ? stallEvery(options.injectedStall) : null;
  return {
    options,
    // Called once per request by every variant: the logging switch and the injected changes.
    onRequest(method, url) {
      if (options.logging) console.log(`${new Date().toISOString()} ${method} ${url}`);
      if (options.injectedLoops > 0) divisionLoop(options.injectedLoops);
      if (options.injectedObjects > 0) allocateGraph(options.injectedObjects);
      if (options.injectedLeak > 0) keepBytes(options.injectedLeak);
      stall?.();
    },
    cpuWork,
    ioWait: () => sleep(options.ioDelayMs),
    backendWait: () => sleep(options.backendDelayMs),
    // POSTs the body to the mock backend with the proxyClient option's client and returns
    // its answer unchanged.
    forward(body) {
      if (!options.backendUrl)
        throw new Error('PERFGATE_BACKEND_URL is not set: the harness starts the backend for the proxy scenario');
      forwarder ??= createForwarder(options.proxyClient, options.backendUrl);
      return forwarder(body);
    },
  };
}

// Collects a request body as text, for servers without a body parser.
export async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// Listens with a plain node:http server; most frameworks hand us a request listener.
function listenHttp(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({
        port: server.address().port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

export function listenHandler(handler, port, host) {
  return listenHttp(http.createServer(handler), port, host);
}

function reportReady(readyFile, port) {
  const line = JSON.stringify({ port, pid: process.pid });
  if (!readyFile) return console.log(`listening on port ${port}`);
  writeFileSync(`${readyFile}.tmp`, line);
  renameSync(`${readyFile}.tmp`, readyFile);
}

export async function runServer(start) {
  let options;
  let server;
  try {
    options = readOptions();
    server = await start(createContext(options), { port: options.port, host: options.host });
  } catch (error) {
    const reason = error.code === 'EADDRINUSE' ? `port ${options.port} is in use` : error.message;
    console.error(`perfgate server failed to start: ${reason}`);
    process.exit(1);
  }
  reportReady(options.readyFile, server.port);
  const stop = async () => {
    setTimeout(() => process.exit(0), 2000).unref(); // a stuck close must not keep the process alive
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
