// A hostile head side, in a test repository like compare-e2e's: its node-http variant loads
// test/fixtures/hostile/hostile.js, which tries to forge the result and the exit code, read the
// runner user's home, write outside its scratch directory, reach another machine and leave a
// daemon running. Each attempt must fail (a write lands in the sandbox's throwaway root, not on
// the runner), the verdict must be the one perfgate measured (the head is also clearly slower),
// and the report must say that the side misbehaved, naming each write.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { asRoot, sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { leftoverServers, PROJECT_ROOT, QUICK_HELLO, tempDir } from './helpers/harness.js';
import { baseServersRepository, GIT_ENV, makeHelloCpuBound } from './helpers/servers-repo.js';

// Not confirmed by a second run: what is tested is the sandbox (test/compare.e2e.test.js checks the confirmation).
const QUICK = ['--no-profile', '--no-confirm', ...QUICK_HELLO];
const SLEEPER = 'perfgate-hostile-sleeper';

const sleepers = () =>
  execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(SLEEPER) && !line.includes('ps -eo'));

// base: this project's servers; head: /hello does CPU work, and node-http loads hostile.js.
function hostileRepository(targets) {
  const { repo, git } = baseServersRepository('perfgate-hostile-');
  makeHelloCpuBound(repo);
  cpSync(join(PROJECT_ROOT, 'test/fixtures/hostile/hostile.js'), join(repo, 'servers/hostile.js'));
  writeFileSync(join(repo, 'servers/hostile-targets.json'), JSON.stringify(targets));
  const variant = join(repo, 'servers/variants/node-http.js');
  writeFileSync(variant, `import '../hostile.js';\n${readFileSync(variant, 'utf8')}`);
  git('add', '.');
  git('commit', '-qm', 'slower hello, and hostile');
  return repo;
}

