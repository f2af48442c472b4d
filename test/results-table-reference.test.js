// bench's table marks a built-in reference measured beside a project's servers, as the trend site
// does, so that an app's table does not show node-http as one of its servers. No servers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { markdownTable } from '../bench/results/markdown.js';

const fixture = () => JSON.parse(readFileSync(new URL('./fixtures/load-point/result.json', import.meta.url), 'utf8'));

test("a reference's row says it is one; the project's own rows are as they were", () => {
  const result = fixture();
  const [template] = result.benchmarks;
  result.benchmarks = [
    { ...template, variant: 'api', id: template.id.replace('node-http', 'api') },
    { ...template, reference: true },
  ];
  const table = markdownTable(result);
  assert.match(table, /^\| api hello \| /m);
  assert.match(table, /^\| node-http \(reference\) hello \| /m);
});
