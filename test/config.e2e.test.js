// Suite config resolution: merging, and errors that name the field and the allowed values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveSuite } from '../bench/config/resolve.js';
import { parseBenchArgs } from '../bench/cli/bench-command.js';
import { tempDir, writeConfig, misbehavingCommand } from './helpers/harness.js';

const rejects = (request, pattern) =>
  assert.rejects(resolveSuite(request), (error) => {
    assert.match(error.message, pattern);
    return true;
  });

test('no arguments means the default suite', async () => {
  const { config, variants } = await resolveSuite({});
  assert.equal(config.name, 'default');
  assert.deepEqual(
    variants.map((variant) => variant.name),
    ['node-http', 'express', 'fastify'],
  );
  assert.deepEqual(config.scenarios, ['hello', 'json']);
});

test('command-line overrides win over the suite', async () => {
  const { config } = await resolveSuite({
    suite: 'smoke',
    overrides: { connections: [7], duration: 2, variants: ['express'] },
  });
  assert.deepEqual(config.connections, [7]);
  assert.equal(config.duration, 2);
  assert.deepEqual(config.variants, ['express']);
});

test('an unknown variant lists the allowed ones', () =>
  rejects(
    { overrides: { variants: ['expres'] } },
    /variants\.0: "expres" is not allowed \(did you mean "express"\?\) \(allowed: .*express.*fastify.*node-http/,
  ));

test('an unknown scenario lists the allowed ones', () =>
  rejects(
    { overrides: { scenarios: ['helo'] } },
    /scenarios\.0: "helo" is not allowed \(did you mean "hello"\?\) \(allowed: hello, json, echo, proxy, io, cpu, db, query, static\)/,
  ));

test('a negative duration names the field', () => rejects({ overrides: { duration: -1 } }, /duration: must be > 0/));

test('an impossible tier names the field', () =>
  rejects({ overrides: { connections: [0] } }, /connections\.0: must be >= 1/));

test('a non-numeric tier names the field', () =>
  rejects({ overrides: { connections: ['lots'] } }, /connections\.0: must be integer/));

test('an unknown suite lists the suites', () =>
  rejects({ suite: 'fast' }, /unknown suite "fast": choose one of default, smoke, proxy-baseline/));

test('a scenario a variant does not serve is named', () =>
  rejects(
    { overrides: { variants: ['mock-backend'], scenarios: ['hello'] } },
    /variant "mock-backend" does not serve scenario "hello": it serves proxy/,
  ));

test('a config file that is not JSON says so', () => {
  const dir = tempDir();
  const file = `${dir}/broken.json`;
  return import('node:fs').then(({ writeFileSync }) => {
    writeFileSync(file, '{ "variants": [');
    return rejects({ configFile: file }, /broken\.json.*not valid JSON/s);
  });
});

test('a missing config file says so', () =>
  rejects({ configFile: '/nonexistent/suite.json' }, /cannot read the file \(ENOENT\)/));

test("a user's own server is a variant, with its own scenarios", async () => {
  const file = writeConfig(tempDir(), {
    variants: ['mine'],
    scenarios: ['hello'],
    connections: [1],
    commands: { mine: misbehavingCommand('ok') },
  });
  const { config, variants } = await resolveSuite({ configFile: file });
  assert.equal(config.name, 'custom');
  assert.equal(variants[0].kind, 'command');
  assert.equal(variants[0].launch.readiness, 'http');
});

test('unknown fields in a command are rejected', () => {
  const file = writeConfig(tempDir(), {
    variants: ['mine'],
    scenarios: ['hello'],
    connections: [1],
    commands: { mine: { ...misbehavingCommand('ok'), cmd: 'x' } },
  });
  return rejects({ configFile: file }, /commands\.mine: unknown field "cmd"/);
});

test('--connections replaces the tiers a suite gives single scenarios too', async () => {
  const { config } = await resolveSuite({
    suite: 'node-vs-java',
    overrides: parseBenchArgs({ connections: '5', _: [] }).overrides,
  });
  assert.deepEqual(config.connections, [5]);
  assert.deepEqual(config.scenarioConnections, {});
});

test('tiers for an unknown scenario or impossible tiers name the field', async () => {
  await rejects(
    { overrides: { scenarioConnections: { dbb: [10] } } },
    /scenarioConnections: .*"dbb".*\(allowed: hello, json/,
  );
  await rejects({ overrides: { scenarioConnections: { db: [0] } } }, /scenarioConnections\.db\.0: must be >= 1/);
});
