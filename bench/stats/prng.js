// Seeded pseudo-random numbers, so that a bootstrap interval can be recomputed exactly from the raw samples.

// mulberry32 (Tommy Ettinger, public domain; as in https://github.com/bryc/code/blob/master/jshash/PRNGs.md#mulberry32):
// returns a function giving uniform numbers in [0, 1) from a 32-bit integer seed.
export function seededRandom(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
