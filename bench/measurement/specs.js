// Expands a validated suite config into the list of concrete benchmarks to run: one per
// variant x scenario x option setting x load point (each connection tier, then each rate; the
// scenario's own where the suite gives them) x runtime. Pure: no processes, no I/O.
import { closedLoad, isOpen, loadFields, loadTag, openLoad } from '../../site/shared/load-point.js';
import { OPTION_DEFAULTS, SCENARIO_OPTIONS } from '../../servers/contract/options.js';
import { SYSTEM } from './runtime/spec.js';

const asList = (value) => (Array.isArray(value) ? value : [value]);

const appliesTo = (option, scenario) =>
  SCENARIO_OPTIONS[option].scenarios === 'all' || SCENARIO_OPTIONS[option].scenarios.includes(scenario);

// Every combination of the option values that matter for this scenario.
export function optionSettings(options, scenario) {
  let settings = [{}];
  for (const [option, value] of Object.entries(options)) {
    const values = appliesTo(option, scenario) ? asList(value) : [OPTION_DEFAULTS[option]];
    settings = settings.flatMap((setting) => values.map((single) => ({ ...setting, [option]: single })));
  }
  return settings;
}

// Only values that differ from the defaults appear, so the usual names stay short and stable.
function optionTags(setting, scenario) {
  return Object.entries(setting)
    .filter(([option, value]) => appliesTo(option, scenario) && value !== OPTION_DEFAULTS[option])
    .map(([option, value]) => SCENARIO_OPTIONS[option].tag(value));
}

// "<variant> <scenario>[<tags>] <load tag>" (c=<connections> or r=<rate>): the identity of a trend
// line, keep it stable. A runtime other than the default is one more tag (runtime=node@24: the range
// asked for, not the exact version, so that a patch release of Node does not start a new trend line).
export function benchmarkId({ variant, scenario, tags, load, runtime = SYSTEM }) {
  const all = runtime === SYSTEM ? tags : [...tags, `runtime=${runtime}`];
  return `${variant} ${scenario}${all.length ? `[${all.join(',')}]` : ''} ${loadTag(load)}`;
}

// A scenario's load points: its connection tiers, then its rates (the scenario's own where given).
export const loadPoints = (config, scenario) => [
  ...(config.scenarioConnections?.[scenario] ?? config.connections ?? []).map(closedLoad),
  ...(config.scenarioRates?.[scenario] ?? config.rates ?? []).map((rate) => openLoad(rate)),
];

// The suite fields that ask for this one load point in every scenario (loadPoints' inverse).
export const onlyLoadPoint = (point) => ({
  connections: isOpen(point) ? undefined : [point.connections],
  scenarioConnections: {},
  rates: isOpen(point) ? [point.rate] : undefined,
  scenarioRates: {},
});

// The suite's variants x scenarios, then its built-in reference variants x their scenarios.
const groups = (config) => [
  [config.variants, config.scenarios],
  ...(config.reference ? [[config.reference.variants, config.reference.scenarios]] : []),
];

// A built-in variant run beside a project's own servers: the same code on both sides of a
// comparison, and never the point of a run.
export const isReference = (config, spec) =>
  !config.variants.includes(spec.variant) && Boolean(config.reference?.variants.includes(spec.variant));

export function expandSpecs(config) {
  const specs = [];
  for (const [variants, scenarios] of groups(config)) specs.push(...expandGroup(config, variants, scenarios));
  return specs.filter((spec, index) => specs.findIndex((other) => other.id === spec.id) === index);
}

function expandGroup(config, variants, scenarios) {
  const specs = [];
  for (const variant of variants) {
    for (const scenario of scenarios) {
      for (const options of optionSettings(config.options, scenario)) {
        const tags = optionTags(options, scenario);
        for (const load of loadPoints(config, scenario)) {
          // Runtimes innermost: one benchmark's runtimes run one after the other, side by side.
          for (const runtime of config.runtimes ?? [SYSTEM]) {
            specs.push({
              id: benchmarkId({ variant, scenario, tags, load, runtime }),
              variant,
              scenario,
              options,
              tags,
              ...loadFields(load),
              ...(runtime === SYSTEM ? {} : { runtime }),
            });
          }
        }
      }
    }
  }
  return specs;
}
