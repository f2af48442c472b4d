// The real thing end to end: `npm run bench -- --suite smoke` starts real servers on
// loopback, verifies, loads and measures them, and writes every output correctly.
// Nothing here asserts a speed: only that numbers were measured and files are right.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { parseBenchmarkData } from '../bench/history/index.js';
import { resultProblems } from '../bench/results/schema.js';
import { leftoverServers, readResult, runBench, tempDir } from './helpers/harness.js';

describe('npm run bench -- --suite smoke', () => {
  const outDir = tempDir();
  const summaryFile = join(outDir, 'step-summary.md');
  const historyFile = join(outDir, 'history', 'data.js');
  let run;
  let result;
  before(async () => {
    writeFileSync(summaryFile, '# earlier step\n');
    run = await runBench(['--suite', 'smoke', '--out', outDir, '--history', historyFile], {
      env: { GITHUB_STEP_SUMMARY: summaryFile },
    });
    result = readResult(outDir);
  });

  test('exits 0, prints the table and leaves no server behind', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /\| Server \| Connections \| Requests\/sec \| Avg Latency \| p99 Latency \| Max Latency \| CPU µs\/request \| Total Requests \| Timeouts \| Timeout % \| Total Errors \| Error % \|/,
    );
    // Latency in ms with µs precision, CPU per request in µs.
    assert.match(
      run.stdout,
      /\| node-http hello \| 4 \| [\d,]+ \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ µs \|/,
    );
    assert.match(run.stdout, /\| node-http hello \| 4 \| [\d,]+ \|/);
    assert.deepEqual(leftoverServers(), []);
  });

  test('result.json is valid, complete and carries its metadata', () => {
    assert.deepEqual(resultProblems(result), []);
    assert.equal(result.status, 'complete');
    assert.equal(result.suite, 'smoke');
    assert.equal(result.machine.node, process.version);
    assert.ok(result.machine.cores >= 1);
    assert.ok(result.packages.autocannon);
    assert.ok(['taskset', 'none'].includes(result.pinning.method));
    assert.deepEqual(
      result.benchmarks.map((benchmark) => benchmark.id),
      ['node-http hello c=4', 'node-http json c=4'],
    );
  });

  test('each benchmark was really loaded and measured', () => {
    for (const benchmark of result.benchmarks) {
      assert.equal(benchmark.status, 'ok');
      const [measured] = benchmark.runs;
      assert.ok(measured.requests.total > 0, 'requests were answered');
      assert.equal(measured.responses['2xx'], measured.requests.total);
      assert.ok(measured.requests.perSecond.length >= 1, 'per-second samples');
      assert.ok(measured.server.peakRssBytes > 10 * 1024 * 1024, 'the server process was sampled');
      assert.ok(measured.server.cpuPct > 0, 'the server used CPU');
      assert.ok(measured.cores.length >= 1);
      assert.ok(benchmark.summary.latencyMs.max >= benchmark.summary.latencyMs.p50);
    }
  });

  test('github-action-benchmark inputs have the stable names and units', () => {
    const bigger = JSON.parse(readFileSync(join(outDir, 'benchmark-action-bigger.json'), 'utf8'));
    const smaller = JSON.parse(readFileSync(join(outDir, 'benchmark-action-smaller.json'), 'utf8'));
    assert.deepEqual(
      bigger.map((bench) => bench.name),
      ['node-http hello c=4 - req/s', 'node-http json c=4 - req/s'],
    );
    assert.ok(bigger.every((bench) => bench.unit === 'req/s' && bench.value > 0 && /^± [\d.]+%$/.test(bench.range)));
    // The names of bench/results/metrics.js; the older four keep the names their trend lines have.
    // p99.9 latency is written only where a run holds enough requests for it (a quiet machine's smoke run may).
    const named = smaller.filter((bench) => !bench.name.endsWith(' - p99.9 latency'));
    assert.deepEqual(
      named.slice(0, 5).map((bench) => `${bench.name} (${bench.unit})`),
      [
        'node-http hello c=4 - p50 latency (ms)',
        'node-http hello c=4 - p99 latency (ms)',
        'node-http hello c=4 - CPU µs/request (µs)',
        'node-http hello c=4 - error % (%)',
        'node-http hello c=4 - peak RSS (MB)',
      ],
    );
    assert.ok(named[2].value > 0, 'the server used CPU');
    assert.match(bigger[0].extra, /^variant: node-http\nscenario: hello\nconnections: 4\n/);
    assert.match(bigger[0].extra, /\nengine: autocannon\n/);
  });

  test('the markdown table is written and appended to the job summary', () => {
    const table = readFileSync(join(outDir, 'table.md'), 'utf8');
    assert.match(table, /\| node-http json \| 4 \|/);
    assert.equal(readFileSync(summaryFile, 'utf8'), `# earlier step\n${table}\n`);
  });

  test('the run is appended to the local history in the gh-pages data format', () => {
    const data = parseBenchmarkData(readFileSync(historyFile, 'utf8'), historyFile);
    assert.deepEqual(Object.keys(data.entries), ['perfgate throughput', 'perfgate latency']);
    const [throughput] = data.entries['perfgate throughput'];
    assert.equal(throughput.tool, 'customBiggerIsBetter');
    assert.deepEqual(
      throughput.benches.map((bench) => bench.name),
      ['node-http hello c=4 - req/s', 'node-http json c=4 - req/s'],
    );
    assert.match(throughput.commit.id, /^([0-9a-f]{40}|local-\w+)$/);
    assert.equal(data.entries['perfgate latency'][0].tool, 'customSmallerIsBetter');
  });

  test('each server run has its own log file', () => {
    const logs = readFileSync(join(outDir, 'logs', 'node-http_hello_c=4-run1.log'), 'utf8');
    assert.equal(typeof logs, 'string');
  });
});

