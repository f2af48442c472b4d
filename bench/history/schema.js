// The shapes of the benchmark data file, of a run perfgate appends and of a
// github-action-benchmark input file. Data from a pages branch is untrusted: each problem
// is reported with the path of the field, e.g. `entries["perfgate latency"][3].benches[0].value`.
import Ajv from 'ajv';
import { TOOLS } from '../results/benchmark-action.js';

// The site renders these as links: only web addresses (or nothing) may reach an href.
const webUrl = { type: 'string', pattern: '^(https?://|$)' };
const person = {
  type: 'object',
  properties: { name: { type: 'string' }, email: { type: 'string' }, username: { type: 'string' } },
};
// Real files omit some commit fields (username, distinct, tree_id), so none is required here.
const commit = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    message: { type: 'string' },
    timestamp: { type: 'string' },
    url: webUrl,
    tree_id: { type: 'string' },
    distinct: { type: 'boolean' },
    author: person,
    committer: person,
  },
};
// Old files written by the action for cargo hold a numeric range. Some tools and hand-written
// custom files give the value as a numeric string, which the action stores and its page plots.
const NUMERIC_TEXT = '^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*$';
const bench = {
  type: 'object',
  required: ['name', 'value', 'unit'],
  properties: {
    name: { type: 'string', minLength: 1 },
    value: { type: ['number', 'string'], pattern: NUMERIC_TEXT }, // a pattern only applies to strings
    unit: { type: 'string' },
    range: { type: ['string', 'number'] },
    extra: { type: 'string' },
  },
};
const benches = { type: 'array', items: bench };
const entry = {
  type: 'object',
  required: ['commit', 'date', 'tool', 'benches'],
  properties: { commit, date: { type: 'number' }, tool: { type: 'string', minLength: 1 }, benches },
};
const data = {
  type: 'object',
  required: ['entries'],
  properties: {
    lastUpdate: { type: 'number' },
    repoUrl: webUrl,
    entries: { type: 'object', additionalProperties: { type: 'array', items: entry } },
  },
};
// What perfgate writes is stricter than what it reads: a run names its commit.
const run = {
  type: 'object',
  required: ['commit', 'date', 'suites'],
  additionalProperties: false,
  properties: {
    commit: {
      allOf: [
        commit,
        {
          type: 'object',
          required: ['id', 'message', 'timestamp'],
          properties: { id: { type: 'string', minLength: 1 } },
        },
      ],
    },
    date: { type: 'number', minimum: 0 },
    suites: {
      type: 'array',
      items: {
        type: 'object',
        required: ['suite', 'tool', 'benches'],
        additionalProperties: false,
        properties: { suite: { type: 'string', minLength: 1 }, tool: { enum: Object.values(TOOLS) }, benches },
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validators = { data: ajv.compile(data), run: ajv.compile(run), benches: ajv.compile(benches) };

// "/entries/perfgate latency/0/date" -> `entries["perfgate latency"][0].date` (JSON pointer unescaped).
function fieldPath(root, instancePath) {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  return segments.reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    if (/^[A-Za-z_$][\w$]*$/.test(segment)) return `${path}.${segment}`;
    return `${path}[${JSON.stringify(segment)}]`;
  }, root);
}

// What a failed pattern means, by the pattern: the schema has two.
const PATTERN_MEANING = {
  [webUrl.pattern]: 'must be an http(s):// address or empty',
  [NUMERIC_TEXT]: 'must be a number, or a string that is one',
};

function describe(error, root) {
  if (error.keyword === 'pattern')
    return `${fieldPath(root, error.instancePath)} ${PATTERN_MEANING[error.params.pattern]}`;
  const detail = error.params.allowedValues
    ? ` (${error.params.allowedValues.join(', ')})`
    : error.params.additionalProperty
      ? ` ("${error.params.additionalProperty}")`
      : '';
  return `${fieldPath(root, error.instancePath)} ${error.message}${detail}`;
}

const check = (validator, root) => (value) =>
  validator(value) ? [] : validator.errors.map((error) => describe(error, root));

export const validateBenchmarkData = check(validators.data, 'BENCHMARK_DATA');
export const validateRun = check(validators.run, 'run');
export const validateBenches = check(validators.benches, 'benches');
