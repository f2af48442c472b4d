// A user's perfgate.config: found at the repository root, validated with the field named,
// turned into a suite whose specs pair the user's servers with the user's scenarios and the
// references with theirs, and per-benchmark thresholds resolved most specific first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { bandSettings, JUDGED_METRICS } from '../bench/results/metrics.js';
import { benchmarkSettings, loadProject, withProject } from '../bench/project/config.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { tempDir } from './helpers/harness.js';

const USER = { path: '/users/42', expect: { status: 200, body: '{"id":42}' } };
const CONFIG = { servers: { api: { module: 'app.js' } }, scenarios: { user: USER }, connections: [4] };

function repository(files) {
  const root = tempDir('perfgate-project-');
  execFileSync('git', ['init', '-q'], { cwd: root });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: '@shop/api' }));
  writeFileSync(join(root, 'app.js'), 'export default (req, res) => res.end("{}");\n');
  for (const [name, text] of Object.entries(files))
    writeFileSync(join(root, name), typeof text === 'string' ? text : JSON.stringify(text));
  return root;
}

const rejects = (files, pattern) =>
  assert.rejects(loadProject(repository(files)), (error) => {
    assert.equal(error.code, 'PG_BAD_CONFIG');
    assert.match(error.message, pattern);
    return true;
  });

test("perfgate.config.json at the root, found from a subdirectory, becomes a suite of the user's servers", async () => {
  const root = repository({
    'perfgate.config.json': { ...CONFIG, reference: { variants: ['node-http'], scenarios: ['hello'] } },
  });
  mkdirSync(join(root, 'src'));
  const project = await loadProject(join(root, 'src'));
  assert.equal(project.suite.name, 'api', 'named after package.json without its scope');
  assert.deepEqual(project.suite.variants, ['api']);
  assert.equal(project.suite.commands.api.cwd, root);
  assert.deepEqual(project.install, ['npm', 'ci', '--no-audit', '--no-fund']);
  const { config, variants } = await resolveSuite({ configFile: project.configFile, fromProject: project.suite });
  assert.deepEqual(
    variants.map((variant) => [variant.name, variant.kind, variant.launch.readiness]),
    [
      ['api', 'command', 'ready-file'],
      ['node-http', 'builtin', 'ready-file'],
    ],
  );
  assert.deepEqual(
    expandSpecs(config).map((spec) => spec.id),
    ['api user c=4', 'node-http hello c=4'],
  );
  // --variant chooses what runs: the reference only when it is named there too, still as a reference.
  for (const [chosen, ids] of [
    [['api'], ['api user c=4']],
    [
      ['api', 'node-http'],
      ['api user c=4', 'node-http hello c=4'],
    ],
  ]) {
    const selected = await resolveSuite({
      configFile: project.configFile,
      fromProject: project.suite,
      overrides: { variants: chosen },
    });
    assert.deepEqual(
      expandSpecs(selected.config).map((spec) => spec.id),
      ids,
      chosen.join(','),
    );
  }
  // The reference's scenario asked of your servers: said to be the reference's, which runs anyway.
  await assert.rejects(
    resolveSuite({
      configFile: project.configFile,
      fromProject: project.suite,
      overrides: { scenarios: ['user', 'hello'] },
    }),
    /variant "api" does not serve scenario "hello": it serves user; "hello" is the reference's scenario \(reference\.scenarios\), which runs beside your servers without being asked: leave it out of --scenario/,
  );
});

test('a config that is code is never loaded: the error names the JSON file to write instead', async () => {
  const marker = join(tempDir(), 'loaded');
  for (const file of ['perfgate.config.mjs', 'perfgate.config.js']) {
    const code = `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, '');\nexport default {};\n`;
    await assert.rejects(loadProject(repository({ [file]: code })), (error) => {
      assert.equal(error.code, 'PG_CODE_CONFIG');
      assert.match(error.message, new RegExp(`${file} is code.*write the same object as perfgate.config.json`));
      return true;
    });
  }
  assert.equal(existsSync(marker), false);
});

test("no config: null here, and outside perfgate's own checkout an error that says how to create one", async () => {
  assert.equal(await loadProject(repository({})), null);
  // This checkout is perfgate's own, so the default suite stays the default.
  assert.equal((await withProject({}, repository({}))).project, null);
});

