// Checks one answer before any load: a server that answers wrongly is never measured.
import { errors } from '../core/errors.js';
import { LOOPBACK } from './process/ports.js';

const SHOWN = 60; // characters of context in a body diff

function bodyDiff(expected, actual) {
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  const from = Math.max(0, at - 10);
  return (
    `body differs at character ${at}: expected ${JSON.stringify(expected.slice(from, from + SHOWN))}, got ${JSON.stringify(actual.slice(from, from + SHOWN))}` +
    (expected.length !== actual.length ? ` (length ${expected.length} expected, ${actual.length} got)` : '')
  );
}

// "text/html;charset=UTF-8" -> "text/html; charset=utf-8": media type and charset as a client
// reads them (both case-insensitive), without the spelling.
const mediaType = (type) =>
  type
    ?.toLowerCase()
    .split(';')
    .map((part) => part.trim().replace(/\s*=\s*/, '='))
    .join('; ');

const sameType = (expect, actual) =>
  expect.mediaTypeOnly ? mediaType(actual) === mediaType(expect.contentType) : actual === expect.contentType;

// Pure: the differences between what was expected and what came, one line each.
export function compareAnswer(expect, answer) {
  const problems = [];
  if (answer.status !== expect.status) problems.push(`status: expected ${expect.status}, got ${answer.status}`);
  if (expect.contentType !== undefined && !sameType(expect, answer.contentType)) {
    problems.push(
      `content-type: expected ${JSON.stringify(expect.contentType)}, got ${JSON.stringify(answer.contentType)}`,
    );
  }
  if (expect.contentLength !== undefined && answer.contentLength !== expect.contentLength) {
    problems.push(
      `content-length: expected ${expect.contentLength}, got ${answer.contentLength === null ? 'none (a chunked answer?)' : answer.contentLength}`,
    );
  }
  if (expect.body !== undefined && answer.body !== expect.body) problems.push(bodyDiff(expect.body, answer.body));
  return problems;
}

async function fetchAnswer(host, port, request, timeoutSeconds) {
  const response = await fetch(`http://${host}:${port}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(timeoutSeconds * 1000),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentLength: response.headers.get('content-length'),
    body: await response.text(),
  };
}

// host: where the server listens (bench/measurement/process/server.js listenHost).
export async function verifyServer({ host = LOOPBACK, port, request, variant, scenario, timeout }) {
  let answer;
  try {
    answer = await fetchAnswer(host, port, request, timeout);
  } catch (error) {
    if (error.name === 'TimeoutError') throw errors.serverHung(variant, scenario, timeout);
    throw errors.wrongAnswer(variant, scenario, `  request failed: ${error.cause?.message ?? error.message}`);
  }
  const problems = compareAnswer(request.expect, answer);
  if (problems.length)
    throw errors.wrongAnswer(variant, scenario, problems.map((problem) => `  ${problem}`).join('\n'));
  return answer;
}
