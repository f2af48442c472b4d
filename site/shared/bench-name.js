// What a bench is about: variant, scenario, options, runtime, load point and metric.
// perfgate names are "<variant> <scenario>[<options>] <load tag> - <metric>" (c=<connections> or
// r=<rate>, ./load-point.js) and the same facts travel in `extra`; extra wins when present. Names
// of other tools do not follow that form: the whole name is then the benchmark, with no
// variant/scenario/load. tier: a closed point's connections (null at a rate, whose lines are
// never mixed with tiers); rate: an open point's offered rate (null on a tier).
import { closedLoad, isOpen, LOAD_TAG_SOURCE, loadPointFromFacts, loadTag, openLoad } from './load-point.js';

const NAME = /^(.+) - (.+)$/;
const SYSTEM_RUNTIME = 'system';

// A variant's line, row and colour: on a runtime other than the default, both are named.
// A reference (a built-in beside a project's servers) says so, in the project's own suite.
export const variantLabel = (sample) =>
  `${sample.runtime && sample.runtime !== SYSTEM_RUNTIME ? `${sample.variant} on ${sample.runtime}` : sample.variant}${sample.reference ? ' (reference)' : ''}`;
const ID = new RegExp(`^(\\S+) ([^\\s[]+)(?:\\[([^\\]]*)\\])? (${LOAD_TAG_SOURCE})$`);

// A perfgate sample's (or row's) load tag, "c=100" or "r=2000": its charts' and rows' case; none for a
// line over every load (the knee rate, found by a search of rates).
const given = (value) => value !== null && value !== undefined;
export const sampleLoadTag = (sample) =>
  given(sample.rate) ? loadTag(openLoad(sample.rate)) : given(sample.tier) ? loadTag(closedLoad(sample.tier)) : '';

// Samples' (or rows') order by load: the connection tiers, then the rates, each ascending.
export const byLoad = (a, b) => {
  const open = (sample) => sample.rate !== null && sample.rate !== undefined;
  return open(a) - open(b) || (open(a) ? a.rate - b.rate : a.tier - b.tier);
};

const loadOf = (point) => ({
  tier: point && !isOpen(point) ? point.connections : null,
  rate: point && isOpen(point) ? point.rate : null,
});

function scenarioLabel(scenario, options) {
  return options && options !== 'default' ? `${scenario}[${options}]` : scenario;
}

export function describeBench(name, unit, facts) {
  const named = NAME.exec(name);
  const id = named ? named[1] : name;
  const parsed = ID.exec(id);
  const variant = facts.variant ?? parsed?.[1];
  const scenario = facts.scenario ?? parsed?.[2];
  if (!variant || !scenario)
    return { id: name, variant: null, scenario: null, tier: null, rate: null, runtime: null, metric: unit || 'value' };
  const tags = parsed?.[3]?.split(',') ?? [];
  const runtimeTag = tags.find((tag) => tag.startsWith('runtime='));
  return {
    id,
    variant,
    // The runtime as asked for (perfgate's extra, else the name's runtime= tag); a run made
    // before runtimes existed ran on the default, system.
    runtime: facts.runtime ?? runtimeTag?.slice('runtime='.length) ?? SYSTEM_RUNTIME,
    scenario: scenarioLabel(
      scenario,
      facts.options ?? (tags.filter((tag) => tag !== runtimeTag).join(',') || undefined),
    ),
    ...loadOf(loadPointFromFacts(facts, parsed?.[4])),
    metric: named ? named[2] : unit || 'value',
    ...(facts.reference === 'yes' ? { reference: true } : {}),
  };
}
