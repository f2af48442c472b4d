// The nginx-upstream variants' pure parts: which core each process gets, and the generated
// nginx.conf (validated by nginx itself where it is installed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { affinityMask, describeCores, nginxConfig, planCores } from '../servers/nginx/config.js';
import { nginxBinary, nginxUnavailable } from '../servers/nginx/upstreams.js';
import { tempDir } from './helpers/harness.js';

describe('core layout', () => {
  test('each upstream gets a core of its own and nginx the rest, when there are enough', () => {
    assert.deepEqual(planCores([2, 3, 4, 5], 3), { upstreamCpus: [2, 3, 4], workerCpus: [5], shared: false });
  });

  test('with no more cores than upstreams they share, cycling, and the layout says so', () => {
    const cores = planCores([1], 2);
    assert.deepEqual(cores, { upstreamCpus: [1, 1], workerCpus: [1], shared: true });
    assert.match(describeCores(cores), /upstreams on cores 1,1, nginx workers on 1 \(cores shared/);
    assert.deepEqual(planCores([1, 2, 3], 3).upstreamCpus, [1, 2, 3]);
    assert.equal(planCores([1, 2, 3], 3).shared, true);
  });

  test('unpinned when no cores are given', () => {
    assert.deepEqual(planCores([], 2), { upstreamCpus: [null, null], workerCpus: [], shared: false });
    assert.match(describeCores(planCores([], 2)), /not pinned/);
  });

  test('affinity masks put the lowest core rightmost', () => {
    assert.deepEqual([0, 1, 3].map(affinityMask), ['1', '10', '1000']);
  });
});

describe('nginx.conf', () => {
  const dir = '/tmp/perfgate-nginx-abc';
  const config = nginxConfig({
    dir,
    host: '127.0.0.1',
    port: 8080,
    upstreamPorts: [4001, 4002],
    workerCpus: [2, 3],
    logging: false,
  });

  test('runs in the foreground with a master, its files in the run directory only', () => {
    assert.match(config, /^daemon off;$/m);
    assert.match(config, /^master_process on;$/m);
    assert.match(config, new RegExp(`^pid ${dir}/nginx.pid;$`, 'm'));
    assert.match(config, new RegExp(`^error_log ${dir}/error.log warn;$`, 'm'));
    const directives = config
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    const paths = directives.match(/(?<= )\/[^\s;]+/g);
    assert.ok(paths.length >= 7);
    for (const path of paths) assert.ok(path.startsWith(`${dir}/`), `${path} is inside the run directory`);
  });

  test('one worker per nginx core, pinned', () => {
    assert.match(config, /^worker_processes 2;$/m);
    assert.match(config, /^worker_cpu_affinity 100 1000;$/m);
  });

  test('balances over every upstream with keep-alive, listening where asked', () => {
    assert.match(config, /server 127\.0\.0\.1:4001;\n\s+server 127\.0\.0\.1:4002;\n\s+keepalive \d+;/);
    assert.match(config, /listen 127\.0\.0\.1:8080 /);
    assert.match(config, /proxy_http_version 1\.1;/);
    assert.match(config, /proxy_set_header Connection "";/);
  });

  test('access log only with the logging switch, in the run directory', () => {
    assert.match(config, /access_log off;/);
    const logged = nginxConfig({
      dir,
      host: '127.0.0.1',
      port: 8080,
      upstreamPorts: [1],
      workerCpus: [],
      logging: true,
    });
    assert.match(logged, new RegExp(`access_log ${dir}/access.log;`));
    assert.match(logged, /^worker_processes auto;$/m);
    assert.doesNotMatch(logged, /worker_cpu_affinity/);
  });

  test('nginx accepts it', async (t) => {
    const reason = await nginxUnavailable();
    if (reason) return t.skip(reason);
    const runDir = tempDir('perfgate-nginx-');
    const file = join(runDir, 'nginx.conf');
    writeFileSync(
      file,
      nginxConfig({
        dir: runDir,
        host: '127.0.0.1',
        port: 8080,
        upstreamPorts: [4001],
        workerCpus: [0],
        logging: true,
      }),
    );
    const checked = spawnSync(nginxBinary(), ['-t', '-p', runDir, '-c', file, '-e', join(runDir, 'error.log')], {
      encoding: 'utf8',
    });
    assert.equal(checked.status, 0, checked.stderr);
  });
});
