// Samples cross from the data worker to the page packed: what every run of a bench shares
// (its names, unit, direction, variant ...) once in a table, the per-run numbers in typed
// arrays that are moved rather than copied, and repeated texts (range, extra) once each.
// Unpacking a 30 MB history this way costs the page a fraction of copying 40,000 objects.
const BENCH_FIELDS = [
  'key',
  'suite',
  'name',
  'unit',
  'biggerIsBetter',
  'id',
  'variant',
  'runtime',
  'scenario',
  'tier',
  'rate',
  'metric',
  'reference',
];

function indexer() {
  const index = new Map();
  const table = [];
  return {
    table,
    of(key, value = key) {
      if (!index.has(key)) {
        index.set(key, table.length);
        table.push(value);
      }
      return index.get(key);
    },
  };
}

// -> { tables, slices: [{ columns, transfer }] } with `size` samples per slice.
export function packSamples(samples, size) {
  const benches = indexer();
  const facts = indexer();
  const texts = indexer();
  const slices = [];
  for (let start = 0; start < samples.length; start += size) {
    const part = samples.slice(start, start + size);
    const columns = {
      bench: new Int32Array(part.length),
      facts: new Int32Array(part.length),
      range: new Int32Array(part.length),
      extra: new Int32Array(part.length),
      commit: new Int32Array(part.length),
      slot: new Int32Array(part.length),
      date: new Float64Array(part.length),
      value: new Float64Array(part.length),
    };
    part.forEach((sample, index) => {
      // A field a sample lacks (reference, on all but references) stays absent.
      const bench = Object.fromEntries(
        BENCH_FIELDS.filter((field) => sample[field] !== undefined).map((field) => [field, sample[field]]),
      );
      columns.bench[index] = benches.of(BENCH_FIELDS.map((field) => sample[field]).join('\u0000'), bench);
      columns.facts[index] = facts.of(sample.facts);
      columns.range[index] = texts.of(sample.range);
      columns.extra[index] = texts.of(sample.extra);
      columns.commit[index] = sample.commit;
      columns.slot[index] = sample.slot;
      columns.date[index] = sample.date;
      columns.value[index] = sample.value;
    });
    slices.push({ columns, transfer: Object.values(columns).map((column) => column.buffer) });
  }
  return { tables: { benches: benches.table, facts: facts.table, texts: texts.table }, slices };
}

export function unpackSamples({ benches, facts, texts }, columns) {
  const samples = new Array(columns.value.length);
  for (let index = 0; index < samples.length; index += 1) {
    samples[index] = {
      ...benches[columns.bench[index]],
      commit: columns.commit[index],
      slot: columns.slot[index],
      date: columns.date[index],
      value: columns.value[index],
      range: texts[columns.range[index]],
      extra: texts[columns.extra[index]],
      facts: facts[columns.facts[index]],
    };
  }
  return samples;
}
