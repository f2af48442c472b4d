// Whether bench-main's publish alerts, on simulated runs: a red push run stays red when re-run,
// a nightly or manual run on a commit already in the trend stays quiet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFromEnvironment, trendAlert } from '../bench/history/trend-alert.js';

const decide = (measured, env) => trendAlert({ measured, ...runFromEnvironment(env) }).alert;

test('a commit new to the trend alerts, whatever started the run', () => {
  for (const event of ['push', 'schedule', 'workflow_dispatch'])
    assert.equal(decide(false, { GITHUB_EVENT_NAME: event, GITHUB_RUN_ATTEMPT: '1' }), true, event);
});

test('a re-run of a push run alerts again: its first attempt put the commit in the trend', () => {
  assert.equal(decide(true, { GITHUB_EVENT_NAME: 'push', GITHUB_RUN_ATTEMPT: '2' }), true);
  assert.equal(decide(true, { GITHUB_EVENT_NAME: 'push', GITHUB_RUN_ATTEMPT: '3' }), true);
  assert.match(
    trendAlert({ measured: true, event: 'push', attempt: 2 }).why,
    /from this run's attempt 1: this re-run alerts again/,
  );
});

test('a nightly or manual run on a commit already in the trend stays quiet, re-run or not', () => {
  for (const [event, attempt] of [
    ['schedule', '1'],
    ['schedule', '2'],
    ['workflow_dispatch', '1'],
    ['push', '1'],
  ])
    assert.equal(decide(true, { GITHUB_EVENT_NAME: event, GITHUB_RUN_ATTEMPT: attempt }), false, `${event} ${attempt}`);
  assert.equal(decide(true, {}), false, 'outside Actions: a first attempt');
});
