// JSON schema of perfgate's result file (format "perfgate-result", version 1). Tools that
// read a result (the compare report, the PR comment, the tests) validate it with this.
import Ajv from 'ajv';
import { LOAD_FIELDS_SCHEMA } from '../../site/shared/load-point.js';

const number = { type: 'number' };
const count = { type: 'integer', minimum: 0 };

// The runtime agent's figures (bench/measurement/runtime-agent/readings.js), or why they are absent.
const runtimeSchema = {
  type: 'object',
  oneOf: [
    { required: ['absent'], properties: { absent: { type: 'string' } } },
    {
      required: ['processes', 'requests', 'heapBytesPerRequest', 'gcPauseMicrosPerRequest', 'eventLoopDelayMs'],
      properties: {
        processes: count,
        requests: count,
        heapBytesPerRequest: number,
        gcPauseMicrosPerRequest: number,
        gcCounts: { type: 'object', additionalProperties: count },
        eventLoopDelayMs: { type: 'object', required: ['p50', 'p99', 'max', 'resolutionMs'] },
        soak: { type: 'object' },
      },
    },
  ],
};

const runSchema = {
  type: 'object',
  required: [
    'requests',
    'latencyMs',
    'errors',
    'timeouts',
    'errorPct',
    'timeoutPct',
    'server',
    'cores',
    'loadGenerator',
  ],
  properties: {
    requests: {
      type: 'object',
      required: ['mean', 'stddev', 'min', 'max', 'total', 'perSecond'],
      properties: { total: count, perSecond: { type: 'array', items: count } },
    },
    latencyMs: { type: 'object', required: ['avg', 'p50', 'p90', 'p99', 'max'], additionalProperties: number },
    errors: count,
    timeouts: count,
    server: {
      type: 'object',
      required: ['cpuPct', 'peakRssBytes', 'processes'],
      properties: { cpuPct: number, peakRssBytes: count, processes: count, runtime: runtimeSchema },
    },
    cores: { type: 'array', items: { type: 'object', required: ['core', 'busyPct'] } },
    loadGenerator: {
      type: 'object',
      required: ['cpuPct', 'saturated'],
      properties: { saturated: { type: 'boolean' } },
    },
  },
};

const benchmarkSchema = {
  type: 'object',
  required: ['id', 'variant', 'scenario', 'tags', 'options', 'status', 'runs'],
  // Its load point: connections (a tier), or a rate (site/shared/load-point.js).
  anyOf: LOAD_FIELDS_SCHEMA.anyOf,
  properties: {
    id: { type: 'string' },
    ...LOAD_FIELDS_SCHEMA.properties,
    // Absent: the default runtime, "system"; else as asked for (its exact version: result.runtimes).
    runtime: { type: 'string' },
    status: { enum: ['pending', 'ok', 'failed', 'not-run', 'skipped'] },
    reason: { type: 'string' },
    code: { type: 'string', pattern: '^PG_' },
    runs: { type: 'array', items: runSchema },
    summary: {
      type: 'object',
      required: ['runs', 'requests', 'latencyMs', 'errorPct', 'timeoutPct', 'peakRssBytes', 'clientSaturated'],
    },
  },
  // A measured benchmark has a summary; a failed one says why.
  allOf: [
    { if: { properties: { status: { const: 'ok' } } }, then: { required: ['summary'] } },
    {
      if: { properties: { status: { enum: ['failed', 'not-run', 'skipped'] } } },
      then: { required: ['reason', 'code'] },
    },
  ],
};

const resultSchema = {
  type: 'object',
  required: [
    'format',
    'version',
    'suite',
    'status',
    'startedAt',
    'machine',
    'git',
    'packages',
    'pinning',
    'config',
    'benchmarks',
  ],
  properties: {
    format: { const: 'perfgate-result' },
    version: { const: 1 },
    status: { enum: ['running', 'complete', 'interrupted'] },
    machine: {
      type: 'object',
      required: ['cpuModel', 'cores', 'node', 'kernel', 'arch'],
      properties: { runner: { enum: ['github-hosted', 'self-hosted', null] } },
    },
    git: { type: 'object', required: ['commit'] },
    packages: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
    pinning: { type: 'object', required: ['method'], properties: { method: { enum: ['taskset', 'none'] } } },
    runtimes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['spec', 'name', 'version'],
        properties: { spec: { type: 'string' }, name: { enum: ['node', 'bun'] }, version: { type: 'string' } },
      },
    },
    benchmarks: { type: 'array', items: benchmarkSchema },
  },
};

const validate = new Ajv({ allErrors: true }).compile(resultSchema);

// Returns the problems with a parsed result file as lines; empty when it is valid.
export function resultProblems(result) {
  return validate(result)
    ? []
    : validate.errors.map((error) => `${error.instancePath || '(top level)'}: ${error.message}`);
}
