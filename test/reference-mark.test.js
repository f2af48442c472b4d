// A reference variant (a built-in measured beside a project's servers) is marked from the run's
// result to the site: its github-action-benchmark entries say so, and its line's label too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { toBenchmarkAction } from '../bench/results/benchmark-action.js';
import { describeBench, variantLabel } from '../site/shared/bench-name.js';
import { parseExtra } from '../site/shared/extra.js';

const result = JSON.parse(readFileSync(new URL('./fixtures/load-point/result.json', import.meta.url), 'utf8'));

test("a reference's entries say so in their facts, and the site labels its line", () => {
  const [first, ...rest] = result.benchmarks;
  const marked = { ...result, benchmarks: [{ ...first, reference: true }, ...rest] };
  const entries = Object.values(toBenchmarkAction(marked)).flat();
  const ofFirst = entries.filter((entry) => entry.name.startsWith(`${first.id} - `));
  assert.ok(ofFirst.length > 0);
  for (const entry of ofFirst) {
    const facts = parseExtra(entry.extra);
    assert.equal(facts.reference, 'yes');
    assert.equal(variantLabel(describeBench(entry.name, entry.unit, facts)), `${first.variant} (reference)`);
  }
  const others = entries.filter((entry) => !entry.name.startsWith(`${first.id} - `));
  assert.ok(others.every((entry) => !/^reference:/m.test(entry.extra)));
  assert.equal(
    variantLabel(describeBench(others[0].name, others[0].unit, parseExtra(others[0].extra))),
    others[0].name.split(' ')[0],
  );
});
