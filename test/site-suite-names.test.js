// The site names a local history after the project its chart groups are named for, as the
// commands name them (bench, trend, bench --find-knee).
import assert from 'node:assert/strict';
import test from 'node:test';
import { kneeSuiteName, projectOfSuites, suiteNames, trendSuiteNames } from '../site/shared/suite-names.js';

const allGroups = (project) => [
  ...Object.values(suiteNames(project)),
  ...Object.values(trendSuiteNames(project)),
  kneeSuiteName(project),
];

test("a history's chart groups name their project back", () => {
  assert.equal(projectOfSuites(Object.values(suiteNames('json-server'))), 'json-server');
  assert.equal(projectOfSuites(allGroups('my api latency')), 'my api latency');
  assert.equal(projectOfSuites([suiteNames('json-server').smaller]), 'json-server');
});

test('groups of several projects, or named otherwise, name none', () => {
  assert.equal(projectOfSuites([suiteNames('a').bigger, suiteNames('b').smaller]), null);
  assert.equal(projectOfSuites([suiteNames('a').bigger, 'default']), null);
  assert.equal(projectOfSuites(['json-server']), null);
  assert.equal(projectOfSuites([' throughput']), null);
  assert.equal(projectOfSuites([]), null);
});
