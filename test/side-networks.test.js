// The table of the sides' networks and the packet rules made from it
// (bench/measurement/sandbox/side-networks.js), and what a report says of them;
// test/side-networks.e2e.test.js and test/sandbox-hostile.e2e.test.js run them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { doubleEngine } from '../bench/measurement/engines/double.js';
import { wrkArguments } from '../bench/measurement/engines/wrk.js';
import { prepareLoad } from '../bench/measurement/load.js';
import { SANDBOX_UID } from '../bench/measurement/sandbox/bubblewrap.js';
import {
  fenceRules,
  fenceSides,
  networkLine,
  refusedBySide,
  SIDE_NETWORKS,
} from '../bench/measurement/sandbox/side-networks.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';

const inRange = (address, range) => {
  const [net, bits] = range.split('/');
  const value = (ip) => ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const mask = 2 ** 32 - 2 ** (32 - Number(bits));
  return (value(address) & mask) >>> 0 === (value(net) & mask) >>> 0;
};

describe('the sides’ networks', () => {
  test('each side has a uid and a loopback range of its own, its address inside its range only', () => {
    const { base, head } = SIDE_NETWORKS;
    assert.notEqual(base.uid, head.uid);
    // Not the uid of an install or of the database without a postgres user: only the sides are fenced.
    for (const side of [base, head]) assert.notEqual(side.uid, SANDBOX_UID);
    for (const side of [base, head]) assert.ok(inRange(side.address, '127.0.0.0/8'), side.address);
    assert.ok(inRange(base.address, base.range) && !inRange(base.address, head.range));
    assert.ok(inRange(head.address, head.range) && !inRange(head.address, base.range));
    // 127.0.0.1, where the harness's own processes and the reference variants listen, is no side's.
    for (const side of [base, head]) assert.ok(!inRange('127.0.0.1', side.range));
  });

  test('the rules let each side’s uid open connections only to its range, and there not to a listener on every address', () => {
    const rules = fenceRules();
    const chain = (name) =>
      rules
        .slice(rules.indexOf(`chain ${name} {`))
        .split('}')[0]
        .split('\n')
        .slice(1)
        .map((line) => line.trim())
        .filter(Boolean);
    for (const [index, [key, { uid, range }]] of Object.entries(SIDE_NETWORKS).entries()) {
      const mark = index + 1;
      assert.ok(chain('output').includes(`meta skuid ${uid} jump ${key}`));
      assert.deepEqual(chain(key), [
        `meta mark set ${mark}`,
        `ip daddr ${range} accept`,
        'tcp flags & (syn | ack) == syn counter reject',
        `ip saddr ${range} accept`,
        'counter drop',
      ]);
      assert.ok(chain('input').includes(`meta mark ${mark} jump ${key}_in`));
      assert.deepEqual(chain(`${key}_in`), [
        'tcp flags & (syn | ack) != syn accept',
        'socket wildcard 1 counter reject',
      ]);
    }
    // Only the sides' packets are fenced: the harness's (root) reach both.
    assert.equal(rules.match(/policy accept;/g).length, 2);
    // Replaces the table an earlier comparison in the same namespace left.
    assert.ok(rules.indexOf('delete table inet perfgate_sides') < rules.indexOf('table inet perfgate_sides {\n'));
  });

  test('the refused packets are counted per side from nft’s listing', () => {
    const rule = (chain, expr) => ({ rule: { family: 'inet', table: 'perfgate_sides', chain, expr } });
    const listing = JSON.stringify({
      nftables: [
        { metainfo: { version: '1.0.6' } },
        { chain: { name: 'head' } },
        rule('head', [{ match: {} }, { accept: null }]),
        rule('head', [{ counter: { packets: 7, bytes: 420 } }, { reject: null }]),
        rule('head_in', [{ counter: { packets: 2, bytes: 120 } }, { reject: null }]),
        rule('base', [{ counter: { packets: 0, bytes: 0 } }, { reject: null }]),
      ],
    });
    assert.deepEqual(refusedBySide(listing), { head: 9, base: 0 });
  });

  test('a side’s record says what it could reach, and why when the other side’s servers too', () => {
    assert.equal(
      networkLine(SIDE_NETWORKS.head),
      'its own addresses (127.0.2.0/24) and uid (65532): its connections elsewhere refused',
    );
    assert.equal(
      networkLine(SIDE_NETWORKS.base, 'not run as root, both sides run as one uid'),
      "on 127.0.1.1, but it could reach the other side's servers: not run as root, both sides run as one uid",
    );
  });

  test('the report says what each side could reach', () => {
    const unfenced = networkLine(SIDE_NETWORKS.head, 'not run as root, both sides run as one uid');
    const report = comparisonMarkdown({
      ...comparisonFixture(),
      sides: {
        base: { description: 'main', sandbox: { sandboxed: true, network: networkLine(SIDE_NETWORKS.base) } },
        head: { description: 'branch', sandbox: { sandboxed: true, network: unfenced } },
      },
      benchmarks: [],
      gate: { failed: false, regressions: [], smallRegressions: [], referencesMoved: [] },
    });
    assert.ok(report.includes(`- the base's network: ${networkLine(SIDE_NETWORKS.base)}`), report);
    assert.ok(report.includes(`- the head's network: on 127.0.2.1, but it could reach the other side's servers`));
  });

  test('without root the sides keep their addresses, share one uid, and their records say they could reach each other', (t) => {
    t.mock.method(process, 'getuid', () => 1000);
    const sandbox = { side: 'x', tree: '/t', readOnly: [], network: 'shared' };
    const fence = fenceSides({ base: { label: 'base', sandbox }, head: { label: 'head', sandbox } });
    assert.deepEqual(fence.sides.base.sandbox, { ...sandbox, address: '127.0.1.1' });
    assert.deepEqual(fence.sides.head.sandbox, { ...sandbox, address: '127.0.2.1' });
    assert.equal(
      fence.network('head'),
      "on 127.0.2.1, but it could reach the other side's servers: not run as root, both sides run as one uid",
    );
    assert.deepEqual(fence.refusals('head'), []);
  });

  test('the load aims at the side’s address', async () => {
    const launched = [];
    const request = { method: 'GET', path: '/hello' };
    const options = { port: 8, request, connections: 2, duration: 1, timeout: 5 };
    for (const host of [SIDE_NETWORKS.head.address, undefined]) {
      const load = await prepareLoad({ engine: doubleEngine({ launched }), host, ...options });
      await load.stop();
    }
    // Outside a comparison, loopback's.
    assert.deepEqual(
      launched.map((each) => each.host),
      ['127.0.2.1', '127.0.0.1'],
    );
    assert.equal(wrkArguments({ ...options, host: '127.0.2.1' }).at(-1), 'http://127.0.2.1:8/hello');
  });

  test('sides without a sandbox are left as they are', () => {
    const sides = { base: { label: 'base' }, head: { label: 'head' } };
    const fence = fenceSides(sides);
    assert.equal(fence.sides, sides);
    assert.deepEqual(fence.refusals('head'), []);
  });
});
