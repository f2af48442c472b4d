// The view in the URL: read, write, and back again.
import test from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLD, readState, writeState } from '../docs/lib/url-state.js';

test('an empty query is the default view', () => {
  assert.deepEqual(readState(''), {
    view: 'trend', commit: null, threshold: DEFAULT_THRESHOLD, sort: null, variant: null, scenario: null, tier: null, metric: null,
  });
  assert.equal(writeState(readState('')), '');
});

test('lists are repeated parameters, so labels with commas survive the round trip', () => {
  const state = { ...readState(''), view: 'tiers', scenario: ['json', 'proxy[delay=500ms,log=on]'], tier: ['100'], commit: 'a625406', sort: '-req/s' };
  const query = writeState(state);
  assert.equal(query, '?view=tiers&scenario=json&scenario=proxy%5Bdelay%3D500ms%2Clog%3Don%5D&tier=100&commit=a625406&sort=-req%2Fs');
  assert.deepEqual(readState(query), state);
});

test('"nothing chosen" is kept apart from "no filter"', () => {
  const state = readState('?variant=');
  assert.deepEqual(state.variant, []);
  assert.equal(writeState(state), '?variant=');
});

test('threshold: a ratio or the action\'s percent style; nonsense falls back to the default', () => {
  assert.equal(readState('?threshold=1.25').threshold, 1.25);
  assert.equal(readState('?threshold=150%25').threshold, 1.5);
  for (const bad of ['0.9', 'abc', '1', '']) assert.equal(readState(`?threshold=${bad}`).threshold, DEFAULT_THRESHOLD);
  assert.equal(readState('?view=nonsense').view, 'trend');
});
