// What a bench is about: variant, scenario, options, tier (connections) and metric.
// perfgate names are "<variant> <scenario>[<options>] c=<connections> - <metric>" and the
// same facts travel in `extra`; extra wins when present. Names of other tools do not
// follow that form: the whole name is then the benchmark, with no variant/scenario/tier.
import { numericFact } from './extra.js';

const NAME = /^(.+) - (.+)$/;
const ID = /^(\S+) ([^\s[]+)(?:\[([^\]]*)\])? c=(\d+)$/;

function scenarioLabel(scenario, options) {
  return options && options !== 'default' ? `${scenario}[${options}]` : scenario;
}

export function describeBench(name, unit, facts) {
  const named = NAME.exec(name);
  const id = named ? named[1] : name;
  const parsed = ID.exec(id);
  const variant = facts.variant ?? parsed?.[1];
  const scenario = facts.scenario ?? parsed?.[2];
  if (!variant || !scenario) return { id: name, variant: null, scenario: null, tier: null, metric: unit || 'value' };
  return {
    id,
    variant,
    scenario: scenarioLabel(scenario, facts.options ?? parsed?.[3]),
    tier: numericFact(facts, 'connections') ?? (parsed ? Number(parsed[4]) : null),
    metric: named ? named[2] : unit || 'value',
  };
}
