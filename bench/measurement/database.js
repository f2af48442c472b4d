// A private PostgreSQL server for the db scenario: a fresh cluster in a temporary directory,
// listening on loopback only (its unix socket in that directory too), seeded with the rows
// whose aggregate servers/contract/scenarios.js expects, and stopped with its whole process group.
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user (or nobody).
import { spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { errors } from '../core/errors.js';
import { pinnedCommand } from './pinning.js';
import { spawnGroup, stopGroup } from './process/children.js';
import { freePort, LOOPBACK } from './process/ports.js';
import { installHint } from '../core/invocation.js';

const USER = 'perfgate';
const DATABASE = 'postgres';
const POLL_MS = 100;

// The rows DB_QUERY aggregates: count 10000, sum(id % 100) = 100 * (0 + ... + 99) = 495000.
const SEED_SQL = `
  CREATE TABLE items (id integer PRIMARY KEY, price integer NOT NULL);
  INSERT INTO items SELECT id, id % 100 FROM generate_series(1, 10000) AS id;
  ANALYZE items;`;

// The directory holding initdb and postgres: on PATH, else Debian's versioned directory.
function postgresBinDir() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (onPath.status === 0) return join(onPath.stdout.trim(), '..');
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian).filter((version) => existsSync(join(debian, version, 'bin/postgres')))
    : [];
  return versions.length ? join(debian, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin') : null;
}

export function databaseUnavailable() {
  return postgresBinDir()
    ? null
    : `PostgreSQL server missing (Debian package postgresql: ${installHint('postgresql')})`;
}

// As root: run as an unprivileged user that owns the data directory.
function unprivileged() {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined };
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u').status === 0 ? Number(id('-u').stdout) : 65534;
  const gid = id('-g').status === 0 ? Number(id('-g').stdout) : 65534;
  return { prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'], uid, gid };
}

async function connectWhenReady(config, exited, { readyTimeout, logFile }) {
  const deadline = Date.now() + readyTimeout * 1000;
  let exit;
  exited.then((result) => {
    exit = result;
  });
  for (;;) {
    const client = new pg.Client(config);
    try {
      await client.connect();
      return client;
    } catch {
      await client.end().catch(() => {});
      if (exit) throw errors.serverExited('postgresql', exit.code, exit.signal, logFile);
      if (Date.now() > deadline) throw errors.serverNotReady('postgresql', readyTimeout, logFile);
      await sleep(POLL_MS);
    }
  }
}

/**
 * Starts and seeds a database on the server's cores; its output goes to `logFile`.
 * @param {{plan: object, host?: string, logFile: string, readyTimeout?: number}} how  host: the loopback address it listens on
 * @returns {Promise<{url: string, pid: number, dir: string, stop: () => Promise}>}
 */
export async function startDatabase({ plan, host = LOOPBACK, logFile, readyTimeout = 30 }) {
  const bin = postgresBinDir();
  if (!bin) throw errors.variantUnavailable('postgresql', databaseUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-db-'));
  const dataDir = join(dir, 'data');
  const { prefix, uid, gid } = unprivileged();
  if (uid !== undefined) chownSync(dir, uid, gid);
  const log = openSync(logFile, 'a');
  // --no-sync and fsync=off: a throwaway cluster, nothing to make durable.
  const initdb = [
    ...prefix,
    join(bin, 'initdb'),
    '-D',
    dataDir,
    '-U',
    USER,
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ];
  const initialized = spawnSync(initdb[0], initdb.slice(1), { stdio: ['ignore', log, log] });
  const port = await freePort(host);
  const group =
    initialized.status === 0 &&
    spawnGroup(
      pinnedCommand(plan, [
        ...prefix,
        join(bin, 'postgres'),
        '-D',
        dataDir,
        '-k',
        dir,
        '-h',
        host,
        '-p',
        String(port),
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        // Shared memory segments in the data directory, removed with it: posix ones live in /dev/shm
        // and outlive a cluster whose process group is stopped with a signal.
        '-c',
        'dynamic_shared_memory_type=mmap',
        // The cluster name shows in every postgres process title, so that leftovers can be found.
        '-c',
        `cluster_name=${basename(dir)}`,
      ]),
      { stdio: ['ignore', log, log] },
    );
  closeSync(log);
  const stop = async () => {
    if (group) await stopGroup(group);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!group) throw errors.serverExited('postgresql initdb', initialized.status, initialized.signal, logFile);
    const config = { host, port, user: USER, database: DATABASE };
    const client = await connectWhenReady(config, group.exited, { readyTimeout, logFile });
    try {
      await client.query(SEED_SQL);
    } finally {
      await client.end();
    }
    return { url: `postgres://${USER}@${host}:${port}/${DATABASE}`, pid: group.child.pid, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
