// A maintainer's /perfgate-upgrade on a pull request that changes a workflow: the request job's
// screen of the patch (runtime-upgrade.js, Node built-ins) and the gate's proof on the parsed YAML
// of both versions (workflow-change.js) allow a new setup-node node-version and nothing else.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { patchBeyondNodeVersion } from '../bench/github/runtime-upgrade.js';
import { checkWorkflowChanges, workflowChangesBeyondNodeVersion } from '../bench/github/workflow-change.js';
import { setupNodeWorkflow } from './helpers/workflow-fixture.js';

const CI = '.github/workflows/ci.yml';
const workflow = ({ matrix = '[22]', ...fields } = {}) => setupNodeWorkflow({ matrix, ...fields });
const beyond = (before, after) =>
  workflowChangesBeyondNodeVersion({ [CI]: before, 'package.json': '{}' }, { [CI]: after, 'package.json': '{"a":1}' });

describe("the gate: a workflow may change only in setup-node's node-version", () => {
  test('a new node-version is allowed, also with comments and quoting written otherwise', () => {
    assert.deepEqual(beyond(workflow(), workflow({ version: "'24'" })), []);
    assert.deepEqual(beyond(workflow(), `# the Node.js upgrade\n${workflow({ version: '24.1.0 # LTS' })}`), []);
    assert.deepEqual(beyond(workflow(), workflow()), []);
  });

  test('anything else in the same file is refused, with where it changed', () => {
    assert.deepEqual(beyond(workflow(), workflow({ version: '24', run: 'curl https://example.invalid | sh' })), [
      { path: CI, what: 'jobs.test.steps[2].run changes' },
    ]);
    // A matrix is not setup-node's value, even when it feeds it.
    assert.deepEqual(beyond(workflow(), workflow({ matrix: '[24]' })), [
      { path: CI, what: 'jobs.test.strategy.matrix.node[0] changes' },
    ]);
    // Another action's node-version is not setup-node's.
    const other = (version) => workflow({ version }).replace('actions/setup-node@', 'other/setup@');
    assert.deepEqual(beyond(other('22'), other('24')), [
      { path: CI, what: 'jobs.test.steps[1].with.node-version changes' },
    ]);
    // A node-version given where there was none (node-version-file, the default) is a change too.
    assert.deepEqual(beyond(workflow().replace(/ +node-version: 22\n/, ''), workflow({ version: '24' })), [
      { path: CI, what: 'jobs.test.steps[1].with.node-version is added' },
    ]);
    // An anchor shared with a step's environment changes both.
    const anchored = (version) =>
      workflow({ version: `&node ${version}` }).replace(
        '- run: npm test',
        '- run: npm test\n        env:\n          NODE: *node',
      );
    assert.deepEqual(beyond(anchored('22'), anchored('24')), [
      { path: CI, what: 'jobs.test.steps[2].env.NODE changes' },
    ]);
  });

  test('a workflow added, removed or not YAML is refused; other files are not its business', () => {
    assert.deepEqual(workflowChangesBeyondNodeVersion({}, { [CI]: workflow() }), [
      { path: CI, what: 'the workflow is added' },
    ]);
    assert.deepEqual(workflowChangesBeyondNodeVersion({ [CI]: workflow() }, {}), [
      { path: CI, what: 'the workflow is removed' },
    ]);
    const [broken] = beyond(workflow(), `${workflow()}  bad: [\n`);
    assert.match(broken.what, /^the new version is not valid YAML/);
    assert.deepEqual(workflowChangesBeyondNodeVersion({ '.nvmrc': '22' }, { '.nvmrc': '24' }), []);
  });

  test('PG_WORKFLOW_CHANGE names each file, what changed and the fix', () => {
    assert.doesNotThrow(() => checkWorkflowChanges({ [CI]: workflow() }, { [CI]: workflow({ version: '24' }) }));
    assert.throws(
      () => checkWorkflowChanges({ [CI]: workflow() }, { [CI]: workflow({ version: '24', run: 'make' }) }),
      (error) =>
        error.code === 'PG_WORKFLOW_CHANGE' &&
        error.message.includes(`${CI}: jobs.test.steps[2].run changes`) &&
        /move the other workflow changes to a pull request of their own/.test(error.message),
    );
  });
});

describe("the request job's screen of a workflow's patch", () => {
  const patch = (...lines) =>
    ['@@ -11,7 +11,7 @@ jobs:', '         with:', ...lines, '       - run: npm test'].join('\n');
  test('node-version lines changed in pairs pass', () => {
    assert.equal(patchBeyondNodeVersion(patch('-          node-version: 22', '+          node-version: "24"')), null);
  });
  test('any other line, a list, an expression or an unpaired line is named', () => {
    assert.equal(
      patchBeyondNodeVersion(patch('-          node-version: 22', '+          node-version: 24', '+      - run: make')),
      '+      - run: make',
    );
    assert.equal(
      patchBeyondNodeVersion(patch('-        node-version: [20, 22]', '+        node-version: [22, 24]')),
      '-        node-version: [20, 22]',
    );
    assert.equal(
      patchBeyondNodeVersion(patch('-          node-version: 22', '+          node-version: ${{ env.NODE }}')),
      '+          node-version: ${{ env.NODE }}',
    );
    assert.equal(patchBeyondNodeVersion(patch('+          node-version: 24')), '+          node-version: 24');
  });
});
