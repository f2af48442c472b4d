// The `extra` field perfgate writes: "key: value" lines. The action passes it through
// untouched, and other tools put free text there, so anything that is not a
// "key: value" line is ignored rather than rejected.
export function parseExtra(text) {
  const facts = {};
  if (typeof text !== 'string') return facts;
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key) facts[key] = value;
  }
  return facts;
}

// A number from a fact such as "errors %: 0.2"; null when absent or not numeric.
export function numericFact(facts, key) {
  const text = facts[key];
  if (text === undefined || text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
