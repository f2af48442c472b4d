// The view in the URL: read, write, and back again.
import test from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLD, readState, writeState } from '../site/lib/url-state.js';

test('an empty query is the default view', () => {
  assert.deepEqual(readState(''), {
    view: 'trend',
    commit: null,
    threshold: null,
    sort: null,
    search: '',
    data: [],
    suite: null,
    variant: null,
    runtime: null,
    scenario: null,
    tier: null,
    metric: null,
  });
  assert.equal(writeState(readState('')), '');
});

test('lists are repeated parameters, so labels with commas survive the round trip', () => {
  const state = {
    ...readState(''),
    view: 'tiers',
    suite: ['Go Benchmark'],
    scenario: ['json', 'proxy[delay=500ms,log=on]'],
    tier: ['100'],
    commit: 'a625406',
    sort: '-req/s',
    search: 'fib 20',
    data: ['main/dev/bench/data.js', 'pr/dev/bench/data.js'],
    threshold: 1.5,
  };
  const query = writeState(state);
  assert.equal(
    query,
    '?data=main%2Fdev%2Fbench%2Fdata.js&data=pr%2Fdev%2Fbench%2Fdata.js&view=tiers&suite=Go+Benchmark&scenario=json&scenario=proxy%5Bdelay%3D500ms%2Clog%3Don%5D&tier=100&q=fib+20&commit=a625406&threshold=150%25&sort=-req%2Fs',
  );
  assert.deepEqual(readState(query), state);
});

test('"nothing chosen" is kept apart from "no filter"', () => {
  const state = readState('?variant=');
  assert.deepEqual(state.variant, []);
  assert.equal(writeState(state), '?variant=');
});

test("threshold: off unless asked for; a ratio or the action's percent style, whose default is 200 %", () => {
  assert.equal(DEFAULT_THRESHOLD, 2);
  assert.equal(readState('').threshold, null);
  assert.equal(readState('?threshold=1.25').threshold, 1.25);
  assert.equal(readState('?threshold=150%25').threshold, 1.5);
  for (const bad of ['0.9', 'abc', '1', '']) assert.equal(readState(`?threshold=${bad}`).threshold, null);
  assert.equal(readState('?view=nonsense').view, 'trend');
});
