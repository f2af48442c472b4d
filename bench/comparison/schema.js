// The format of comparison.json, which `npm run compare` writes (run-comparison.js) and the PR
// comment reads from an untrusted artifact (bench/github/artifact.js): what every reader may
// rely on, with bounds on every text and list.
import { INTERVAL_KINDS, VERDICT_NAMES } from '../stats/index.js';
import { JUDGED_METRICS } from '../results/metrics.js';

export const COMPARISON_FORMAT = { format: 'perfgate-comparison', version: 1 };

const text = (maxLength) => ({ type: 'string', maxLength });
// Every comparison has the verdicts and samples of these; a metric judged later (CPU
// µs/request) may be missing from older files (bench/results/metrics.js: inEveryComparison).
const ALWAYS_JUDGED = JUDGED_METRICS.filter((metric) => metric.inEveryComparison);
const samples = {
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  items: {
    type: 'object',
    required: ALWAYS_JUDGED.map((metric) => metric.sampleKey),
    properties: {
      ...Object.fromEntries(ALWAYS_JUDGED.map((metric) => [metric.sampleKey, { type: 'number', minimum: 0 }])),
      // A soak's trend per serving process (bench/comparison/leak-gate.js): centred sums.
      heapTrend: {
        type: 'array',
        maxItems: 1000,
        items: {
          type: 'object',
          required: ['n', 'sxx', 'sxy', 'syy'],
          properties: {
            n: { type: 'integer', minimum: 0 },
            sxx: { type: 'number', minimum: 0 },
            sxy: { type: 'number' },
            syy: { type: 'number', minimum: 0 },
          },
        },
      },
    },
  },
};
// A side's heap growth per 10,000 requests and its 95 % interval, in bytes.
const heapGrowth = {
  type: 'object',
  required: ['growthBytesPer10kRequests', 'interval'],
  properties: {
    growthBytesPer10kRequests: { type: 'number' },
    interval: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } },
  },
};
// A duet benchmark's sides measured alone once (alone.js): a round's sample each, and duet's cost.
const alone = {
  type: 'object',
  required: ['base', 'head', 'inflation'],
  properties: {
    base: samples.items,
    head: samples.items,
    inflation: {
      type: 'object',
      required: ['base', 'head'],
      properties: { base: { type: 'number', minimum: 0 }, head: { type: 'number', minimum: 0 } },
    },
  },
};
const interval = {
  anyOf: [
    { type: 'null' },
    { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: -1000, maximum: 1000 } },
  ],
};
const level = { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 };
const verdict = {
  type: 'object',
  required: ['verdict'],
  properties: {
    verdict: { enum: VERDICT_NAMES },
    change: { anyOf: [{ type: 'null' }, { type: 'number', minimum: -1000, maximum: 1000 }] },
    ci: interval,
    // the interval that calls "no change" (an equivalence test, bench/stats/verdict.js), and its level
    equivalenceCi: interval,
    confidence: level,
    equivalenceConfidence: level,
  },
};
// The benchmark's own verdict (bench/comparison/rounds.js): the metric that called it names one of the judged
// metrics, or several joined by " + " when none alone did.
const benchmarkVerdict = {
  type: 'object',
  required: ['verdict', 'calledBy'],
  properties: {
    verdict: { enum: VERDICT_NAMES },
    calledBy: text(200),
    resolved: { type: 'boolean' },
    notes: { type: 'array', maxItems: 20, items: text(500) },
    // An inconclusive verdict the machine's noise left open: the metric and its per-round spread (a fraction).
    noisy: {
      type: 'object',
      required: ['metric', 'spread'],
      additionalProperties: false,
      properties: { metric: text(100), spread: { type: 'number', minimum: 0, maximum: 100 } },
    },
  },
};
// A differential profile (bench/comparison/profile): at most ten rows each way, or why none was taken;
// its amounts per request are µs (the CPU profile) or bytes (the allocation profile).
const micros = { type: 'number', minimum: -1e9, maximum: 1e9 };
const profileRow = {
  type: 'object',
  required: ['functionName', 'path', 'line', 'package', 'base', 'head', 'change'],
  properties: {
    functionName: text(200),
    path: text(300),
    line: { type: 'integer', minimum: 0 },
    package: text(100),
    base: micros,
    head: micros,
    change: micros,
    uncertainty: micros,
  },
};
const profileRows = { type: 'array', maxItems: 10, items: profileRow };
const packageRows = {
  type: 'array',
  maxItems: 10,
  items: {
    type: 'object',
    required: ['package', 'base', 'head', 'change'],
    properties: { package: text(100), base: micros, head: micros, change: micros, uncertainty: micros },
  },
};
const profile = {
  anyOf: [
    { type: 'object', required: ['skipped'], properties: { skipped: text(500) } },
    {
      type: 'object',
      required: ['grew', 'shrank', 'totals'],
      properties: {
        packages: packageRows,
        grew: profileRows,
        shrank: profileRows,
        totals: { type: 'object', required: ['base', 'head'], properties: { base: micros, head: micros } },
      },
    },
  ],
};
const benchmark = {
  type: 'object',
  required: ['id', 'status'],
  properties: {
    id: text(300),
    status: { enum: ['ok', 'skipped', 'failed'] },
    reason: text(4000),
    // A failed benchmark's sides whose servers failed (none: the harness failed; bench/comparison/gate.js).
    failedSides: { type: 'array', maxItems: 2, uniqueItems: true, items: { enum: ['base', 'head'] } },
    // A reference variant never fails the gate; one whose sides differ says how (a runtime comparison).
    reference: { type: 'boolean' },
    referenceDiffers: text(500),
    rounds: { type: 'integer', minimum: 0 },
    verdicts: {
      type: 'object',
      required: ALWAYS_JUDGED.map((metric) => metric.name),
      properties: Object.fromEntries(JUDGED_METRICS.map((metric) => [metric.name, verdict])),
    },
    samples: { type: 'object', required: ['base', 'head'], properties: { base: samples, head: samples } },
    alone,
    verdict: benchmarkVerdict,
    // A first run that called a slowdown, measured again (bench/comparison/confirm.js).
    confirmation: {
      type: 'object',
      required: ['repeated', 'first'],
      properties: {
        repeated: { type: 'boolean' },
        // The second run's own verdict when it called the opposite change (the standing one is then inconclusive).
        opposite: { enum: VERDICT_NAMES },
        first: {
          type: 'object',
          required: ['verdict', 'rounds'],
          properties: {
            verdict: benchmarkVerdict,
            rounds: { type: 'integer', minimum: 0 },
            samples: { type: 'object', required: ['base', 'head'], properties: { base: samples, head: samples } },
          },
        },
      },
    },
    profile,
    allocationProfile: profile,
  },
  if: { properties: { status: { const: 'ok' } } },
  then: { required: ['verdicts', 'samples', 'rounds'] },
  else: { required: ['reason'] },
};
// Whether the side's servers ran sandboxed (bench/measurement/sandbox/), and what it was seen doing there
// that it should not (processes left behind); older comparisons have no such field.
const sandbox = {
  type: 'object',
  required: ['sandboxed'],
  properties: {
    sandboxed: { type: 'boolean' },
    // What a sandboxed side could reach: its own addresses and uid, or why it shared the other's network.
    network: text(300),
    // The limits its servers ran under (cgroup: cores, memory, processes), or why there were none.
    limits: text(300),
    misbehaviour: { type: 'array', maxItems: 50, items: text(2000) },
  },
};
const side = {
  type: 'object',
  required: ['description'],
  properties: {
    description: text(200),
    // The servers' runtime as asked for and as installed (bench/measurement/runtime/).
    runtime: {
      type: 'object',
      required: ['spec', 'name', 'version'],
      properties: { spec: text(100), name: { enum: ['node', 'bun'] }, version: text(50) },
    },
    sandbox,
  },
};
export const comparisonSchema = {
  type: 'object',
  required: ['format', 'version', 'sides', 'benchmarks', 'gate'],
  properties: {
    format: { const: COMPARISON_FORMAT.format },
    version: { const: COMPARISON_FORMAT.version },
    sides: { type: 'object', required: ['base', 'head'], properties: { base: side, head: side } },
    settings: { type: 'object', properties: { interval: { enum: INTERVAL_KINDS } } },
    benchmarks: { type: 'array', maxItems: 1000, items: benchmark },
    // What the sides' resolved lockfiles install differently (bench/comparison/overrides.js).
    dependencyChanges: {
      type: 'array',
      maxItems: 10000,
      items: {
        type: 'object',
        required: ['name', 'from', 'to', 'where'],
        properties: { name: text(300), from: text(1000), to: text(1000), where: text(2000) },
      },
    },
    gate: {
      type: 'object',
      required: ['failed', 'failThreshold', 'regressions'],
      properties: {
        failed: { type: 'boolean' },
        failThreshold: { type: 'number', minimum: 0, maximum: 100 },
        regressions: { type: 'array', maxItems: 1000, items: text(300) },
        smallRegressions: { type: 'array', maxItems: 1000, items: text(300) },
        // bench/comparison/gate.js: the head failed (fails the gate), or a benchmark could not be compared.
        failedOnHead: { type: 'array', maxItems: 1000, items: text(300) },
        notCompared: { type: 'array', maxItems: 1000, items: text(300) },
        referencesMoved: { type: 'array', maxItems: 1000, items: text(300) },
        referencesFailed: { type: 'array', maxItems: 1000, items: text(300) },
        // bench/comparison/leak-gate.js, with a soak: the head's leaks the base does not have (fail the gate).
        leakThreshold: { type: 'number', minimum: 0 },
        leaks: {
          type: 'array',
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['id', 'base', 'head'],
            properties: { id: text(300), base: heapGrowth, head: heapGrowth },
          },
        },
        // bench/comparison/slo-gate.js: objectives the head broke where the base met them (fail the gate).
        sloBroken: {
          type: 'array',
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['id', 'metric', 'bound', 'base', 'head'],
            properties: {
              id: text(300),
              metric: text(100),
              bound: text(100),
              base: { type: 'number' },
              head: { type: 'number' },
            },
          },
        },
      },
    },
  },
};
