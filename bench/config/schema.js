// The suite config's JSON schema, and the translation of schema errors into lines that
// name the field and the allowed values. Variant and scenario names are enums built from
// what exists (the built-in variants plus the config's own commands), so a typo is caught
// here with the list of valid names.
import Ajv from 'ajv';
import { nearestName } from './nearest-name.js';
import { ENGINE_NAMES } from '../measurement/engines/seam.js';
import { serverSettingsSchema } from './server-settings.js';
import { SCENARIO_OPTIONS } from '../../servers/contract/options.js';

const nonEmpty = { type: 'string', minLength: 1 };
const oneOrMany = (schema) => ({ anyOf: [schema, { type: 'array', items: schema, minItems: 1 }] });

export const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'expect'],
  properties: {
    method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    path: { type: 'string', pattern: '^/' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { type: 'string' },
    expect: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      properties: {
        status: { type: 'integer', minimum: 100, maximum: 599 },
        contentType: { type: 'string' },
        body: { type: 'string' },
      },
    },
  },
};

// A user's own server: any command, told its port in $PORT, or a module exporting a
// request handler for node:http, which perfgate serves itself (servers/handler.js).
export const serverProperties = {
  command: { type: 'array', items: { type: 'string' }, minItems: 1 },
  module: { type: 'string', minLength: 1 },
  export: { type: 'string', minLength: 1 },
  cwd: { type: 'string' },
  env: { type: 'object', additionalProperties: { type: 'string' } },
  readyPath: { type: 'string', pattern: '^/' },
  // For a server that can only listen on a fixed port; by default perfgate picks a free one.
  port: { type: 'integer', minimum: 1, maximum: 65535 },
};

const commandSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scenarios'],
  properties: {
    ...serverProperties,
    scenarios: { type: 'object', minProperties: 1, additionalProperties: requestSchema },
  },
};

// One client address to one server port: the ephemeral port range bounds it well below 65535.
export const tiersSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'integer', minimum: 1, maximum: 60000 },
};

// Offered rates (requests per second, above 0): open load points, named r=N (site/shared/load-point.js).
export const ratesSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'number', exclusiveMinimum: 0, maximum: 10000000 },
};

// Metric name -> bound ("p99 latency": "< 50 ms").
const sloSchema = { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } };

// Built-in variants run beside a user's servers on built-in scenarios of their own.
export const referenceSchema = ({ builtInNames, builtInScenarios }) => ({
  type: 'object',
  additionalProperties: false,
  required: ['variants', 'scenarios'],
  properties: {
    variants: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: builtInNames } },
    scenarios: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: builtInScenarios } },
  },
});

export function suiteSchema({
  variantNames,
  scenarioNames,
  builtInNames = variantNames,
  builtInScenarios = scenarioNames,
}) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['variants', 'scenarios'],
    // Its load points: connection tiers, offered rates, or both (each its own benchmarks).
    anyOf: ['connections', 'rates'].map((field) => ({ required: [field], properties: { [field]: true } })),
    properties: {
      name: { type: 'string' },
      variants: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: variantNames } },
      scenarios: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: scenarioNames } },
      connections: tiersSchema,
      // Tiers of their own for some scenarios (a study that loads a database lightly and a
      // timer heavily); the others run at `connections`.
      scenarioConnections: {
        type: 'object',
        propertyNames: { enum: scenarioNames },
        additionalProperties: tiersSchema,
      },
      // Offered rates (an open-model engine's: --engine), and a scenario's own as of its tiers.
      rates: ratesSchema,
      scenarioRates: { type: 'object', propertyNames: { enum: scenarioNames }, additionalProperties: ratesSchema },
      // The runtimes every benchmark runs on (bench/measurement/runtime/): "system" (default), node@24, bun@1.3, ...
      runtimes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
      // The load engine: one of bench/measurement/engines/ (each declares itself, one is the default).
      engine: { enum: ENGINE_NAMES },
      duration: { type: 'number', exclusiveMinimum: 0, maximum: 3600 },
      warmup: { type: 'number', minimum: 0, maximum: 600 },
      pipelining: { type: 'integer', minimum: 1, maximum: 100 },
      // Requests per second each load sends at most (0: as fast as it can): an equal offered
      // load below saturation, for servers that two cannot share a core at full load (METHOD.md).
      rate: { type: 'integer', minimum: 0, maximum: 10000000 },
      timeout: { type: 'number', exclusiveMinimum: 0, maximum: 600 },
      repetitions: { type: 'integer', minimum: 1, maximum: 1000 },
      workers: { type: 'integer', minimum: 0, maximum: 64 },
      readyTimeout: { type: 'number', exclusiveMinimum: 0, maximum: 600 },
      // The runtime agent in every Node.js server process (bench/measurement/runtime-agent/): memory
      // and the event loop per request; off unless asked for, because it costs CPU (METHOD.md §8).
      runtimeMetrics: { type: 'boolean' },
      // A soak: the runtime agent also reads the heap after a forced full GC every soakEvery
      // seconds of the measured window, and the run reports its growth per 10,000 requests.
      soakEvery: { type: 'number', exclusiveMinimum: 0, maximum: 3600 },
      // A soak bounded by a request count as well as by duration, whichever comes first.
      soakRequests: { type: 'integer', minimum: 1, maximum: 1e12 },
      server: serverSettingsSchema,
      // Service-level objectives (bench/results/slo.js checks the metrics and bounds): for every
      // benchmark, and per benchmark key as perfgate.config's thresholds.
      slo: sloSchema,
      benchmarkSlo: { type: 'object', additionalProperties: sloSchema },
      commands: { type: 'object', additionalProperties: commandSchema },
      reference: referenceSchema({ builtInNames, builtInScenarios }),
      // The relative trend of main (bench/comparison/trend/): how its baseline is chosen, and which
      // benchmarks get a line (ids "variant scenario c=N" or "... r=N", "variant scenario" or scenarios; default all).
      trend: {
        type: 'object',
        additionalProperties: false,
        properties: {
          baseline: {
            oneOf: [
              { type: 'object', additionalProperties: false, required: ['tag'], properties: { tag: nonEmpty } },
              { type: 'object', additionalProperties: false, required: ['commit'], properties: { commit: nonEmpty } },
            ],
          },
          benchmarks: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty },
        },
      },
      options: {
        type: 'object',
        additionalProperties: false,
        // servers/contract/options.js; a list of values runs each, but for a single-valued option
        properties: Object.fromEntries(
          Object.entries(SCENARIO_OPTIONS).map(([name, option]) => [
            name,
            option.single ? option.schema : oneOrMany(option.schema),
          ]),
        ),
      },
    },
  };
}

