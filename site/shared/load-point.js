// The load point: how hard one benchmark loads its server, one value for the commands and the site.
//   { model: 'closed', connections }        N connections, each sending its next request when the
//                                           previous answer arrives ("how much can it do")
//   { model: 'open', rate, connections? }   `rate` requests per second on a fixed schedule, whatever
//                                           the server does ("is p99 still fine at our peak");
//                                           connections: at most this many sockets (else the engine's)
// It owns a benchmark's name tag ("c=100", "r=2000": trend identities, so an old name reads as it
// always did), its parsing, its fields in the schemas, the engine options it sets and their split
// over load-generator processes, what "the client could not keep up" means, and which metrics may
// call a verdict at it (their `decides.models`, ./metrics.js). Plain, browser-safe code.

export const MODELS = Object.freeze({ closed: 'closed', open: 'open' });

export const closedLoad = (connections) => ({ model: MODELS.closed, connections });
export const openLoad = (rate, connections) => ({
  model: MODELS.open,
  rate,
  ...(connections === undefined ? {} : { connections }),
});

// A spec's or a result's benchmark fields ({connections} or {rate, connections?}) -> its load point.
export const loadPointOf = ({ connections, rate }) =>
  typeof rate === 'number' ? openLoad(rate, connections) : closedLoad(connections);

// The load point's own fields of a spec or a result's benchmark (loadPointOf reads them back).
export const loadFields = (point) =>
  point.model === MODELS.open
    ? { rate: point.rate, ...(point.connections === undefined ? {} : { connections: point.connections }) }
    : { connections: point.connections };

export const isOpen = (point) => point.model === MODELS.open;

// The name tag: the last word of a benchmark's name ("express json c=100", "express json r=2000").
export const loadTag = (point) => (isOpen(point) ? `r=${point.rate}` : `c=${point.connections}`);

// The tag as a regular expression's source, for names that embed it (site/shared/bench-name.js).
export const LOAD_TAG_SOURCE = '(?:c=\\d+|r=\\d+(?:\\.\\d+)?)';
const TAG = new RegExp(`^${LOAD_TAG_SOURCE}$`);

// "c=100" -> a closed point, "r=2000" -> an open one, anything else -> null.
export function parseLoadTag(tag) {
  if (!TAG.test(tag)) return null;
  const value = Number(tag.slice(2));
  return tag.startsWith('r=') ? openLoad(value) : closedLoad(value);
}

// The axis title of a model's points on the site's charts.
export const LOAD_AXES = Object.freeze({ closed: 'connections', open: 'offered rate (req/s)' });

// The facts a history entry's `extra` carries of it ("connections: 100" or "offered rate: 2000"; a
// "rate: ... per load" fact is a closed load's cap, bench/results/benchmark-action.js), and back.
export const loadFacts = (point) =>
  isOpen(point) ? [`offered rate: ${point.rate}`] : [`connections: ${point.connections}`];

/**
 * The load point of a history entry: its extra's facts win over its name's tag.
 * @param {object} facts  parsed extra (./extra.js), values as text
 * @param {string|undefined} tag  the name's tag, if it has one
 */
export function loadPointFromFacts(facts, tag) {
  const fact = (key) => (facts[key] === undefined || facts[key] === '' ? undefined : Number(facts[key]));
  const fromName = tag ? parseLoadTag(tag) : null;
  const rate = fact('offered rate');
  if (rate !== undefined && Number.isFinite(rate)) return openLoad(rate);
  const connections = fact('connections');
  if (connections !== undefined && Number.isFinite(connections) && fromName?.model !== MODELS.open)
    return closedLoad(connections);
  return fromName;
}

// The schema of a load point's fields in a result's benchmark (bench/results/schema.js).
export const LOAD_FIELDS_SCHEMA = Object.freeze({
  properties: {
    connections: { type: 'integer', minimum: 1 },
    rate: { type: 'number', exclusiveMinimum: 0 },
  },
  anyOf: [{ required: ['connections'] }, { required: ['rate'] }],
});

// The seam's options of a load at this point (bench/measurement/engines/seam.js): an open point's rate is
// an open-model engine's schedule; `cap` (req/s, 0: none) is what a closed point lets a pacing engine send.
export const engineOptions = (point, cap = 0) =>
  isOpen(point)
    ? { rate: point.rate, ...(point.connections === undefined ? {} : { connections: point.connections }) }
    : { connections: point.connections, rate: cap };

const share = (total, count, index) => Math.floor(total / count) + (index < total % count ? 1 : 0);

/**
 * The engine options of each of `count` load-generator processes: closed, the connections split as
 * evenly as possible, and a closed-loop cap (`cap` req/s, 0: none) split as the connections; open,
 * the schedule's rate split evenly (each process keeps its own schedule), and its connections.
 * @returns {{model: string, connections?: number, rate: number}[]}
 */
export function engineLoads(point, count, cap = 0) {
  return Array.from({ length: count }, (_, index) => {
    if (isOpen(point))
      return {
        model: MODELS.open,
        rate: point.rate / count,
        ...(point.connections === undefined ? {} : { connections: share(point.connections, count, index) }),
      };
    const connections = share(point.connections, count, index);
    return {
      model: MODELS.closed,
      connections,
      rate: cap ? Math.max(1, Math.round((cap * connections) / point.connections)) : 0,
    };
  });
}

/**
 * Whether the client, not the server, shaped a run: its CPU was saturated (closed: req/s is then a
 * lower bound), or, at an open point, it did not hold the schedule (requests sent late or never: the
 * latency is then the client's lag too).
 * @param {{cpuBound: boolean, schedule?: {behind: boolean}}} client  schedule: an open-model engine's
 */
export const clientFellBehind = ({ cpuBound, schedule }) => cpuBound || schedule?.behind === true;

// Whether a metric of the registry (./metrics.js) may call a verdict at this point: it `decides`, at
// every model unless its `decides.models` names some (closed: throughput; open: the tail at a rate).
export const decidesAt = (metric, point) =>
  Boolean(metric.decides) && (metric.decides.models ?? Object.values(MODELS)).includes(point.model);
