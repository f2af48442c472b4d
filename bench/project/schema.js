// The schema of a project's perfgate.config: a user's repository declares its servers, the
// requests that measure them, and which built-in reference variants run beside them. The
// measurement settings (tiers, duration, engine, ...) are the suite config's own fields,
// taken from its schema so that the two cannot drift apart.
import {
  ratesSchema,
  referenceSchema,
  requestSchema,
  serverProperties,
  suiteSchema,
  tiersSchema,
} from '../config/schema.js';
import { bandSettings } from '../results/metrics.js';
// The request job reads the `github` settings without a validator, so their rules live beside it.
import { GITHUB_SETTINGS_SCHEMA } from '../github/trusted-trigger.js';

// Suite fields that a project config spells its own way.
const OWN_FIELDS = ['name', 'variants', 'scenarios', 'commands', 'reference', 'scenarioConnections', 'scenarioRates'];

const percent = { type: 'number', exclusiveMinimum: 0, maximum: 1000 };

// Per benchmark (an id "server scenario c=N" or "... r=N", "server scenario" or a scenario name): the
// verdict bands of compare where the defaults do not fit, in percent, as its flags
// (bench/results/metrics.js: each band setting's config name), and the fail threshold.
const thresholdsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...Object.fromEntries(bandSettings().map((setting) => [setting.config, percent])),
    failThreshold: percent,
  },
};

export function projectSchema({ builtInNames, builtInScenarios }) {
  const settings = suiteSchema({ variantNames: builtInNames, scenarioNames: builtInScenarios }).properties;
  const namePattern = '^[A-Za-z0-9][A-Za-z0-9._-]*$'; // becomes part of benchmark names and file names
  return {
    type: 'object',
    additionalProperties: false,
    required: ['servers', 'scenarios'],
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string', pattern: namePattern },
      servers: {
        type: 'object',
        minProperties: 1,
        propertyNames: { pattern: namePattern },
        additionalProperties: { type: 'object', additionalProperties: false, properties: serverProperties },
      },
      scenarios: {
        type: 'object',
        minProperties: 1,
        propertyNames: { pattern: namePattern },
        additionalProperties: requestSchema,
      },
      scenarioConnections: { type: 'object', additionalProperties: tiersSchema },
      scenarioRates: { type: 'object', additionalProperties: ratesSchema },
      reference: referenceSchema({ builtInNames, builtInScenarios }),
      // How each side of `perfgate compare --base --head` installs its dependencies.
      install: { type: 'array', items: { type: 'string' }, minItems: 1 },
      // Dependency overrides of each side of `perfgate compare` (npm overrides: PKG -> SPEC).
      overrides: {
        type: 'object',
        additionalProperties: false,
        properties: {
          base: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
          head: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
        },
      },
      // Files and folders of the working tree that git does not hold, copied into each side.
      copy: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
      thresholds: { type: 'object', additionalProperties: thresholdsSchema },
      // Which pull requests run without a request (read from the default branch only).
      github: GITHUB_SETTINGS_SCHEMA,
      ...Object.fromEntries(Object.entries(settings).filter(([field]) => !OWN_FIELDS.includes(field))),
    },
  };
}
