// The db scenario's database: a real PostgreSQL on loopback, seeded so that the scenario's
// aggregate gives the expected answer, and gone (every process, its directory) when stopped.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { databaseUnavailable, startDatabase } from '../bench/measurement/database.js';
import { planPinning } from '../bench/measurement/pinning.js';
import { SIDE_NETWORKS } from '../bench/measurement/sandbox/side-networks.js';
import { DB_BODY, DB_QUERY } from '../servers/contract/scenarios.js';
import { groupAlive, tempDir } from './helpers/harness.js';

test('a private PostgreSQL answers the db query, then its whole process group is gone', async (t) => {
  const reason = databaseUnavailable();
  if (reason) return t.skip(reason);
  // On a side's address, as in a comparison (bench/measurement/sandbox/side-networks.js).
  const database = await startDatabase({
    plan: planPinning([0], {}),
    host: SIDE_NETWORKS.base.address,
    logFile: join(tempDir(), 'database.log'),
  });
  let stopped = false;
  try {
    assert.match(database.url, /^postgres:\/\/\w+@127\.0\.1\.1:\d+\/\w+$/);
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const {
      rows: [row],
    } = await pool.query(DB_QUERY);
    await pool.end();
    assert.equal(JSON.stringify({ items: row.items, total: row.total }), DB_BODY);
    assert.ok(groupAlive(database.pid));
    await database.stop();
    stopped = true;
    assert.equal(groupAlive(database.pid), false, 'no postgres process survives');
    assert.equal(existsSync(database.dir), false, 'its directory is removed');
  } finally {
    if (!stopped) await database.stop();
  }
});