test('mistakes name the field', async () => {
  await rejects(
    { 'perfgate.config.json': { scenarios: { user: USER } } },
    /\(top level\): must have required property 'servers'/,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, servers: { api: {} } } },
    /servers\.api: give either "command" .* or "module"/,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, scenarios: { user: { ...USER, path: 'users' } } } },
    /scenarios\.user\.path: must match pattern "\^\/"/,
  );
  await rejects({ 'perfgate.config.json': { ...CONFIG, install: 'npm ci' } }, /install: must be array/);
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, servers: { api: { module: 'server.js' } } } },
    /servers\.api\.module: no file "server\.js" in/,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, thresholds: { 'web user': { threshold: 8 } } } },
    /thresholds\.web user: names no benchmark .*benchmarks: api user c=4/,
  );
  // A band the verdict cannot use is said before anything is measured.
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, thresholds: { user: { minEffect: 6 } } } },
    /thresholds\.user: minEffect 6 is wider than threshold 5: the minimum effect lies inside the band/,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, thresholds: { user: { threshold: 8, noChangeMargin: 9 } } } },
    /thresholds\.user: noChangeMargin 9 lies outside minEffect 2 … threshold 8/,
  );
  // A threshold on a metric perfgate does not judge names the settings it has.
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, thresholds: { user: { allocThreshhold: 8 } } } },
    /thresholds\.user: unknown field "allocThreshhold" \(did you mean "allocThreshold"\?\)/,
  );
  // "copy": paths inside the repository that are there now.
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, copy: ['data/users.json'] } },
    /copy: no file or folder "data\/users\.json" in /,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, copy: ['../secrets'] } },
    /copy: "\.\.\/secrets" is not a path inside the repository/,
  );
  // A typo is named with the field it was probably meant to be.
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, servers: { api: { module: 'app.js', readyPth: '/health' } } } },
    /servers\.api: unknown field "readyPth" \(did you mean "readyPath"\?\)/,
  );
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, conections: [4] } },
    /unknown field "conections" \(did you mean "connections"\?\)/,
  );
  // A command is not run through a shell: only $PORT and $HOST are replaced, the rest is said.
  await rejects(
    {
      'perfgate.config.json': {
        ...CONFIG,
        servers: { api: { command: ['node', 'app.js', '--port', '$PORT', '--mode=$MODE'] } },
      },
    },
    /servers\.api\.command: "\$MODE" would reach the server as written: a command is not run through a shell, and only \$PORT and \$HOST are replaced/,
  );
});

test("per-benchmark thresholds: the most specific key wins, the rest keeps compare's settings", () => {
  const settings = {
    thresholds: {
      'req/s': { threshold: 0.05, minimumEffect: 0.02 },
      'p99 latency': { threshold: 0.1, minimumEffect: 0.1 },
    },
    failThreshold: 0.1,
  };
  const specs = expandSpecs({ variants: ['api'], scenarios: ['user', 'search'], connections: [10, 100], options: {} });
  const own = benchmarkSettings(
    { user: { threshold: 8, failThreshold: 20 }, 'api user c=100': { threshold: 12 } },
    specs,
    settings,
  );
  assert.deepEqual(Object.keys(own), ['api user c=10', 'api user c=100']);
  assert.deepEqual(own['api user c=10'].thresholds['req/s'], { threshold: 0.08, minimumEffect: 0.02 });
  assert.equal(own['api user c=10'].failThreshold, 0.2);
  assert.equal(own['api user c=100'].thresholds['req/s'].threshold, 0.12);
  assert.equal(own['api user c=100'].failThreshold, 0.2);
  assert.deepEqual(own['api user c=100'].thresholds['p99 latency'], settings.thresholds['p99 latency']);
});

test("a per-benchmark threshold sets every judged metric's band as compare's flag of that name does", () => {
  const flagDefaults = Object.fromEntries(
    Object.entries(COMPARISON_OPTIONS).map(([name, spec]) => [name, spec.default]),
  );
  const settings = comparisonRequest(flagDefaults).settings;
  const specs = expandSpecs({ variants: ['api'], scenarios: ['user'], connections: [10], options: {} });
  for (const setting of bandSettings()) {
    const byFlag = comparisonRequest({ ...flagDefaults, [setting.flag]: 37 }).settings.thresholds;
    const byConfig = benchmarkSettings({ user: { [setting.config]: 37 } }, specs, settings)['api user c=10'].thresholds;
    assert.deepEqual(byConfig, byFlag, `thresholds.${setting.config} and --${setting.flag}`);
  }
  assert.deepEqual(
    Object.keys(benchmarkSettings({ user: { threshold: 8 } }, specs, settings)['api user c=10'].thresholds).sort(),
    JUDGED_METRICS.map((metric) => metric.name).sort(),
  );
  // The bug this guards: CPU µs/request, which calls verdicts first, kept the global band.
  const own = benchmarkSettings({ user: { threshold: 8, minEffect: 4 } }, specs, settings)['api user c=10'];
  assert.deepEqual(own.thresholds['CPU µs/request'], { threshold: 0.08, minimumEffect: 0.04 });
});

test('the github settings (read by the request job from the default branch) are part of the config, and only what that job reads', async () => {
  const project = await loadProject(
    repository({ 'perfgate.config.json': { ...CONFIG, github: { automatic: 'approved-only', drafts: true } } }),
  );
  assert.deepEqual(project.suite.variants, ['api'], 'they do not reach the suite');
  assert.equal(project.suite.github, undefined);
  await rejects(
    { 'perfgate.config.json': { ...CONFIG, github: { automatic: 'always' } } },
    /github\.automatic: "always" is not allowed \(allowed: insiders, approved-only\)/,
  );
  await rejects({ 'perfgate.config.json': { ...CONFIG, github: { label: 'x' } } }, /github: unknown field "label"/);
});