describe('other suites end to end', () => {
  test("the README's own-server example runs", async () => {
    const outDir = tempDir();
    const run = await runBench([
      '--config',
      'examples/own-server.json',
      '--connections',
      '2',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--out',
      outDir,
      '--no-history',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const [benchmark] = readResult(outDir).benchmarks;
    assert.equal(benchmark.id, 'my-app user c=2');
    assert.ok(benchmark.summary.requests.total > 0);
  });

  test('proxy-baseline: backend and proxy measured directly, with delay and logging settings', async () => {
    const outDir = tempDir();
    const run = await runBench([
      '--suite',
      'proxy-baseline',
      '--connections',
      '20',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--out',
      outDir,
      '--no-history',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readResult(outDir);
    assert.deepEqual(
      result.benchmarks.map((benchmark) => `${benchmark.id}: ${benchmark.status}`),
      [
        'mock-backend proxy c=20: ok',
        'mock-backend proxy[log=on] c=20: ok',
        'mock-backend proxy[delay=500ms] c=20: ok',
        'mock-backend proxy[delay=500ms,log=on] c=20: ok',
        'express proxy c=20: ok',
        'express proxy[log=on] c=20: ok',
        'express proxy[delay=500ms] c=20: ok',
        'express proxy[delay=500ms,log=on] c=20: ok',
      ],
    );
    // The logging switch writes one line per request to the run's log file, not the terminal.
    const logged = readFileSync(join(outDir, 'logs', 'express_proxy_log=on_c=20-run1.log'), 'utf8')
      .trim()
      .split('\n');
    assert.ok(logged.length >= readResult(outDir).benchmarks[5].summary.requests.total);
    assert.match(logged[0], /POST \/proxy$/);
    assert.doesNotMatch(run.stdout, /POST \/proxy/);
    // A 500 ms backend delay shows in the proxy's latency.
    assert.ok(result.benchmarks[6].summary.latencyMs.p50 >= 500);
  });
});
