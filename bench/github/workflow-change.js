// Whether a pull request's workflow changes are a Node.js upgrade and nothing else: each workflow
// file it changed, parsed as YAML in both versions, must be equal once the `with.node-version` of
// every actions/setup-node step is set aside. The upgrade gate checks this before it installs or
// measures anything (the request job, which installs nothing, only screens the patch line by
// line: runtime-upgrade.js). The pull request's workflows are data here, never run.
import { isDeepStrictEqual } from 'node:util';
import { YAML } from 'zx';
import { githubErrors } from '../core/errors.js';
import { printable } from '../core/text.js';
import { isWorkflow } from './runtime-upgrade.js';

const SETUP_NODE = /^actions\/setup-node@/;
const SET_ASIDE = '<the node-version of actions/setup-node>';

// The workflow as data, or { problem } when it is not one YAML document.
function workflowData(text) {
  const document = YAML.parseDocument(text, { uniqueKeys: true });
  if (document.errors.length) return { problem: `is not valid YAML (${document.errors[0].message.split('\n')[0]})` };
  return { data: document.toJS({ maxAliasCount: 1000 }) };
}

// The workflow with every setup-node step's node-version replaced by one marker (a step that
// gains or loses the key still differs).
function withoutNodeVersions(workflow) {
  for (const job of Object.values(workflow?.jobs ?? {}))
    for (const step of Array.isArray(job?.steps) ? job.steps : [])
      if (SETUP_NODE.test(step?.uses ?? '') && step.with && Object.hasOwn(step.with, 'node-version'))
        step.with['node-version'] = SET_ASIDE;
  return workflow;
}

// Where and how two values first differ ("jobs.test.steps[2].run changes"), or null.
function firstDifference(before, after, path = '') {
  if (isDeepStrictEqual(before, after)) return null;
  const where = path || 'the whole document';
  if (before === undefined) return `${where} is added`;
  if (after === undefined) return `${where} is removed`;
  const bothObjects = [before, after].every((value) => value !== null && typeof value === 'object');
  if (bothObjects && Array.isArray(before) === Array.isArray(after))
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const at = Array.isArray(before) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const found = firstDifference(before[key], after[key], at);
      if (found) return found;
    }
  return `${where} changes`;
}

/**
 * The workflow files that change beyond setup-node's node-version between two sides' files
 * (path -> text, absent: not there; other paths are ignored): [{ path, what }], in path order.
 */
export function workflowChangesBeyondNodeVersion(baseFiles, headFiles) {
  const paths = [...new Set([...Object.keys(baseFiles), ...Object.keys(headFiles)])].filter(isWorkflow).sort();
  const changes = [];
  for (const path of paths) {
    const [before, after] = [baseFiles[path], headFiles[path]];
    if (before === after) continue;
    if (before === undefined || after === undefined) {
      changes.push({ path, what: before === undefined ? 'the workflow is added' : 'the workflow is removed' });
      continue;
    }
    const [old, now] = [workflowData(before), workflowData(after)];
    const problem = old.problem ?? now.problem;
    if (problem) {
      changes.push({ path, what: `${now.problem ? 'the new' : 'the old'} version ${problem}` });
      continue;
    }
    const what = firstDifference(withoutNodeVersions(old.data), withoutNodeVersions(now.data));
    if (what) changes.push({ path, what });
  }
  return changes;
}

/** Throws PG_WORKFLOW_CHANGE when a workflow changes beyond setup-node's node-version. */
export function checkWorkflowChanges(baseFiles, headFiles) {
  const changes = workflowChangesBeyondNodeVersion(baseFiles, headFiles);
  if (changes.length)
    throw githubErrors.workflowChange(changes.map(({ path, what }) => `${printable(path)}: ${printable(what)}`));
}