const ajv = new Ajv({ allErrors: true, strict: true, verbose: true }); // verbose: errors carry the bad value

// A server is started one way: by its command, or by serving its module's handler.
function serverProblems(servers = {}, field) {
  return Object.entries(servers)
    .filter(([, server]) => server && typeof server === 'object' && Boolean(server.command) === Boolean(server.module))
    .map(
      ([name]) =>
        `${field}.${name}: give either "command" (the argv that starts it) or "module" (a file exporting a request handler for node:http)`,
    );
}

// A typo's likely meaning, as a clause of the message.
const meant = (given, known) => {
  const nearest = typeof given === 'string' ? nearestName(given, known.map(String)) : undefined;
  return nearest ? ` (did you mean "${nearest}"?)` : '';
};

// One of a suite's rates (rates.0, scenarioRates.json.1).
const RATE_FIELD = /^(rates|scenarioRates\.[^.]+)\.\d+$/;

// Ajv's errors as "field: what is wrong (allowed: ...)" lines.
function problemLines(validationErrors) {
  const problems = validationErrors
    // anyOf's branches and propertyNames' enum already say what is wrong
    .filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'propertyNames')
    .map((error) => {
      const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(top level)';
      if (error.keyword === 'enum')
        return `${field}: "${error.data}" is not allowed${meant(error.data, error.params.allowedValues)} (allowed: ${error.params.allowedValues.join(', ')})`;
      if (RATE_FIELD.test(field) && error.keyword !== 'uniqueItems')
        return `${field}: ${JSON.stringify(error.data)} is not a rate: give requests per second above 0 (e.g. "rates": [500, 1000], --rates 500,1000)`;
      if (field === 'soakRequests')
        return `soakRequests: ${JSON.stringify(error.data)} is not a request count: give the requests after which a soak's measured load stops, a whole number above 0 (e.g. --soak-requests 100000), or leave it out to bound the soak by --duration alone`;
      if (field === 'soakEvery')
        return `soakEvery: ${JSON.stringify(error.data)} is not a soak's interval: give the seconds between heap readings, above 0 and at most 3600 (e.g. --soak-every 1, "soakEvery": 1), or leave it out for no soak`;
      if (error.keyword === 'additionalProperties') {
        const fields = Object.keys(error.parentSchema.properties ?? {});
        return `${field}: unknown field "${error.params.additionalProperty}"${meant(error.params.additionalProperty, fields)}`;
      }
      return `${field}: ${error.message}`;
    });
  return [...new Set(problems)];
}

// Returns the problems as "field: what is wrong (allowed: ...)" lines; empty when valid.
export function validateWith(schema, config, servers) {
  const validate = ajv.compile(schema);
  const problems = validate(config) ? [] : problemLines(validate.errors);
  return [...problems, ...serverProblems(config[servers], servers)];
}

// A request count bounds a soak: without one, it would bound every run by its client's count.
const soakProblems = (config) =>
  config.soakRequests !== undefined && config.soakEvery === undefined
    ? [
        'soakRequests: a request count bounds a soak, and no soak was asked for: give soakEvery too (--soak-every S), or drop soakRequests',
      ]
    : [];

export function validateSuite(config, names) {
  return [...validateWith(suiteSchema(names), config, 'commands'), ...soakProblems(config)];
}
