// The describe step's answer (servers/describe.js): what a side says about its built-in
// variants. It comes from code under test, so it is validated like any input before the harness
// uses it: a side can describe its own variants wrongly, never make the harness run something
// else than a server process of its own.
import Ajv from 'ajv';

const line = { type: 'string', minLength: 1, maxLength: 500 };
const names = {
  type: 'array',
  maxItems: 100,
  uniqueItems: true,
  items: { type: 'string', pattern: '^[A-Za-z0-9@/._-]{1,214}$' },
};

export const DESCRIBE_FORMAT = { format: 'perfgate-describe', version: 1 };

export const describeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'variants'],
  properties: {
    format: { const: DESCRIBE_FORMAT.format },
    version: { const: DESCRIBE_FORMAT.version },
    variants: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'unavailable'],
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
          packages: names,
          scenarios: names,
          role: { enum: ['server', 'backend'] },
          proxyClients: names,
          proxyClientNote: line,
          // A one-line reason why it cannot run here, or null.
          unavailable: { anyOf: [line, { type: 'null' }] },
          // The runtime it always runs on (express-bun: the express app on Bun), as a runtime spec.
          runtime: { type: 'string', pattern: '^(node|bun)(@[ -~]{1,100})?$' },
          // The argv that starts it, when not `node servers/launch.js <name>`.
          command: {
            type: 'array',
            minItems: 1,
            maxItems: 100,
            items: { type: 'string', minLength: 1, maxLength: 4096 },
          },
        },
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: true });
export const validateDescription = ajv.compile(describeSchema);
