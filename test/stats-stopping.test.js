import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isResolved, shouldContinue, stopReason } from '../bench/stats/stopping.js';

const resolved = { verdict: 'regression' };
const open = { verdict: 'inconclusive' };
const state = (overrides) => ({
  result: open,
  elapsedMs: 10_000,
  budgetMs: 60_000,
  rounds: 5,
  minRounds: 3,
  maxRounds: 30,
  ...overrides,
});

test('every verdict but inconclusive is resolved', () => {
  for (const verdict of ['regression', 'improvement', 'no change']) assert.equal(isResolved({ verdict }), true);
  assert.equal(isResolved(open), false);
});

test('an unresolved comparison continues while time and rounds remain', () => {
  assert.equal(stopReason(state()), null);
  assert.equal(shouldContinue(state()), true);
});

test('a resolved comparison stops, but not before minRounds', () => {
  assert.equal(stopReason(state({ result: resolved })), 'resolved');
  assert.equal(shouldContinue(state({ result: resolved })), false);
  assert.equal(stopReason(state({ result: resolved, rounds: 2, elapsedMs: 4_000 })), null);
});

test('no result is needed before the first rounds', () => {
  assert.equal(stopReason(state({ result: undefined, rounds: 0, elapsedMs: 0 })), null);
});

test('the budget stops when one more round at the mean duration would overrun it', () => {
  // 5 rounds in 50 s: the next ends at 60 s, inside a 60 s budget; at 51 s it would end at 61.2 s.
  assert.equal(stopReason(state({ elapsedMs: 50_000 })), null);
  assert.equal(stopReason(state({ elapsedMs: 51_000 })), 'budget');
  assert.equal(stopReason(state({ rounds: 0, elapsedMs: 61_000 })), 'budget');
});

test('maxRounds and the budget are hard limits that win over minRounds', () => {
  assert.equal(stopReason(state({ rounds: 30 })), 'max-rounds');
  assert.equal(stopReason(state({ rounds: 2, minRounds: 10, elapsedMs: 50_000 })), 'budget');
  assert.equal(stopReason(state({ rounds: 3, minRounds: 10, maxRounds: 3 })), 'max-rounds');
});

test("defaults: compare's, minRounds 5 and maxRounds 60", () => {
  const { minRounds, maxRounds, ...rest } = state({ rounds: 59, elapsedMs: 1000 });
  assert.equal(stopReason(rest), null);
  assert.equal(stopReason({ ...rest, rounds: 60 }), 'max-rounds');
  assert.equal(stopReason({ ...rest, result: resolved, rounds: 4 }), null);
  assert.equal(stopReason({ ...rest, result: resolved, rounds: 5 }), 'resolved');
});

test('a verdict that says it is not resolved does not stop the sampling (a small change while a metric is open)', () => {
  assert.equal(isResolved({ verdict: 'small regression', resolved: false }), false);
  assert.equal(stopReason(state({ result: { verdict: 'small regression', resolved: false } })), null);
  assert.equal(stopReason(state({ result: { verdict: 'small regression', resolved: true } })), 'resolved');
  assert.equal(stopReason(state({ result: { verdict: 'small regression' } })), 'resolved');
  assert.equal(
    stopReason(state({ result: { verdict: 'small regression', resolved: false }, rounds: 30 })),
    'max-rounds',
  );
});
