// The benchmark artifact that bench-pr and upgrade-gate upload and bench-comment reads. It is
// made by pull-request code, so bench-comment treats it as hostile data: bounded in size,
// plain files only (never a link, never run), every field schema-checked before use, and the
// pull request it names checked against the event and the API.
//   pr.json             { format: "perfgate-pr", version: 1, number, headSha }
//   comparison*.json    scripts/compare.mjs's comparison.json (its schema: bench/comparison/schema.js)
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { comparisonSchema } from '../comparison/schema.js';
import { githubErrors } from '../core/errors.js';
import { readPlainText } from '../core/read-file.js';
import { printable } from '../core/text.js';

export const ARTIFACT_NAME = 'perfgate-bench';
const PR_FILE = 'pr.json';
const COMPARISON_FILE = /^comparison(-[a-z0-9._-]{1,80})?\.json$/;
const LIMITS = {
  zipBytes: 2 * 1024 * 1024,
  fileBytes: 4 * 1024 * 1024,
  totalBytes: 16 * 1024 * 1024,
  entries: 32,
  comparisons: 16,
};
const PR_FORMAT = { format: 'perfgate-pr', version: 1 };

const schemas = {
  pr: {
    type: 'object',
    required: ['format', 'version', 'number', 'headSha'],
    additionalProperties: false,
    properties: {
      format: { const: PR_FORMAT.format },
      version: { const: PR_FORMAT.version },
      number: { type: 'integer', minimum: 1, maximum: 1e9 },
      headSha: { type: 'string', pattern: '^[0-9a-f]{40}$' },
    },
  },
  comparison: comparisonSchema,
};
// strictRequired off: if/then names fields that the benchmark schema's properties define.
const ajv = new Ajv({ strict: true, strictRequired: false });
const validators = { pr: ajv.compile(schemas.pr), comparison: ajv.compile(schemas.comparison) };

function validated(kind, value, file) {
  if (validators[kind](value)) return value;
  const [error] = validators[kind].errors;
  throw githubErrors.hostileArtifact(
    `${file} is not a valid ${kind} file: ${printable(error.instancePath || '(root)')} ${printable(error.message)}`,
  );
}

// Opens without following a link and reads at most the limit, so a huge or special file
// costs nothing (bench/core/read-file.js, as for every file code under test wrote).
const readBounded = (file, name) =>
  readPlainText(file, LIMITS.fileBytes, (problem, { kind, error }) =>
    githubErrors.hostileArtifact(
      kind === 'tooBig'
        ? `${name} is ${error.size} bytes, more than the limit of ${error.limit}`
        : `${name} ${problem}`,
    ),
  );

function parseJson(text, name) {
  try {
    return JSON.parse(text);
  } catch {
    throw githubErrors.hostileArtifact(`${name} is not JSON`);
  }
}

// The validated content of a downloaded artifact directory: { pr, comparisons: [{ file, comparison }] }.
export function readArtifact(dir) {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.length > LIMITS.entries)
    throw githubErrors.hostileArtifact(`it holds ${entries.length} entries, more than ${LIMITS.entries}`);
  let total = 0;
  for (const entry of entries) {
    const name = printable(entry.name, 100);
    const stat = lstatSync(join(dir, entry.name));
    if (!stat.isFile())
      throw githubErrors.hostileArtifact(`${name} is not a plain file (links, folders and devices are refused)`);
    total += stat.size;
  }
  if (total > LIMITS.totalBytes)
    throw githubErrors.hostileArtifact(`it holds ${total} bytes, more than the limit of ${LIMITS.totalBytes}`);
  if (!entries.some((entry) => entry.name === PR_FILE)) throw githubErrors.hostileArtifact(`it has no ${PR_FILE}`);
  const pr = validated('pr', parseJson(readBounded(join(dir, PR_FILE), PR_FILE), PR_FILE), PR_FILE);
  const names = entries
    .map((entry) => entry.name)
    .filter((name) => COMPARISON_FILE.test(name))
    .sort();
  if (names.length > LIMITS.comparisons)
    throw githubErrors.hostileArtifact(`it holds ${names.length} comparisons, more than ${LIMITS.comparisons}`);
  const comparisons = names.map((file) => ({
    file,
    comparison: validated('comparison', parseJson(readBounded(join(dir, file), file), file), file),
  }));
  return { pr, comparisons };
}

// What the measuring job records for bench-comment: the pull request and commit it measured.
export function writePullRequestRecord(dir, { number, headSha }) {
  const record = validated('pr', { ...PR_FORMAT, number, headSha }, PR_FILE);
  writeFileAtomicSync(join(dir, PR_FILE), `${JSON.stringify(record)}\n`);
}

// The run-name of the dispatched benchmark workflows (bench-pr.yml, upgrade-gate.yml): set by the
// default branch's definition from the dispatch inputs, so pull-request code cannot change it.
const DISPATCHED_TITLE = / #(\d+) at ([0-9a-f]{40})$/;

// The artifact must be about the pull request and commit the run was dispatched for (its title),
// the run must be a dispatch on the default branch, and the pull request must exist.
export async function verifyPullRequest({ pr, run, api, repository, defaultBranch }) {
  const title = DISPATCHED_TITLE.exec(run.display_title ?? '');
  if (run.event !== 'workflow_dispatch' || run.head_branch !== defaultBranch || !title) {
    throw githubErrors.hostileArtifact(
      `run "${printable(run.display_title)}" (${printable(run.event)} on ${printable(run.head_branch)}) is not a benchmark dispatched on ${printable(defaultBranch)}`,
    );
  }
  const [, number, sha] = title;
  if (pr.number !== Number(number))
    throw githubErrors.hostileArtifact(`it names pull request #${pr.number}, but the run benchmarked #${number}`);
  if (pr.headSha !== sha)
    throw githubErrors.hostileArtifact(`it names commit ${pr.headSha}, but the run measured ${sha}`);
  const pull = await api.request('GET', `/repos/${repository}/pulls/${pr.number}`, undefined, { allow: [404] });
  if (!pull)
    throw githubErrors.hostileArtifact(`it names pull request #${pr.number}, which ${repository} does not have`);
  return { number: pr.number, currentHeadSha: pull.head?.sha };
}

// The run's benchmark artifact as the API lists it, or null when the run uploaded none (the
// benchmark was not asked for). Its size is checked here, before anything is downloaded.
export async function findArtifact({ api, repository, runId }) {
  const list = await api.request(
    'GET',
    `/repos/${repository}/actions/runs/${runId}/artifacts?name=${ARTIFACT_NAME}&per_page=100`,
  );
  const artifact = (list?.artifacts ?? []).find((item) => item?.name === ARTIFACT_NAME && !item.expired);
  if (!artifact) return null;
  if (!(Number.isInteger(artifact.size_in_bytes) && artifact.size_in_bytes <= LIMITS.zipBytes)) {
    throw githubErrors.hostileArtifact(
      `it is ${printable(artifact.size_in_bytes)} bytes zipped, more than the limit of ${LIMITS.zipBytes}`,
    );
  }
  return artifact;
}
