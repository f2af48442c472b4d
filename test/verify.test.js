import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareAnswer } from '../bench/measurement/verify.js';

const expect = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"message":"Hello, World!"}' };

test('a right answer has no differences', () => {
  assert.deepEqual(compareAnswer(expect, { status: 200, contentType: expect.contentType, body: expect.body }), []);
});

test('each difference is one short line', () => {
  const problems = compareAnswer(expect, { status: 500, contentType: 'text/html', body: '{"message":"Hello, Wrld!"}' });
  assert.deepEqual(problems.slice(0, 2), [
    'status: expected 200, got 500',
    'content-type: expected "application/json; charset=utf-8", got "text/html"',
  ]);
  assert.equal(
    problems[2],
    'body differs at character 20: expected ":\\"Hello, World!\\"}", got ":\\"Hello, Wrld!\\"}" (length 27 expected, 26 got)',
  );
});

test('a static file is checked for its length and for its media type as a client reads it', () => {
  const page = {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: 'x'.repeat(10),
    contentLength: '10',
    mediaTypeOnly: true,
  };
  for (const contentType of ['text/html; charset=UTF-8', 'text/html;charset=utf-8']) {
    assert.deepEqual(compareAnswer(page, { status: 200, contentType, contentLength: '10', body: page.body }), []);
  }
  assert.deepEqual(
    compareAnswer(page, { status: 200, contentType: 'text/html', contentLength: null, body: page.body }),
    [
      'content-type: expected "text/html; charset=utf-8", got "text/html"',
      'content-length: expected 10, got none (a chunked answer?)',
    ],
  );
  // Other scenarios stay byte for byte.
  assert.equal(
    compareAnswer(expect, { status: 200, contentType: 'application/json;charset=utf-8', body: expect.body }).length,
    1,
  );
});
