// The load point (site/shared/load-point.js): its name tag and parsing, its facts, its fields and
// its split over load-generator processes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clientFellBehind,
  closedLoad,
  engineLoads,
  engineOptions,
  loadFacts,
  loadFields,
  loadPointFromFacts,
  loadPointOf,
  loadTag,
  openLoad,
  parseLoadTag,
} from '../site/shared/load-point.js';

test('a closed point is tagged c=N and an open one r=N, and each tag reads back as its point', () => {
  assert.equal(loadTag(closedLoad(100)), 'c=100');
  assert.equal(loadTag(openLoad(2000)), 'r=2000');
  assert.equal(loadTag(openLoad(2000, 50)), 'r=2000', 'connections of an open point are not its identity');
  assert.deepEqual(parseLoadTag('c=100'), closedLoad(100));
  assert.deepEqual(parseLoadTag('r=2000'), openLoad(2000));
  assert.deepEqual(parseLoadTag('r=12.5'), openLoad(12.5));
  for (const other of ['c=', 'c=1.5', 'r=-1', 'x=3', 'c=10 ', 'rate=10'])
    assert.equal(parseLoadTag(other), null, other);
});

test("a spec's or result's fields read as its point and back", () => {
  assert.deepEqual(loadPointOf({ connections: 10 }), closedLoad(10));
  assert.deepEqual(loadPointOf({ rate: 500 }), openLoad(500));
  assert.deepEqual(loadPointOf({ rate: 500, connections: 20 }), openLoad(500, 20));
  for (const point of [closedLoad(10), openLoad(500), openLoad(500, 20)])
    assert.deepEqual(loadPointOf(loadFields(point)), point);
});

test("a history entry's facts win over its name's tag; a c= name without facts reads as before", () => {
  assert.deepEqual(loadFacts(closedLoad(4)), ['connections: 4']);
  assert.deepEqual(loadFacts(openLoad(1000)), ['offered rate: 1000']);
  assert.deepEqual(loadPointFromFacts({}, 'c=10'), closedLoad(10));
  assert.deepEqual(loadPointFromFacts({ connections: '100' }, 'c=10'), closedLoad(100));
  assert.deepEqual(loadPointFromFacts({ 'offered rate': '2000' }, undefined), openLoad(2000));
  assert.deepEqual(loadPointFromFacts({}, 'r=2000'), openLoad(2000));
  assert.deepEqual(loadPointFromFacts({ rate: '500 req/s per load' }, 'c=10'), closedLoad(10), "a closed load's cap");
  assert.equal(loadPointFromFacts({}, undefined), null);
});

test('a closed load splits its connections and its cap; an open one its rate', () => {
  assert.deepEqual(
    engineLoads(closedLoad(10), 3).map((each) => each.connections),
    [4, 3, 3],
  );
  assert.deepEqual(
    engineLoads(closedLoad(10), 2, 1000).map((each) => each.rate),
    [500, 500],
  );
  assert.deepEqual(
    engineLoads(closedLoad(10), 1).map((each) => each.rate),
    [0],
    'no cap',
  );
  assert.deepEqual(engineLoads(openLoad(3000), 2), [
    { model: 'open', rate: 1500 },
    { model: 'open', rate: 1500 },
  ]);
  assert.deepEqual(
    engineLoads(openLoad(1000, 5), 2).map((each) => each.connections),
    [3, 2],
  );
  assert.deepEqual(engineOptions(closedLoad(10), 500), { connections: 10, rate: 500 }, "a closed point's cap");
  assert.deepEqual(engineOptions(openLoad(2000), 500), { rate: 2000 }, "an open point's schedule");
});

test('the client fell behind: its CPU saturated, or at a rate, the schedule not held', () => {
  assert.equal(clientFellBehind({ cpuBound: true }), true);
  assert.equal(clientFellBehind({ cpuBound: false }), false);
  assert.equal(clientFellBehind({ cpuBound: false, schedule: { behind: true } }), true);
  assert.equal(clientFellBehind({ cpuBound: false, schedule: { behind: false } }), false);
});