describe('a hostile head side is contained by the sandbox', { skip: sandboxUnavailable() ?? false }, () => {
  const out = tempDir();
  const home = tempDir('perfgate-home-');
  const githubOutput = join(tempDir(), 'github-output');
  // Beside the sides' work directory, which is in the sandbox's root: the write lands there.
  const outside = join(dirname(tempDir()), `perfgate-written-by-the-side-${process.pid}`);
  let run;
  let logs;
  let roundLogs;

  before(() => {
    writeFileSync(join(home, '.secret'), 'the-runner-token');
    writeFileSync(githubOutput, '');
    const repo = hostileRepository({
      comparison: join(out, 'comparison.json'),
      results: out,
      githubOutput,
      secret: join(home, '.secret'),
      outside,
    });
    const compare = spawnSync(
      process.execPath,
      [
        join(PROJECT_ROOT, 'scripts/compare.mjs'),
        '--repo',
        repo,
        '--base',
        'main~1',
        '--head',
        'main',
        '--variant',
        'node-http',
        ...QUICK,
        '--min-rounds',
        '3',
        '--budget',
        '60',
        '--out',
        out,
      ],
      {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          ...GIT_ENV,
          HOME: home,
          CI: 'true',
          GITHUB_STEP_SUMMARY: '',
          GITHUB_OUTPUT: githubOutput,
        },
      },
    );
    run = { code: compare.status, stdout: compare.stdout, stderr: compare.stderr };
    const headLogs = readdirSync(join(out, 'logs')).filter((file) => file.endsWith('-head.log'));
    const read = (file) => readFileSync(join(out, 'logs', file), 'utf8');
    logs = headLogs.map(read).join('\n');
    // The duet's rounds, where the base's server runs beside the head's.
    roundLogs = headLogs.filter((file) => /-round\d+-head\.log$/.test(file)).map(read);
  });

  test('every attempt fails, and the head tried each one', () => {
    const attempts = logs.split('\n').filter((line) => line.startsWith('ATTEMPT '));
    assert.ok(attempts.length >= 11, `the hostile module ran in the head's servers:\n${run.stderr}`);
    const refused = [
      'append to GITHUB_OUTPUT from the environment',
      "read a file in the runner user's home",
      'see what an earlier process of its side wrote into its tree',
      'see processes other than its own',
      'connect to a non-loopback address',
    ];
    for (const what of refused)
      assert.ok(
        attempts.some((line) => line.startsWith(`ATTEMPT ${what}: refused`)),
        `${what}:\n${attempts.join('\n')}`,
      );
    assert.deepEqual(
      attempts.filter(
        (line) => refused.some((what) => line.startsWith(`ATTEMPT ${what}:`)) && line.includes('SUCCEEDED'),
      ),
      [],
    );
    // The writes were made, into the sandbox's throwaway root: none reached the runner's files.
    for (const what of [
      'rewrite comparison.json',
      'write into the results directory',
      'write outside the scratch directory',
    ])
      assert.ok(
        attempts.some((line) => line.startsWith(`ATTEMPT ${what}:`)),
        what,
      );
    assert.doesNotMatch(logs, /the-runner-token/);
    assert.equal(existsSync(outside), false);
    assert.equal(readFileSync(githubOutput, 'utf8').includes('regression=false'), false);
    assert.equal(existsSync(join(out, 'forged.md')), false);
  });

  // Run as root, as CI runs: each side has a uid of its own and may connect only to its own addresses.
  test('the head reaches no listener it does not own, in any round, and the report says it tried', {
    skip: asRoot() ? false : 'not root: both sides run as one uid (their sandbox records say so)',
  }, () => {
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    assert.ok(comparison.benchmarks[0].rounds >= 3, 'the comparison still measures');
    assert.ok(roundLogs.length >= 3);
    for (const log of roundLogs) {
      const tried = log.split('\n').filter((line) => line.startsWith('ATTEMPT connect to a listener it does not own'));
      // The base's server, listening on the base's address, is among them.
      assert.ok(
        tried.some((line) => line.includes('(127.0.1.1:')),
        `the head found the base's server:\n${tried.join('\n')}`,
      );
      assert.deepEqual(
        tried.filter((line) => !line.includes(': refused (')),
        [],
      );
    }
    const { head, base } = comparison.sides;
    assert.match(head.sandbox.network, /^its own addresses \(127\.0\.2\.0\/24\) and uid/);
    assert.match(base.sandbox.network, /^its own addresses \(127\.0\.1\.0\/24\) and uid/);
    assert.ok(
      head.sandbox.misbehaviour.some((what) =>
        /^reached outside its own addresses \(127\.0\.2\.0\/24: .*\): \d+ packets refused$/.test(what),
      ),
      head.sandbox.misbehaviour.join('\n'),
    );
    assert.match(readFileSync(join(out, 'comparison.md'), 'utf8'), /the head side reached outside its own addresses/);
  });

  test('the verdict and the exit code are what perfgate measured', () => {
    assert.equal(run.code, 1, run.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    assert.equal(comparison.format, 'perfgate-comparison');
    assert.equal(comparison.benchmarks[0].verdict.verdict, 'regression');
    assert.equal(comparison.gate.failed, true);
    assert.match(readFileSync(githubOutput, 'utf8'), /regression=true/);
  });

  test('the report names each write the head made outside its tree and scratch directory', () => {
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    const wrote = comparison.sides.head.sandbox.misbehaviour.filter((what) =>
      what.startsWith('wrote outside its tree and scratch directory'),
    );
    assert.ok(wrote.length, comparison.sides.head.sandbox.misbehaviour.join('\n'));
    const named = wrote.join('\n');
    for (const path of [
      `${join(out, 'comparison.json')} (the results directory)`,
      `${join(out, 'forged.md')} (the results directory)`,
      `${githubOutput} (the folder of GITHUB_OUTPUT)`,
      outside,
    ])
      assert.ok(named.includes(path), `${path} in:\n${named}`);
    const report = readFileSync(join(out, 'comparison.md'), 'utf8');
    assert.match(report, /the head side wrote outside its tree and scratch directory/);
  });

  test('the report names the daemon the head left behind, and nothing is left running', () => {
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    assert.equal(comparison.sides.head.sandbox.sandboxed, true);
    assert.equal(comparison.sides.base.sandbox.sandboxed, true);
    assert.deepEqual(comparison.sides.base.sandbox.misbehaviour, []);
    assert.ok(
      comparison.sides.head.sandbox.misbehaviour.some(
        (what) => what.startsWith("left processes outside its server's process group") && what.includes(SLEEPER),
      ),
      comparison.sides.head.sandbox.misbehaviour.join('\n'),
    );
    const report = readFileSync(join(out, 'comparison.md'), 'utf8');
    assert.match(report, /The code under test misbehaved/);
    assert.match(report, /the head side left processes outside its server's process group/);
    assert.deepEqual(sleepers(), []);
    assert.deepEqual(leftoverServers(), []);
  });
});
